// Image-based landmark tracking for one face track. The per-frame landmark model's error follows
// the detector's box from frame to frame (README "Known gaps": 2.6 raw, 2.24 One-Euro, 0.79 with
// the true landmarks), so no filter on the landmark sequence alone removes it. Here the landmarks
// are carried from frame to frame by the motion of the face's pixels instead, and the detection
// only steers them slowly:
//   1. the previous frame's face region is kept as a small grey image (ROI around the previous
//      output landmarks, grown, downscaled so the inter-ocular distance is ~28 px);
//   2. the same region of the new frame is aligned to it by inverse-compositional Lucas-Kanade
//      (affine warp + brightness offset, 3-level pyramid, Huber-weighted, masked to an ellipse
//      inside the face), started from the detection's own frame-to-frame shift (retried from
//      the face's last motion when that fails, so one bad detection does not reset the track);
//   3. prediction = that warp applied to the previous output landmarks;
//   4. drift correction towards this frame's detection: the similarity (translation, scale, roll)
//      between prediction and detection is applied with a small gain, the non-rigid remainder
//      (detection minus its similarity fit) with a larger one, so expressions still come through
//      within a few frames while the box-following error is averaged over many;
//   5. anything doubtful (first frame, most of the face outside the searched region, residual too
//      high for the face's contrast, too little texture, implausible warp, detection > 0.5 IOD
//      from the prediction) falls back to the detection and restarts from it; except that landmarks
//      found in a box the face detector did not report on this frame (the video tracker's guess
//      while the detector misses the face) do not outweigh a working alignment: when they jump,
//      the face's own motion is followed alone ("coasted"). In a crowd such a guessed box grows
//      or drifts over a neighbour, and the landmark model then returns a face 2x too large or
//      too small (bench/small-faces.ts --crowd, session 12).
// Deterministic (no randomness, fixed iteration caps and thresholds). Measured (pan/zoom clip of
// bench/anonymization.ts, seed identity): flicker ratio 0.96 against 2.29 One-Euro and 2.68 raw
// (true landmarks: 0.78); about 2-3 ms per face per frame.
import type { Frame } from "../types.ts";
import { halveGrey } from "../effects/downsample.ts";
import { faceFrame, toFace, toImage, mean, range, BROW_L, BROW_R, JAW } from "./geometry.ts";
import type { Pt } from "./raster.ts";

export interface FlowTrackerOptions {
  /** Inter-ocular distance in ROI pixels the face region is downscaled to (never upscaled). */
  roiIod: number;
  /** Pyramid levels (1 = base only). */
  levels: number;
  /** Fraction of the prediction -> detection similarity applied per frame. */
  rigidGain: number;
  /** Fraction of the detection's non-rigid shape residual applied per frame. */
  shapeGain: number;
  /** Reset when the detection is farther than this (mean point distance, IOD) from the prediction. */
  resetDistance: number;
  /** Reset when the aligned residual (RMS, after the brightness offset) exceeds this fraction of the template's contrast (std). */
  maxResidual: number;
  /** Reset when the mean squared gradient in the mask (grey levels^2 per px^2, ROI scale) is below this (no texture to track). */
  minTexture: number;
}

export const DEFAULT_FLOW_TRACKER_OPTIONS: FlowTrackerOptions = {
  roiIod: 28,
  levels: 3,
  rigidGain: 0.15,
  shapeGain: 0.3,
  resetDistance: 0.5,
  maxResidual: 0.5,
  minTexture: 4,
};

/** Why the last push returned what it did (for measuring and tests). */
export type FlowTrackerStatus = "init" | "tracked" | "coasted" | "reset-detection-jump" | "reset-alignment" | "reset-texture" | "reset-residual" | "reset-warp";

/** Geometry of a ROI: ROI pixel (i, j) (pixel centre) is frame point (ox + i / k, oy + j / k). */
interface RoiGeom {
  ox: number;
  oy: number;
  k: number;
  w: number;
  h: number;
}

/** One pyramid level: grey image, validity (inside the frame), centre of the ROI in level pixels. */
interface Level {
  w: number;
  h: number;
  img: Float32Array;
  valid: Uint8Array;
  cx: number;
  cy: number;
}

/** Template = previous frame's face region with what the alignment needs precomputed. */
interface Template {
  geom: RoiGeom;
  levels: Level[];
  /** Mask weight per level (0..1, ellipse inside the face, 0 outside the frame). */
  mask: Float32Array[];
  gx: Float32Array[];
  gy: Float32Array[];
}

