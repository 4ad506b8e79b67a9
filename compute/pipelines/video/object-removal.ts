// video.object-removal: the named object (same vocabulary as blur-anything) is found, tracked,
// masked, and replaced by what is behind it.
//   1. detect + track (trackedProcessor, detection every DETECT_EVERY frames, tracker gaps and
//      misses covered) -> per frame, the tracked boxes;
//   2. mask (compute/removal/mask.ts): person segmenter inside each tracked person box, boxes for
//      other objects, dilated, soft rim;
//   3. fill (compute/removal/background-model.ts): background from other frames (a window of past
//      and future frames plus a running background plate, aligned by the camera's estimated
//      translation, or its scale and shift through a zoom), then spatial inpainting
//      (compute/removal/inpaint.ts) for what no frame shows.
// prompt_bg: a colour hint for never-seen regions and/or "static camera" (compute/removal/prompt-bg.ts).
// People are found by compute/pipelines/objects.ts (whole frame + tiles), every one of them, the
// most prominent first. A video in which no detection frame shows the object fails the job
// (object_not_found, refunded by the Worker like every failed job) instead of completing.
import { ApiError } from "../../../schema/errors.ts";
import type { FeatureParams } from "../../../schema/features.ts";
import { resolvePrompt } from "../../../schema/vocabulary.ts";
import type { Models } from "../../models/index.ts";
import { TemporalFill, DEFAULT_TEMPORAL_FILL, type TemporalFillOptions } from "../../removal/background-model.ts";
import { removalMask } from "../../removal/mask.ts";
import { parseBackgroundHint } from "../../removal/prompt-bg.ts";
import type { Frame, Mask } from "../../types.ts";
import { trackedProcessor } from "../../video/tracked.ts";
import { processVideo, type ChunkProcessor, type ProcessVideoResult } from "../../video/stream.ts";
import { findTargets } from "./blur-anything.ts";
import { DETECT_EVERY, eachFrame, videoObjects } from "./common.ts";

type RemovalModels = Pick<Models, "faces" | "objects" | "text" | "persons">;

/** Bytes the fill window may hold (frames + masks); the look-ahead shrinks for large frames. */
export const FILL_WINDOW_BYTES = 192 * 1024 ** 2;

/** Past frames held where the budget has room after the look-ahead (a second at 25 fps). */
const MAX_LOOKBEHIND = 25;

/**
 * Look-ahead and look-behind that fit FILL_WINDOW_BYTES at this frame size. The look-ahead comes
 * first (what a walker uncovers is behind them); room it leaves goes to past frames: the plate
 * stands in for older ones, but under a zoom its running mean of nearest-pixel reads blurs what the
 * frames themselves show sharp, and at a clip's end the past is all there is (360p-zoom, README
 * "Object removal": worst frame 24.95 -> 26.49 dB with 25 past frames instead of 4).
 */
export function fillWindow(width: number, height: number, budget = FILL_WINDOW_BYTES): Pick<TemporalFillOptions, "lookahead" | "lookbehind"> {
  const frames = Math.max(2, Math.floor(budget / (width * height * 4)) - 1);
  const least = Math.min(DEFAULT_TEMPORAL_FILL.lookbehind, Math.floor(frames / 6));
  const lookahead = Math.max(1, Math.min(DEFAULT_TEMPORAL_FILL.lookahead, frames - least));
  const lookbehind = Math.max(least, Math.min(MAX_LOOKBEHIND, frames - lookahead));
  return { lookahead, lookbehind };
}

export interface ObjectRemovalProcessor extends ChunkProcessor {
  /** The fill engine once the first frame arrived (per-frame statistics for tests and logs). */
  readonly fill: () => TemporalFill | null;
}

