// PaddleOCR's input: a region of the frame resized with OpenCV's bilinear sampling (half-pixel
// centres, edges clamped) into float planes in OpenCV's BGR order, each plane normalised. Shared
// by the text detector (ImageNet mean and std) and the recogniser (scaled to [-1, 1]).
import type { Box, Frame } from "../types.ts";

export interface BgrPlanesOptions {
  /** Per output plane (B, G, R): value = (v / 255 - mean[p]) / std[p]. */
  mean: readonly number[];
  std: readonly number[];
  /** Row length of the planes (>= width): the columns past `width` stay 0 (padding). */
  stride?: number;
}

/** Region `r` (integer pixels inside the frame) resized to width x height, as [3, height, stride] BGR planes. */
export function bgrPlanes(frame: Frame, r: Box, width: number, height: number, { mean, std, stride = width }: BgrPlanesOptions): Float32Array {
  const { data, channels } = frame;
  const out = new Float32Array(3 * height * stride);
  const plane = height * stride;
  for (let y = 0; y < height; y++) {
    const fy = Math.min(r.height - 1, Math.max(0, ((y + 0.5) * r.height) / height - 0.5));
    const y0 = Math.floor(fy), y1 = Math.min(r.height - 1, y0 + 1), wy = fy - y0;
    for (let x = 0; x < width; x++) {
      const fx = Math.min(r.width - 1, Math.max(0, ((x + 0.5) * r.width) / width - 0.5));
      const x0 = Math.floor(fx), x1 = Math.min(r.width - 1, x0 + 1), wx = fx - x0;
      const i00 = ((r.y + y0) * frame.width + r.x + x0) * channels;
      const i01 = ((r.y + y0) * frame.width + r.x + x1) * channels;
      const i10 = ((r.y + y1) * frame.width + r.x + x0) * channels;
      const i11 = ((r.y + y1) * frame.width + r.x + x1) * channels;
      for (let c = 0; c < 3; c++) {
        const v = (data[i00 + c]! * (1 - wx) + data[i01 + c]! * wx) * (1 - wy) + (data[i10 + c]! * (1 - wx) + data[i11 + c]! * wx) * wy;
        const bgr = 2 - c;
        out[bgr * plane + y * stride + x] = (v / 255 - mean[bgr]!) / std[bgr]!;
      }
    }
  }
  return out;
}
