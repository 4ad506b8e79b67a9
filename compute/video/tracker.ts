// Linking per-frame detections into tracks, so that what is hidden stays hidden between and
// around detections. Policy (privacy first, every rule errs towards covering more):
//  - Association: optimal matching (Hungarian) of detections to each track's velocity-predicted
//    box, same label only, cost = (1 - IoU) + centre distance / box diagonal, gated.
//  - Identity: a track keeps its integer id from first to last frame; ids are never reused.
//  - Two stories: a track seen once that reaches a detection only by its unknown speed may have
//    moved there, or have been missed beside a face new to the tracker (in a crowd, the next one
//    along). It is matched, and the other story is covered too until a third sighting where its
//    velocity put it settles it: the other story's tracks then end, keeping what they covered
//    (#coverBothStories, #settleStories).
//  - Misses: a track survives `maxMissed` detection runs without a match (motion blur and codecs
//    hide faces from the detector for seconds), covered all along by its constant-velocity
//    prediction at its last size (moved by the camera: a zoom scales it); the margin grows with
//    every frame since its last detection. Once out of the frame (a face: its box, margin and
//    all) a track waits where the camera takes it, drawing nothing and its margin growing no
//    more, so that a pan turning back brings its box back onto its face.
//  - Gaps are refilled: when a track is detected again after frames without a detection (skipped
//    or missed), those frames, if not yet final, are covered by the interpolation between the two
//    detections instead of the forward guess. The frame that finds a lost track again also covers
//    where its coast had put it: the box that ends a coast may be a false one beside the face.
//  - Late starts: with look-ahead L, a new track also covers the L frames before its first
//    detection (its first box, moved back along its velocity once known, with a growing margin).
//    This is what makes "detect every k frames" safe: with L >= k-1 a face that appears between
//    two detection runs is covered from the frame it could first have appeared.
//  - Camera motion: each frame may come with the camera's motion since the previous frame
//    (compute/video/camera-motion.ts). Every box the tracker carries is moved with the camera
//    first and by its own velocity second, so a pan or zoom is not mistaken for the faces' own
//    motion: predictions, the interpolation between detections and backfilled boxes all follow
//    the camera's path, and a track seen once is expected where the camera took its face, not
//    where it stood (which in a crowd is where the neighbour now is).
//  - Edges: a face box the frame's edge cuts is the part inside; it is tracked as the whole face,
//    going on past the edge to its track's size (a new track's to a square, `wholeShapes`), so
//    a pan that brings the face in brings all of it. Covered boxes are clipped to the frame.
//  - Scene cuts: a frame pushed as a cut ends every live track (they cover up to the frame
//    before it) and no track born after it reaches back across it.
//  - Smoothing: a centred, symmetric (triangular) window of radius R over each track's boxes. A
//    symmetric window does not lag behind linear motion, unlike an exponential filter; near a
//    track's ends and the look-ahead edge the window shrinks to stay symmetric. Each box in the
//    window is first carried along the camera's path to the frame smoothed: the window evens out
//    the detector's jitter, not the camera's motion. The covered box is the smoothed box plus a
//    margin, and always contains the raw detection of that frame.
import type { Box, Detection } from "../types.ts";
import { FORBIDDEN, assign } from "./assignment.ts";
import { STILL, moveBackByCamera, moveByCamera } from "./camera-motion.ts";
import type { CameraMotion } from "./camera-motion.ts";
import { edgesCutting } from "../models/geometry.ts";

export interface TrackerOptions {
  /** Detection runs a track may go unmatched before it ends (covered by prediction meanwhile). */
  maxMissed: number;
  /**
   * The same for a track seen only once (no velocity yet, perhaps a false detection); when not
   * given, maxMissed (a face seen once may be one the detector rarely sees: it coasts as long).
   */
  maxMissedOnce?: number;
  /** Frames of look-ahead: frame i is final once frame i + lookahead has been pushed. */
  lookahead: number;
  /** Radius of the centred smoothing window, in frames (only look-ahead frames can be used ahead). */
  smoothingRadius: number;
  /** Margin added on each side of a covered box, as a fraction of its size. */
  margin: number;
  /** Extra margin per frame away from the nearest detection (prediction, interpolation, backfill). */
  marginPerUncertainFrame: number;
  /** Extra margin per frame before a track's first detection (its motion there is a guess). */
  backfillMarginPerFrame: number;
  /** Cap on the total margin fraction. */
  maxMargin: number;
  /** Extra margin for a predicted or backfilled box that reaches past the frame's edge (with frameWidth/frameHeight). */
  edgeMargin: number;
  /** Frames before a track's first detection that it also covers (at most `lookahead` can be reached). */
  backfill: number;
  /**
   * Width / height of a whole object, by label: a box of that label the frame's edge cuts goes on
   * past the edge to its track's size, or to this shape for a new track (with frameWidth/frameHeight).
   */
  wholeShapes: Record<string, number>;
  /**
   * Association gate: a pair may match with IoU >= minIou or centre distance <= maxCentreDistance
   * diagonals (of the track's box) from the predicted centre, plus, while the track's velocity is
   * unknown (one sighting only), unknownSpeed frame diagonals per frame since that sighting
   * (without a frame size: track diagonals).
   */
  minIou: number;
  maxCentreDistance: number;
  unknownSpeed: number;
  /** Nor may a pair differ in width by more than this factor (a face does not grow 2.5x between two detection runs). */
  maxSizeRatio: number;
  /**
   * A track found again after missed runs also covers, in the frame that finds it, where its coast
   * had put it (its predicted box with that box's margin): the box that ends a coast may be beside
   * the face the coast was on.
   */
  coverCoastWhenFound: boolean;
  /** Alpha-beta filter gains for position and velocity (prediction only; output uses the smoother). */
  alpha: number;
  beta: number;
  /** When given, covered boxes are clipped to the frame. */
  frameWidth?: number;
  frameHeight?: number;
}

