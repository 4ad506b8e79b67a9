// Gaussian blur and pixelation, for whole frames and for regions (faces, plates, objects).
// Whole frames: sharp (libvips) does the gaussian, vectorised and off the JS thread; large sigmas
// run on a downscaled copy (shrink -> blur -> enlarge): the result is visually the same gaussian,
// but a sigma-100 kernel on 12 MP would take seconds, the pyramid takes milliseconds.
// Regions: every box is done on one copy of the frame, each computed from its own neighbourhood
// only (region.ts) and blended back through a soft mask of the box's size, so pixels outside stay
// byte-identical and the cost follows the boxes' area, not the frame's.

import sharp from "sharp";
import type { Box, Frame } from "../types.ts";
import { compositeInto } from "./composite.ts";
import { ellipseMask, rectMask, featherPx, growBox, DEFAULT_FEATHER, DEFAULT_GROW } from "./mask.ts";
import { clipRect, gaussianInRect, pixelateInRect } from "./region.ts";

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
  return pixelateInRect(frame, { x0: 0, y0: 0, x1: frame.width, y1: frame.height }, blockSize, 0, 0);
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

/** One box and its own effect (each region's strength follows its size, see hide.ts). */
export interface RegionEffect {
  box: Box;
  sigma?: number;
  blockSize?: number;
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
  applyRegionEffects(out, regions.map((box) => ({ box, sigma: opts.sigma, blockSize: opts.blockSize })), opts);
  return out;
}

/** blurRegions with an effect per region, in place on `frame` (the caller passes its own copy). */
export function applyRegionEffects(frame: Frame, regions: RegionEffect[], opts: Pick<RegionEffectOptions, "shape" | "grow" | "feather">): void {
  const grow = opts.grow ?? DEFAULT_GROW;
  const feather = opts.feather ?? DEFAULT_FEATHER;
  const shapeMask = (opts.shape ?? "ellipse") === "rect" ? rectMask : ellipseMask;
  for (const { box, sigma, blockSize } of regions) {
    if ((sigma === undefined) === (blockSize === undefined)) throw new Error("applyRegionEffects: give each region exactly one of sigma or blockSize");
    // A sigma under 0.3 px changes no pixel (gaussianBlur returns such frames unchanged too).
    if (!(box.width > 0 && box.height > 0) || (sigma !== undefined && !(sigma >= 0.3))) continue;
    const g = growBox(box, grow);
    const f = featherPx(g, feather);
    const area = clipRect(g.x - f - 1, g.y - f - 1, g.x + g.width + f + 1, g.y + g.height + f + 1, frame.width, frame.height);
    if (!area) continue;
    const effected = sigma !== undefined
      ? gaussianInRect(frame, area, sigma)
      : pixelateInRect(frame, area, blockSize!, g.x, g.y);
    const local: Box = { x: box.x - area.x0, y: box.y - area.y0, width: box.width, height: box.height };
    compositeInto(frame, effected, shapeMask(effected.width, effected.height, [local], { grow, feather }), area.x0, area.y0);
  }
}
