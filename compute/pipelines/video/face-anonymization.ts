// video.face-anonymization: every tracked face is replaced by a synthetic face (compute/anonymize:
// a seeded identity per track, landmark-driven warp, procedural texture and features), so the
// same track keeps the same replacement from start to end and follows pose and expression.
// A face whose landmarks cannot be trusted (outside its box, or collapsed) is blurred instead:
// never left as is.
// Landmarks are carried per track by the face's own pixel motion (FlowLandmarkTracker), steered
// slowly towards each frame's detected landmarks: the detector's landmark error follows its box
// from frame to frame, which no filter on the landmarks removes (bench/anonymization.ts: flicker
// ratio 1.07 tracked, 2.60 One-Euro, 3.03 raw). Landmarks found in a box the tracker only guessed
// (no detection on that frame) do not move a face away from where its pixels go, and a face two
// tracks follow is drawn once (oncePerFace).
// Faces are drawn on a worker thread (FaceRenderer), so a chunk's drawing overlaps the next chunk's
// detection and landmarks: a call returns the frames drawn from the previous call.
// Frames are rendered CALIBRATION_WINDOW frames late: when a track first reaches the head of the
// window, its identity is calibrated (calibrateIdentities: seeded candidates with escalating
// geometry, the first whose face-api descriptor is far enough from the original's while SSD still
// finds the face, or by the descriptor alone for a face SSD does not find in the input; the
// tracks that start on the same frame are measured together, in the same frames) on up to
// CALIBRATION_VIEWS of its frames spread over the window, so the choice holds while the face
// turns, zooms and changes expression, and no frame is ever drawn with an identity that is later
// replaced. The job's CalibrationBudget bounds what that costs: a crowd gets fewer candidates.
// A track whose chosen replacement the calibration's own check does not call another person
// (face-api's descriptor under ANOTHER_PERSON from the original on one of its views, or a face it
// could not describe) is blurred instead, for its whole life, like face-blur's default: the
// feature never returns a face its check says is still recognisable.
import { randomInt } from "node:crypto";
import type { FeatureParams } from "../../../schema/features.ts";
import type { Models } from "../../models/index.ts";
import type { Box, Frame } from "../../types.ts";
import { CalibrationBudget, calibrateIdentities, faceFrame, FlowLandmarkTracker, IdentityCache, MIN_DRAWABLE_IOD, type CalibrationView, type FaceInput } from "../../anonymize/index.ts";
import { FaceMeter } from "../../anonymize/evaluate.ts";
import { FaceRenderer } from "../../anonymize/render-thread.ts";
import type { TrackedBox } from "../../video/tracker.ts";
import { trackedProcessor } from "../../video/tracked.ts";
import type { ChunkProcessor } from "../../video/stream.ts";
import { FACE_SHAPE, hideBoxes } from "../hide.ts";
import { DETECT_EVERY, faceFrames, withWatermark, type VideoPipelineHooks } from "./common.ts";

/** Frames held back before rendering (about a second of video; 150 MB of 1080p frames)... */
export const CALIBRATION_WINDOW = 24;
/** ...and never more than this many bytes of them (4K: 7 frames). */
const MAX_WINDOW_BYTES = 192 * 1024 ** 2;
/** Frames of a new track its identity is measured on (its first, then spread over the window). */
export const CALIBRATION_VIEWS = 3;

/**
 * Landmarks are trusted when they fall mostly inside the (grown) tracked box and their eye centres
 * are at least MIN_IOD_SHARE of the box's width apart. Collapsed landmarks would otherwise be
 * drawn as a face a few pixels wide, or not at all (MIN_DRAWABLE_IOD), and the face left as is.
 */
export function plausibleLandmarks(points: Array<{ x: number; y: number }>, box: Box): boolean {
  if (points.length !== 68) return false;
  const m = 0.35;
  const inside = points.filter((p) => p.x >= box.x - box.width * m && p.x <= box.x + box.width * (1 + m) && p.y >= box.y - box.height * m && p.y <= box.y + box.height * (1 + m));
  return inside.length >= 60 && faceFrame(points).iod >= Math.max(MIN_DRAWABLE_IOD, MIN_IOD_SHARE * box.width);
}
/**
 * The detector's faces in the test photos measure an IOD of 0.3-0.6 of their box's width, the
 * smallest collage faces (25-35 px) down to 0.12; a shoulder badge the detector took for a face in
 * the 720p bench clip measured 0.02-0.14 (measured with a scratch script, session 10).
 */
const MIN_IOD_SHARE = 0.08;

/**
 * The largest change of a face's size (inter-ocular distance, either way) from the frame it was
 * last drawn on that landmarks found in a guessed box may bring. A face's scale changes by a few
 * percent a frame even in a fast zoom; a guessed box that grew or drifted over a neighbour gave
 * landmarks 1.3-4.5x too large or too small (bench/small-faces.ts --crowd, session 12).
 */
