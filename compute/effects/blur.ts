// Gaussian blur and pixelation, for whole frames and for regions (faces, plates, objects).
// sharp (libvips) does the gaussian: vectorised and off the JS thread. Large sigmas are done
// on a downscaled copy (shrink -> blur -> enlarge): the result is visually the same gaussian,
// but a sigma-100 kernel on 12 MP would take seconds, the pyramid takes milliseconds.
// Region versions only touch the region's box (+ feather + blur margin) and composite it back
// through a soft mask, so pixels outside stay byte-identical.

import sharp from "sharp";
import type { Box, Frame } from "../types.ts";
import { composite } from "./composite.ts";
import { ellipseMask, rectMask, featherPx, growBox, DEFAULT_FEATHER, DEFAULT_GROW } from "./mask.ts";

/** Above this sigma the blur runs on a shrunk copy (measured: sharp's direct blur costs ~pixels x sigma,
 * 2.4 MP at sigma 24 takes ~90 ms; the pyramid costs ~180 ms whatever the sigma). */
const DIRECT_SIGMA_MAX = 32;

function raw(frame: Frame) {
  return sharp(frame.data, { raw: { width: frame.width, height: frame.height, channels: frame.channels } });
}

async function toFrame(img: ReturnType<typeof sharp>, channels: 3 | 4): Promise<Frame> {
  const { data, info } = await img.raw().toBuffer({ resolveWithObject: true });
  if (info.channels !== channels) throw new Error(`effects: expected ${channels} channels, got ${info.channels}`);
  return { data, width: info.width, height: info.height, channels };
}

/** Gaussian blur of a whole frame (same size and channels). */
export async function gaussianBlur(frame: Frame, sigma: number): Promise<Frame> {
  if (!(sigma >= 0.3)) return { ...frame, data: Buffer.from(frame.data) };
  if (sigma <= DIRECT_SIGMA_MAX || Math.min(frame.width, frame.height) < 16) {
    return toFrame(raw(frame).blur(Math.min(sigma, 1000)), frame.channels);
  }
  // Shrink so the remaining blur is ~DIRECT_SIGMA_MAX/2 px; the box-like shrink itself
  // contributes ~f/2 of blur, so subtract it in quadrature.
  const f = Math.min(sigma / (DIRECT_SIGMA_MAX / 2), Math.min(frame.width, frame.height) / 4);
  const sw = Math.max(4, Math.round(frame.width / f));
  const sh = Math.max(4, Math.round(frame.height / f));
  const fx = frame.width / sw;
  const small = await toFrame(raw(frame).resize(sw, sh, { kernel: "linear", fit: "fill" }), frame.channels);
  const rest = Math.sqrt(Math.max(0.25, sigma * sigma - (fx / 2) ** 2)) / fx;
  // Separate pipelines: sharp always resizes before it blurs within one pipeline.
  const blurred = await toFrame(raw(small).blur(Math.max(0.3, rest)), frame.channels);
  return toFrame(raw(blurred).resize(frame.width, frame.height, { kernel: "cubic", fit: "fill" }), frame.channels);
}

/** Mosaic of a whole frame: each blockSize x blockSize cell becomes its average colour. */
export async function pixelate(frame: Frame, blockSize: number): Promise<Frame> {
  return pixelateAligned(frame, blockSize, 0, 0);
}

// Block averages with the grid anchored at (ox, oy) (so a region's blocks line up with its box).
function pixelateAligned(frame: Frame, blockSize: number, ox: number, oy: number): Frame {
  const b = Math.max(1, Math.round(blockSize));
  const { width: w, height: h, channels: c } = frame;
  const out = Buffer.allocUnsafe(frame.data.length);
  const src = frame.data;
  const startX = (((Math.round(ox) % b) + b) % b) - b;
  const startY = (((Math.round(oy) % b) + b) % b) - b;
  const sum = new Float64Array(c);
  for (let by = startY; by < h; by += b) {
    const y0 = Math.max(0, by);
    const y1 = Math.min(h, by + b);
    if (y1 <= y0) continue;
    for (let bx = startX; bx < w; bx += b) {
      const x0 = Math.max(0, bx);
      const x1 = Math.min(w, bx + b);
      if (x1 <= x0) continue;
      sum.fill(0);
      for (let y = y0; y < y1; y++) {
        for (let i = (y * w + x0) * c, e = (y * w + x1) * c; i < e; i += c) {
          for (let k = 0; k < c; k++) sum[k] += src[i + k];
        }
      }
      const n = (x1 - x0) * (y1 - y0);
      for (let y = y0; y < y1; y++) {
        for (let i = (y * w + x0) * c, e = (y * w + x1) * c; i < e; i += c) {
          for (let k = 0; k < c; k++) out[i + k] = Math.round(sum[k] / n);
        }
      }
    }
  }
  return { data: out, width: w, height: h, channels: c };
}

