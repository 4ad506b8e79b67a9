import type { DetectionsDoc } from "../../schema/api/detections.ts";
import type { TaskRequest } from "../../schema/compute-protocol.ts";

export interface TaskContext {
  signal: AbortSignal;
  /** 0..100; reported to the job (async tasks) and used as the heartbeat. */
  progress(percent: number): void;
  /** A private temporary directory, removed after the task whatever happens. */
  workDir: string;
}

/** `detections`: what was hidden, when the request asked for return_detections. */
export type TaskResult =
  | { type: "media"; body: Buffer; contentType: string; durationSeconds?: number; detections?: DetectionsDoc }
  | { type: "file"; path: string; contentType: string; durationSeconds?: number; detections?: DetectionsDoc }
  | { type: "json"; body: unknown };

/** One feature as the compute service runs it: media in (by URL), result out. */
export interface Task {
  feature: string;
  media: "image" | "video";
  run(request: TaskRequest, ctx: TaskContext): Promise<TaskResult>;
}
