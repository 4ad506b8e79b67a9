// Soft single-channel masks (0 = untouched, 255 = fully covered), built synchronously in
// plain loops: they are small next to the pixel work and keeping them sync keeps callers simple.
//
// Privacy rule for every soft edge here: the feather lies OUTSIDE the shape. The grown ellipse
// or rectangle itself is always 255, so feathering never lets a face's edge show through.

import type { Box, Mask } from "../types.ts";
import { boxBlur } from "./region.ts";

export interface ShapeOptions {
  /** Fraction of the box's width/height added on EACH side (0.15 = 15% wider each way). */
  grow?: number;
  /** Soft-edge width outside the grown shape, as a fraction of its smaller side. */
  feather?: number;
}

export const DEFAULT_GROW = 0.15;
export const DEFAULT_FEATHER = 0.1;

export function emptyMask(width: number, height: number): Mask {
  return { data: new Uint8Array(width * height), width, height };
}

/** A box grown by `grow` of its size on each side (not clipped). */
export function growBox(b: Box, grow: number): Box {
  return { x: b.x - b.width * grow, y: b.y - b.height * grow, width: b.width * (1 + 2 * grow), height: b.height * (1 + 2 * grow) };
}

/** Feather width in px for a grown box. */
export function featherPx(grown: Box, feather: number): number {
  return Math.max(0, feather * Math.min(grown.width, grown.height));
}

// 255 inside, a smooth fall to 0 over `f` px outside (distance `d` px beyond the edge).
function falloff(d: number, f: number): number {
  if (d <= 0) return 255;
  if (f <= 0 || d >= f) return 0;
  const t = d / f;
  return Math.round(255 * (1 - t * t * (3 - 2 * t)));
}

// `runs(py)`, when given, bounds row py by pixel centres px: [reachFrom, reachTo) holds every px
// whose value may be above 0, and [solidFrom, solidTo) inside it only px surely inside the shape
// (255). Those are filled without calling `value`, so the cost of a mask is mostly its feather.
type Runs = (py: number) => { reachFrom: number; reachTo: number; solidFrom: number; solidTo: number };

function paint(mask: Mask, x0: number, y0: number, x1: number, y1: number, value: (px: number, py: number) => number, runs?: Runs): void {
  const xa = Math.max(0, Math.floor(x0));
  const ya = Math.max(0, Math.floor(y0));
  const xb = Math.min(mask.width, Math.ceil(x1));
  const yb = Math.min(mask.height, Math.ceil(y1));
  // First pixel x whose centre x + 0.5 is at or after `px`, kept within [lo, hi].
  const at = (px: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, Math.ceil(px - 0.5)));
  for (let y = ya; y < yb; y++) {
    const row = y * mask.width;
    const r = runs?.(y + 0.5);
    const ra = r ? at(r.reachFrom, xa, xb) : xa;
    const rb = r ? at(r.reachTo, ra, xb) : xb;
    const sa = r ? at(r.solidFrom, ra, rb) : ra;
    const sb = r ? Math.max(sa, at(r.solidTo, ra, rb)) : ra;
    for (let x = ra; x < sa; x++) {
      const v = value(x + 0.5, y + 0.5);
      if (v > mask.data[row + x]) mask.data[row + x] = v;
    }
    mask.data.fill(255, row + sa, row + sb);
    for (let x = sb; x < rb; x++) {
      const v = value(x + 0.5, y + 0.5);
      if (v > mask.data[row + x]) mask.data[row + x] = v;
    }
  }
}

// Half the chord of an ellipse (centre cy, half-axes rx, ry) at row py; 0 when the row misses it.
function halfChord(rx: number, ry: number, cy: number, py: number): number {
  const q = 1 - ((py - cy) / ry) ** 2;
  return q > 0 ? rx * Math.sqrt(q) : 0;
}

/** Union of feathered ellipses inscribed in the grown boxes. */
export function ellipseMask(width: number, height: number, boxes: Box[], opts: ShapeOptions = {}): Mask {
  const mask = emptyMask(width, height);
  addEllipses(mask, boxes, opts);
  return mask;
}

/** Paints feathered ellipses into an existing mask (max-combined). */
export function addEllipses(mask: Mask, boxes: Box[], opts: ShapeOptions = {}): Mask {
  const grow = opts.grow ?? DEFAULT_GROW;
  for (const b of boxes) {
    const g = growBox(b, grow);
    const f = featherPx(g, opts.feather ?? DEFAULT_FEATHER);
    const rx = Math.max(0.5, g.width / 2);
    const ry = Math.max(0.5, g.height / 2);
    const cx = g.x + g.width / 2;
    const cy = g.y + g.height / 2;
    paint(mask, cx - rx - f, cy - ry - f, cx + rx + f, cy + ry + f, (px, py) => {
      const dx = px - cx;
      const dy = py - cy;
      const d = Math.sqrt((dx / rx) ** 2 + (dy / ry) ** 2);
      if (d <= 1) return 255;
      // Distance beyond the ellipse along the ray from the centre: rho * (1 - 1/d).
      return falloff(Math.sqrt(dx * dx + dy * dy) * (1 - 1 / d), f);
    }, (py) => {
      // Solid: the ellipse's chord, shrunk by a hair so rounding never lets an outside pixel in.
      // Reach: beyond the ellipse a point at normalised radius d lies at least min(rx, ry) (d - 1)
      // from it along its ray, so nothing at d >= 1 + f / min(rx, ry) gets any of the feather.
      const solid = Math.max(0, halfChord(rx, ry, cy, py) * (1 - 1e-9) - 1e-6);
      const s = 1 + f / Math.min(rx, ry);
      const reach = halfChord(rx * s, ry * s, cy, py) * (1 + 1e-9) + 1e-6;
      return { reachFrom: cx - reach, reachTo: cx + reach, solidFrom: cx - solid, solidTo: cx + solid };
    });
  }
  return mask;
}