/** Reused buffer for the integral image (a few MB at 1080p: allocated once per tracker, not per frame). */
interface Scratch {
  S: Float64Array;
}

/** Affine warp in base-ROI centred coordinates: y = M x + b. */
interface Affine {
  m00: number;
  m01: number;
  m10: number;
  m11: number;
  b0: number;
  b1: number;
}

export class FlowLandmarkTracker {
  readonly options: FlowTrackerOptions;
  private template: Template | null = null;
  private prevOut: Pt[] | null = null;
  private prevDetected: Pt[] | null = null;
  private lastStatus: FlowTrackerStatus = "init";
  private readonly scratch: Scratch = { S: new Float64Array(0) };
  private stats: AlignStats | null = null;
  /** Frame-to-frame motion of the output's centroid at the last tracked frame (px). */
  private velocity: Pt = { x: 0, y: 0 };

  constructor(options: Partial<FlowTrackerOptions> = {}) {
    this.options = { ...DEFAULT_FLOW_TRACKER_OPTIONS, ...options };
  }

  /** What the last push did. */
  get status(): FlowTrackerStatus {
    return this.lastStatus;
  }

  /** Measures of the last push's alignment (null when none ran). */
  get lastStats(): AlignStats | null {
    return this.stats;
  }

  reset(): void {
    this.template = null;
    this.prevOut = null;
    this.prevDetected = null;
    this.velocity = { x: 0, y: 0 };
    this.lastStatus = "init";
  }

  /**
   * Feed this frame and its raw detected 68 landmarks; returns the landmarks to render with.
   * `trusted` = false: the landmarks were found in a guessed box (no detection on this frame), so
   * a jump away from the aligned prediction is not followed (status "coasted").
   */
  push(frame: Frame, detected: Pt[], trusted = true): Pt[] {
    if (detected.length !== 68) throw new Error(`FlowLandmarkTracker needs 68 landmarks, got ${detected.length}`);
    const { out, cur } = this.track(frame, detected, trusted);
    this.prevOut = out;
    // A jump that was not followed is not where the face is: the next frame's shift is guessed from the output.
    this.prevDetected = (this.lastStatus === "coasted" ? out : detected).map((p) => ({ ...p }));
    // The next frame is aligned to this one around where the face is now drawn. The region just
    // sampled for the alignment is reused as the next template while it still fits the face
    // (same scale within 10%, the face's region inside it): one resampling per frame, not two.
    if (cur && fits(cur.geom, out, this.options)) this.template = makeTemplate(cur.levels, cur.geom, out);
    else {
      const want = roiGeom(out, this.options);
      this.template = makeTemplate(pyramid(frame, want, this.options.levels, this.scratch), want, out);
    }
    return out.map((p) => ({ ...p }));
  }

  private track(frame: Frame, detected: Pt[], trusted: boolean): { out: Pt[]; cur?: { levels: Level[]; geom: RoiGeom } } {
    const o = this.options;
    const restart = (status: FlowTrackerStatus) => {
      this.lastStatus = status;
      this.velocity = { x: 0, y: 0 };
      return { out: detected.map((p) => ({ ...p })) };
    };
    this.stats = null;
    if (!this.template || !this.prevOut || !this.prevDetected || this.prevOut.length !== detected.length) return restart("init");
    const T = this.template;
    // Start from the detection's own frame-to-frame shift: its error (a few px) is well inside
    // the pyramid's capture range, and it keeps fast motion from needing a huge search. When that
    // fails (a detection glitch of a third of an IOD already puts the search outside the coarsest
    // level's reach), try again from the face's own last motion (constant velocity) before
    // giving up: a single bad detection should not reset the track.
    const all = range([0, detected.length - 1]);
    const c1 = mean(detected, all);
    const c0 = mean(this.prevDetected, all);
    let attempt = this.attempt(frame, T, c1.x - c0.x, c1.y - c0.y);
    if (!attempt.ok && attempt.reason !== "reset-texture") {
      const retry = this.attempt(frame, T, this.velocity.x, this.velocity.y);
      if (retry.ok) attempt = retry;
    }
    this.stats = attempt.stats ?? null;
    if (!attempt.ok) return restart(attempt.reason);
    const { warp: W, levels, geom1 } = attempt;
    // Prediction: previous output landmarks moved by the estimated warp.
    const { k } = T.geom;
    const cx = (T.geom.w - 1) / 2;
    const cy = (T.geom.h - 1) / 2;
    const pred = this.prevOut.map((p) => {
      const x = (p.x - T.geom.ox) * k - cx;
      const y = (p.y - T.geom.oy) * k - cy;
      return { x: geom1.ox + (W.m00 * x + W.m01 * y + W.b0 + cx) / k, y: geom1.oy + (W.m10 * x + W.m11 * y + W.b1 + cy) / k };
    });
    // In units of the smaller of the two faces' IOD: a wrongly scaled detection (or a wrongly
    // scaled track) must not widen its own tolerance.
    const iod = Math.min(faceFrame(pred).iod, faceFrame(detected).iod);
    let dist = 0;
    for (let i = 0; i < pred.length; i++) dist += Math.hypot(pred[i].x - detected[i].x, pred[i].y - detected[i].y);
    const jumped = dist / pred.length > o.resetDistance * iod;
    if (jumped && trusted) return restart("reset-detection-jump");
    this.lastStatus = jumped ? "coasted" : "tracked";
    const out = jumped ? pred : correct(pred, detected, o.rigidGain, o.shapeGain);
    const a = mean(out, all);
    const b = mean(this.prevOut, all);
    this.velocity = { x: a.x - b.x, y: a.y - b.y };
    return { out, cur: { levels, geom: geom1 } };
  }

