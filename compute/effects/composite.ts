// Per-pixel mixing of frames through a soft mask. Plain loops over the interleaved bytes:
// one pass, no allocation beyond the output, and pixels where the mask is 0 stay byte-identical
// (the tests rely on that: outside a blurred region the image must not change at all).

import type { Frame, Mask } from "../types.ts";

function assertSameSize(a: { width: number; height: number }, b: { width: number; height: number }, what: string): void {
  if (a.width !== b.width || a.height !== b.height) {
    throw new Error(`${what}: size mismatch ${a.width}x${a.height} vs ${b.width}x${b.height}`);
  }
}

/** base where mask = 0, overlay where mask = 255, linear blend between. Channels must match. */
export function composite(base: Frame, overlay: Frame, mask: Mask): Frame {
  assertSameSize(base, overlay, "composite");
  const out = { ...base, data: Buffer.from(base.data) };
  compositeInto(out, overlay, mask, 0, 0);
  return out;
}

/**
 * In place: blends `overlay` (same size as `mask`) into `target` with its top-left corner at
 * (x0, y0), which must lie inside the target with the whole overlay. Pixels where the mask is 0,
 * and all outside the overlay, keep their bytes.
 */
export function compositeInto(target: Frame, overlay: Frame, mask: Mask, x0: number, y0: number): void {
  assertSameSize(overlay, mask, "composite mask");
  if (target.channels !== overlay.channels) throw new Error("composite: channel count mismatch");
  if (x0 < 0 || y0 < 0 || x0 + overlay.width > target.width || y0 + overlay.height > target.height) {
    throw new Error("composite: overlay outside the target");
  }
  const c = target.channels;
  const out = target.data;
  const m = mask.data;
  const o = overlay.data;
  for (let y = 0, p = 0, i = 0; y < overlay.height; y++) {
    for (let x = 0, t = ((y0 + y) * target.width + x0) * c; x < overlay.width; x++, p++, i += c, t += c) {
      const a = m[p];
      if (a === 0) continue;
      if (a === 255) {
        for (let k = 0; k < c; k++) out[t + k] = o[i + k];
        continue;
      }
      const ia = 255 - a;
      for (let k = 0; k < c; k++) out[t + k] = (out[t + k] * ia + o[i + k] * a + 127) / 255;
    }
  }
}

/**
 * Keeps the foreground (mask = 255) and replaces the background (mask = 0) with a flat colour,
 * blending along soft edges. Alpha, when present, is kept.
 */
export function fillBackground(frame: Frame, mask: Mask, rgb: readonly [number, number, number]): Frame {
  assertSameSize(frame, mask, "fillBackground");
  const c = frame.channels;
  const out = Buffer.from(frame.data);
  const m = mask.data;
  for (let p = 0, i = 0; p < m.length; p++, i += c) {
    const a = m[p];
    if (a === 255) continue;
    const ia = 255 - a;
    out[i] = (out[i] * a + rgb[0] * ia + 127) / 255;
    out[i + 1] = (out[i + 1] * a + rgb[1] * ia + 127) / 255;
    out[i + 2] = (out[i + 2] * a + rgb[2] * ia + 127) / 255;
  }
  return { data: out, width: frame.width, height: frame.height, channels: c };
}

/** RGBA frame whose alpha is the mask (multiplied with an existing alpha channel). */
export function withAlpha(frame: Frame, mask: Mask): Frame {
  assertSameSize(frame, mask, "withAlpha");
  const n = frame.width * frame.height;
  const out = Buffer.allocUnsafe(n * 4);
  const src = frame.data;
  const m = mask.data;
  if (frame.channels === 4) {
    for (let p = 0, i = 0; p < n; p++, i += 4) {
      out[i] = src[i];
      out[i + 1] = src[i + 1];
      out[i + 2] = src[i + 2];
      out[i + 3] = (src[i + 3] * m[p] + 127) / 255;
    }
  } else {
    for (let p = 0, i = 0, j = 0; p < n; p++, i += 4, j += 3) {
      out[i] = src[j];
      out[i + 1] = src[j + 1];
      out[i + 2] = src[j + 2];
      out[i + 3] = m[p];
    }
  }
  return { data: out, width: frame.width, height: frame.height, channels: 4 };
}

/** Parses "#RRGGBB" / "RRGGBB" / "#RGB" into [r, g, b]; null when malformed. */
export function parseHexColor(hex: string): [number, number, number] | null {
  const m = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(hex.trim());
  if (!m) return null;
  let h = m[1];
  if (h.length === 3) h = h.split("").map((ch) => ch + ch).join("");
  return [parseInt(h.slice(0, 2), 16), parseInt(h.slice(2, 4), 16), parseInt(h.slice(4, 6), 16)];
}