export const DEFAULT_TRACKER_OPTIONS: TrackerOptions = {
  // Motion blur and a codec take a face from the detector for a second or more while it goes on
  // the way it went (moving on its own, or standing in the scene while the camera pans): a 29 px
  // face crossing a 720p frame at 29 px/frame was seen in 2 of 18 detection runs, a 20 px face on
  // pan-others in 4 of 38, and their tracks ended while they showed (bench/video-leaks.ts
  // --motion-blur). 25 runs (50 frames at detection on every 2nd): with 10 for faces standing
  // still, the real detector left a face visible in 73 frames of twelve clips and variants (9 of
  // 20 px and up), with 25 in 60 (7), for the same blurred area, now that a lost face's box keeps
  // its size and waits where the camera took it once it left the frame (#predict); the oracle
  // left 8 of 1350 frames showing a face, now none.
  maxMissed: 25,
  lookahead: 0,
  smoothingRadius: 3,
  margin: 0.1,
  marginPerUncertainFrame: 0.03,
  backfillMarginPerFrame: 0.1,
  maxMargin: 0.6,
  // A face leaving the frame is seen in part: the detector's box for it shrinks and shifts toward
  // the middle, or it is missed and the track goes on by prediction, while the sliver left in the
  // frame (forehead, hair, an eye) is the part the box is least sure of. Measured on the real
  // detector (bench/video-leaks.ts): the only faces left visible were such slivers under predicted
  // boxes, 64-80 % covered. Only on extrapolated boxes (predicted, backfilled): on every box it
  // took the blurred area of the scene-cut clip (large faces at the bottom edge) from 29 to 40 %,
  // on every box not detected in its frame (interpolated too) to 36 %.
  edgeMargin: 0.25,
  backfill: Infinity,
  // A face the edge cuts is boxed as the sliver inside, and the camera carries that sliver into the
  // frame when it pans: a 20 px face entering pan-others at a corner was boxed 10 px wide, and the
  // next frame's predicted box, carried 19 px inward, left its other half showing. Completed past
  // the edge to its track's size, or for a new track to a square (face boxes are about as wide as
  // tall), the carried box covers it; the frame clips what is covered. Plates and people are left
  // as seen: their shapes vary too much.
  wholeShapes: { face: 1 },
  minIou: 0.05,
  // Half a diagonal: with the camera's motion taken out, a face seen twice is predicted within a
  // fraction of its size; a gate of a whole diagonal let a track whose face was missed take the
  // detection of the face next to it in a crowd (bench/video-leaks.ts, oracle with misses: 27 -> 12
  // of 1125 frames with a visible face). A track seen once still reaches by unknownSpeed.
  maxCentreDistance: 0.5,
  // A face crossing a 720p frame in a few seconds moves ~10-40 px/frame whatever its size, i.e.
  // up to one diagonal of a 14-30 px face every frame or two: with a gate of one track diagonal,
  // two sightings of a small fast face two frames apart never linked, so it never got a
  // velocity and was left visible between them (bench/video-leaks.ts, enter-leave: 31 % of the
  // small-face frames hidden). A reach in frame pixels (1.5 % of the diagonal: 22 px/frame at
  // 720p) links them without letting large faces reach for their neighbours (a reach of 0.75
  // track diagonals per frame did, and lost faces in the collage and group photos). In a crowd that
  // reach spans several faces: a pair it alone allows is matched with the other story covered too
  // (#coverBothStories).
  unknownSpeed: 0.015,
  // Without it a whole-frame false detection took over a 27 px face next to it, and the face's
  // track then stood for a whole-frame box (real detector, enter-leave clip).
  maxSizeRatio: 2.5,
  // Sprites at CRF 35: a 39 px face lost for 10 runs, covered all along by its coast, showed in the
  // last frame, whose only box (0.63) was 40 px below it on the blocky neck: its track took that
  // box. Covering both, the six generated clips at CRF 35 left a face of 20 px or more visible in
  // none of 450 frames instead of one, for 17.2 -> 17.4 % of the frame blurred (as rendered 16.1 ->
  // 16.2 %, with motion blur 17.0 -> 17.2 %, no frame leaked more or less; the oracle, which misses
  // more, 15.7 -> 16.3 %; bench/video-leaks.ts --replay).
  // Covering the coast in every frame between too (the interpolation towards that box replaces
  // it) hid no more faces for twice that area.
  coverCoastWhenFound: true,
  alpha: 0.6,
  beta: 0.3,
};