  /** One alignment of the frame onto the template, the searched region shifted by (dx, dy) frame px. */
  private attempt(frame: Frame, T: Template, dx: number, dy: number): AttemptResult {
    const o = this.options;
    const geom1: RoiGeom = { ...T.geom, ox: T.geom.ox + dx, oy: T.geom.oy + dy };
    const levels = pyramid(frame, geom1, o.levels, this.scratch);
    const fit = align(T, levels);
    if (!fit.ok) return fit;
    const st = fit.stats;
    if (st.texture < o.minTexture) return { ok: false, reason: "reset-texture", stats: st };
    if (st.residual > o.maxResidual * st.contrast) return { ok: false, reason: "reset-residual", stats: st };
    // A face does not change scale by 25% or shear by 0.15 between two frames: such a warp is a
    // mis-alignment (occlusion, cut), not motion.
    const W = fit.warp;
    const det = W.m00 * W.m11 - W.m01 * W.m10;
    if (!(det > 0.64 && det < 1.5625) || Math.abs(W.m00 - W.m11) > 0.15 || Math.abs(W.m01 + W.m10) > 0.15) return { ok: false, reason: "reset-warp", stats: st };
    return { ok: true, warp: W, stats: st, levels, geom1 };
  }
}

type AttemptResult = { ok: true; warp: Affine; stats: AlignStats; levels: Level[]; geom1: RoiGeom } | { ok: false; reason: FlowTrackerStatus; stats?: AlignStats };

/**
 * Weights of the 68 points in the drift correction's similarity fit: the head's pose is carried by
 * the points expressions move least (eyes, nose: 1), brows count half (raised with surprise), jaw
 * and mouth a quarter (a mouth opening moves both, and the jaw contour slides along the
 * silhouette), so an expression ends up in the faster non-rigid part instead of shifting the whole
 * face. (Measured on the pan/zoom clip: flicker is insensitive to these weights, 0.955-0.967 for
 * jaw/mouth weights 1..0; they matter for expressions.)
 */
export const RIGID_WEIGHTS: readonly number[] = Array.from({ length: 68 }, (_, i) => (i >= 27 && i <= 47 ? 1 : i >= 17 && i <= 26 ? 0.5 : 0.25));

/**
 * Drift correction: the similarity S mapping the prediction onto the detection (weighted least
 * squares, `weights` per point) is applied with gain `gr` (translation, log-scale and angle scaled), then the
 * detection's non-rigid residual (detection - S(prediction)) with gain `gs`. The residual is
 * carried in S's face frame (rotated and scaled back), so it means the same shape change whatever
 * the partial similarity applied.
 */
