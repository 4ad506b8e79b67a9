// The glue a detector-based video feature needs: detect on (some) frames, track, and cover every
// frame, as a ChunkProcessor for processVideo. Feature pipelines supply two functions: `detect`
// (the model) and `apply` (the effect on the boxes/masks of one frame).
//
// Mapping of the blur-anything request fields:
//   sam3_chunk_size -> chunkSize: frames handed over per processChunk call (and thus decoded ahead
//                      and held in memory at once; the pipeline caps it by bytes).
//   sam3_batch_size -> batchSize: frames per detector call, for models that run a batch at once.
//
// Skip policy: with detectEvery = k > 1 the detector runs on frames 0, k, 2k, ... and on the
// last frame; frames in between are covered by the interpolation between the detections on either
// side (plus a margin that grows with the distance to them), and a face that appears in between
// is covered back to the previous detection run by the tracker's backfill. That needs a look-ahead
// of at least k-1 frames, which is enforced: skipping is never allowed to leave frames uncovered.
//
// Look-ahead: by default about a second of frames (LOOKAHEAD_FRAMES, fewer for large frames, so
// the held frames stay under LOOKAHEAD_BYTES, never under 2k-1). Every frame is final only that
// late, so a face the detector first finds up to a second after it appeared is covered back to
// its first frame, and a run of misses shorter than that is covered by the interpolation between
// the detections on either side instead of a forward guess. Measured (bench/video-leaks.ts,
// oracle with misses, seed 1): look-ahead 3 left 134 of 375 frames with a visible face, 25 left 91.
//
// Scene cuts (compute/video/scene-cut.ts) are detected on every frame: a cut frame is always run
// through the detector, and the tracker ends its tracks there. The camera's motion
// (compute/video/camera-motion.ts) is estimated on every frame too and handed to the tracker, which
// moves every box it carries with the camera before its own velocity.
import type { Detection, Frame } from "../types.ts";
import type { ChunkProcessor } from "./stream.ts";
import { SceneCutDetector } from "./scene-cut.ts";
import { CameraMotionEstimator, CameraPath } from "./camera-motion.ts";
import type { CameraMotion } from "./camera-motion.ts";
import { DEFAULT_TRACKER_OPTIONS, REFERENCE_FPS, Tracker, atFrameRate } from "./tracker.ts";
import { yieldToEventLoop } from "../event-loop.ts";
import type { FrameCoverage, TrackerOptions } from "./tracker.ts";

/** Default look-ahead in frames at REFERENCE_FPS (a second; scaled with the rate), and the most bytes of frames it may hold. */
export const LOOKAHEAD_FRAMES = 25;
export const LOOKAHEAD_BYTES = 128 * 1024 ** 2;

/** What a detect() may know of the video beyond its frames. */
export interface DetectContext {
  /** Frames between two runs of the regular schedule (detectEvery at the video's rate). */
  every: number;
  /** The camera's motion between any two recent frames, up to the last frame given. */
  camera: CameraPath;
  /** The tracker's look-ahead: a face first found up to this many frames late is still covered from its first frame. */
  lookahead: number;
  /** The video's last frame: no later detection will back-fill a face this one misses. */
  last: boolean;
}

export interface TrackedProcessorOptions {
  /** The model: one Detection[] per given frame. Called with at most `batchSize` frames, in order. */
  detect(frames: Frame[], indices: number[], context: DetectContext): Promise<Detection[][]>;
  /** The effect: cover `coverage.boxes` (and/or the masks in `coverage.detections`) in this frame. */
  apply(frame: Frame, coverage: FrameCoverage): Promise<Frame>;
  /** Sees each frame's coverage, in order, before it is applied. */
  onCoverage?: (coverage: FrameCoverage) => void;
  /** Frames per processChunk call (sam3_chunk_size). Default 32. */
  chunkSize?: number;
  /** Frames per detector call (sam3_batch_size). Default 8. */
  batchSize?: number;
  /**
   * Run the detector on every k-th frame (and the last frame) of a REFERENCE_FPS video; at another
   * rate about as often per second (`start`: at 60 fps every 5th frame, at 15 fps every frame; more
   * often where the frames skipping holds back would not fit LOOKAHEAD_BYTES: every 3rd at 4K 60
   * fps). Default 1.
   */
  detectEvery?: number;
  /**
   * Tracker settings, as measured at REFERENCE_FPS (frames at that rate): scaled to the video's
   * rate once `start` tells it (atFrameRate). lookahead defaults to LOOKAHEAD_FRAMES (bounded by
   * LOOKAHEAD_BYTES), never
   * below max(smoothingRadius, 2 * detectEvery - 1): k-1 frames are needed to backfill a face that
   * appears between detection runs, and k more let its velocity (known from its second detection)
   * move those backfilled boxes before they are final.
   */
  tracker?: Partial<TrackerOptions>;
}

