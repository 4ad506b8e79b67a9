// The camera's own motion between consecutive frames (pan and zoom), so the tracker can tell
// "the camera moved" from "the face moved". Without it a pan moves every face in the frame the
// same way at once, a track that has been seen only once predicts its face standing still, and
// in a crowd of small faces the nearest detection to that guess is often the neighbour's: tracks
// swapped faces, took a wrong velocity and lost them (bench/video-leaks.ts, pan-tiny: a 17 px
// face left visible for 4 of 5 frames). Multi-object trackers do the same ("camera motion
// compensation", e.g. BoT-SORT); here it is a similarity without rotation, which is what pans,
// tilts and zooms of dashcams, body cams and handheld phones mostly are between two frames.
//
// Method: block matching on a two-level luma pyramid. The frame is averaged down to about 320 px
// wide (fine level) and 160 px (coarse level); on a grid of textured patches each patch's
// displacement is searched on the coarse level (±SEARCH coarse px: about ±60 px per frame at
// 720p), refined on the fine level (±2 px) with a sub-pixel parabola, and a scale-and-shift is
// fitted to the displacements by least squares, twice, the second time without the outliers
// (faces and cars that move on their own). Too few agreeing patches (a flat or fully changing
// picture) answers null: the motion is unknown and the tracker assumes a still camera, as before.
// Cost: a few ms per 720p frame, most of it in the downsampling.
// KeyFramePath measures each frame against a recent key frame instead, with a mask left out (the
// object-removal fill, compute/removal/background-model.ts): a zoom adds up better that way
// (test/compute/camera-motion.test.ts, pan-tiny: 2.0 px off after a 2.2x zoom, 5.5 chained).
import type { Frame, Mask } from "../types.ts";

/** p' = scale * (p - centre) + centre + (dx, dy): where a point of the previous frame is in this one. */
export interface CameraMotion {
  scale: number;
  dx: number;
  dy: number;
}

export const STILL: CameraMotion = { scale: 1, dx: 0, dy: 0 };

/** Fine level width; the coarse level is half of it. */
const FINE_WIDTH = 320;
/** Candidate patch centres (a grid), of which the MAX_PATCHES most textured are matched. */
const GRID_COLUMNS = 16;
const GRID_ROWS = 9;
const MAX_PATCHES = 40;
/** Patch half-size (coarse px) and the coarse search radius. */
const HALF = 6;
const SEARCH = 8;
/** Fine-level refinement: patch half-size and search radius around twice the coarse match. */
const FINE_HALF = 8;
const FINE_SEARCH = 2;
/** A patch flatter than this (luma standard deviation, 0-255) matches anywhere: skipped. */
const MIN_TEXTURE = 6;
/** Patches that must agree with the fit (and the fraction of the textured ones). */
const MIN_INLIERS = 6;
const MIN_INLIER_FRACTION = 0.5;
/** An inlier is within this many fine px of the fitted motion. */
const INLIER_DISTANCE = 1.5;

export interface Level {
  luma: Float32Array;
  width: number;
  height: number;
}

/** A frame as the matching sees it: its luma at two levels, and which coarse pixels a mask touches. */
interface Pyramid {
  fine: Level;
  coarse: Level;
  masked: Uint8Array | null;
  factor: number;
  width: number;
  height: number;
}

function pyramidOf(frame: Frame, mask: Mask | null = null): Pyramid {
  const { level: fine, factor } = fineLevel(frame);
  const coarse = halve(fine);
  let masked: Uint8Array | null = null;
  if (mask) {
    masked = new Uint8Array(coarse.width * coarse.height);
    const step = 2 * factor;
    for (let y = 0; y < mask.height; y++) {
      const row = Math.min(coarse.height - 1, Math.floor(y / step)) * coarse.width;
      for (let x = 0; x < mask.width; x++) if (mask.data[y * mask.width + x]) masked[row + Math.min(coarse.width - 1, Math.floor(x / step))] = 1;
    }
  }
  return { fine, coarse, masked, factor, width: frame.width, height: frame.height };
}

/** Where a point of `from` is in `to` (null: unknown); patches a mask of either touches are left out. */
function motionBetween(from: Pyramid, to: Pyramid): CameraMotion | null {
  if (from.width !== to.width || from.height !== to.height) return null;
  const touched = (cx: number, cy: number) => [from.masked, to.masked].some((m) => m && windowTouches(m, to.coarse.width, to.coarse.height, cx, cy, HALF + 2));
  const fit = robustFit(patchShifts(from.fine, from.coarse, to.fine, to.coarse, touched), to.fine.width / 2, to.fine.height / 2);
  // Fine px -> frame px: the scale is the same, the shift scales with the factor.
  return fit && { scale: fit.scale, dx: fit.dx * to.factor, dy: fit.dy * to.factor };
}