export interface RegionEffectOptions {
  /** Gaussian sigma in px (see blurSigma). Exactly one of sigma / blockSize. */
  sigma?: number;
  /** Mosaic block size in px (see pixelBlockSize). */
  blockSize?: number;
  /** Shape of the covered area inside each (grown) box. Default "ellipse". */
  shape?: "ellipse" | "rect";
  /** Fraction of the box size added on each side. Default 0.15. */
  grow?: number;
  /** Soft edge outside the grown shape, fraction of its smaller side. Default 0.1. */
  feather?: number;
}

interface Rect {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

function clipRect(x0: number, y0: number, x1: number, y1: number, w: number, h: number): Rect | null {
  const r = { x0: Math.max(0, Math.floor(x0)), y0: Math.max(0, Math.floor(y0)), x1: Math.min(w, Math.ceil(x1)), y1: Math.min(h, Math.ceil(y1)) };
  return r.x1 > r.x0 && r.y1 > r.y0 ? r : null;
}

function crop(frame: Frame, r: Rect): Frame {
  const c = frame.channels;
  const w = r.x1 - r.x0;
  const h = r.y1 - r.y0;
  const out = Buffer.allocUnsafe(w * h * c);
  for (let y = 0; y < h; y++) {
    const s = ((r.y0 + y) * frame.width + r.x0) * c;
    frame.data.copy(out, y * w * c, s, s + w * c);
  }
  return { data: out, width: w, height: h, channels: c };
}

function paste(target: Frame, piece: Frame, x0: number, y0: number): void {
  const c = target.channels;
  for (let y = 0; y < piece.height; y++) {
    const d = ((y0 + y) * target.width + x0) * c;
    piece.data.copy(target.data, d, y * piece.width * c, (y + 1) * piece.width * c);
  }
}

/**
 * Blurs (sigma) or pixelates (blockSize) each box: the grown ellipse/rectangle is fully
 * covered, a soft edge fades out around it, and every pixel outside is left byte-identical.
 * Overlapping boxes are handled one after the other (the second sees the first's result).
 */
export async function blurRegions(frame: Frame, regions: Box[], opts: RegionEffectOptions): Promise<Frame> {
  if ((opts.sigma === undefined) === (opts.blockSize === undefined)) {
    throw new Error("blurRegions: give exactly one of sigma or blockSize");
  }
  const out: Frame = { ...frame, data: Buffer.from(frame.data) };
  const grow = opts.grow ?? DEFAULT_GROW;
  const feather = opts.feather ?? DEFAULT_FEATHER;
  for (const box of regions) {
    if (!(box.width > 0 && box.height > 0)) continue;
    const g = growBox(box, grow);
    const f = featherPx(g, feather);
    const area = clipRect(g.x - f - 1, g.y - f - 1, g.x + g.width + f + 1, g.y + g.height + f + 1, frame.width, frame.height);
    if (!area) continue;
    // The blur reads a margin of 3 sigma around the area so its border is a true blur of the
    // surroundings, not of a cut edge.
    const margin = opts.sigma !== undefined ? Math.ceil(3 * opts.sigma) : 0;
    const src = clipRect(area.x0 - margin, area.y0 - margin, area.x1 + margin, area.y1 + margin, frame.width, frame.height)!;
    const piece = crop(out, src);
    const effected = opts.sigma !== undefined
      ? await gaussianBlur(piece, opts.sigma)
      : pixelateAligned(piece, opts.blockSize!, g.x - src.x0, g.y - src.y0);
    const local: Box = { x: box.x - src.x0, y: box.y - src.y0, width: box.width, height: box.height };
    const shapeOpts = { grow, feather };
    const mask = (opts.shape ?? "ellipse") === "rect"
      ? rectMask(piece.width, piece.height, [local], shapeOpts)
      : ellipseMask(piece.width, piece.height, [local], shapeOpts);
    paste(out, composite(piece, effected, mask), src.x0, src.y0);
  }
  return out;
}