export function correct(pred: Pt[], det: Pt[], gr: number, gs: number, weights: readonly number[] = RIGID_WEIGHTS): Pt[] {
  const n = pred.length;
  const wt = (i: number) => (n === weights.length ? weights[i] : 1);
  let pcx = 0, pcy = 0, dcx = 0, dcy = 0, sw = 0;
  for (let i = 0; i < n; i++) {
    const w = wt(i);
    pcx += w * pred[i].x;
    pcy += w * pred[i].y;
    dcx += w * det[i].x;
    dcy += w * det[i].y;
    sw += w;
  }
  pcx /= sw; pcy /= sw; dcx /= sw; dcy /= sw;
  // Umeyama (no reflection): det - dc = s R (pred - pc), with a = s cos, b = s sin.
  let sxx = 0, sab = 0, sba = 0;
  for (let i = 0; i < n; i++) {
    const w = wt(i);
    const px = pred[i].x - pcx, py = pred[i].y - pcy;
    const qx = det[i].x - dcx, qy = det[i].y - dcy;
    sxx += w * (px * px + py * py);
    sab += w * (px * qx + py * qy);
    sba += w * (px * qy - py * qx);
  }
  const a = sab / Math.max(1e-9, sxx);
  const b = sba / Math.max(1e-9, sxx);
  const s = Math.hypot(a, b);
  const th = Math.atan2(b, a);
  // Partial similarity: a fraction gr of the way in translation, log scale and angle.
  const sg = Math.pow(s, gr);
  const ag = sg * Math.cos(gr * th);
  const bg = sg * Math.sin(gr * th);
  const tx = pcx + gr * (dcx - pcx);
  const ty = pcy + gr * (dcy - pcy);
  // Residual in S's frame, mapped back with the partial similarity's linear part.
  const inv = 1 / Math.max(1e-9, s * s);
  const ra = (ag * a + bg * b) * inv; // (sg R_g) (s R)^-1 = (ag + i bg) / (a + i b)
  const rb = (bg * a - ag * b) * inv;
  const out: Pt[] = [];
  for (let i = 0; i < n; i++) {
    const px = pred[i].x - pcx, py = pred[i].y - pcy;
    const ex = det[i].x - (dcx + a * px - b * py);
    const ey = det[i].y - (dcy + b * px + a * py);
    out.push({
      x: tx + ag * px - bg * py + gs * (ra * ex - rb * ey),
      y: ty + bg * px + ag * py + gs * (rb * ex + ra * ey),
    });
  }
  return out;
}

// ---- face region -----------------------------------------------------------------------------

/** ROI around landmarks: the mask ellipse's bounding box grown by 0.3 IOD (room for the warp). */
function roiGeom(pts: Pt[], o: FlowTrackerOptions): RoiGeom {
  const k = Math.min(1, o.roiIod / faceFrame(pts).iod);
  const r = ellipseBox(pts, 0.3);
  // Multiples of 4 so the two pyramid halvings line up exactly with the base pixels.
  const w = Math.max(16, Math.ceil(((r.x1 - r.x0) * k) / 4) * 4);
  const h = Math.max(16, Math.ceil(((r.y1 - r.y0) * k) / 4) * 4);
  return { ox: r.x0, oy: r.y0, k, w, h };
}

/** Frame-pixel bounding box of the mask ellipse grown by `grow` IOD. */
function ellipseBox(pts: Pt[], grow: number): { x0: number; y0: number; x1: number; y1: number } {
  const f = faceFrame(pts);
  const e = maskEllipse(pts);
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (let t = 0; t < 32; t++) {
    const a = (2 * Math.PI * t) / 32;
    const p = toImage(f, { x: e.cx + (e.rx + grow) * Math.cos(a), y: e.cy + (e.ry + grow) * Math.sin(a) });
    x0 = Math.min(x0, p.x);
    y0 = Math.min(y0, p.y);
    x1 = Math.max(x1, p.x);
    y1 = Math.max(y1, p.y);
  }
  return { x0, y0, x1, y1 };
}

/**
 * The aligned area, in face-frame units: an ellipse inside the jaw line from a little above the
 * brows (some forehead: texture that does not move with expressions) down to the chin, shrunk so
 * the background past the silhouette (which moves differently when the head turns) stays out.
 */
function maskEllipse(pts: Pt[]): { cx: number; cy: number; rx: number; ry: number } {
  const f = faceFrame(pts);
  const q = pts.map((p) => toFace(f, p));
  const jaw = range(JAW).map((i) => q[i]);
  const xs = jaw.map((p) => p.x);
  const browTop = Math.min(...[...range(BROW_R), ...range(BROW_L)].map((i) => q[i].y));
  const top = browTop - 0.3;
  const bottom = q[8].y;
  const left = Math.min(...xs);
  const right = Math.max(...xs);
  return { cx: (left + right) / 2, cy: (top + bottom) / 2, rx: ((right - left) / 2) * 0.85, ry: ((bottom - top) / 2) * 0.92 };
}

/**
 * Whether the region sampled for this frame's alignment can serve as the next template around
 * `pts`: its scale still puts the IOD within 10% of the target, and the mask ellipse grown by
 * 0.15 IOD (half the usual margin: the next frame's motion is mostly absorbed by the detection
 * shift the next region starts from) lies inside it.
 */