/** The frame rate the options above were measured at (bench/video-leaks.ts renders 25 fps). */
export const REFERENCE_FPS = 25;

/**
 * The options for a video at `fps`, from options measured at REFERENCE_FPS. What they bound is
 * time: what makes a detector miss a face (a turned head, motion blur) lasts a time, not a number
 * of frames, and a face moves per second, so at 60 fps it moves 25/60 as far between two frames
 * and at 15 fps 25/15 as far. The margins and the reach per frame scale with the inverse of the
 * rate; the misses a track survives with the detection runs a second (`runRate`: their number at
 * `fps` over theirs at REFERENCE_FPS). The smoothing window (detector jitter: a box always
 * contains its detection) and the look-ahead (scaled by trackedProcessor, bounded by memory) are
 * left to the caller.
 */
export function atFrameRate(options: TrackerOptions, fps: number, runRate: number): TrackerOptions {
  const rate = fps / REFERENCE_FPS;
  if (!(rate > 0) || (rate === 1 && runRate === 1)) return options;
  const runs = (n: number) => Math.max(1, Math.round(n * runRate));
  return {
    ...options,
    maxMissed: runs(options.maxMissed),
    ...(options.maxMissedOnce !== undefined ? { maxMissedOnce: runs(options.maxMissedOnce) } : {}),
    marginPerUncertainFrame: options.marginPerUncertainFrame / rate,
    backfillMarginPerFrame: options.backfillMarginPerFrame / rate,
    unknownSpeed: options.unknownSpeed / rate,
  };
}

export type CoverSource = "detected" | "predicted" | "interpolated" | "backfilled";

/** A box to cover in one frame, tied to its track. */
export interface TrackedBox extends Box {
  trackId: number;
  label: string;
  score: number;
  source: CoverSource;
}

/** Everything to cover in one frame, final. `detections` is the detector's raw output (with masks), null on a skipped frame. */
export interface FrameCoverage {
  index: number;
  boxes: TrackedBox[];
  detections: Detection[] | null;
}

/** A box by its centre and size. */
interface Geometry {
  cx: number;
  cy: number;
  w: number;
  h: number;
}

interface Observation extends Geometry {
  source: CoverSource;
  /** Frames to the nearest detection this box is based on. */
  uncertainty: number;
  raw?: Box;
  /** On the frame a lost track is found again: where its coast had put it (coverCoastWhenFound), covered too. */
  coast?: Box;
  /** Per axis, the side a detection the frame's edge cut was completed towards (-1 left or up, 1 right or down, 0 none): its extent there is a guess. */
  guessed?: Guessed;
}

interface Track {
  id: number;
  label: string;
  score: number;
  // Filter state (centre, size) and the centre's per-frame velocity (the size follows the camera's zoom).
  cx: number;
  cy: number;
  w: number;
  h: number;
  vx: number;
  vy: number;
  hits: number;
  missed: number;
  lastDetected: number;
  /** Frames from its last detection to when it left the frame (#showing): it waits out there since, and its margin grows no more. */
  waiting: number | null;
  lastDetectedObs: Observation;
  /** The last detection moved by the camera only, up to the newest frame: where the face would be had it not moved itself. */
  carried: Observation;
  birth: number;
  firstIndex: number;
  lastIndex: number;
  ended: boolean;
  obs: Map<number, Observation>;
  /** Seen twice, matched the second time by its unknown speed alone: the tracks that cover the other story (#coverBothStories). */
  otherStory?: { tracks: Track[]; seen: Observation; at: number };
}

export class Tracker {
  readonly options: TrackerOptions;
  #tracks: Track[] = [];
  #nextId = 1;
  #nextIndex = 0;
  #nextFinal = 0;
  #pendingDetections = new Map<number, Detection[] | null>();
  /** First frame of the current shot: backfill never reaches before it. */
  #shotStart = 0;
  /** Other stories settled in this detection run: their tracks end once the run's matches are applied (#settleStories). */
  #settled: Track[] = [];
  /** Camera motion into frame i (from frame i - 1), for the frames boxes may still be moved through. */
  #motion = new Map<number, CameraMotion>();

  constructor(options: Partial<TrackerOptions> = {}) {
    this.options = { ...DEFAULT_TRACKER_OPTIONS, ...options };
  }