const MAX_GUESSED_SCALE_STEP = 1.25;

/**
 * Two tracks whose faces have their eye midpoints closer than this (in the smaller face's
 * inter-ocular distance) are on the same face: two people's eyes are at least about 2 IOD apart
 * even cheek to cheek. The duplicates measured in a crowd were 0.02-0.5 apart.
 */
const SAME_FACE_DISTANCE = 0.6;

/**
 * Each face drawn once. The tracker can hold two tracks on one face: a detection it could not
 * match to the track that coasted there starts a new one (22-face crowd clip: a pair for 25
 * frames). Drawn twice, the two identities cover each other by box size and can swap from frame
 * to frame; the older track is kept, so the face keeps the identity it had.
 */
function oncePerFace<F extends FaceInput & { trackId: number }>(faces: F[]): F[] {
  const kept: Array<{ face: F; f: ReturnType<typeof faceFrame> }> = [];
  for (const face of [...faces].sort((a, b) => a.trackId - b.trackId)) {
    const f = faceFrame(face.landmarks);
    if (!kept.some(({ f: g }) => Math.hypot(f.o.x - g.o.x, f.o.y - g.o.y) < SAME_FACE_DISTANCE * Math.min(f.iod, g.iod))) kept.push({ face, f });
  }
  return kept.map((k) => k.face);
}

/** One frame waiting to be rendered: its tracked faces (with landmarks) and the faces to blur. */
interface Pending {
  frame: Frame;
  index: number;
  faces: Array<FaceInput & { trackId: number; box: TrackedBox }>;
  fallback: TrackedBox[];
}

/** Up to `n` items of `xs`, the first always, the rest evenly spread up to the last. */
function spread<T>(xs: T[], n: number): T[] {
  if (xs.length <= n) return xs;
  return Array.from({ length: n }, (_, k) => xs[Math.round((k * (xs.length - 1)) / (n - 1))]!);
}

export interface FaceAnonymizationOptions extends VideoPipelineHooks {
  /**
   * False: no calibration and no verdict, every face drawn with its seeded identity (tests and
   * benchmarks of the tracking and drawing only; a job always calibrates).
   */
  calibrate?: boolean;
  salt?: number;
  window?: number;
  views?: number;
  budget?: CalibrationBudget;
  /** The verdict's distance (CalibrationOptions.threshold; tests set it out of reach). */
  threshold?: number;
  /** Sees, per frame in order, the faces drawn and the faces blurred (benchmarks count them). */
  onFaces?: (index: number, faces: { drawn: TrackedBox[]; blurred: TrackedBox[] }) => void;
}

