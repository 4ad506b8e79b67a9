// Skin texture replacement: keep the input's low frequencies (shading, lighting, expression folds
// at a coarse scale), drop the band that carries the person's features, and add a procedural skin
// detail field. The noise lives in FACE coordinates (units of the inter-ocular distance, see
// geometry.ts), so it moves, turns and scales with the face instead of swimming across it.
import type { FaceFrame } from "./geometry.ts";
import { toFace } from "./geometry.ts";
import type { FloatImage, Plane } from "./raster.ts";
import { blurImage } from "./raster.ts";

function hash2(ix: number, iy: number, seed: number): number {
  let h = Math.imul(ix, 374761393) + Math.imul(iy, 668265263) + Math.imul(seed, 1442695041);
  h = Math.imul(h ^ (h >>> 13), 1274126177);
  h ^= h >>> 16;
  return (h >>> 0) / 4294967296;
}

/** Smooth value noise in [-1, 1] at (x, y), lattice spacing 1. */
export function valueNoise(x: number, y: number, seed: number): number {
  const ix = Math.floor(x);
  const iy = Math.floor(y);
  const fx = x - ix;
  const fy = y - iy;
  const sx = fx * fx * (3 - 2 * fx);
  const sy = fy * fy * (3 - 2 * fy);
  const a = hash2(ix, iy, seed);
  const b = hash2(ix + 1, iy, seed);
  const c = hash2(ix, iy + 1, seed);
  const d = hash2(ix + 1, iy + 1, seed);
  const top = a + (b - a) * sx;
  const bot = c + (d - c) * sx;
  return 2 * (top + (bot - top) * sy) - 1;
}

/** Fractal noise (3 octaves), roughly in [-1, 1]. */
export function fbm(x: number, y: number, seed: number): number {
  return 0.57 * valueNoise(x, y, seed) + 0.29 * valueNoise(2.03 * x + 17.1, 2.03 * y - 3.7, seed + 1) + 0.14 * valueNoise(4.1 * x - 9.3, 4.1 * y + 5.2, seed + 2);
}

export interface TextureOptions {
  /** Sigma (in IOD) of the low-pass that is kept: shading and lighting. */
  lowSigma: number;
  /** Fraction of the input's fine band (below fineSigma) that is kept (film grain, sharpness). */
  fineKeep: number;
  /** Sigma (in IOD) separating the fine band. */
  fineSigma: number;
  /** Procedural detail amplitude (grey levels) and frequency (cells per IOD). */
  detail: number;
  frequency: number;
  /** Per-channel tone multipliers. */
  tint: [number, number, number];
  seed: number;
  /** Relative synthetic shading (see shading.ts) multiplied into the kept low frequencies. */
  shading?: Plane;
}

/**
 * The re-textured ROI (full ROI; the caller blends it through the face mask). The pixel-space
 * sigmas follow the face size, so a zoom changes nothing in face terms.
 */
export function retexture(img: FloatImage, frame: FaceFrame, opts: TextureOptions, weight?: Plane): FloatImage {
  const low = blurImage(img, opts.lowSigma * frame.iod);
  const mid = opts.fineKeep > 0 ? blurImage(img, Math.max(0.6, opts.fineSigma * frame.iod)) : null;
  const out = new Float32Array(img.data.length);
  const { width, height } = img;
  for (let j = 0; j < height; j++) {
    for (let i = 0; i < width; i++) {
      const p = j * width + i;
      const k = p * 3;
      const wgt = weight ? weight.data[p] : 1;
      if (wgt <= 0) {
        out[k] = img.data[k];
        out[k + 1] = img.data[k + 1];
        out[k + 2] = img.data[k + 2];
        continue;
      }
      const q = toFace(frame, { x: img.x0 + i + 0.5, y: img.y0 + j + 0.5 });
      const sh = opts.shading ? opts.shading.data[p] : 1;
      const n = opts.detail > 0 ? fbm(q.x * opts.frequency, q.y * opts.frequency, opts.seed) * opts.detail : 0;
      for (let c = 0; c < 3; c++) {
        const fine = mid ? (img.data[k + c] - mid.data[k + c]) * opts.fineKeep : 0;
        const lum = low.data[k + c];
        const v = lum * sh * opts.tint[c] * (1 + n / 160) + fine;
        out[k + c] = img.data[k + c] + (v - img.data[k + c]) * wgt;
      }
    }
  }
  return { ...img, data: out };
}