  /**
   * Feed frame `index` (0, 1, 2, ... in order): its detections, or null when the detector did not
   * run on it. `cut`: the frame starts a new shot (compute/video/scene-cut.ts). `motion`: the
   * camera's motion since the previous frame (compute/video/camera-motion.ts), still when unknown.
   * Returns the frames that became final, in order.
   */
  push(index: number, detections: Detection[] | null, cut = false, motion: CameraMotion | null = null): FrameCoverage[] {
    if (index !== this.#nextIndex) throw new Error(`Tracker expected frame ${this.#nextIndex}, got ${index}`);
    this.#nextIndex++;
    if (cut) {
      // Nothing on the far side of a cut says where a face is on this side.
      for (const track of this.#live()) track.ended = true;
      this.#shotStart = index;
    }
    if (motion && (this.options.frameWidth === undefined || this.options.frameHeight === undefined)) {
      throw new Error("Tracker: camera motion needs frameWidth and frameHeight (a zoom is about the frame's centre)");
    }
    const camera = cut || !motion ? STILL : motion;
    this.#motion.set(index, camera);
    for (const track of this.#live()) this.#predict(track, camera, index);
    if (detections) this.#associate(index, detections);
    for (const track of this.#live()) {
      if (!track.obs.has(index)) {
        track.obs.set(index, { cx: track.cx, cy: track.cy, w: track.w, h: track.h, source: "predicted", uncertainty: track.waiting ?? index - track.lastDetected });
        track.lastIndex = index;
      }
    }
    this.#pendingDetections.set(index, detections);
    return this.#finalise(index - this.options.lookahead);
  }

  /** End of the video: every remaining frame, final. */
  finish(): FrameCoverage[] {
    for (const track of this.#live()) track.ended = true;
    return this.#finalise(this.#nextIndex - 1);
  }

  #live(): Track[] {
    return this.#tracks.filter((t) => !t.ended);
  }

  #predict(track: Track, camera: CameraMotion, index: number): void {
    const moved = this.#moveByCamera(track, camera);
    track.carried = { ...track.carried, ...this.#moveByCamera(track.carried, camera) };
    const uncertainty = index - track.lastDetected;
    const shows = (frames: number) => !this.#outside(this.#showing(track.label, moved, frames));
    // Brought back in by the camera, its margin is again that of every frame since its detection.
    if (track.waiting !== null && shows(track.waiting)) track.waiting = null;
    if (track.waiting !== null || !shows(uncertainty)) {
      // Out of the frame nothing shows how the face moves: it waits where the camera takes it, so
      // that a pan turning back brings the box back onto it (carried on by a velocity learned
      // inside, a track that left pan-others came back where no face was, 3 % of the frame), and
      // its margin grows no more, which would reach back in and blur the edge for as long as it
      // waits (enter-leave, faces that walked out: 6.3 -> 9.7 %).
      track.waiting ??= uncertainty;
      Object.assign(track, { cx: moved.cx, cy: moved.cy, w: moved.w, h: moved.h, vx: 0, vy: 0 });
      return;
    }
    track.cx = moved.cx + track.vx;
    track.cy = moved.cy + track.vy;
    // The size is the camera's (its zoom) alone: no size velocity is extrapolated. Detections of one
    // face differ in size by a fifth from run to run, and over a coast of 20-50 frames a velocity
    // learned from two of them grew a box on pan-small to 38 x 343 px (a 9:1 face); the growing
    // margin covers what a face's own approach adds (bench/video-leaks.ts: blurred area 17.0 ->
    // 16.3 %, pan-small 24.8 -> 21.9 %, no face left visible more, with the real detector or the oracle).
    track.w = moved.w;
    track.h = moved.h;
  }

  /** A box (centre and size) moved by the camera from one frame to the next. */
  #moveByCamera(box: Geometry, camera: CameraMotion): Geometry {
    const [cx, cy] = moveByCamera(camera, box.cx, box.cy, this.options.frameWidth ?? 0, this.options.frameHeight ?? 0);
    return { cx, cy, w: box.w * camera.scale, h: box.h * camera.scale };
  }

  /** The inverse: a box moved back to the frame before. */
  #moveBackByCamera(box: Geometry, camera: CameraMotion): Geometry {
    const [cx, cy] = moveBackByCamera(camera, box.cx, box.cy, this.options.frameWidth ?? 0, this.options.frameHeight ?? 0);
    return { cx, cy, w: box.w / camera.scale, h: box.h / camera.scale };
  }

  /** A box of frame `from` where the camera took it in frame `to` (either direction; the motion between must be known). */
  #carry(box: Observation, from: number, to: number): Observation {
    let g: Geometry = box;
    for (let k = from + 1; k <= to; k++) g = this.#moveByCamera(g, this.#motion.get(k) ?? STILL);
    for (let k = from; k > to; k--) g = this.#moveBackByCamera(g, this.#motion.get(k) ?? STILL);
    return { ...box, cx: g.cx, cy: g.cy, w: g.w, h: g.h };
  }

