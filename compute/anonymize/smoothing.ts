// Per-track landmark smoothing (One-Euro filter, Casiez et al. 2012): strong smoothing when the
// face is still (kills the landmark model's jitter, which would otherwise make the drawn features
// shimmer), little lag when it moves fast. Cut-offs are in face units per frame, so the behaviour
// does not depend on the face's size in pixels.
import type { Pt } from "./raster.ts";
import { faceFrame } from "./geometry.ts";

export interface SmootherOptions {
  /** Minimum cut-off (cycles per frame) at rest; lower = smoother. */
  minCutoff: number;
  /** How fast the cut-off rises with speed (per IOD per frame). */
  beta: number;
  /** Cut-off of the speed estimate. */
  dCutoff: number;
}

export const DEFAULT_SMOOTHER_OPTIONS: SmootherOptions = { minCutoff: 0.08, beta: 6, dCutoff: 0.3 };

const alphaOf = (cutoff: number) => {
  const tau = 1 / (2 * Math.PI * cutoff);
  return 1 / (1 + tau);
};

export class LandmarkSmoother {
  private prev: Pt[] | null = null;
  private dprev: Pt[] | null = null;
  readonly options: SmootherOptions;

  constructor(options: Partial<SmootherOptions> = {}) {
    this.options = { ...DEFAULT_SMOOTHER_OPTIONS, ...options };
  }

  reset(): void {
    this.prev = null;
    this.dprev = null;
  }

  /** Feed this frame's raw landmarks, get the smoothed ones. */
  push(points: Pt[]): Pt[] {
    if (!this.prev || this.prev.length !== points.length) {
      this.prev = points.map((p) => ({ ...p }));
      this.dprev = points.map(() => ({ x: 0, y: 0 }));
      return points.map((p) => ({ ...p }));
    }
    const iod = faceFrame(points).iod;
    const { minCutoff, beta, dCutoff } = this.options;
    const ad = alphaOf(dCutoff);
    // One speed for the whole face (mean landmark motion): all points share one cut-off, so the
    // face moves rigidly instead of parts lagging differently.
    let speed = 0;
    const d = points.map((p, i) => {
      const dx = ad * (p.x - this.prev![i].x) + (1 - ad) * this.dprev![i].x;
      const dy = ad * (p.y - this.prev![i].y) + (1 - ad) * this.dprev![i].y;
      speed += Math.hypot(dx, dy);
      return { x: dx, y: dy };
    });
    speed /= points.length * Math.max(1e-3, iod);
    const a = alphaOf(minCutoff + beta * speed);
    const out = points.map((p, i) => ({ x: this.prev![i].x + a * (p.x - this.prev![i].x), y: this.prev![i].y + a * (p.y - this.prev![i].y) }));
    this.prev = out;
    this.dprev = d;
    return out.map((p) => ({ ...p }));
  }
}

/** Weights of a local linear fit (triangular weights) over offsets -lo..hi, evaluated at 0. */
function fitWeights(lo: number, hi: number, radius: number): number[] {
  const w = (k: number) => radius + 1 - Math.abs(k);
  let sw = 0, sk = 0, skk = 0;
  for (let k = -lo; k <= hi; k++) {
    sw += w(k);
    sk += w(k) * k;
    skk += w(k) * k * k;
  }
  const det = sw * skk - sk * sk;
  const out: number[] = [];
  for (let k = -lo; k <= hi; k++) out.push(det > 1e-9 ? (w(k) * (skk - sk * k)) / det : w(k) / sw);
  return out;
}

/** Similarity pose of a landmark set: centroid, RMS radius, angle of the eye line. */
function poseOf(pts: Pt[]): { cx: number; cy: number; s: number; a: number } {
  let cx = 0, cy = 0;
  for (const p of pts) {
    cx += p.x;
    cy += p.y;
  }
  cx /= pts.length;
  cy /= pts.length;
  let ss = 0;
  for (const p of pts) ss += (p.x - cx) ** 2 + (p.y - cy) ** 2;
  const f = faceFrame(pts);
  return { cx, cy, s: Math.sqrt(ss / pts.length) || 1, a: Math.atan2(f.sin, f.cos) };
}

/**
 * Centred (non-causal) smoothing of one track's landmarks. Each frame's landmarks are split into a
 * similarity pose (centroid, size, roll) and a normalised shape; the shape (where the landmark
 * model's jitter lives: eye corners, lips) is smoothed over `radius` frames each side, the pose,
 * which follows the head and the camera, over `poseRadius` frames only, so the drawn face stays
 * locked onto the moving head. Both use a weighted local linear fit evaluated at the centre: with
 * the whole window present it is a symmetric weighted mean, with no lag behind linear motion
 * (unlike One-Euro or any causal filter); where the track starts or ends the fit uses the part it
 * has. Needs `radius` frames of look-ahead (the video pipeline holds them back). `seq[k]` are the
 * raw landmarks at frame k (undefined when the track has none); the window stops at a gap.
 */
export function centredLandmarks(seq: ReadonlyArray<Pt[] | undefined>, centre: number, radius: number, poseRadius = CENTRED_POSE_RADIUS): Pt[] {
  const mid = seq[centre];
  if (!mid) throw new Error(`no landmarks at frame ${centre}`);
  let lo = 0;
  let hi = 0;
  while (lo < radius && seq[centre - lo - 1]?.length === mid.length) lo++;
  while (hi < radius && seq[centre + hi + 1]?.length === mid.length) hi++;
  if (lo + hi === 0) return mid.map((p) => ({ ...p }));
  const poses = new Map<number, ReturnType<typeof poseOf>>();
  for (let k = -lo; k <= hi; k++) poses.set(k, poseOf(seq[centre + k]!));
  const a0 = poses.get(0)!.a;
  // Shape: landmarks in each frame's own pose frame, smoothed.
  const shape = mid.map(() => ({ x: 0, y: 0 }));
  const ws = fitWeights(lo, hi, radius);
  for (let k = -lo; k <= hi; k++) {
    const c = ws[k + lo];
    const P = poses.get(k)!;
    const cos = Math.cos(-P.a), sin = Math.sin(-P.a);
    const pts = seq[centre + k]!;
    for (let i = 0; i < shape.length; i++) {
      const x = (pts[i].x - P.cx) / P.s;
      const y = (pts[i].y - P.cy) / P.s;
      shape[i].x += c * (x * cos - y * sin);
      shape[i].y += c * (x * sin + y * cos);
    }
  }
  // Pose: smoothed over the shorter window (angles unwrapped around the centre frame's).
  const pl = Math.min(lo, poseRadius);
  const ph = Math.min(hi, poseRadius);
  const wp = fitWeights(pl, ph, poseRadius);
  let cx = 0, cy = 0, s = 0, a = 0;
  for (let k = -pl; k <= ph; k++) {
    const c = wp[k + pl];
    const P = poses.get(k)!;
    cx += c * P.cx;
    cy += c * P.cy;
    s += c * P.s;
    a += c * (a0 + Math.atan2(Math.sin(P.a - a0), Math.cos(P.a - a0)));
  }
  const cos = Math.cos(a), sin = Math.sin(a);
  return shape.map((p) => ({ x: cx + s * (p.x * cos - p.y * sin), y: cy + s * (p.x * sin + p.y * cos) }));
}

/** Pose radius of the centred window (frames each side). */
export const CENTRED_POSE_RADIUS = 1;

/** Default radius of the centred window (frames each side). */
export const CENTRED_RADIUS = 4;