/** Feeds frames in order; answers each frame's motion from the previous one (null: unknown). */
export class CameraMotionEstimator {
  #previous: Pyramid | null = null;

  next(frame: Frame): CameraMotion | null {
    const current = pyramidOf(frame);
    const previous = this.#previous;
    this.#previous = current;
    return previous && motionBetween(previous, current);
  }
}

/** Frames between key frames of a KeyFramePath. */
const KEY_STEP = 10;

/**
 * Feeds frames in order; answers where a point of the first frame is in each one, measured against
 * a key frame renewed every KEY_STEP frames. Frame to frame, the sub-pixel matching shrinks the
 * small shifts a zoom gives near the centre: chained over a 0.4 %/frame zoom it found 1.21x where
 * the camera had zoomed 1.30x in 75 frames; against a key frame 10 frames back, 1.293x, and the
 * shift within 0.3 px. `epoch` counts restarts: when a frame does not match its key frame (a cut,
 * a flat picture) the path starts again from it, and motions of two epochs do not compose.
 */
export class KeyFramePath {
  #key: { pyramid: Pyramid; index: number; fromFirst: CameraMotion } | null = null;
  #index = -1;
  #epoch = 0;

  /** `mask`: what moves on its own (an object being removed), left out of the matching. */
  next(frame: Frame, mask: Mask | null = null): { motion: CameraMotion; epoch: number } | null {
    const pyramid = pyramidOf(frame, mask);
    const index = ++this.#index;
    const key = this.#key;
    const step = key && motionBetween(key.pyramid, pyramid);
    if (!key || !step) {
      // Unknown for this frame; after KEY_STEP frames without a match, a new start from here.
      if (key && index - key.index < KEY_STEP) return null;
      if (key) this.#epoch++;
      this.#key = { pyramid, index, fromFirst: STILL };
      return { motion: STILL, epoch: this.#epoch };
    }
    const motion = composeMotion(key.fromFirst, step);
    // A new key frame every KEY_STEP frames, or sooner where the picture has moved half as far
    // from it as the search reaches (a fast pan): at the frame's corners, in fine px.
    const corner = (Math.abs(step.scale - 1) * Math.hypot(pyramid.width, pyramid.height)) / 2 + Math.hypot(step.dx, step.dy);
    if (index - key.index >= KEY_STEP || corner / pyramid.factor > SEARCH) this.#key = { pyramid, index, fromFirst: motion };
    return { motion, epoch: this.#epoch };
  }
}

/** Where a point of the previous frame is in the next one. */
export function moveByCamera(m: CameraMotion, x: number, y: number, width: number, height: number): [number, number] {
  return [m.scale * (x - width / 2) + width / 2 + m.dx, m.scale * (y - height / 2) + height / 2 + m.dy];
}

/** The inverse: where a point of the next frame was in the previous one. */
export function moveBackByCamera(m: CameraMotion, x: number, y: number, width: number, height: number): [number, number] {
  return [(x - width / 2 - m.dx) / m.scale + width / 2, (y - height / 2 - m.dy) / m.scale + height / 2];
}

/** The camera's motion over two steps: first `a`, then `b`. */
export function composeMotion(a: CameraMotion, b: CameraMotion): CameraMotion {
  return { scale: a.scale * b.scale, dx: b.scale * a.dx + b.dx, dy: b.scale * a.dy + b.dy };
}

/** Frames a CameraPath remembers (more than any look-ahead or detection interval). */
const PATH_FRAMES = 128;

/** The camera's motion from frame to frame as a video goes by, composed between any two recent frames. */
export class CameraPath {
  /** Frame index -> motion from the frame before (null: unknown, or a scene cut). */
  #steps = new Map<number, CameraMotion | null>();

  record(index: number, motion: CameraMotion | null): void {
    this.#steps.set(index, motion);
    this.#steps.delete(index - PATH_FRAMES);
  }

  /** Where a point of frame `from` is in frame `to` (from < to); null when a step is unknown, cut or forgotten. */
  between(from: number, to: number): CameraMotion | null {
    let motion = STILL;
    for (let i = from + 1; i <= to; i++) {
      const step = this.#steps.get(i);
      if (!step) return null;
      motion = composeMotion(motion, step);
    }
    return motion;
  }
}

/** The frame's luma at about FINE_WIDTH px wide, and the factor it was averaged down by. */
export function fineLevel(frame: Frame): { level: Level; factor: number } {
  const factor = Math.max(1, Math.round(frame.width / FINE_WIDTH));
  return { level: downsample(frame, factor), factor };
}

/** Luma averaged over factor x factor blocks, from every other pixel each way of large blocks (a quarter of the reads, and still low-passed enough to match on). */
function downsample(frame: Frame, factor: number): Level {
  const width = Math.floor(frame.width / factor), height = Math.floor(frame.height / factor);
  const luma = new Float32Array(width * height);
  const { data, channels } = frame;
  const step = factor >= 4 ? 2 : 1;
  const norm = 1 / (4 * (factor / step) ** 2);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let sum = 0;
      for (let yy = y * factor; yy < (y + 1) * factor; yy += step) {
        let i = (yy * frame.width + x * factor) * channels;
        for (let xx = 0; xx < factor; xx += step, i += step * channels) sum += data[i]! + 2 * data[i + 1]! + data[i + 2]!;
      }
      luma[y * width + x] = sum * norm;
    }
  }
  return { luma, width, height };
}

