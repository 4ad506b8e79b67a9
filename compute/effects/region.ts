// Blur and mosaic of one rectangle of a frame, computed from the pixels around it only, in plain
// loops: no image pipeline and no copy of the frame per region. blurRegions calls these once per
// box on one shared output frame (bench/.scratch measurements in the commit that added this file:
// three faces on a 1280 px photo, ~60-80 ms CPU with sharp per box, ~15-20 ms with this).
//
// The gaussian is three box blurs per axis (running sums: the cost does not grow with sigma). By
// the central limit theorem three boxes are close to a gaussian of the same variance (the kernel
// is a smooth piecewise quadratic bell). Unlike sharp's blur, whose kernel is cut at 1/5 of its
// peak (1.8 sigma), it has the full variance, so it blurs a little more than sharp at the same
// sigma, never less. Large sigmas run on a copy of the neighbourhood shrunk by an integer factor
// (block averages), then back up with a cubic B-spline: after a blur of sigma the picture holds no detail
// finer than ~sigma px, so nothing visible is lost, and the work is on (1/f)^2 of the pixels.
// Against libvips' gaussian with its kernel cut at 1/1000 only: 44-51 dB PSNR inside real photos
// for sigma 2-50 (test/compute/effects.test.ts asserts > 42 dB).

import type { Frame } from "../types.ts";

