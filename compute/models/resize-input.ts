// A frame as a network input: the whole frame squashed to width x height with TF's bilinear
// resize (tf.image.resizeBilinear; by default its legacy sampling, source = destination * in/out
// with no half-pixel offset, or with alignCorners source = destination * (in-1)/(out-1)), as float
// RGB planes (NCHW), each value v * scale + bias. This is what the TF.js code paths fed CenterNet,
// Selfie and nsfwjs (resize, then normalise), computed straight from the frame buffer.
import type { Frame } from "../types.ts";

/** Three float planes (R, G, B), each width x height. */
export interface Planes {
  data: Float32Array;
  width: number;
  height: number;
}

export interface ResizeOptions {
  scale?: number;
  bias?: number;
  alignCorners?: boolean;
  /** Where to write (e.g. one image of a batch): a new array when absent. */
  out?: Float32Array;
  offset?: number;
  /** Only output rows [from, to) (into `out`): a large resize done in parts, yielding between them. */
  rows?: readonly [number, number];
  /** Only output columns [from, to) (into `out`): the parts of a resize that tiles will read. */
  cols?: readonly [number, number];
  /** Elements between the R, G and B planes of `out` (default width * height; a band of rows: its own). */
  planeStride?: number;
}

/** For each output position along one axis: first source index, second, and the second's weight. */
function taps(size: number, outSize: number, alignCorners: boolean): { lo: Int32Array; hi: Int32Array; w: Float64Array } {
  const lo = new Int32Array(outSize), hi = new Int32Array(outSize), w = new Float64Array(outSize);
  const ratio = alignCorners && outSize > 1 ? (size - 1) / (outSize - 1) : size / outSize;
  for (let k = 0; k < outSize; k++) {
    const src = k * ratio;
    lo[k] = Math.floor(src);
    hi[k] = Math.min(size - 1, Math.ceil(src));
    w[k] = src - lo[k]!;
  }
  return { lo, hi, w };
}

/** `src` (an interleaved frame or float planes) resized into [3, height, width] float planes. */
export function resizeToPlanes(src: Frame | Planes, width: number, height: number, opts: ResizeOptions = {}): Float32Array {
  const { scale = 1, bias = 0, alignCorners = false, offset = 0 } = opts;
  const out = opts.out ?? new Float32Array(3 * width * height);
  const { data } = src;
  // Element strides of a column, a row and a channel in the source.
  const planar = data instanceof Float32Array;
  const col = planar ? 1 : (src as Frame).channels;
  const row = src.width * col;
  const chan = planar ? src.width * src.height : 1;
  const xs = taps(src.width, width, alignCorners);
  const ys = taps(src.height, height, alignCorners);
  const plane = opts.planeStride ?? width * height;
  const [first, end] = opts.rows ?? [0, height];
  const [left, right] = opts.cols ?? [0, width];
  const span = right - left;
  // Separable, in tfjs's order of operations: each source row is resized across once (kept in
  // doubles, so the result is the same as interpolating all four taps per output value), then
  // output rows are interpolated down from the two rows they lie between. A row is reused by the
  // next output row when the frame is enlarged (the small-face tiles: 1.33x).
  const across = [new Float64Array(3 * span), new Float64Array(3 * span)];
  const held = [-1, -1];
  const rowAcross = (y: number): Float64Array => {
    const slot = held[0] === y ? 0 : held[1] === y ? 1 : -1;
    if (slot >= 0) return across[slot]!;
    // Replace the row the current output row does not need (rows are asked for in increasing order).
    const into = held[0]! < held[1]! ? 0 : 1;
    const buf = across[into]!;
    held[into] = y;
    const base = y * row;
    for (let k = left; k < right; k++) {
      const a0 = base + xs.lo[k]! * col, a1 = base + xs.hi[k]! * col, fx = xs.w[k]!;
      const i = k - left;
      for (let c = 0; c < 3; c++) {
        const ch = c * chan;
        const l = data[a0 + ch]!, r = data[a1 + ch]!;
        buf[c * span + i] = l + (r - l) * fx;
      }
    }
    return buf;
  };
  for (let r = first; r < end; r++) {
    const fy = ys.w[r]!;
    const top = rowAcross(ys.lo[r]!);
    const bottom = rowAcross(ys.hi[r]!);
    for (let c = 0; c < 3; c++) {
      const o = offset + c * plane + r * width + left;
      const t = c * span;
      for (let i = 0; i < span; i++) {
        const a = top[t + i]!;
        out[o + i] = (a + (bottom[t + i]! - a) * fy) * scale + bias;
      }
    }
  }
  return out;
}

/**
 * A frame's RGB as float planes, 2x2-averaged `halvings` times (the same numbers as
 * resizeToPlanes at its own size, then halvePlanes each time): the first halving reads the frame's
 * bytes, so a 12 MP photo never becomes 144 MB of full-size floats.
 */
export function halvedPlanes(frame: Frame, halvings: number): Planes {
  if (halvings <= 0) return { data: resizeToPlanes(frame, frame.width, frame.height), width: frame.width, height: frame.height };
  const width = Math.floor(frame.width / 2), height = Math.floor(frame.height / 2);
  const { data: src, channels } = frame;
  const row = frame.width * channels;
  const data = new Float32Array(3 * width * height);
  for (let c = 0; c < 3; c++)
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++) {
        const i = 2 * y * row + 2 * x * channels + c;
        data[c * width * height + y * width + x] = (src[i]! + src[i + channels]! + src[i + row]! + src[i + row + channels]!) / 4;
      }
  let planes: Planes = { data, width, height };
  for (let k = 1; k < halvings; k++) planes = halvePlanes(planes);
  return planes;
}