/** Union of feathered (round-cornered outside) grown rectangles. */
export function rectMask(width: number, height: number, boxes: Box[], opts: ShapeOptions = {}): Mask {
  const mask = emptyMask(width, height);
  addRects(mask, boxes, opts);
  return mask;
}

export function addRects(mask: Mask, boxes: Box[], opts: ShapeOptions = {}): Mask {
  const grow = opts.grow ?? DEFAULT_GROW;
  for (const b of boxes) {
    const g = growBox(b, grow);
    const f = featherPx(g, opts.feather ?? DEFAULT_FEATHER);
    const x1 = g.x + g.width;
    const y1 = g.y + g.height;
    paint(mask, g.x - f, g.y - f, x1 + f, y1 + f, (px, py) => {
      const dx = Math.max(g.x - px, 0, px - x1);
      const dy = Math.max(g.y - py, 0, py - y1);
      return falloff(Math.hypot(dx, dy), f);
    });
  }
  return mask;
}

// --- filters -------------------------------------------------------------------------------

// Sliding-window max over one line (monotonic deque), radius r, in -> out with stride.
function maxLine(src: Uint8Array, dst: Uint8Array, start: number, n: number, stride: number, r: number, dq: Int32Array): void {
  let head = 0;
  let tail = 0;
  let next = 0; // next index to push
  for (let i = 0; i < n; i++) {
    const hi = Math.min(n - 1, i + r);
    while (next <= hi) {
      const v = src[start + next * stride];
      while (tail > head && src[start + dq[tail - 1] * stride] <= v) tail--;
      dq[tail++] = next++;
    }
    while (dq[head] < i - r) head++;
    dst[start + i * stride] = src[start + dq[head] * stride];
  }
}

/** Grows the covered area by `radius` px (square max filter, separable). */
export function dilateMask(mask: Mask, radius: number): Mask {
  const r = Math.max(0, Math.round(radius));
  if (r === 0) return { ...mask, data: mask.data.slice() };
  const { width: w, height: h } = mask;
  const tmp = new Uint8Array(w * h);
  const out = new Uint8Array(w * h);
  const dq = new Int32Array(Math.max(w, h));
  for (let y = 0; y < h; y++) maxLine(mask.data, tmp, y * w, w, 1, r, dq);
  for (let x = 0; x < w; x++) maxLine(tmp, out, x, h, w, r, dq);
  return { data: out, width: w, height: h };
}

/** Gaussian-like blur of a mask (three box passes per axis; sigma ~ `sigma` px). */
export function blurMask(mask: Mask, sigma: number): Mask {
  const { width: w, height: h } = mask;
  // Three boxes of radius r have variance r(r+1); pick r so that r(r+1) ~ sigma^2.
  const r = Math.max(0, Math.round((-1 + Math.sqrt(1 + 4 * sigma * sigma)) / 2));
  if (r === 0) return { ...mask, data: mask.data.slice() };
  const a = boxBlur(Float32Array.from(mask.data), w, h, 1, [r, r, r]);
  const out = new Uint8Array(w * h);
  for (let i = 0; i < out.length; i++) out[i] = Math.min(255, Math.max(0, Math.round(a[i])));
  return { data: out, width: w, height: h };
}

/**
 * Soft edge of `radius` px. With `outward` (default) the mask is first dilated by `radius`, so
 * everything covered before stays (nearly) fully covered and the ramp lies outside; without it,
 * the ramp is centred on the old edge (for matting, e.g. background removal).
 */
export function featherMask(mask: Mask, radius: number, opts: { outward?: boolean } = {}): Mask {
  if (radius <= 0) return { ...mask, data: mask.data.slice() };
  const base = opts.outward === false ? mask : dilateMask(mask, radius);
  return blurMask(base, radius / 2);
}

/** Bilinear resize of a mask (e.g. a model's 256x256 output to the frame size). */
export function resizeMask(mask: Mask, width: number, height: number): Mask {
  const out = new Uint8Array(width * height);
  const sx = mask.width / width;
  const sy = mask.height / height;
  const W = mask.width;
  for (let y = 0; y < height; y++) {
    const fy = Math.min(mask.height - 1, Math.max(0, (y + 0.5) * sy - 0.5));
    const y0 = Math.floor(fy);
    const y1 = Math.min(mask.height - 1, y0 + 1);
    const wy = fy - y0;
    for (let x = 0; x < width; x++) {
      const fx = Math.min(W - 1, Math.max(0, (x + 0.5) * sx - 0.5));
      const x0 = Math.floor(fx);
      const x1 = Math.min(W - 1, x0 + 1);
      const wx = fx - x0;
      const top = mask.data[y0 * W + x0] * (1 - wx) + mask.data[y0 * W + x1] * wx;
      const bot = mask.data[y1 * W + x0] * (1 - wx) + mask.data[y1 * W + x1] * wx;
      out[y * width + x] = Math.round(top * (1 - wy) + bot * wy);
    }
  }
  return { data: out, width, height };
}

/** Pixel-wise maximum of masks of the same size (union of soft masks). */
export function unionMasks(masks: Mask[]): Mask {
  if (masks.length === 0) throw new Error("unionMasks: no masks");
  const out = masks[0].data.slice();
  for (const m of masks.slice(1)) {
    if (m.width !== masks[0].width || m.height !== masks[0].height) throw new Error("unionMasks: size mismatch");
    for (let i = 0; i < out.length; i++) if (m.data[i] > out[i]) out[i] = m.data[i];
  }
  return { data: out, width: masks[0].width, height: masks[0].height };
}