export function objectRemovalVideo(
  params: FeatureParams<"video.object-removal">,
  models: RemovalModels,
  overrides: Partial<TemporalFillOptions> = {},
  hooks: { onMask?: (index: number, mask: Mask) => void } = {},
): ObjectRemovalProcessor {
  const targets = resolvePrompt(params.object_text); // unsupported_prompt before any frame is decoded
  const hint = parseBackgroundHint(params.prompt_bg);
  const masks = new Map<number, Mask>();
  let seen = 0; // detections of the object over the whole video
  // Small objects' tiles on the small-tile schedule, as blur-anything's (common.ts). CenterNet
  // alone: a false person here is filled in, not blurred, and the people network (pipelines/
  // objects.ts) called a motorcycle's side stand a person (0.42-0.45) in every frame of the removal
  // test's clip, and its tank and seat in the panning ones (bench/object-removal.ts).
  const objects = videoObjects({ objects: models.objects });
  const tracked = trackedProcessor({
    detectEvery: DETECT_EVERY,
    // A short look-ahead: it holds about a second fewer frames than the tracker's default (made for
    // faces that show late), and the test clips fill the same with either (static camera 31.8 dB
    // pooled, pan 30.5 dB; test/compute/object-removal.test.ts).
    // A 'person' seen once and never again coasts two runs, not 25 (the tracker's default, made for
    // faces): on 360p-zoom a one-off box over the walker's head (0.40) was carried for 50 frames,
    // scaled by the zoom and grown by its margin to 317x266 px, and masked (bench/object-removal.ts).
    tracker: { lookahead: 2 * DETECT_EVERY - 1, maxMissedOnce: 2 },
    detect: eachFrame(async (frame, index, context) => {
      const found = await findTargets(frame, targets, models, { objects: (f, classes) => objects(f, index, context, classes) });
      seen += found.length;
      return found;
    }),
    apply: async (frame, coverage) => {
      const mask = await removalMask(frame, coverage.boxes, models);
      hooks.onMask?.(coverage.index, mask);
      masks.set(coverage.index, mask);
      return frame;
    },
  });
  let fill: TemporalFill | null = null;
  let next = 0;
  const feed = (frames: Frame[]): Frame[] => {
    const out: Frame[] = [];
    for (const frame of frames) {
      const mask = masks.get(next);
      if (!mask) throw new Error(`object-removal: no mask for frame ${next}`);
      masks.delete(next++);
      fill ??= new TemporalFill({ ...fillWindow(frame.width, frame.height), staticCamera: hint.staticCamera, hint: hint.color, ...overrides });
      out.push(...fill.push(frame, mask));
    }
    return out;
  };
  return {
    chunkSize: tracked.chunkSize,
    start: (video) => tracked.start(video),
    fill: () => fill,
    async processChunk(frames, startIndex) {
      return feed(await tracked.processChunk(frames, startIndex));
    },
    async flush() {
      const rest = feed(tracked.flush ? await tracked.flush() : []);
      // A video returned unchanged would look like a completed removal with the object still in
      // it (if the finders missed it) or be charged for nothing: the job fails and is refunded.
      if (seen === 0) throw new ApiError("object_not_found", `No frame of the video shows ${JSON.stringify(params.object_text)} that the service could find; nothing was removed and the credits were refunded.`);
      return [...rest, ...(fill?.finish() ?? [])];
    },
  };
}

/** For bench/video.ts (--pipelines object-removal): removes people from a local video. */
export async function run(
  inputPath: string,
  outputPath: string,
  options: { signal?: AbortSignal; onProgress?: (p: number) => void; object_text?: string; prompt_bg?: string } = {},
): Promise<ProcessVideoResult> {
  const { sharedModels } = await import("../../models/index.ts");
  const params = { video_url: `file://${inputPath}`, object_text: options.object_text ?? "person", prompt_bg: options.prompt_bg } as FeatureParams<"video.object-removal">;
  return processVideo(inputPath, outputPath, { processor: objectRemovalVideo(params, sharedModels()), signal: options.signal, onProgress: options.onProgress });
}
