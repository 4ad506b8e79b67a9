// A frame as a network input: the whole frame squashed to width x height with TF's legacy bilinear
// resize (tf.image.resizeBilinear defaults: source = destination * in/out, no half-pixel offset),
// as float RGB planes (NCHW), each value v * scale + bias. This is what the TF.js code paths fed
// CenterNet and Selfie (resize, then normalise), computed straight from the frame buffer.
import type { Frame } from "../types.ts";

/** For each output position along one axis: first source index, second, and the second's weight. */
function taps(size: number, outSize: number): { lo: Int32Array; hi: Int32Array; w: Float64Array } {
  const lo = new Int32Array(outSize), hi = new Int32Array(outSize), w = new Float64Array(outSize);
  const ratio = size / outSize;
  for (let k = 0; k < outSize; k++) {
    const src = k * ratio;
    lo[k] = Math.floor(src);
    hi[k] = Math.min(size - 1, Math.ceil(src));
    w[k] = src - lo[k]!;
  }
  return { lo, hi, w };
}

export function resizeToPlanes(frame: Frame, width: number, height: number, scale = 1, bias = 0, out = new Float32Array(3 * width * height), offset = 0): Float32Array {
  const { data, channels } = frame;
  const xs = taps(frame.width, width);
  const ys = taps(frame.height, height);
  const plane = width * height;
  const stride = frame.width * channels;
  for (let r = 0; r < height; r++) {
    const r0 = ys.lo[r]! * stride, r1 = ys.hi[r]! * stride, fy = ys.w[r]!;
    for (let k = 0; k < width; k++) {
      const a0 = xs.lo[k]! * channels, a1 = xs.hi[k]! * channels, fx = xs.w[k]!;
      const o = offset + r * width + k;
      for (let c = 0; c < 3; c++) {
        const tl = data[r0 + a0 + c]!, tr = data[r0 + a1 + c]!, bl = data[r1 + a0 + c]!, br = data[r1 + a1 + c]!;
        // tfjs's order of operations: across each row, then down.
        const top = tl + (tr - tl) * fx;
        const bottom = bl + (br - bl) * fx;
        out[o + c * plane] = (top + (bottom - top) * fy) * scale + bias;
      }
    }
  }
  return out;
}