function fits(have: RoiGeom, pts: Pt[], o: FlowTrackerOptions): boolean {
  const k = Math.min(1, o.roiIod / faceFrame(pts).iod);
  if (Math.abs(have.k / k - 1) > 0.1) return false;
  const r = ellipseBox(pts, 0.15);
  return r.x0 >= have.ox && r.y0 >= have.oy && r.x1 <= have.ox + (have.w - 1) / have.k && r.y1 <= have.oy + (have.h - 1) / have.k;
}

function makeTemplate(levels: Level[], geom: RoiGeom, pts: Pt[]): Template {
  // Base mask: soft-edged ellipse (0.1 of its radius), evaluated in face coordinates, which are
  // an affine function of the ROI pixel: q = q0 + i qi + j qj.
  const f = faceFrame(pts);
  const e = maskEllipse(pts);
  const q0 = toFace(f, { x: geom.ox, y: geom.oy });
  const qa = toFace(f, { x: geom.ox + 1 / geom.k, y: geom.oy });
  const qb = toFace(f, { x: geom.ox, y: geom.oy + 1 / geom.k });
  const qix = (qa.x - q0.x) / e.rx, qiy = (qa.y - q0.y) / e.ry;
  const qjx = (qb.x - q0.x) / e.rx, qjy = (qb.y - q0.y) / e.ry;
  const ex0 = (q0.x - e.cx) / e.rx, ey0 = (q0.y - e.cy) / e.ry;
  const { w, h } = geom;
  const base = new Float32Array(w * h);
  const L0 = levels[0];
  for (let j = 0; j < h; j++) {
    for (let i = 0; i < w; i++) {
      if (!L0.valid[j * w + i]) continue;
      const r = Math.hypot(ex0 + i * qix + j * qjx, ey0 + i * qiy + j * qjy);
      if (r < 1) base[j * w + i] = Math.min(1, (1 - r) / 0.1);
    }
  }
  const mask: Float32Array[] = [base];
  for (let l = 1; l < levels.length; l++) mask.push(halveGrey(mask[l - 1], levels[l - 1].w, levels[l - 1].h));
  const gx: Float32Array[] = [];
  const gy: Float32Array[] = [];
  for (let l = 0; l < levels.length; l++) {
    const L = levels[l];
    const mx = mask[l];
    const ax = new Float32Array(L.w * L.h);
    const ay = new Float32Array(L.w * L.h);
    for (let j = 0; j < L.h; j++) {
      for (let i = 0; i < L.w; i++) {
        const p = j * L.w + i;
        if (mx[p] <= 0) continue;
        // Central differences; pixels whose neighbours leave the frame or the ROI drop out.
        if (i === 0 || j === 0 || i === L.w - 1 || j === L.h - 1 || !(L.valid[p - 1] && L.valid[p + 1] && L.valid[p - L.w] && L.valid[p + L.w])) {
          mx[p] = 0;
          continue;
        }
        ax[p] = (L.img[p + 1] - L.img[p - 1]) / 2;
        ay[p] = (L.img[p + L.w] - L.img[p - L.w]) / 2;
      }
    }
    gx.push(ax);
    gy.push(ay);
  }
  return { geom, levels, mask, gx, gy };
}

/**
 * Grey ROI pyramid. The base is the exact area average of the frame over each ROI pixel's
 * footprint (1/k frame pixels square, at a sub-pixel origin), read from an integral image with
 * bilinear interpolation (exact for a piecewise-constant image): downscaling without aliasing, and
 * no rounding of the ROI origin, which would show up as motion.
 */