/** Half-open pixel bounds [x0, x1) x [y0, y1). */
export interface Rect {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** Integer bounds covering the given ones, clipped to a w x h frame; null when nothing is left. */
export function clipRect(x0: number, y0: number, x1: number, y1: number, w: number, h: number): Rect | null {
  const r = { x0: Math.max(0, Math.floor(x0)), y0: Math.max(0, Math.floor(y0)), x1: Math.min(w, Math.ceil(x1)), y1: Math.min(h, Math.ceil(y1)) };
  return r.x1 > r.x0 && r.y1 > r.y0 ? r : null;
}

/**
 * Sigmas from 2x this run shrunk by f = floor(sigma / SHRUNK_SIGMA_MIN), so the boxes still blur
 * about 3 shrunk px, which the enlarging renders smoothly. Measured (bench/.scratch, centre of
 * three real photos against a true gaussian): 2, 3 and 4 here give the same 44-51 dB; 3 halves the
 * cost of sigmas 6-8 against 4.
 */
const SHRUNK_SIGMA_MIN = 3;

function shrinkFactor(sigma: number): number {
  return Math.max(1, Math.floor(sigma / SHRUNK_SIGMA_MIN));
}

/**
 * Radii of `passes` box blurs whose variances sum to sigma^2 as closely as integer widths allow:
 * widths w and w + 2 mixed (Kovesi, "Fast almost-Gaussian filtering", 2010). A box of radius r
 * has variance r (r + 1) / 3.
 */
export function boxRadii(sigma: number, passes = 3): number[] {
  const ideal = Math.sqrt((12 * sigma * sigma) / passes + 1);
  let wl = Math.floor(ideal);
  if (wl % 2 === 0) wl--;
  wl = Math.max(1, wl);
  const m = Math.round((12 * sigma * sigma - passes * wl * wl - 4 * passes * wl - 3 * passes) / (-4 * wl - 4));
  return Array.from({ length: passes }, (_, i) => ((i < m ? wl : wl + 2) - 1) / 2);
}

/** One box-blur pass (radius r) along a line of n values `stride` apart: running sum, edges repeated. */
function boxLine(src: Float32Array, dst: Float32Array, start: number, n: number, stride: number, r: number): void {
  const norm = 1 / (2 * r + 1);
  const first = src[start];
  const last = src[start + (n - 1) * stride];
  let acc = 0;
  for (let k = -r; k <= r; k++) acc += src[start + Math.min(n - 1, Math.max(0, k)) * stride];
  const ahead = (r + 1) * stride;
  const behind = r * stride;
  for (let i = 0, o = start; i < n; i++, o += stride) {
    dst[o] = acc * norm;
    acc += (i + r + 1 < n ? src[o + ahead] : last) - (i >= r ? src[o - behind] : first);
  }
}

/** boxLine down every column of a rows x rowLen image at once, row by row (memory order). */
function boxColumns(src: Float32Array, dst: Float32Array, rowLen: number, rows: number, r: number): void {
  const norm = 1 / (2 * r + 1);
  const acc = new Float64Array(rowLen);
  for (let k = -r; k <= r; k++) {
    const at = Math.min(rows - 1, Math.max(0, k)) * rowLen;
    for (let j = 0; j < rowLen; j++) acc[j] += src[at + j];
  }
  for (let i = 0; i < rows; i++) {
    const o = i * rowLen;
    const add = Math.min(rows - 1, i + r + 1) * rowLen;
    const sub = Math.max(0, i - r) * rowLen;
    for (let j = 0; j < rowLen; j++) {
      dst[o + j] = acc[j] * norm;
      acc[j] += src[add + j] - src[sub + j];
    }
  }
}

/**
 * Box passes of the given radii along both axes (rows then columns, per radius) of a w x h image
 * of c interleaved channels; edges repeated. Returns `img` or a new array.
 */
export function boxBlur(img: Float32Array, w: number, h: number, c: number, radii: number[]): Float32Array {
  let a: Float32Array = img;
  let b: Float32Array = new Float32Array(img.length);
  for (const r of radii) {
    if (r === 0) continue;
    for (let y = 0; y < h; y++) for (let k = 0; k < c; k++) boxLine(a, b, y * w * c + k, w, c, r);
    [a, b] = [b, a];
    boxColumns(a, b, w * c, h, r);
    [a, b] = [b, a];
  }
  return a;
}

/** f x f block averages of `src` (a partial last block averages what it has), as floats. */
function shrink(frame: Frame, src: Rect, f: number): { data: Float32Array; w: number; h: number } {
  const c = frame.channels;
  const sw = src.x1 - src.x0;
  const w = Math.ceil(sw / f);
  const h = Math.ceil((src.y1 - src.y0) / f);
  const out = new Float32Array(w * h * c);
  const rows = new Uint32Array(sw * c);
  const d = frame.data;
  for (let j = 0; j < h; j++) {
    // Sum the block's rows (contiguous), then each f-wide run of the sum into one value.
    const ya = src.y0 + j * f;
    const yb = Math.min(src.y1, ya + f);
    rows.fill(0);
    for (let y = ya; y < yb; y++) {
      const p = (y * frame.width + src.x0) * c;
      for (let q = 0; q < rows.length; q++) rows[q] += d[p + q];
    }
    for (let i = 0, q = 0; i < w; i++) {
      const o = (j * w + i) * c;
      const run = Math.min(f, sw - i * f);
      for (let e = q + run * c; q < e; q += c) for (let k = 0; k < c; k++) out[o + k] += rows[q + k];
      const norm = 1 / (run * (yb - ya));
      for (let k = 0; k < c; k++) out[o + k] *= norm;
    }
  }
  return { data: out, w, h };
}

// Cubic B-spline taps in the shrunk image for each full-resolution pixel of [a0, a1): the first
// of four sample indices (clamped at the edges) and their four weights.
function taps(a0: number, a1: number, origin: number, f: number, n: number) {
  const len = a1 - a0;
  const index = new Int32Array(len * 4);
  const weight = new Float32Array(len * 4);
  for (let i = 0; i < len; i++) {
    const u = (a0 + i + 0.5 - origin) / f - 0.5;
    const j = Math.floor(u);
    const t = u - j;
    const w = [(1 - t) ** 3 / 6, (3 * t ** 3 - 6 * t * t + 4) / 6, (-3 * t ** 3 + 3 * t * t + 3 * t + 1) / 6, t ** 3 / 6];
    for (let k = 0; k < 4; k++) {
      index[i * 4 + k] = Math.min(n - 1, Math.max(0, j - 1 + k));
      weight[i * 4 + k] = w[k];
    }
  }
  return { index, weight };
}

/**
 * The pixels of `area`, blurred with a gaussian of `sigma` px as if over the whole frame (the
 * frame's edges repeat outward), as an area-sized frame. Reads only area + ~3 sigma around it.
 */
export function gaussianInRect(frame: Frame, area: Rect, sigma: number): Frame {
  const c = frame.channels;
  const f = shrinkFactor(sigma);
  // Shrinking averages f x f blocks (variance (f^2 - 1) / 12 per axis) and enlarging with a cubic
  // B-spline of knot spacing f is itself a smooth bell (variance f^2 / 3): both are part of the
  // blur, the boxes add the rest. (Bilinear enlarging would leave a kink every f px: invisible, but
  // it keeps more Laplacian energy than the gaussian it stands for.)
  const rest = f > 1 ? Math.sqrt(Math.max(0, sigma * sigma - (f * f - 1) / 12 - (f * f) / 3)) / f : sigma;
  const radii = boxRadii(rest);
  // Shrunk pixels the boxes read beyond the area, +2 for the spline's neighbours, +1 for the
  // partial block at the area's edge.
  const margin = (radii.reduce((s, r) => s + r, 0) + 3) * f;
  const src = clipRect(area.x0 - margin, area.y0 - margin, area.x1 + margin, area.y1 + margin, frame.width, frame.height)!;
  const small = shrink(frame, src, f);
  const blurred = boxBlur(small.data, small.w, small.h, c, radii);
  return f > 1 ? enlarge(blurred, small.w, small.h, c, f, src, area) : cut(blurred, small.w, c, src, area);
}

/** The area out of the unshrunk blurred neighbourhood, rounded to bytes. */
function cut(blurred: Float32Array, sw: number, c: Frame["channels"], src: Rect, area: Rect): Frame {
  const rowLen = (area.x1 - area.x0) * c;
  const out = Buffer.allocUnsafe((area.y1 - area.y0) * rowLen);
  for (let y = area.y0; y < area.y1; y++) {
    const from = ((y - src.y0) * sw + area.x0 - src.x0) * c;
    // Values stay within 0..255, so + 0.5 and the byte store's truncation round them.
    for (let j = 0, o = (y - area.y0) * rowLen; j < rowLen; j++) out[o + j] = blurred[from + j] + 0.5;
  }
  return { data: out, width: area.x1 - area.x0, height: area.y1 - area.y0, channels: c };
}

/** Cubic B-spline enlarging of the shrunk image onto `area`: along rows first (few), then down columns (contiguous). */
function enlarge(small: Float32Array, sw: number, sh: number, c: Frame["channels"], f: number, src: Rect, area: Rect): Frame {
  const aw = area.x1 - area.x0;
  const ah = area.y1 - area.y0;
  const xs = taps(area.x0, area.x1, src.x0, f, sw);
  const ys = taps(area.y0, area.y1, src.y0, f, sh);
  const rowLen = aw * c;
  const wide = new Float32Array(sh * rowLen);
  for (let r = ys.index[0]; r <= ys.index[ah * 4 - 1]; r++) {
    for (let x = 0, o = r * rowLen; x < aw; x++, o += c) {
      const i = x * 4;
      const p0 = (r * sw + xs.index[i]) * c, p1 = (r * sw + xs.index[i + 1]) * c, p2 = (r * sw + xs.index[i + 2]) * c, p3 = (r * sw + xs.index[i + 3]) * c;
      const w0 = xs.weight[i], w1 = xs.weight[i + 1], w2 = xs.weight[i + 2], w3 = xs.weight[i + 3];
      for (let k = 0; k < c; k++) wide[o + k] = w0 * small[p0 + k] + w1 * small[p1 + k] + w2 * small[p2 + k] + w3 * small[p3 + k];
    }
  }
  const out = Buffer.allocUnsafe(ah * rowLen);
  for (let y = 0; y < ah; y++) {
    const i = y * 4;
    const r0 = ys.index[i] * rowLen, r1 = ys.index[i + 1] * rowLen, r2 = ys.index[i + 2] * rowLen, r3 = ys.index[i + 3] * rowLen;
    const w0 = ys.weight[i], w1 = ys.weight[i + 1], w2 = ys.weight[i + 2], w3 = ys.weight[i + 3];
    // B-spline weights are positive and sum to 1: values stay within 0..255, so + 0.5 and the
    // byte store's truncation round them.
    for (let j = 0, o = y * rowLen; j < rowLen; j++) out[o + j] = w0 * wide[r0 + j] + w1 * wide[r1 + j] + w2 * wide[r2 + j] + w3 * wide[r3 + j] + 0.5;
  }
  return { data: out, width: aw, height: ah, channels: c };
}

/**
 * Mosaic of the pixels of `area`: blockSize x blockSize cells of their mean colour, the grid
 * anchored at (ox, oy) in frame coordinates (so a region's blocks line up with its box), cells
 * cut at the area's edge averaging only what lies inside. An area-sized frame.
 */
export function pixelateInRect(frame: Frame, area: Rect, blockSize: number, ox: number, oy: number): Frame {
  const b = Math.max(1, Math.round(blockSize));
  const c = frame.channels;
  const fw = frame.width;
  const aw = area.x1 - area.x0;
  const out = Buffer.allocUnsafe(aw * (area.y1 - area.y0) * c);
  const src = frame.data;
  const startX = area.x0 + ((((Math.round(ox) - area.x0) % b) + b) % b) - b;
  const startY = area.y0 + ((((Math.round(oy) - area.y0) % b) + b) % b) - b;
  const sum = new Float64Array(c);
  const mean = new Uint8Array(c);
  for (let by = startY; by < area.y1; by += b) {
    const y0 = Math.max(area.y0, by);
    const y1 = Math.min(area.y1, by + b);
    if (y1 <= y0) continue;
    for (let bx = startX; bx < area.x1; bx += b) {
      const x0 = Math.max(area.x0, bx);
      const x1 = Math.min(area.x1, bx + b);
      if (x1 <= x0) continue;
      sum.fill(0);
      for (let y = y0; y < y1; y++) {
        for (let i = (y * fw + x0) * c, e = (y * fw + x1) * c; i < e; i += c) {
          for (let k = 0; k < c; k++) sum[k] += src[i + k];
        }
      }
      const n = (x1 - x0) * (y1 - y0);
      for (let k = 0; k < c; k++) mean[k] = Math.round(sum[k] / n);
      for (let y = y0; y < y1; y++) {
        for (let i = ((y - area.y0) * aw + x0 - area.x0) * c, e = i + (x1 - x0) * c; i < e; i += c) {
          for (let k = 0; k < c; k++) out[i + k] = mean[k];
        }
      }
    }
  }
  return { data: out, width: aw, height: area.y1 - area.y0, channels: c };
}