export function faceAnonymizationVideo(
  params: FeatureParams<"video.face-anonymization">,
  models: Pick<Models, "faces" | "landmarks" | "identityFaces">,
  options: FaceAnonymizationOptions = {},
): ChunkProcessor {
  // A fresh salt per job: the same person in two videos gets two unrelated synthetic faces
  // (`salt` fixes it, for reproducible measurements).
  const identities = new IdentityCache(options.salt ?? randomInt(2 ** 31));
  // The meter measures with face-api's float SSD (Models.identityFaces), not the detector's int8
  // copy: identity is calibrated on the boxes face-api itself would align the descriptor on.
  const meter = (options.calibrate ?? true) ? new FaceMeter(models.identityFaces, models.landmarks) : null;
  // Tracks whose replacement is not another person by the calibration's verdict: blurred.
  const hidden = new Set<number>();
  // What calibration may spend in this job (a crowd would otherwise cost a multiple of its size).
  const budget = options.budget ?? new CalibrationBudget();
  let window = Math.max(0, options.window ?? CALIBRATION_WINDOW);
  const views = Math.max(1, options.views ?? CALIBRATION_VIEWS);
  // Per track: its landmark tracker and the last frame it was seen in (a track that skipped
  // frames restarts its tracker from the detection instead of aligning across the gap).
  // `iod`: the inter-ocular distance of the landmarks it was last drawn with.
  const trackers = new Map<number, { tracker: FlowLandmarkTracker; lastFrame: number; iod?: number }>();
  const plans = new Map<Frame, Omit<Pending, "frame">>();
  let renderer: FaceRenderer | undefined; // started with the first face to draw
  const queue: Pending[] = [];

  const tracked = trackedProcessor({
    detectEvery: DETECT_EVERY,
    detect: faceFrames(models.faces, params),
    onCoverage: options.onCoverage,
    // Only landmarks here (the trackers need every frame in order); drawing waits in the queue.
    apply: async (frame, coverage) => {
      const faces: Pending["faces"] = [];
      const fallback: TrackedBox[] = [];
      const points = coverage.boxes.length ? await models.landmarks.landmarks(frame, coverage.boxes) : [];
      for (const [i, box] of coverage.boxes.entries()) {
        let track = trackers.get(box.trackId);
        if (!track) trackers.set(box.trackId, (track = { tracker: new FlowLandmarkTracker(), lastFrame: -2 }));
        if (track.lastFrame !== coverage.index - 1) track.tracker.reset();
        if (!plausibleLandmarks(points[i]!, box)) {
          fallback.push(box);
          continue;
        }
        // Landmarks found in a box the detector did not report on this frame (the tracker's
        // guess) are not trusted over the face's own motion (FlowLandmarkTracker "coasted")...
        const detected = box.source === "detected";
        const landmarks = track.tracker.push(frame, points[i]!, detected);
        // ...and where there is no motion to follow (the alignment failed), a guessed box's
        // landmarks at a scale the track did not have are a wrong face: blurred instead.
        const iod = faceFrame(landmarks).iod;
        if (!detected && track.iod && (iod > track.iod * MAX_GUESSED_SCALE_STEP || iod < track.iod / MAX_GUESSED_SCALE_STEP)) {
          fallback.push(box);
          continue;
        }
        track.lastFrame = coverage.index;
        track.iod = iod;
        faces.push({ box, landmarks, trackId: box.trackId });
      }
      plans.set(frame, { index: coverage.index, faces: oncePerFace(faces), fallback });
      return frame;
    },
  });

  // Calibration runs here, in frame order (it needs the frames queued behind the head); the
  // drawing runs on the renderer's thread, while this thread goes on with the next chunk.
  const calibrate = async (head: Pending): Promise<void> => {
    // Tracks that start on this frame are calibrated together (one SSD pass per shared view).
    if (!meter) return;
    const fresh = head.faces.filter((face) => !identities.has(face.trackId));
    if (!fresh.length) return;
    const tracks = fresh.map((face) => {
      const seen: CalibrationView[] = [{ frame: head.frame, face }];
      for (const later of queue) {
        const same = later.faces.find((f) => f.trackId === face.trackId);
        if (same) seen.push({ frame: later.frame, face: same });
      }
      return { trackId: face.trackId, views: spread(seen, views) };
    });
    for (const [trackId, chosen] of await calibrateIdentities(meter, tracks, { salt: identities.salt, budget, threshold: options.threshold })) {
      identities.set(trackId, chosen.identity);
      if (!chosen.anotherPerson) hidden.add(trackId as number);
    }
  };

  const draw = async (head: Pending): Promise<Frame> => {
    const drawn = head.faces.filter((face) => !hidden.has(face.trackId));
    const blurred = [...head.fallback, ...head.faces.filter((face) => hidden.has(face.trackId)).map((face) => face.box)];
    options.onFaces?.(head.index, { drawn: drawn.map((face) => face.box), blurred });
    const replaced = drawn.length ? await (renderer ??= new FaceRenderer()).render(head.frame, drawn, identities.identityFor) : head.frame;
    return blurred.length ? hideBoxes(replaced, blurred, FACE_SHAPE) : replaced;
  };

  // Frames being drawn, in order. The ones this call starts are left drawing when it returns
  // (they come back from the next call), so the drawing overlaps the next chunk's detection.
  const drawing: Array<Promise<Frame>> = [];

  const take = async (frames: Frame[], keep: number): Promise<Frame[]> => {
    const earlier = drawing.length;
    for (const frame of frames) {
      const plan = plans.get(frame)!;
      plans.delete(frame);
      queue.push({ frame, ...plan });
    }
    while (queue.length > keep) {
      const head = queue.shift()!;
      budget.accrue(); // one more frame rendered
      await calibrate(head);
      const drawn = draw(head);
      drawn.catch(() => {}); // awaited below or in the next call, in order; a failure surfaces there
      drawing.push(drawn);
    }
    const out: Frame[] = [];
    for (let n = keep === 0 ? drawing.length : earlier; n > 0; n--) out.push(await drawing.shift()!);
    return out;
  };

  const processor: ChunkProcessor = {
    chunkSize: tracked.chunkSize,
    start: (video) => tracked.start(video),
    processChunk: async (frames, startIndex) => {
      if (startIndex === 0 && frames.length) window = Math.min(window, Math.max(1, Math.floor(MAX_WINDOW_BYTES / frames[0].data.length)));
      return take(await tracked.processChunk(frames, startIndex), window);
    },
    flush: async () => take(tracked.flush ? await tracked.flush() : [], 0),
    close: async () => renderer?.close(),
  };
  return params.is_watermark ? withWatermark(processor) : processor;
}