function pyramid(frame: Frame, g: RoiGeom, nLevels: number, scratch: Scratch): Level[] {
  const { ox, oy, k, w, h } = g;
  const half = 0.5 / k;
  // Frame pixel rectangle covering every footprint (pixel m spans [m - 0.5, m + 0.5]).
  const fx0 = Math.max(0, Math.floor(ox - half));
  const fy0 = Math.max(0, Math.floor(oy - half));
  const fx1 = Math.min(frame.width, Math.ceil(ox + (w - 1) / k + half) + 1);
  const fy1 = Math.min(frame.height, Math.ceil(oy + (h - 1) / k + half) + 1);
  const iw = Math.max(0, fx1 - fx0) + 1;
  const ih = Math.max(0, fy1 - fy0) + 1;
  // S[(y) * iw + x] = sum of grey over pixels [fx0, fx0 + x) x [fy0, fy0 + y).
  if (scratch.S.length < iw * ih) scratch.S = new Float64Array(iw * ih);
  const S = scratch.S; // row 0 stays 0: only rows >= 1 are ever written
  const c = frame.channels;
  const d = frame.data;
  S.fill(0, 0, iw);
  for (let y = 1; y < ih; y++) {
    let row = 0;
    let s = ((fy0 + y - 1) * frame.width + fx0) * c;
    const r0 = y * iw;
    S[r0] = 0;
    for (let x = 1; x < iw; x++, s += c) {
      row += 0.299 * d[s] + 0.587 * d[s + 1] + 0.114 * d[s + 2];
      S[r0 + x] = S[r0 - iw + x] + row;
    }
  }
  // Integral at continuous edge coordinates (frame pixel-edge units, relative to fx0 / fy0).
  const at = (X: number, Y: number) => {
    const x = Math.min(iw - 1.000001, Math.max(0, X));
    const y = Math.min(ih - 1.000001, Math.max(0, Y));
    const xi = Math.floor(x);
    const yi = Math.floor(y);
    const ax = x - xi;
    const ay = y - yi;
    const p = yi * iw + xi;
    const top = S[p] + (S[p + 1] - S[p]) * ax;
    const bot = S[p + iw] + (S[p + iw + 1] - S[p + iw]) * ax;
    return top + (bot - top) * ay;
  };
  const img = new Float32Array(w * h);
  const valid = new Uint8Array(w * h);
  const W = frame.width;
  const H = frame.height;
  for (let j = 0; j < h; j++) {
    const fy = oy + j / k;
    if (fy < 0 || fy > H - 1) continue;
    // Footprint clamped to the frame (edge units: pixel centre m is edge m + 0.5).
    const Y0 = Math.max(0, fy - half + 0.5) - fy0;
    const Y1 = Math.min(H, fy + half + 0.5) - fy0;
    for (let i = 0; i < w; i++) {
      const fx = ox + i / k;
      if (fx < 0 || fx > W - 1) continue;
      const X0 = Math.max(0, fx - half + 0.5) - fx0;
      const X1 = Math.min(W, fx + half + 0.5) - fx0;
      const area = (X1 - X0) * (Y1 - Y0);
      if (!(area > 1e-6)) continue;
      img[j * w + i] = (at(X1, Y1) - at(X0, Y1) - at(X1, Y0) + at(X0, Y0)) / area;
      valid[j * w + i] = 1;
    }
  }
  const levels: Level[] = [{ w, h, img, valid, cx: (w - 1) / 2, cy: (h - 1) / 2 }];
  for (let l = 1; l < nLevels; l++) {
    const P = levels[l - 1];
    if (P.w < 16 || P.h < 16) break;
    const w2 = P.w >> 1;
    const h2 = P.h >> 1;
    const v = new Uint8Array(w2 * h2);
    for (let j = 0; j < h2; j++) {
      for (let i = 0; i < w2; i++) {
        const a = 2 * j * P.w + 2 * i;
        v[j * w2 + i] = P.valid[a] & P.valid[a + 1] & P.valid[a + P.w] & P.valid[a + P.w + 1];
      }
    }
    const s = 1 << l;
    // Level pixel i covers base pixels s*i .. s*i + s - 1: its centre is base (i + 0.5) s - 0.5.
    levels.push({ w: w2, h: h2, img: halveGrey(P.img, P.w, P.h), valid: v, cx: ((w - 1) / 2 + 0.5) / s - 0.5, cy: ((h - 1) / 2 + 0.5) / s - 0.5 });
  }
  return levels;
}

// ---- alignment -------------------------------------------------------------------------------

/** Measures of the last alignment (for tuning and tests). */
export interface AlignStats {
  /** RMS grey residual after alignment (base level, mask-weighted). */
  residual: number;
  /** Template contrast: std of grey inside the mask. */
  contrast: number;
  /** Mean squared template gradient inside the mask (grey^2 / px^2). */
  texture: number;
  /** Iterations used at the base level. */
  iterations: number;
}

type AlignResult = { ok: true; warp: Affine; stats: AlignStats } | { ok: false; reason: FlowTrackerStatus; stats?: AlignStats };

/** Iterations per level, coarse to fine (fixed caps, so the cost is bounded and the result deterministic). */
const ITERATIONS = [6, 8, 10];

