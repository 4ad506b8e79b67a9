// Tone and retouch effects for portrait enhancement: edge-preserving skin smoothing, detail
// (unsharp) and global exposure / white balance. Plain loops over interleaved bytes.
// Written next to the shared effects (blur, masks, compositing) and built on them.
import type { Frame, Mask } from "../types.ts";
import { gaussianBlur } from "./blur.ts";

const clamp = (v: number): number => (v < 0 ? 0 : v > 255 ? 255 : v);

/**
 * Moves each masked pixel along the line from the frame to its blurred copy: out = f + w (b - f),
 * with w from the pixel's mean absolute difference to the blur and its mask value. w > 0 smooths,
 * w < 0 sharpens (unsharp mask).
 */
function blendWithBlur(frame: Frame, blurred: Frame, mask: Mask, weight: (diff: number, m: number) => number): Frame {
  const out = Buffer.from(frame.data);
  const c = frame.channels;
  for (let p = 0, i = 0; p < mask.data.length; p++, i += c) {
    const m = mask.data[p];
    if (m === 0) continue;
    let diff = 0;
    for (let k = 0; k < 3; k++) diff += Math.abs(blurred.data[i + k] - frame.data[i + k]);
    const w = weight(diff / 3, m);
    if (w === 0) continue;
    for (let k = 0; k < 3; k++) out[i + k] = clamp(Math.round(frame.data[i + k] + w * (blurred.data[i + k] - frame.data[i + k])));
  }
  return { ...frame, data: out };
}

/**
 * Skin smoothing inside `mask`: pixels move towards a gaussian-blurred copy, but only where they
 * differ from it by little (skin texture, pores); strong differences (eyes, brows, lips, edges)
 * keep the original. amount 0..1 = how much of the texture is removed.
 */
export async function smoothSkin(frame: Frame, mask: Mask, sigma: number, amount: number, edge = 24): Promise<Frame> {
  return blendWithBlur(frame, await gaussianBlur(frame, sigma), mask, (diff, m) => (amount * m * Math.max(0, 1 - diff / edge)) / 255);
}

/**
 * Unsharp mask inside `mask`, on edges only (eyes, brows, lips): adds back `amount` x the detail
 * finer than `sigma` where it is stronger than `edge` levels, so smoothed skin stays smooth.
 */
export async function sharpenDetail(frame: Frame, mask: Mask, sigma: number, amount: number, edge = 12): Promise<Frame> {
  return blendWithBlur(frame, await gaussianBlur(frame, sigma), mask, (diff, m) => -((amount * m) / 255) * Math.min(1, Math.max(0, diff / edge - 1)));
}

/** Mean RGB of the frame where the mask is set (weighted), or of the whole frame without mask. */
export function meanColor(frame: Frame, mask?: Mask): [number, number, number] {
  const c = frame.channels;
  const sum = [0, 0, 0];
  let wsum = 0;
  for (let p = 0, i = 0; p < frame.width * frame.height; p++, i += c) {
    const w = mask ? mask.data[p] : 255;
    if (w === 0) continue;
    sum[0] += frame.data[i] * w; sum[1] += frame.data[i + 1] * w; sum[2] += frame.data[i + 2] * w;
    wsum += w;
  }
  return wsum === 0 ? [128, 128, 128] : [sum[0] / wsum, sum[1] / wsum, sum[2] / wsum];
}

/**
 * Per-channel gains applied to the whole frame: gray-world white balance (partial, `wbAmount`
 * 0..1, so warm scenes stay warm) times an exposure gain. Gains are clamped to avoid colour casts.
 */
export function applyGains(frame: Frame, gains: readonly [number, number, number]): Frame {
  const lut = gains.map((g) => Uint8Array.from({ length: 256 }, (_, v) => clamp(Math.round(v * g))));
  const out = Buffer.from(frame.data);
  const c = frame.channels;
  for (let i = 0; i < out.length; i += c) {
    out[i] = lut[0][out[i]]; out[i + 1] = lut[1][out[i + 1]]; out[i + 2] = lut[2][out[i + 2]];
  }
  return { ...frame, data: out };
}

export function whiteBalanceGains(mean: readonly [number, number, number], wbAmount: number): [number, number, number] {
  const gray = (mean[0] + mean[1] + mean[2]) / 3;
  return mean.map((m) => {
    const full = gray / Math.max(1, m);
    return Math.min(1.25, Math.max(0.8, 1 + wbAmount * (full - 1)));
  }) as [number, number, number];
}

/** Exposure gain bringing the luminance `luma` (0..255) towards `target`, bounded to +-0.5 EV. */
export function exposureGain(luma: number, target = 128): number {
  return Math.min(Math.SQRT2, Math.max(Math.SQRT1_2, target / Math.max(1, luma)));
}
