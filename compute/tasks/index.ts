// The features this compute instance serves, as tasks, plus probing and warm-up.
import { join } from "node:path";
import type { ProbeResult, TaskRequest } from "../../schema/compute-protocol.ts";
import { sniffMediaFormat } from "../../schema/media-format.ts";
import { ApiError } from "../../schema/errors.ts";
import { imageDecoders } from "../media/image-decoders.ts";
import { sharedModels } from "../models/index.ts";
import { IMAGE_PIPELINES } from "../pipelines/image/index.ts";
import { VIDEO_PIPELINES } from "../pipelines/video/index.ts";
import { checkVideoLimits } from "../video/limits.ts";
import { probeVideo } from "../video/probe.ts";
import { processSpawner } from "../video/spawner.ts";
import { imageTask, nsfwImageTask } from "./image.ts";
import { loadMediaIndex } from "./media-source.ts";
import { nsfwVideoTask } from "./nsfw-video.ts";
import type { Task } from "./types.ts";
import { videoTask } from "./video.ts";
import { open } from "node:fs/promises";

export function loadTasks(): Map<string, Task> {
  const tasks: Task[] = [
    imageTask("image.face-blur", IMAGE_PIPELINES["image.face-blur"], sharedModels),
    imageTask("image.license-plate-blur", IMAGE_PIPELINES["image.license-plate-blur"], sharedModels),
    imageTask("image.blur-background", IMAGE_PIPELINES["image.blur-background"], sharedModels),
    imageTask("image.remove-background", IMAGE_PIPELINES["image.remove-background"], sharedModels),
    imageTask("image.portrait-enhance", IMAGE_PIPELINES["image.portrait-enhance"], sharedModels),
    imageTask("image.blur-anything", IMAGE_PIPELINES["image.blur-anything"], sharedModels),
    nsfwImageTask("image.nsfw-detection", IMAGE_PIPELINES["image.nsfw"], sharedModels),
    nsfwVideoTask(sharedModels),
    ...Object.entries(VIDEO_PIPELINES).map(([feature, pipeline]) => videoTask(feature, pipeline, sharedModels)),
  ];
  return new Map(tasks.map((t) => [t.feature, t]));
}

export function modelStatuses(): Record<string, "loaded" | "loading" | "idle" | "failed"> {
  const states = { ready: "loaded", loading: "loading", idle: "idle", failed: "failed" } as const;
  return Object.fromEntries(sharedModels().registry.status().map((m) => [m.id, states[m.state]]));
}

/** Loads every model at start-up, one after another, so the first requests are not the slow ones. */
export async function warmUp(): Promise<void> {
  // Both fork now, while compute is small: a fork later, at 1 GB and more, stops its event loop for ~100 ms.
  processSpawner().start();
  imageDecoders().warm();
  try {
    await sharedModels().registry.warmAll();
  } catch (err) {
    console.error("model warm-up failed:", err instanceof Error ? err.message : err);
  }
}

/** What the Worker needs to price a request: kind, format and (videos) duration. */
export async function probeTask(media: TaskRequest["media"], ctx: { workDir: string; signal: AbortSignal }): Promise<ProbeResult> {
  const path = await loadMediaIndex(media, join(ctx.workDir, "probe"), ctx.signal);
  const head = await readHead(path, 64);
  const sniffed = sniffMediaFormat(head);
  if (!sniffed) throw new ApiError("unsupported_media_format", "The media is not a supported image or video format (checked from its bytes).");
  if (sniffed.kind === "image") return { kind: "image", format: sniffed.format };
  const info = await probeVideo(path, ctx.signal);
  // The Worker probes before it charges: what the job would refuse is refused now (413/422).
  checkVideoLimits(info);
  return { kind: "video", format: info.container, duration_seconds: info.durationSeconds };
}

async function readHead(path: string, bytes: number): Promise<Uint8Array> {
  const file = await open(path, "r");
  try {
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await file.read(buffer, 0, bytes, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await file.close();
  }
}