/**
 * Inverse-compositional Lucas-Kanade (Baker & Matthews 2004) of the current pyramid onto the
 * template: affine warp + brightness offset, coarse to fine. Gradients are the template's; the
 * 7x7 normal equations are re-accumulated every iteration because of the Huber weights (a mouth
 * opening or a blink changes some pixels: they must not drag the whole face). Coordinates are
 * centred on the ROI so the affine terms are well conditioned.
 */
function align(T: Template, cur: Level[]): AlignResult {
  const W: Affine = { m00: 1, m01: 0, m10: 0, m11: 1, b0: 0, b1: 0 };
  let bias = 0;
  const nL = Math.min(T.levels.length, cur.length);
  const H = new Float64Array(49);
  const g = new Float64Array(7);
  let residual = Infinity;
  let contrast = 0;
  let texture = 0;
  let iterations = 0;
  for (let l = nL - 1; l >= 0; l--) {
    const L = T.levels[l];
    const C = cur[l];
    const mask = T.mask[l];
    const gxs = T.gx[l];
    const gys = T.gy[l];
    const s = 1 << l;
    const iters = ITERATIONS[Math.max(0, ITERATIONS.length - 1 - l)];
    // Huber threshold from the template's own contrast inside the mask.
    let sw = 0, sm = 0, sm2 = 0, sg2 = 0;
    for (let p = 0; p < mask.length; p++) {
      const m = mask[p];
      if (m <= 0) continue;
      sw += m;
      sm += m * L.img[p];
      sm2 += m * L.img[p] * L.img[p];
      sg2 += m * (gxs[p] * gxs[p] + gys[p] * gys[p]);
    }
    if (sw < 20) return { ok: false, reason: "reset-texture" };
    contrast = Math.sqrt(Math.max(0, sm2 / sw - (sm / sw) ** 2));
    texture = sg2 / sw;
    const huber = Math.max(2, 0.25 * contrast);
    const Lw = L.w, Cw = C.w, Ch = C.h;
    const img = L.img, cimg = C.img, cval = C.valid;
    for (let it = 0; it < iters; it++) {
      iterations = it + 1;
      // Normal equations, upper triangle in locals (order: x*gx, y*gx, gx, x*gy, y*gy, gy, 1).
      let h00 = 0, h01 = 0, h02 = 0, h03 = 0, h04 = 0, h05 = 0, h06 = 0;
      let h11 = 0, h12 = 0, h13 = 0, h14 = 0, h15 = 0, h16 = 0;
      let h22 = 0, h23 = 0, h24 = 0, h25 = 0, h26 = 0;
      let h33 = 0, h34 = 0, h35 = 0, h36 = 0;
      let h44 = 0, h45 = 0, h46 = 0;
      let h55 = 0, h56 = 0, h66 = 0;
      let g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0;
      let se2 = 0, swt = 0;
      const m00 = W.m00, m01 = W.m01, m10 = W.m10, m11 = W.m11;
      const u0 = W.b0 / s + C.cx, v0 = W.b1 / s + C.cy;
      for (let j = 1; j < L.h - 1; j++) {
        const y = j - L.cy;
        for (let i = 1; i < Lw - 1; i++) {
          const p = j * Lw + i;
          const m = mask[p];
          if (m <= 0) continue;
          const x = i - L.cx;
          // Current image at W(x) (level coordinates), bilinear.
          const u = m00 * x + m01 * y + u0;
          const v = m10 * x + m11 * y + v0;
          if (!(u >= 0 && v >= 0 && u < Cw - 1 && v < Ch - 1)) continue;
          const ui = u | 0;
          const vi = v | 0;
          const q = vi * Cw + ui;
          if (!(cval[q] & cval[q + 1] & cval[q + Cw] & cval[q + Cw + 1])) continue;
          const au = u - ui;
          const av = v - vi;
          const top = cimg[q] + (cimg[q + 1] - cimg[q]) * au;
          const bot = cimg[q + Cw] + (cimg[q + Cw + 1] - cimg[q + Cw]) * au;
          const e = top + (bot - top) * av - bias - img[p];
          const ae = e < 0 ? -e : e;
          const wt = ae <= huber ? m : (m * huber) / ae;
          se2 += m * e * e;
          swt += m;
          const tx = gxs[p], ty = gys[p];
          const a0 = tx * x, a1 = tx * y, a3 = ty * x, a4 = ty * y;
          const w0 = wt * a0, w1 = wt * a1, w2 = wt * tx, w3 = wt * a3, w4 = wt * a4, w5 = wt * ty;
          h00 += w0 * a0; h01 += w0 * a1; h02 += w0 * tx; h03 += w0 * a3; h04 += w0 * a4; h05 += w0 * ty; h06 += w0;
          h11 += w1 * a1; h12 += w1 * tx; h13 += w1 * a3; h14 += w1 * a4; h15 += w1 * ty; h16 += w1;
          h22 += w2 * tx; h23 += w2 * a3; h24 += w2 * a4; h25 += w2 * ty; h26 += w2;
          h33 += w3 * a3; h34 += w3 * a4; h35 += w3 * ty; h36 += w3;
          h44 += w4 * a4; h45 += w4 * ty; h46 += w4;
          h55 += w5 * ty; h56 += w5; h66 += wt;
          g0 += w0 * e; g1 += w1 * e; g2 += w2 * e; g3 += w3 * e; g4 += w4 * e; g5 += w5 * e; g6 += wt * e;
        }
      }
      if (swt < 0.5 * sw) return { ok: false, reason: "reset-alignment" }; // most of the face left the region
      residual = Math.sqrt(se2 / swt);
      const up = [
        h00, h01, h02, h03, h04, h05, h06,
        h11, h12, h13, h14, h15, h16,
        h22, h23, h24, h25, h26,
        h33, h34, h35, h36,
        h44, h45, h46,
        h55, h56,
        h66,
      ];
      for (let a = 0, n = 0; a < 7; a++) for (let b = a; b < 7; b++, n++) H[a * 7 + b] = H[b * 7 + a] = up[n];
      g[0] = g0; g[1] = g1; g[2] = g2; g[3] = g3; g[4] = g4; g[5] = g5; g[6] = g6;
      const dp = solve(H, g, 7);
      if (!dp) return { ok: false, reason: "reset-texture" };
      // W <- W o W(dp)^-1, with W(dp)(x) = (I + D) x + d (d in level units -> base units).
      const a00 = 1 + dp[0], a01 = dp[1], a10 = dp[3], a11 = 1 + dp[4];
      const det = a00 * a11 - a01 * a10;
      if (!(Math.abs(det) > 1e-6)) return { ok: false, reason: "reset-alignment" };
      const i00 = a11 / det, i01 = -a01 / det, i10 = -a10 / det, i11 = a00 / det;
      const n00 = m00 * i00 + m01 * i10;
      const n01 = m00 * i01 + m01 * i11;
      const n10 = m10 * i00 + m11 * i10;
      const n11 = m10 * i01 + m11 * i11;
      const d0 = dp[2] * s;
      const d1 = dp[5] * s;
      W.b0 -= n00 * d0 + n01 * d1;
      W.b1 -= n10 * d0 + n11 * d1;
      W.m00 = n00; W.m01 = n01; W.m10 = n10; W.m11 = n11;
      bias += dp[6];
      // Converged: the update moves no point of the ROI by more than ~0.02 level pixels.
      const r = Math.max(L.w, L.h) / 2;
      if (Math.abs(dp[2]) + Math.abs(dp[5]) + r * (Math.abs(dp[0]) + Math.abs(dp[1]) + Math.abs(dp[3]) + Math.abs(dp[4])) < 0.02) break;
    }
  }
  return { ok: true, warp: W, stats: { residual, contrast, texture, iterations } };
}

/** Gaussian elimination with partial pivoting (n <= 7); null when singular. */
function solve(A: Float64Array, b: Float64Array, n: number): Float64Array | null {
  const M = new Float64Array(A);
  const x = new Float64Array(b);
  for (let c = 0; c < n; c++) {
    let piv = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(M[r * n + c]) > Math.abs(M[piv * n + c])) piv = r;
    if (!(Math.abs(M[piv * n + c]) > 1e-9)) return null;
    if (piv !== c) {
      for (let k = 0; k < n; k++) {
        const t = M[c * n + k];
        M[c * n + k] = M[piv * n + k];
        M[piv * n + k] = t;
      }
      const t = x[c];
      x[c] = x[piv];
      x[piv] = t;
    }
    for (let r = c + 1; r < n; r++) {
      const f = M[r * n + c] / M[c * n + c];
      if (f === 0) continue;
      for (let k = c; k < n; k++) M[r * n + k] -= f * M[c * n + k];
      x[r] -= f * x[c];
    }
  }
  for (let r = n - 1; r >= 0; r--) {
    let s = x[r];
    for (let k = r + 1; k < n; k++) s -= M[r * n + k] * x[k];
    x[r] = s / M[r * n + r];
  }
  return x;
}
