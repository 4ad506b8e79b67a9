// Hard scene cuts, from colour histograms of consecutive frames. A cut matters to face hiding
// because nothing before it tells where faces are after it: the tracker must not carry tracks
// (or extend new ones back) across it, and the first frame of the new shot must be detected
// even when the detect-every-k schedule would skip it.
//
// Histograms (4 levels per channel, 64 bins, from a sparse grid of pixels) ignore where things
// are, so pans, zooms and faces moving fast barely change them, while a cut to another shot
// moves a large part of the mass. A cut needs both: the L1 distance of the normalised
// histograms above CUT_HISTOGRAM_DISTANCE (of 2), and the mean absolute difference of the
// sampled pixels above CUT_PIXEL_DIFFERENCE (a flash or fade changes the histogram but leaves
// the picture in place, and is not a cut).
import type { Frame } from "../types.ts";

// Measured on the generated clips (bench/video-leaks.ts clips): the cut scores 0.81 / 58; pans,
// zooms and sprites at up to 38 px/frame at most 0.13 (histogram) and 46 (pixels).
export const CUT_HISTOGRAM_DISTANCE = 0.35;
export const CUT_PIXEL_DIFFERENCE = 20;
/** Pixels sampled per frame (a grid), plenty for a 64-bin histogram. */
const SAMPLES = 4096;

export interface FrameSignature {
  histogram: Float64Array;
  samples: Uint8Array;
}

export function frameSignature(frame: Frame): FrameSignature {
  const step = Math.max(1, Math.floor(Math.sqrt((frame.width * frame.height) / SAMPLES)));
  const histogram = new Float64Array(64);
  const samples: number[] = [];
  for (let y = step >> 1; y < frame.height; y += step) {
    for (let x = step >> 1; x < frame.width; x += step) {
      const i = (y * frame.width + x) * frame.channels;
      const r = frame.data[i], g = frame.data[i + 1], b = frame.data[i + 2];
      histogram[((r >> 6) << 4) | ((g >> 6) << 2) | (b >> 6)]++;
      samples.push((r + 2 * g + b) >> 2);
    }
  }
  for (let k = 0; k < 64; k++) histogram[k] /= samples.length;
  return { histogram, samples: Uint8Array.from(samples) };
}

/** How different two frames are: histogram L1 distance (0-2) and mean absolute luma difference (0-255). */
export function signatureDistance(a: FrameSignature, b: FrameSignature): { histogram: number; pixels: number } {
  let histogram = 0;
  for (let k = 0; k < 64; k++) histogram += Math.abs(a.histogram[k] - b.histogram[k]);
  let pixels = 0;
  const n = Math.min(a.samples.length, b.samples.length);
  for (let k = 0; k < n; k++) pixels += Math.abs(a.samples[k] - b.samples[k]);
  return { histogram, pixels: n ? pixels / n : 0 };
}

/** Feeds frames in order; says whether each one starts a new shot. */
export class SceneCutDetector {
  #previous: FrameSignature | null = null;

  isCut(frame: Frame): boolean {
    const signature = frameSignature(frame);
    const previous = this.#previous;
    this.#previous = signature;
    if (!previous) return false;
    const d = signatureDistance(previous, signature);
    return d.histogram > CUT_HISTOGRAM_DISTANCE && d.pixels > CUT_PIXEL_DIFFERENCE;
  }
}