  #associate(index: number, found: Detection[]): void {
    const live = this.#live();
    const detections = found.map((d) => this.#whole(d));
    const { minIou, maxCentreDistance, unknownSpeed, maxSizeRatio, frameWidth, frameHeight } = this.options;
    const frameDiagonal = frameWidth !== undefined && frameHeight !== undefined ? Math.hypot(frameWidth, frameHeight) : null;
    // Per pair: the cost, and whether only a seen-once track's unknown speed lets it match.
    const pairs = live.map((track) =>
      detections.map((d) => {
        if (d.label !== track.label) return { cost: FORBIDDEN, bySpeed: false };
        if (Math.max(d.width / track.w, track.w / d.width) > maxSizeRatio) return { cost: FORBIDDEN, bySpeed: false };
        const predicted = boxOf(track);
        const iou = intersectionOverUnion(predicted, d);
        const dist = Math.hypot(d.x + d.width / 2 - track.cx, d.y + d.height / 2 - track.cy) / Math.hypot(track.w, track.h);
        const near = iou >= minIou || dist <= maxCentreDistance;
        const reach = maxCentreDistance + (track.hits === 1 ? (unknownSpeed * (index - track.lastDetected) * (frameDiagonal ?? Math.hypot(track.w, track.h))) / Math.hypot(track.w, track.h) : 0);
        if (!near && dist > reach) return { cost: FORBIDDEN, bySpeed: false };
        return { cost: 1 - iou + dist, bySpeed: !near };
      }),
    );
    const cost = pairs.map((row) => row.map((p) => p.cost));
    const match = assign(cost);
    const taken = new Set<number>();
    live.forEach((track, i) => {
      const j = match[i];
      if (j >= 0) {
        taken.add(j);
        if (pairs[i]![j]!.bySpeed) this.#coverBothStories(track, index, detections[j]!);
        this.#update(track, index, this.#whole(found[j]!, track));
      } else {
        this.#miss(track);
      }
    });
    // A settled story's track matched in this same run was found since: it goes on.
    for (const other of this.#settled.splice(0)) if (other.hits === 1) other.ended = true;
    detections.forEach((d, j) => {
      if (!taken.has(j)) this.#birth(index, d);
    });
  }

  #update(track: Track, index: number, d: SeenDetection): void {
    const z = observationOf(d);
    const gap = index - track.lastDetected;
    const covered = this.#withPrediction(track, z);
    // Where its coast put it, as this frame would have covered it had nothing been found.
    const coasted = this.options.coverCoastWhenFound && track.missed > 0 && track.hits >= 2 ? this.#grown(track, this.#margin("predicted", track.waiting ?? gap, track)) : null;
    const { alpha, beta } = this.options;
    if (track.hits === 1) {
      // Second sighting: velocity straight from the two detections (less the camera's part), no slow convergence.
      const prev = track.carried;
      // Not from an extent the edge cut and the tracker guessed: a face entering, completed to a
      // square 34 px wide, then seen 29 px wide, seemed to move by half the difference.
      const [pg, zg] = [prev.guessed ?? { x: 0, y: 0 }, z.guessed ?? { x: 0, y: 0 }];
      track.vx = speed([prev.cx - prev.w / 2, prev.cx + prev.w / 2, pg.x], [z.cx - z.w / 2, z.cx + z.w / 2, zg.x], gap);
      track.vy = speed([prev.cy - prev.h / 2, prev.cy + prev.h / 2, pg.y], [z.cy - z.h / 2, z.cy + z.h / 2, zg.y], gap);
      Object.assign(track, { cx: z.cx, cy: z.cy, w: z.w, h: z.h });
      this.#moveBackfill(track);
    } else {
      this.#settleStories(track, index, z);
      const rx = z.cx - track.cx;
      const ry = z.cy - track.cy;
      const rw = z.w - track.w;
      const rh = z.h - track.h;
      track.cx += alpha * rx;
      track.cy += alpha * ry;
      track.w += alpha * rw;
      track.h += alpha * rh;
      track.vx += (beta * rx) / gap;
      track.vy += (beta * ry) / gap;
    }
    // Frames since the previous detection get the interpolation between the two detections, each
    // carried to that frame by the camera (a pan between them is followed, not cut across).
    const prev = track.lastDetectedObs;
    for (let k = track.lastDetected + 1; k < index; k++) {
      const o = track.obs.get(k);
      if (!o || o.source === "backfilled") continue;
      const t = (k - track.lastDetected) / gap;
      const a = this.#carry(prev, track.lastDetected, k), b = this.#carry(covered, index, k);
      track.obs.set(k, {
        cx: lerp(a.cx, b.cx, t), cy: lerp(a.cy, b.cy, t), w: lerp(a.w, b.w, t), h: lerp(a.h, b.h, t),
        source: "interpolated", uncertainty: Math.min(k - track.lastDetected, index - k),
      });
    }
    track.obs.set(index, coasted ? { ...covered, coast: boxOf(coasted) } : covered);
    track.hits++;
    track.missed = 0;
    track.waiting = null;
    track.lastDetected = index;
    track.lastDetectedObs = covered;
    track.carried = z;
    track.lastIndex = index;
    track.score = d.score;
  }

