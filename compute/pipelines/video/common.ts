// Pieces every detector-based video feature shares: running a per-frame detector over a batch
// (keeping what the caller's detection controls select), how often detection runs, the hook that
// sees each frame's coverage, and the visible watermark.
import type { DetectionControls } from "../../../schema/api/detections.ts";
import type { Box, Detection, Frame } from "../../types.ts";
import type { Models } from "../../models/index.ts";
import { drawWatermark } from "../../effects/overlay.ts";
import type { ChunkProcessor } from "../../video/stream.ts";
import type { FrameCoverage } from "../../video/tracker.ts";
import { selectDetections } from "../detections.ts";
import type { DetectContext } from "../../video/tracked.ts";
import { findObjects, smallObjectCap, type Finders } from "../objects.ts";
import { SmallTileScans, type SmallTileDetector, type SmallTileRun } from "./small-tile-scans.ts";

/** What a video task may ask of a pipeline beyond its params. */
export interface VideoPipelineHooks {
  /** Sees what is covered in each frame, in order (the detections document; tests and benchmarks measure coverage with it). */
  onCoverage?: (coverage: FrameCoverage) => void;
  /** Sees how each small-face run of face detection looked (which tiles; benchmarks report it). */
  onSmallFaceRun?: (run: SmallTileRun) => void;
}

/** What video needs of the face detector (compute/models/face-detector.ts). */
export interface VideoFaceDetector {
  detect(frame: Frame, options?: { smallFaces?: boolean | ((tile: Box) => boolean) }): Promise<Detection[]>;
  smallFaceCap(width: number, height: number): number;
}

/**
 * Detection runs on every k-th frame of a 25 fps video (about as often a second at another rate:
 * compute/video/tracked.ts, `start`); the tracker covers the frames between by interpolating
 * between detections on either side (with a growing margin) and back-fills tracks that start in
 * between, so skipping never leaves a frame uncovered (compute/video/tracked.ts). k = 2 halves
 * the detector cost while a face moving across the frame in a second is still interpolated
 * within a few pixels.
 */
export const DETECT_EVERY = 2;

/**
 * Face detection's small-face tiles (about 3/4 of its work at 720p) run on every SMALL_TILES_RUNS-th
 * detection run (every 4th frame at 25 fps, every 10th at 60), the whole-frame passes and middle
 * tiles on every run. Below 25 fps, where detection runs on every frame, the small tiles keep every
 * 4th frame: the false boxes they find are born per run; on every 2nd or 3rd frame at 15 fps they
 * blurred up to 9.4 and 7.0 % of the e2e clip's frame away from its faces, on every 4th 3.9 % (at
 * 25 fps, every 4th: 4.1 %).
 * A small face is small in pixels per frame too: the tracker interpolates it across the detection run in between, as it
 * does across a miss (compute/video/tracker.ts). Of the small-face tiles, only those whose picture
 * changed look again (small-tile-scans.ts). The object finder's small-object tiles (28 of its 40
 * calls on a 16:9 frame) keep the same schedule (videoObjects).
 */
export const SMALL_TILES_RUNS = 2;

/**
 * A detector over one video, called on its detection frames in order: its small tiles on every
 * SMALL_TILES_RUNS-th run and on the last frame (nothing later back-fills a small face that came
 * into view after the run before), looking again only where the picture changed.
 */
function smallTileSchedule(detector: SmallTileDetector, onRun?: (run: SmallTileRun) => void) {
  const scans = new SmallTileScans(detector, onRun);
  return (frame: Frame, index: number, context: DetectContext): Promise<Detection[]> =>
    index % (SMALL_TILES_RUNS * Math.max(context.every, DETECT_EVERY)) === 0 || context.last ? scans.detect(frame, index, context) : detector.detect(frame, { smallTiles: false });
}

/** The face detector as a detector with small tiles: its small-face tiles. */
export function faceTiles(faces: VideoFaceDetector): SmallTileDetector {
  return {
    detect: (frame, { smallTiles = true } = {}) => faces.detect(frame, { smallFaces: smallTiles }),
    smallTileCap: (width, height) => faces.smallFaceCap(width, height),
  };
}

/** Face detection over one video, on the small-tile schedule. */
export function videoFaces(faces: VideoFaceDetector, hooks: VideoPipelineHooks = {}) {
  return smallTileSchedule(faceTiles(faces), hooks.onSmallFaceRun);
}

/**
 * The object finder (pipelines/objects.ts) over one video, called on its detection frames in order
 * with the classes of one of the prompt's targets: each target's small-object tiles on the
 * small-tile schedule, its objects up to a small tile's side carried where the picture did not
 * change, as small faces are.
 */
export function videoObjects(models: Finders) {
  const schedules = new Map<string, ReturnType<typeof smallTileSchedule>>();
  return (frame: Frame, index: number, context: DetectContext, classes: readonly string[]): Promise<Detection[]> => {
    const key = classes.join("\n");
    let schedule = schedules.get(key);
    if (!schedule) {
      const detector: SmallTileDetector = {
        detect: (f, { smallTiles = true } = {}) => findObjects(f, models, classes, { smallTiles }),
        smallTileCap: smallObjectCap,
      };
      schedules.set(key, (schedule = smallTileSchedule(detector)));
    }
    return schedule(frame, index, context);
  };
}

/** A detect() for trackedProcessor from the face detector (videoFaces). */
export function faceFrames(faces: VideoFaceDetector, controls?: DetectionControls, hooks: VideoPipelineHooks = {}) {
  return eachFrame(videoFaces(faces, hooks), controls);
}

/**
 * Frames a detector works on at once: while one frame's inference runs on the inference threads,
 * the next frame's tiles are cut on the main thread. Two, not the whole batch: each frame in
 * flight holds its tile tensors (up to ~100 MB at 1080p).
 */
const FRAMES_AT_ONCE = 2;

/**
 * A detect() for trackedProcessor from a per-frame detector (FRAMES_AT_ONCE frames in flight),
 * keeping what `controls` select: before tracking, so what they leave out forms no track.
 */
export function eachFrame(detect: (frame: Frame, index: number, context: DetectContext) => Promise<Detection[]>, controls?: DetectionControls) {
  return async (frames: Frame[], indices: number[], context: DetectContext): Promise<Detection[][]> => {
    const out: Detection[][] = new Array(frames.length);
    let next = 0;
    const lane = async () => {
      while (next < frames.length) {
        const i = next++;
        const found = await detect(frames[i]!, indices[i]!, context);
        out[i] = controls ? selectDetections(found, frames[i]!, controls) : found;
      }
    };
    await Promise.all(Array.from({ length: Math.min(FRAMES_AT_ONCE, frames.length) }, lane));
    return out;
  };
}

/** Adds the visible watermark to every frame a processor returns. */
export function withWatermark(processor: ChunkProcessor): ChunkProcessor {
  return {
    chunkSize: processor.chunkSize,
    async processChunk(frames, startIndex) {
      return (await processor.processChunk(frames, startIndex)).map(drawWatermark);
    },
    ...(processor.flush ? { flush: async () => (await processor.flush!()).map(drawWatermark) } : {}),
    ...(processor.close ? { close: () => processor.close!() } : {}),
  };
}
