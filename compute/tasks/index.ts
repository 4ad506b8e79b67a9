// The features this compute instance serves, built from the pipelines that exist.
import type { TaskRequest } from "../../schema/compute-protocol.ts";
import type { Task } from "./types.ts";

export function loadTasks(): Map<string, Task> {
  return new Map();
}

export function modelStatuses(): Record<string, "loaded" | "loading" | "idle" | "failed"> {
  return {};
}

export async function warmUp(): Promise<void> {}

export async function probeTask(_media: TaskRequest["media"], _ctx: { workDir: string; signal: AbortSignal }): Promise<never> {
  const { ApiError } = await import("../../schema/errors.ts");
  throw new ApiError("not_implemented", "Probing media is not available on this compute instance yet.");
}