  /**
   * What a detection the frame's edge cut covers of a track with a velocity: along the axis the
   * edge cut, its completed box and the track's prediction for this frame together. Cut by the
   * edge, a face is often boxed by a part of what shows: a 34 px face leaving pan-others at 30 fps
   * was boxed 8 of its 32 px in view, and the box interpolated from there left 22 % of it bare in
   * the next frame. Across the cut the detection is as sure as anywhere: the union on both axes
   * blurred 31.5 % of scene-cut's frame (large faces at its bottom edge), along the cut 30.7 %,
   * without it 30.4 % (bench/video-leaks.ts --replay).
   */
  #withPrediction(track: Track, z: Observation): Observation {
    const { guessed } = z;
    if (track.hits < 2 || !guessed || (!guessed.x && !guessed.y)) return z;
    const [cx, w] = guessed.x ? spanOfBoth(z.cx, z.w, track.cx, track.w) : [z.cx, z.w];
    const [cy, h] = guessed.y ? spanOfBoth(z.cy, z.h, track.cy, track.h) : [z.cy, z.h];
    return { ...z, cx, cy, w, h };
  }

  /** A run without a match: a track ends after maxMissed of them (maxMissedOnce when seen once). */
  #miss(track: Track): void {
    const limit = track.hits === 1 ? (this.options.maxMissedOnce ?? this.options.maxMissed) : this.options.maxMissed;
    if (++track.missed > limit) track.ended = true;
  }

  #birth(index: number, d: SeenDetection): void {
    this.#tracks.push(this.#newTrack(index, d));
  }

  /** A track first detected in frame `index`, backfilled to the frames before it that are not final. */
  #newTrack(index: number, d: SeenDetection): Track {
    const z = observationOf(d);
    const track: Track = {
      id: this.#nextId++, label: d.label, score: d.score,
      cx: z.cx, cy: z.cy, w: z.w, h: z.h, vx: 0, vy: 0,
      hits: 1, missed: 0, lastDetected: index, waiting: null, lastDetectedObs: z, carried: z,
      birth: index, firstIndex: index, lastIndex: index, ended: false, obs: new Map([[index, z]]),
    };
    const from = Math.max(this.#nextFinal, this.#shotStart, index - this.options.backfill, 0);
    for (let k = from; k < index; k++) {
      track.obs.set(k, { ...this.#carry(z, index, k), raw: undefined, source: "backfilled", uncertainty: index - k });
    }
    track.firstIndex = Math.min(from, index);
    return track;
  }

  /**
   * A track seen once, matched only through its unknown speed, tells one of two stories: its face
   * moved there, or its face was missed and the detection is another face, new to the tracker (in
   * a crowd, the next one along). Matching tells the first; the second is covered too: the track
   * as it stood, coasting on (a copy under a new id), and the detection's face as a new track,
   * backfilled and coasting on from where it was seen. Backfilled only, a face seen that once was
   * bare from the next frame on while the matched track went on at the speed the pair made up
   * (bench/video-leaks.ts pan-crowd: 54 frames showing a face, 42 with the coast; a walking
   * person on bench/people.ts --video, 16 frames).
   */
  #coverBothStories(track: Track, index: number, d: SeenDetection): void {
    const copy: Track = { ...track, id: this.#nextId++, obs: new Map([...track.obs].map(([k, o]) => [k, { ...o }])) };
    this.#miss(copy);
    this.#tracks.push(copy);
    // The detection's face as a new track: backfilled, and coasting on from where it was seen.
    const other = this.#newTrack(index, d);
    this.#tracks.push(other);
    track.otherStory = { tracks: [copy, other], seen: observationOf(d), at: index };
  }

  /**
   * A third sighting nearer where the track's velocity put it than where the camera alone took
   * the second says its face did move: the other story's tracks (the copy and the detection's
   * face), unless found since or in this same run, end once the run's matches are applied (ended
   * before, a face of the other story found beside the third was bare from then on: the oracle on
   * pan-crowd 73 -> 67 frames showing a face of 20 px or more, on pan-crowd-2 61 -> 36). What
   * they covered before this frame stays: in a row of faces
   * evenly spaced the face after next lies where a velocity made up of two neighbours puts it, so
   * in a crowd the third sighting is often a third face, and the other story's faces were bare
   * wherever their boxes were taken back (bench/video-leaks.ts pan-crowd, the same detections
   * replayed: 117 -> 97 face-frames showing; the oracle, 75 -> 73 frames showing a face of 20 px
   * or more; the six clips 17.7 -> 17.8 % blurred, at CRF 35 18.4 -> 18.8 %, no frame leaks more).
   */
  #settleStories(track: Track, index: number, z: Observation): void {
    const story = track.otherStory;
    if (!story) return;
    track.otherStory = undefined;
    const standing = this.#carry(story.seen, story.at, index);
    if (Math.hypot(z.cx - standing.cx, z.cy - standing.cy) <= Math.hypot(z.cx - track.cx, z.cy - track.cy)) return;
    this.#settled.push(...story.tracks);
  }

  /** Once a velocity is known, backfilled boxes follow it (and the camera) back in time instead of only the camera. */
  #moveBackfill(track: Track): void {
    const first = track.obs.get(track.birth);
    if (!first) return;
    for (let k = track.firstIndex; k < track.birth; k++) {
      const o = track.obs.get(k);
      if (!o) continue;
      const carried = this.#carry(first, track.birth, k);
      o.cx = carried.cx - track.vx * (track.birth - k);
      o.cy = carried.cy - track.vy * (track.birth - k);
    }
  }

  #finalise(upTo: number): FrameCoverage[] {
    const out: FrameCoverage[] = [];
    for (; this.#nextFinal <= upTo; this.#nextFinal++) {
      const index = this.#nextFinal;
      const boxes: TrackedBox[] = [];
      for (const track of this.#tracks) {
        const box = this.#coverBox(track, index);
        if (box) boxes.push(box);
      }
      out.push({ index, boxes, detections: this.#pendingDetections.get(index) ?? null });
      this.#pendingDetections.delete(index);
    }
    this.#prune();
    return out;
  }

  #coverBox(track: Track, index: number): TrackedBox | null {
    const o = track.obs.get(index);
    if (!o) return null;
    const { smoothingRadius, frameWidth, frameHeight } = this.options;
    const known = track.ended ? track.lastIndex : this.#nextIndex - 1;
    const r = Math.max(0, Math.min(smoothingRadius, index - track.firstIndex, known - index));
    let cx = 0, cy = 0, w = 0, h = 0, total = 0;
    for (let k = -r; k <= r; k++) {
      const seen = track.obs.get(index + k);
      if (!seen) continue;
      // Where the camera took it in this frame. Averaged where they lay, a pan turning back put the
      // boxes of a 10 fps video (40 px a frame) beside their faces in the frame it turned on: the
      // oracle left 12 of 540 frames of the six clips showing a face, now 2 (bench/video-leaks.ts
      // --fps 10); at 25 fps no frame leaks either way.
      const n = this.#carry(seen, index + k, index);
      const weight = r + 1 - Math.abs(k);
      cx += weight * n.cx;
      cy += weight * n.cy;
      w += weight * n.w;
      h += weight * n.h;
      total += weight;
    }
    cx /= total;
    cy /= total;
    w /= total;
    h /= total;
    const box = { cx, cy, w, h };
    if (o.source === "predicted" && this.#outside(this.#showing(track.label, box, o.uncertainty))) return null;
    const grown = this.#grown(box, this.#margin(o.source, o.uncertainty, box));
    let x0 = grown.cx - grown.w / 2;
    let y0 = grown.cy - grown.h / 2;
    let x1 = grown.cx + grown.w / 2;
    let y1 = grown.cy + grown.h / 2;
    for (const seen of [o.raw, o.coast]) {
      // Never less than what the detector saw in this very frame, nor than a coast it ended.
      if (!seen) continue;
      x0 = Math.min(x0, seen.x);
      y0 = Math.min(y0, seen.y);
      x1 = Math.max(x1, seen.x + seen.width);
      y1 = Math.max(y1, seen.y + seen.height);
    }
    if (frameWidth !== undefined) {
      x0 = Math.max(0, x0);
      x1 = Math.min(frameWidth, x1);
    }
    if (frameHeight !== undefined) {
      y0 = Math.max(0, y0);
      y1 = Math.min(frameHeight, y1);
    }
    if (x1 <= x0 || y1 <= y0) return null;
    return { x: x0, y: y0, width: x1 - x0, height: y1 - y0, trackId: track.id, label: track.label, score: track.score, source: o.source };
  }

  /** The margin, as a fraction of its size, of a covered box of this source that many frames from a detection. */
  #margin(source: CoverSource, uncertainty: number, g: Geometry): number {
    const { margin, marginPerUncertainFrame, backfillMarginPerFrame, maxMargin, edgeMargin } = this.options;
    const perFrame = source === "backfilled" ? backfillMarginPerFrame : marginPerUncertainFrame;
    const m = Math.min(maxMargin, margin + perFrame * uncertainty);
    const guessed = source === "predicted" || source === "backfilled";
    return guessed && this.#pastTheEdge(this.#grown(g, m)) ? m + edgeMargin : m;
  }

  /**
   * What of a predicted box says whether its object still shows. A face the edge cuts is boxed by
   * what is left of it and completed past the edge to its track's size, so its track runs ahead of
   * it while it leaves (pan-tiny with motion blur: wholly past the edge while 19 px of a 26 px face
   * still showed): it shows until its margin is out too. Other labels are tracked as seen: until
   * the box is out (a person's track lost upwards, its margin drawn for 14 frames more, took the
   * slowly panning removal clip's fill from 30 to 22 dB, test/compute/object-removal.test.ts).
   */
  #showing(label: string, g: Geometry, uncertainty: number): Geometry {
    return this.options.wholeShapes[label] === undefined ? g : this.#grown(g, this.#margin("predicted", uncertainty, g));
  }

  #grown(g: Geometry, m: number): Geometry {
    return { cx: g.cx, cy: g.cy, w: g.w * (1 + 2 * m), h: g.h * (1 + 2 * m) };
  }

  /**
   * A detection as tracked, with the box seen as `raw`: where the frame's edge cuts it (a label of
   * wholeShapes), it goes on past that edge to `size`, the track's when it has one (what the edge
   * leaves of a face says nothing of its size: a face leaving pan-small was boxed 18 x 87 px in its
   * last frame, 35 x 47 before), else the label's shape.
   */
  #whole(d: Detection, size?: { w: number; h: number }): SeenDetection {
    const raw = { x: d.x, y: d.y, width: d.width, height: d.height };
    const aspect = this.options.wholeShapes[d.label];
    const { frameWidth, frameHeight } = this.options;
    if (aspect === undefined || frameWidth === undefined || frameHeight === undefined) return { ...d, raw };
    let { x, y, width, height } = raw;
    const { left, right, top, bottom } = edgesCutting(raw, frameWidth, frameHeight);
    const across = (size?.w ?? aspect * raw.height) - width, down = (size?.h ?? raw.width / aspect) - height;
    // Only past one edge of a pair: a box touching both spans the frame, and nothing says which way it goes on.
    const guessed: Guessed = { x: across > 0 && left !== right ? (left ? -1 : 1) : 0, y: down > 0 && top !== bottom ? (top ? -1 : 1) : 0 };
    if (guessed.x) {
      if (left) x -= across;
      width += across;
    }
    if (guessed.y) {
      if (top) y -= down;
      height += down;
    }
    return { ...d, x, y, width, height, raw, guessed };
  }

  /** Whether a box lies wholly outside the frame (with frameWidth/frameHeight). */
  #outside(g: Geometry): boolean {
    const { frameWidth, frameHeight } = this.options;
    if (frameWidth === undefined || frameHeight === undefined) return false;
    return g.cx + g.w / 2 <= 0 || g.cy + g.h / 2 <= 0 || g.cx - g.w / 2 >= frameWidth || g.cy - g.h / 2 >= frameHeight;
  }

  /** Whether a box reaches past the frame's edge; never without a frame size. */
  #pastTheEdge({ cx, cy, w, h }: Geometry): boolean {
    const { frameWidth, frameHeight } = this.options;
    if (frameWidth === undefined || frameHeight === undefined) return false;
    return cx - w / 2 < 0 || cy - h / 2 < 0 || cx + w / 2 > frameWidth || cy + h / 2 > frameHeight;
  }

  /** Drop what no pending frame can need again: old observations, finished tracks, camera motion no box can be carried through. */
  #prune(): void {
    const keepFrom = this.#nextFinal - this.options.smoothingRadius;
    this.#tracks = this.#tracks.filter((track) => {
      // A track holds at most lookahead + radius + 1 observations, so a full scan is cheap.
      for (const k of track.obs.keys()) if (k < keepFrom) track.obs.delete(k);
      return !(track.ended && track.lastIndex < this.#nextFinal);
    });
    // Boxes are carried from a track's last detection on (interpolation) and, at its second
    // detection, back from its birth, which is then its last detection: the motion before the
    // oldest last detection is never read again (keeping it from birth grew with a track's life).
    const motionFrom = Math.min(keepFrom, ...this.#tracks.map((t) => t.lastDetected));
    for (const k of this.#motion.keys()) if (k <= motionFrom) this.#motion.delete(k);
  }
}

