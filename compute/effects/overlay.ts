// Drawing images over frames: emoji over faces (Twemoji SVGs from the @twemoji/svg package,
// rendered by sharp's librsvg, no network) and the visible watermark.
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import sharp from "sharp";
import { ApiError } from "../../schema/errors.ts";
import type { Box, Frame } from "../types.ts";
import { timeStage } from "../timing.ts";

const require = createRequire(import.meta.url);
const TWEMOJI_DIR = dirname(require.resolve("@twemoji/svg/package.json"));

/** Twemoji file name of an emoji: its code points in hex, FE0F dropped unless joined by ZWJ. */
export function twemojiName(emoji: string): string {
  const points = [...emoji].map((ch) => ch.codePointAt(0)!.toString(16));
  return (emoji.includes("\u200d") ? points : points.filter((p) => p !== "fe0f")).join("-");
}

const svgCache = new Map<string, Promise<Buffer>>();
const rasterCache = new Map<string, Promise<Frame>>();

function emojiSvg(emoji: string): Promise<Buffer> {
  let svg = svgCache.get(emoji);
  if (!svg) {
    svg = readFile(join(TWEMOJI_DIR, `${twemojiName(emoji)}.svg`)).catch(() => {
      throw new ApiError("invalid_request", `emoji ${emoji} is not in the emoji set (Twemoji 15).`);
    });
    svgCache.set(emoji, svg);
  }
  return svg;
}

/** The emoji as an RGBA frame of size x size (cached per size: video frames reuse it). */
export function emojiImage(emoji: string, size: number): Promise<Frame> {
  const key = `${emoji}@${size}`;
  let raster = rasterCache.get(key);
  if (!raster) {
    raster = emojiSvg(emoji).then(async (svg) => {
      const { data, info } = await sharp(svg, { density: Math.max(72, (72 * size) / 36) }).resize(size, size).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
      return { data, width: info.width, height: info.height, channels: 4 as const };
    });
    if (rasterCache.size > 256) rasterCache.clear();
    rasterCache.set(key, raster);
  }
  return raster;
}

/** Alpha-blends an RGBA image onto a copy of the frame with its top-left corner at (x, y), clipped. */
export function drawImage(frame: Frame, image: Frame, x: number, y: number, opacity = 1): Frame {
  const out = { ...frame, data: Buffer.from(frame.data) };
  drawImageInto(out, image, x, y, opacity);
  return out;
}

/** drawImage in place on `frame`. */
function drawImageInto(frame: Frame, image: Frame, x: number, y: number, opacity: number): void {
  const out = frame.data;
  const c = frame.channels;
  // Only the rows and columns of the image that land inside the frame.
  const ix0 = Math.max(0, -x);
  const ix1 = Math.min(image.width, frame.width - x);
  for (let iy = Math.max(0, -y); iy < Math.min(image.height, frame.height - y); iy++) {
    for (let ix = ix0; ix < ix1; ix++) {
      const s = (iy * image.width + ix) * 4;
      const a = (image.data[s + 3]! / 255) * opacity;
      if (a <= 0) continue;
      const d = ((y + iy) * frame.width + x + ix) * c;
      if (a === 1) {
        out[d] = image.data[s]!;
        out[d + 1] = image.data[s + 1]!;
        out[d + 2] = image.data[s + 2]!;
        continue;
      }
      for (let k = 0; k < 3; k++) out[d + k] = Math.round(out[d + k]! * (1 - a) + image.data[s + k]! * a);
    }
  }
}

/**
 * Side of the emoji square covering a box: 1.35 x its larger side, so the face is fully covered,
 * rounded UP to a multiple of 4 px: a tracked face changes size by about a pixel a frame and each
 * new size is one more SVG render (~3 ms), so video frames mostly reuse a cached raster.
 */
export function emojiSize(b: Box): number {
  return Math.max(8, Math.ceil((Math.max(b.width, b.height) * 1.35) / 4) * 4);
}

/** Covers each box with the emoji, scaled to cover the face fully (a little larger than the box). */
export function coverWithEmoji(frame: Frame, boxes: Box[], emoji: string): Promise<Frame> {
  return timeStage("effects", async () => {
    if (boxes.length === 0) return frame;
    // One copy of the frame for every box.
    const out = { ...frame, data: Buffer.from(frame.data) };
    for (const b of boxes) {
      const size = emojiSize(b);
      const image = await emojiImage(emoji, size);
      drawImageInto(out, image, Math.round(b.x + b.width / 2 - size / 2), Math.round(b.y + b.height / 2 - size / 2), 1);
    }
    return out;
  });
}

const WATERMARK_TEXT = "OBSCURA";
/** 5x7 bitmap glyphs: the watermark needs no font files, which a server may not have. */
const GLYPHS: Record<string, string[]> = {
  O: ["01110", "10001", "10001", "10001", "10001", "10001", "01110"],
  B: ["11110", "10001", "10001", "11110", "10001", "10001", "11110"],
  S: ["01111", "10000", "10000", "01110", "00001", "00001", "11110"],
  C: ["01111", "10000", "10000", "10000", "10000", "10000", "01111"],
  U: ["10001", "10001", "10001", "10001", "10001", "10001", "01110"],
  R: ["11110", "10001", "10001", "11110", "10100", "10010", "10001"],
  A: ["01110", "10001", "10001", "11111", "10001", "10001", "10001"],
};

const watermarkCache = new Map<string, Frame>();

/** The watermark image for a frame width: white text with a dark outline, about 1/5 of the width. */
function watermarkImage(frameWidth: number): Frame {
  const cell = Math.max(2, Math.round(frameWidth / 5 / (WATERMARK_TEXT.length * 6)));
  const key = String(cell);
  const cached = watermarkCache.get(key);
  if (cached) return cached;
  const pad = cell;
  const width = WATERMARK_TEXT.length * 6 * cell + 2 * pad;
  const height = 7 * cell + 2 * pad;
  const data = Buffer.alloc(width * height * 4);
  const ink = (x: number, y: number, rgb: number, alpha: number) => {
    if (x < 0 || y < 0 || x >= width || y >= height) return;
    const i = (y * width + x) * 4;
    if (data[i + 3]! >= alpha && rgb === 0) return;
    data.fill(rgb, i, i + 3);
    data[i + 3] = alpha;
  };
  [...WATERMARK_TEXT].forEach((ch, n) => {
    GLYPHS[ch]!.forEach((row, gy) =>
      [...row].forEach((bit, gx) => {
        if (bit !== "1") return;
        for (let y = 0; y < cell; y++)
          for (let x = 0; x < cell; x++) {
            const px = pad + (n * 6 + gx) * cell + x;
            const py = pad + gy * cell + y;
            for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) ink(px + dx, py + dy, 0, 200);
          }
      }),
    );
  });
  [...WATERMARK_TEXT].forEach((ch, n) => {
    GLYPHS[ch]!.forEach((row, gy) =>
      [...row].forEach((bit, gx) => {
        if (bit !== "1") return;
        for (let y = 0; y < cell; y++) for (let x = 0; x < cell; x++) ink(pad + (n * 6 + gx) * cell + x, pad + gy * cell + y, 255, 255);
      }),
    );
  });
  const image = { data, width, height, channels: 4 as const };
  watermarkCache.set(key, image);
  return image;
}

/** The visible watermark, bottom-right, 70 % opaque. */
export function drawWatermark(frame: Frame): Frame {
  const mark = watermarkImage(frame.width);
  const margin = Math.round(frame.width / 50);
  return drawImage(frame, mark, frame.width - mark.width - margin, frame.height - mark.height - margin, 0.7);
}