function halve(level: Level): Level {
  const width = level.width >> 1, height = level.height >> 1;
  const luma = new Float32Array(width * height);
  const src = level.luma, w = level.width;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = 2 * y * w + 2 * x;
      luma[y * width + x] = (src[i]! + src[i + 1]! + src[i + w]! + src[i + w + 1]!) / 4;
    }
  }
  return { luma, width, height };
}

interface Shift {
  /** Patch centre in the previous fine level, and its displacement (fine px). */
  x: number;
  y: number;
  dx: number;
  dy: number;
}

/** Whether any pixel of `masked` (w x h) within `half` of (cx, cy) is set. */
function windowTouches(masked: Uint8Array, w: number, h: number, cx: number, cy: number, half: number): boolean {
  for (let y = Math.max(0, cy - half); y <= Math.min(h - 1, cy + half); y++) {
    for (let x = Math.max(0, cx - half); x <= Math.min(w - 1, cx + half); x++) if (masked[y * w + x]) return true;
  }
  return false;
}

function patchShifts(prevFine: Level, prevCoarse: Level, fine: Level, coarse: Level, leaveOut?: (cx: number, cy: number) => boolean): Shift[] {
  // Patch centres far enough from the edges for both searches; the most textured ones are used
  // (a picture may be mostly sky, road or wall).
  const margin = Math.max(HALF + SEARCH + 1, Math.ceil((FINE_HALF + 2 * SEARCH + FINE_SEARCH + 2) / 2));
  const candidates: { cx: number; cy: number; texture: number }[] = [];
  for (let r = 0; r < GRID_ROWS; r++) {
    for (let c = 0; c < GRID_COLUMNS; c++) {
      const cx = Math.round(margin + ((coarse.width - 2 * margin) * (c + 0.5)) / GRID_COLUMNS);
      const cy = Math.round(margin + ((coarse.height - 2 * margin) * (r + 0.5)) / GRID_ROWS);
      const texture = deviation(prevCoarse, cx, cy, HALF);
      if (texture >= MIN_TEXTURE && !leaveOut?.(cx, cy)) candidates.push({ cx, cy, texture });
    }
  }
  candidates.sort((a, b) => b.texture - a.texture);
  return candidates.slice(0, MAX_PATCHES).map(({ cx, cy }) => {
    const rough = bestOffset(prevCoarse, coarse, cx, cy, HALF, 0, 0, SEARCH);
    const sharp = bestOffset(prevFine, fine, 2 * cx, 2 * cy, FINE_HALF, 2 * rough.dx, 2 * rough.dy, FINE_SEARCH);
    return { x: 2 * cx, y: 2 * cy, dx: sharp.dx + sharp.subX, dy: sharp.dy + sharp.subY };
  });
}

function deviation(level: Level, cx: number, cy: number, half: number): number {
  let sum = 0, sum2 = 0, n = 0;
  for (let y = cy - half; y <= cy + half; y++) {
    for (let x = cx - half; x <= cx + half; x++) {
      const v = level.luma[y * level.width + x]!;
      sum += v;
      sum2 += v * v;
      n++;
    }
  }
  return Math.sqrt(Math.max(0, sum2 / n - (sum / n) ** 2));
}