/** A detection as the tracker follows it, with the box the detector saw and where it completed that. */
interface SeenDetection extends Detection {
  raw: Box;
  guessed?: Guessed;
}

type Guessed = { x: -1 | 0 | 1; y: -1 | 0 | 1 };

/**
 * Per-frame motion along one axis between two sightings (low edge, high edge, side guessed): of
 * their centres, or where one was completed past the frame's edge, of the edge the frame did not
 * cut in either (0 when there is none).
 */
function speed([a0, a1, ac]: [number, number, number], [b0, b1, bc]: [number, number, number], gap: number): number {
  if (!ac && !bc) return ((b0 + b1) / 2 - (a0 + a1) / 2) / gap;
  if (ac !== -1 && bc !== -1) return (b0 - a0) / gap;
  if (ac !== 1 && bc !== 1) return (b1 - a1) / gap;
  return 0;
}

/** The centre and length of the span two spans (centre, length) cover together. */
function spanOfBoth(c1: number, l1: number, c2: number, l2: number): [number, number] {
  const low = Math.min(c1 - l1 / 2, c2 - l2 / 2), high = Math.max(c1 + l1 / 2, c2 + l2 / 2);
  return [(low + high) / 2, high - low];
}

function observationOf(d: SeenDetection): Observation {
  return { cx: d.x + d.width / 2, cy: d.y + d.height / 2, w: d.width, h: d.height, source: "detected", uncertainty: 0, raw: d.raw, guessed: d.guessed };
}

function boxOf(g: Geometry): Box {
  return { x: g.cx - g.w / 2, y: g.cy - g.h / 2, width: g.w, height: g.h };
}

export function intersectionOverUnion(a: Box, b: Box): number {
  const ix = Math.max(0, Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x));
  const iy = Math.max(0, Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y));
  const inter = ix * iy;
  const union = a.width * a.height + b.width * b.height - inter;
  return union > 0 ? inter / union : 0;
}

function lerp(a: number, b: number, t: number): number {
  return a + (b - a) * t;
}
