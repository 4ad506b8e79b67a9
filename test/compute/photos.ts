// Test helpers: load fixture photos as Frames, hand-checked face boxes, and image metrics
// (sharpness as variance of the Laplacian, PSNR) used to assert what pipelines did to pixels.
import { readFileSync } from "node:fs";
import path from "node:path";
import sharp from "sharp";
import type { Box, Frame } from "../../compute/types.ts";
import { psnrOf } from "../fixtures/psnr.ts";

export const PHOTOS = path.join(import.meta.dirname, "../fixtures/photos");

export async function loadPhoto(name: string): Promise<Frame> {
  const { data, info } = await sharp(path.join(PHOTOS, name)).rotate().removeAlpha().toColorspace("srgb").raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels as 3 };
}

/** Hand-counted faces per photo (boxes checked by eye; see SOURCES.md). */
export function faceBoxes(): Record<string, Box[]> {
  const raw = JSON.parse(readFileSync(path.join(PHOTOS, "faces.json"), "utf8")) as Record<string, number[][]>;
  return Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, v.map(([x, y, width, height]) => ({ x, y, width, height }))]));
}

function gray(f: Frame, x: number, y: number): number {
  const i = (y * f.width + x) * f.channels;
  return 0.299 * f.data[i] + 0.587 * f.data[i + 1] + 0.114 * f.data[i + 2];
}

/** Variance of the 4-neighbour Laplacian of the luminance inside `box` (a sharpness measure). */
export function sharpness(f: Frame, box: Box): number {
  const x0 = Math.max(1, Math.round(box.x)), y0 = Math.max(1, Math.round(box.y));
  const x1 = Math.min(f.width - 1, Math.round(box.x + box.width)), y1 = Math.min(f.height - 1, Math.round(box.y + box.height));
  let s = 0, s2 = 0, n = 0;
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) {
    const l = gray(f, x - 1, y) + gray(f, x + 1, y) + gray(f, x, y - 1) + gray(f, x, y + 1) - 4 * gray(f, x, y);
    s += l; s2 += l * l; n++;
  }
  return n ? s2 / n - (s / n) ** 2 : 0;
}

/**
 * PSNR (dB) between two frames over the pixels where `keep(x, y)` is true; Infinity if identical.
 * `samples`: the first that many channels of each pixel compared (3: the colour; 4: alpha too).
 */
export function psnr(a: Frame, b: Frame, keep: (x: number, y: number) => boolean = () => true, samples = 3): number {
  let se = 0, n = 0;
  for (let y = 0; y < a.height; y++) for (let x = 0; x < a.width; x++) {
    if (!keep(x, y)) continue;
    const i = (y * a.width + x) * a.channels, j = (y * b.width + x) * b.channels;
    for (let k = 0; k < samples; k++) { const d = a.data[i + k] - b.data[j + k]; se += d * d; }
    n += samples;
  }
  return psnrOf(se, n);
}

/** True when (x, y) lies outside every box grown by `grow` of its size on each side. */
export function outside(boxes: Box[], grow: number): (x: number, y: number) => boolean {
  const g = boxes.map((b) => ({ x0: b.x - b.width * grow, y0: b.y - b.height * grow, x1: b.x + b.width * (1 + grow), y1: b.y + b.height * (1 + grow) }));
  return (x, y) => !g.some((r) => x >= r.x0 && x < r.x1 && y >= r.y0 && y < r.y1);
}

/** Box matching as used for recall/precision: IoU >= 0.25, or the detection's centre inside the truth box. */
export function matches(det: Box, truth: Box): boolean {
  const cx = det.x + det.width / 2, cy = det.y + det.height / 2;
  if (cx > truth.x && cx < truth.x + truth.width && cy > truth.y && cy < truth.y + truth.height) return true;
  const w = Math.min(det.x + det.width, truth.x + truth.width) - Math.max(det.x, truth.x);
  const h = Math.min(det.y + det.height, truth.y + truth.height) - Math.max(det.y, truth.y);
  const i = w > 0 && h > 0 ? w * h : 0;
  return i / (det.width * det.height + truth.width * truth.height - i) >= 0.25;
}

/** Fraction of horizontal neighbours inside `box` with identical colour (a mosaic is mostly flat). */
export function flatFraction(f: Frame, box: Box): number {
  let same = 0, total = 0;
  for (let y = Math.round(box.y); y < Math.round(box.y + box.height); y++) {
    for (let x = Math.round(box.x); x < Math.round(box.x + box.width) - 1; x++) {
      const i = (y * f.width + x) * f.channels, j = i + f.channels;
      total++;
      if (f.data[i] === f.data[j] && f.data[i + 1] === f.data[j + 1] && f.data[i + 2] === f.data[j + 2]) same++;
    }
  }
  return total ? same / total : 0;
}

/**
 * A 1920x1080 frame zoomed in on `face` of photo `name` so that face is about `faceWidth` px wide
 * (the 16:9 window around it, shrunk to fit the photo, resized with sharp), and the photo's
 * hand-counted faces in it: `whole` inside the frame, `cut` crossing its edge.
 */
export async function zoomedOnFace(name: string, face: Box, faceWidth: number): Promise<{ frame: Frame; whole: Box[]; cut: Box[] }> {
  const file = path.join(PHOTOS, name);
  const meta = await sharp(file).metadata();
  const s = faceWidth / face.width;
  const h = Math.min(Math.round(1080 / s), meta.height!, Math.round((Math.min(Math.round(1920 / s), meta.width!) * 9) / 16));
  const w = Math.round((h * 16) / 9);
  const x = Math.max(0, Math.min(meta.width! - w, Math.round(face.x + face.width / 2 - w / 2)));
  const y = Math.max(0, Math.min(meta.height! - h, Math.round(face.y + face.height / 2 - h / 2)));
  const { data } = await sharp(file).extract({ left: x, top: y, width: w, height: h }).resize(1920, 1080).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const k = 1920 / w;
  const boxes = faceBoxes()[name]!.map((b) => ({ x: (b.x - x) * k, y: (b.y - y) * k, width: b.width * k, height: b.height * k }));
  const inside = (b: Box) => b.x >= 0 && b.y >= 0 && b.x + b.width <= 1920 && b.y + b.height <= 1080;
  return { frame: { data, width: 1920, height: 1080, channels: 3 }, whole: boxes.filter(inside), cut: boxes.filter((b) => !inside(b)) };
}