/** The integer offset (around ox, oy, within ±radius) where the patch of `a` at (cx, cy) best matches `b` (sum of absolute differences), with a sub-pixel correction. */
function bestOffset(a: Level, b: Level, cx: number, cy: number, half: number, ox: number, oy: number, radius: number) {
  const side = 2 * radius + 1;
  const cost = new Float64Array(side * side);
  let best = Infinity, bx = 0, by = 0;
  for (let dy = -radius; dy <= radius; dy++) {
    for (let dx = -radius; dx <= radius; dx++) {
      let sad = 0;
      for (let y = -half; y <= half; y++) {
        const ia = (cy + y) * a.width + cx - half;
        const ib = (cy + y + oy + dy) * b.width + cx + ox + dx - half;
        for (let x = 0; x <= 2 * half; x++) sad += Math.abs(a.luma[ia + x]! - b.luma[ib + x]!);
      }
      cost[(dy + radius) * side + dx + radius] = sad;
      if (sad < best) {
        best = sad;
        bx = dx;
        by = dy;
      }
    }
  }
  const at = (dx: number, dy: number) => cost[(dy + radius) * side + dx + radius]!;
  const vertex = (l: number, m: number, r: number) => {
    const d = l - 2 * m + r;
    return d > 0 ? Math.max(-0.5, Math.min(0.5, (l - r) / (2 * d))) : 0;
  };
  const subX = Math.abs(bx) < radius ? vertex(at(bx - 1, by), best, at(bx + 1, by)) : 0;
  const subY = Math.abs(by) < radius ? vertex(at(bx, by - 1), best, at(bx, by + 1)) : 0;
  return { dx: ox + bx, dy: oy + by, subX, subY };
}

/** Least-squares scale-and-shift about (cx, cy), refitted on the inliers; null when too few agree. */
function robustFit(shifts: Shift[], cx: number, cy: number): CameraMotion | null {
  if (shifts.length < MIN_INLIERS) return null;
  let fit = fitScaleShift(shifts, cx, cy);
  if (!fit) return null;
  for (let round = 0; round < 2; round++) {
    const model: CameraMotion = fit;
    const inliers: Shift[] = shifts.filter((s) => residual(model, s, cx, cy) <= INLIER_DISTANCE);
    if (inliers.length < Math.max(MIN_INLIERS, MIN_INLIER_FRACTION * shifts.length)) {
      // The first fit may be pulled by outliers: retry from the median shift before giving up.
      if (round > 0) return null;
      const median = { scale: 1, dx: medianOf(shifts.map((s) => s.dx)), dy: medianOf(shifts.map((s) => s.dy)) };
      const near = shifts.filter((s) => residual(median, s, cx, cy) <= 2 * INLIER_DISTANCE);
      if (near.length < MIN_INLIERS) return null;
      fit = fitScaleShift(near, cx, cy);
      if (!fit) return null;
      continue;
    }
    fit = fitScaleShift(inliers, cx, cy) ?? fit;
  }
  return fit;
}

function residual(m: CameraMotion, s: Shift, cx: number, cy: number): number {
  const px = (m.scale - 1) * (s.x - cx) + m.dx, py = (m.scale - 1) * (s.y - cy) + m.dy;
  return Math.hypot(px - s.dx, py - s.dy);
}

/** Displacement = a * (p - c) + t, solved for a (= scale - 1) and t by the normal equations. */
function fitScaleShift(shifts: Shift[], cx: number, cy: number): CameraMotion | null {
  let sqq = 0, sqx = 0, sqy = 0, sdq = 0, sdx = 0, sdy = 0;
  const n = shifts.length;
  for (const s of shifts) {
    const qx = s.x - cx, qy = s.y - cy;
    sqq += qx * qx + qy * qy;
    sqx += qx;
    sqy += qy;
    sdq += s.dx * qx + s.dy * qy;
    sdx += s.dx;
    sdy += s.dy;
  }
  // Eliminate t = (sd - a * sq) / n from the equation for a.
  const denominator = sqq - (sqx * sqx + sqy * sqy) / n;
  if (denominator <= 1e-9) return null;
  const a = (sdq - (sdx * sqx + sdy * sqy) / n) / denominator;
  return { scale: 1 + a, dx: (sdx - a * sqx) / n, dy: (sdy - a * sqy) / n };
}

/** The median of a few numbers (the upper one of an even count). */
export function medianOf(values: number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[sorted.length >> 1]!;
}