/** 2x2 average (TF avgPool 2, stride 2, 'valid': an odd last row/column is dropped). */
export function halvePlanes(p: Planes): Planes {
  const width = Math.floor(p.width / 2), height = Math.floor(p.height / 2);
  const data = new Float32Array(3 * width * height);
  const src = p.width * p.height;
  for (let c = 0; c < 3; c++)
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++) {
        const i = c * src + 2 * y * p.width + 2 * x;
        data[c * width * height + y * width + x] = (p.data[i]! + p.data[i + 1]! + p.data[i + p.width]! + p.data[i + p.width + 1]!) / 4;
      }
  return { data, width, height };
}

/** Bilinear taps of output positions 0..n-1 over source positions start + (i + 0.5) * step - 0.5. */
function cropTaps(start: number, step: number, n: number, extent: number) {
  const lo = new Int32Array(n), hi = new Int32Array(n);
  const wLo = new Float32Array(n), wHi = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const s = start + (i + 0.5) * step - 0.5;
    const s0 = Math.floor(s), f = s - s0;
    // A tap outside the frame reads black: its weight is zero (its index is clamped, never read as such).
    lo[i] = Math.min(extent - 1, Math.max(0, s0));
    hi[i] = Math.min(extent - 1, Math.max(0, s0 + 1));
    wLo[i] = s0 >= 0 && s0 < extent ? 1 - f : 0;
    wHi[i] = s0 + 1 >= 0 && s0 + 1 < extent ? f : 0;
  }
  return { lo, hi, wLo, wHi };
}

export interface CropOptions {
  /** Each value is v * scale + bias (v in 0..255). */
  scale: number;
  bias: number;
  /** Where the crop's top-left value goes in `out`. */
  offset?: number;
  /** Values from one row of the output image to the next, and from one plane to the next: the crop as one cell of a larger image (default: an n x n image of its own). */
  rowStride?: number;
  planeStride?: number;
}

/**
 * The square `crop` of the frame (it may reach outside: black there) resampled bilinearly
 * (half-pixel centres) to n x n, written as three float planes into `out`. Every value of the
 * n x n image is written.
 */
export function cropToPlanes(frame: Frame, crop: { x: number; y: number; side: number }, n: number, out: Float32Array, opts: CropOptions): void {
  const step = crop.side / n;
  if (step === 1 && Number.isInteger(crop.x) && Number.isInteger(crop.y)) return copyToPlanes(frame, crop.x, crop.y, n, out, opts);
  const { width, height, channels, data } = frame;
  const { scale, bias, offset = 0, rowStride = n, planeStride = n * n } = opts;
  const xs = cropTaps(crop.x, step, n, width);
  const ys = cropTaps(crop.y, step, n, height);
  for (let y = 0; y < n; y++) {
    const r0 = ys.lo[y]! * width, r1 = ys.hi[y]! * width, v0 = ys.wLo[y]!, v1 = ys.wHi[y]!;
    for (let x = 0; x < n; x++) {
      const a0 = xs.lo[x]!, a1 = xs.hi[x]!, u0 = xs.wLo[x]!, u1 = xs.wHi[x]!;
      const p00 = (r0 + a0) * channels, p01 = (r0 + a1) * channels, p10 = (r1 + a0) * channels, p11 = (r1 + a1) * channels;
      const o = offset + y * rowStride + x;
      for (let c = 0; c < 3; c++) {
        const top = data[p00 + c]! * u0 + data[p01 + c]! * u1;
        const bottom = data[p10 + c]! * u0 + data[p11 + c]! * u1;
        out[o + c * planeStride] = (top * v0 + bottom * v1) * scale + bias;
      }
    }
  }
}

/**
 * cropToPlanes where every output pixel is one frame pixel (side n at whole-pixel x0, y0): the same
 * values, copied instead of interpolated (a 1024 px view: ~3.5 ms instead of ~22).
 */
function copyToPlanes(frame: Frame, x0: number, y0: number, n: number, out: Float32Array, opts: CropOptions): void {
  const { width, height, channels, data } = frame;
  const { scale, bias, offset = 0, rowStride = n, planeStride = n * n } = opts;
  // Output columns [from, to) lie inside the frame; the rest, and rows outside it, are black.
  const from = Math.min(n, Math.max(0, -x0)), to = Math.max(from, Math.min(n, width - x0));
  for (let y = 0; y < n; y++) {
    const row = offset + y * rowStride;
    const inside = y0 + y >= 0 && y0 + y < height;
    for (let c = 0; c < 3; c++) {
      const plane = row + c * planeStride;
      if (!inside) {
        out.fill(bias, plane, plane + n);
        continue;
      }
      out.fill(bias, plane, plane + from);
      out.fill(bias, plane + to, plane + n);
      for (let x = from, src = ((y0 + y) * width + x0 + from) * channels + c; x < to; x++, src += channels) out[plane + x] = data[src]! * scale + bias;
    }
  }
}