export function trackedProcessor(options: TrackedProcessorOptions): ChunkProcessor & Required<Pick<ChunkProcessor, "start">> & { readonly tracker: () => Tracker | null } {
  const givenEvery = Math.max(1, Math.floor(options.detectEvery ?? 1));
  const batchSize = Math.max(1, Math.floor(options.batchSize ?? 8));
  const radius = options.tracker?.smoothingRadius ?? 3;
  if (options.tracker?.lookahead !== undefined && options.tracker.lookahead < givenEvery - 1) {
    throw new Error(`detectEvery=${givenEvery} needs a tracker look-ahead of at least ${givenEvery - 1} frames to keep every frame covered (got ${options.tracker.lookahead}).`);
  }
  // The video's rate (`start`), over REFERENCE_FPS, and the detection interval at that rate and
  // frame size (set with the tracker, on the first frame).
  let fps = REFERENCE_FPS;
  let rate = 1;
  let every = givenEvery;
  /** How many frames of this size LOOKAHEAD_BYTES holds. */
  const fitting = (frame: Frame) => Math.floor(LOOKAHEAD_BYTES / (frame.width * frame.height * frame.channels));
  const intervalFor = (frame: Frame) =>
    // As many detection runs a second as at REFERENCE_FPS, where every figure was measured: a face
    // moves as far between two runs, a false box is born as often a second (at 60 fps every 2nd
    // frame, 2.4 times the runs, blurred 11 % of pan-others' frame where every 5th blurs ~4 %; at
    // 15 fps every 2nd frame left faces showing in 3 of 270 frames of the six clips, where every
    // frame left none and blurred 17 % of the frame instead of 23 %). Skipping k-1 frames holds
    // 2k-1 back (lookaheadFor); where those would not fit LOOKAHEAD_BYTES (4K at 60 fps and up)
    // detection runs more often instead.
    Math.max(1, Math.min(Math.round(givenEvery * rate), Math.max(givenEvery, Math.floor((fitting(frame) + 1) / 2))));
  const lookaheadFor = (frame: Frame) => {
    const minimum = Math.max(radius, 2 * every - 1);
    const wanted = Math.round((options.tracker?.lookahead ?? LOOKAHEAD_FRAMES) * rate);
    return Math.max(minimum, options.tracker?.lookahead !== undefined ? wanted : Math.min(wanted, fitting(frame)));
  };
  let tracker: Tracker | null = null;
  const held: Frame[] = []; // received, not yet returned; held[0] is frame `heldStart`
  let heldStart = 0;
  let deferred: { index: number; motion: CameraMotion | null }[] = []; // skipped frames not yet pushed to the tracker
  const cuts = new SceneCutDetector();
  const camera = new CameraMotionEstimator();
  const path = new CameraPath();

  const detectIn = async (frames: Frame[], indices: number[], last: boolean): Promise<Map<number, Detection[]>> => {
    const found = new Map<number, Detection[]>();
    for (let i = 0; i < frames.length; i += batchSize) {
      const batchIndices = indices.slice(i, i + batchSize);
      const context = { every, camera: path, lookahead: Math.min(tracker!.options.lookahead, tracker!.options.backfill), last };
      const result = await options.detect(frames.slice(i, i + batchSize), batchIndices, context);
      if (result.length !== batchIndices.length) throw new Error(`detect returned ${result.length} results for ${batchIndices.length} frames`);
      batchIndices.forEach((index, j) => found.set(index, result[j]));
    }
    return found;
  };

  const emit = async (coverages: FrameCoverage[]): Promise<Frame[]> => {
    const out: Frame[] = [];
    for (const coverage of coverages) {
      if (coverage.index !== heldStart) throw new Error(`coverage for frame ${coverage.index}, expected ${heldStart}`);
      const frame = held.shift()!;
      heldStart++;
      options.onCoverage?.(coverage);
      out.push(await options.apply(frame, coverage));
      await yieldToEventLoop();
    }
    return out;
  };

  const pushDetected = (index: number, detections: Detection[], cut: boolean, motion: CameraMotion | null): FrameCoverage[] => {
    const coverages: FrameCoverage[] = [];
    for (const skipped of deferred) coverages.push(...tracker!.push(skipped.index, null, false, skipped.motion));
    deferred = [];
    coverages.push(...tracker!.push(index, detections, cut, motion));
    return coverages;
  };

  /** Scene cuts, camera motion and detection for frames in order; the detection frames' coverage. */
  const advance = async (frames: { frame: Frame; index: number }[], last: boolean): Promise<FrameCoverage[]> => {
    const cut: boolean[] = [];
    const motion: (CameraMotion | null)[] = [];
    for (const { frame, index } of frames) {
      cut.push(cuts.isCut(frame));
      motion.push(camera.next(frame));
      path.record(index, cut.at(-1) ? null : motion.at(-1)!);
      await yieldToEventLoop();
    }
    // Every k-th frame, a cut's first frame, and the video's last frame.
    const detected = frames.filter(({ index }, i) => index % every === 0 || cut[i] || last);
    const detections = await detectIn(detected.map((f) => f.frame), detected.map((f) => f.index), last);
    const coverages: FrameCoverage[] = [];
    for (const [i, { index }] of frames.entries()) {
      const found = detections.get(index);
      if (found) coverages.push(...pushDetected(index, found, cut[i]!, motion[i] ?? null));
      else deferred.push({ index, motion: motion[i] ?? null });
    }
    return coverages;
  };

  // Frames before `advanced` have been through advance(). The newest frame waits (in `held`) for
  // the next chunk, or for flush: only then is it known whether it is the video's last. The last is
  // always detected, so the tail is interpolated, not only extrapolated, and told it is the last:
  // nothing later back-fills what it misses (video face detection runs its small-face tiles there,
  // for a small face that came into view since their last run).
  let advanced = 0;
  const heldUpTo = (end: number): { frame: Frame; index: number }[] => {
    const out: { frame: Frame; index: number }[] = [];
    for (let index = advanced; index < end; index++) out.push({ frame: held[index - heldStart]!, index });
    advanced = end;
    return out;
  };

  return {
    chunkSize: Math.max(1, Math.floor(options.chunkSize ?? 32)),
    tracker: () => tracker,
    start(video) {
      const given = video.fps.num / video.fps.den;
      fps = Number.isFinite(given) && given > 0 ? given : REFERENCE_FPS;
      rate = fps / REFERENCE_FPS;
    },
    async processChunk(frames, startIndex) {
      if (!tracker) {
        every = intervalFor(frames[0]);
        tracker = new Tracker({
          ...atFrameRate({ ...DEFAULT_TRACKER_OPTIONS, ...options.tracker }, fps, (rate * givenEvery) / every),
          lookahead: lookaheadFor(frames[0]), frameWidth: frames[0].width, frameHeight: frames[0].height,
        });
      }
      held.push(...frames);
      return emit(await advance(heldUpTo(startIndex + frames.length - 1), false));
    },
    async flush() {
      if (!tracker) return [];
      const coverages = await advance(heldUpTo(heldStart + held.length), true);
      coverages.push(...tracker.finish());
      return emit(coverages);
    },
  };
}
