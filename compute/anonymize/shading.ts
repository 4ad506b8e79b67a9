// Synthetic shading: a generic, hand-set relief (height per landmark: nose forward, eye sockets
// back, chin forward, cheeks falling away to the ears; anatomical rules, not any real face),
// interpolated over the triangulated (reshaped) landmarks, smoothed, and lit with a light direction
// estimated from the input's coarse left/right brightness. It replaces the input's own mid-scale
// shading, which otherwise carries much of the identity (a low-passed face is still recognised).
import type { FaceFrame } from "./geometry.ts";
import type { Plane, Pt } from "./raster.ts";
import { blurPlane, plane } from "./raster.ts";
import type { Triangle } from "./warp.ts";

// Height (in IOD, towards the camera) of each of the 68 landmarks.
const Z: number[] = [
  0.0, 0.05, 0.12, 0.2, 0.3, 0.4, 0.48, 0.53, 0.55, 0.53, 0.48, 0.4, 0.3, 0.2, 0.12, 0.05, 0.0, // jaw
  0.42, 0.5, 0.56, 0.6, 0.62, 0.62, 0.6, 0.56, 0.5, 0.42, // brows
  0.55, 0.68, 0.82, 0.95, // bridge -> tip
  0.62, 0.72, 0.8, 0.72, 0.62, // nose base
  0.38, 0.42, 0.42, 0.45, 0.42, 0.4, 0.45, 0.42, 0.42, 0.38, 0.4, 0.42, // eyes
  0.55, 0.64, 0.72, 0.75, 0.72, 0.64, 0.55, 0.62, 0.66, 0.68, 0.66, 0.62, // outer lips
  0.58, 0.66, 0.68, 0.66, 0.58, 0.62, 0.64, 0.62, // inner lips
];

/**
 * Relative shading (mean ~1 over the face) over a ROI. `pts` are ROI-local points: the 68
 * landmarks first, then `extra` points (outline/ring) whose heights are given in `extraZ`.
 */
export function syntheticShading(
  width: number,
  height: number,
  pts: Pt[],
  extraZ: number[],
  tris: Triangle[],
  ff: FaceFrame,
  light: { x: number; y: number; z: number },
  weight: Plane,
): Plane {
  const z = [...Z, ...extraZ].map((v) => v * ff.iod);
  const hm = plane(width, height);
  for (const [ia, ib, ic] of tris) {
    const A = pts[ia], B = pts[ib], C = pts[ic];
    const det = (B.y - C.y) * (A.x - C.x) + (C.x - B.x) * (A.y - C.y);
    if (Math.abs(det) < 1e-9) continue;
    const x0 = Math.max(0, Math.floor(Math.min(A.x, B.x, C.x)));
    const x1 = Math.min(width - 1, Math.ceil(Math.max(A.x, B.x, C.x)));
    const y0 = Math.max(0, Math.floor(Math.min(A.y, B.y, C.y)));
    const y1 = Math.min(height - 1, Math.ceil(Math.max(A.y, B.y, C.y)));
    for (let y = y0; y <= y1; y++) {
      for (let x = x0; x <= x1; x++) {
        const px = x + 0.5;
        const py = y + 0.5;
        const l1 = ((B.y - C.y) * (px - C.x) + (C.x - B.x) * (py - C.y)) / det;
        const l2 = ((C.y - A.y) * (px - C.x) + (A.x - C.x) * (py - C.y)) / det;
        const l3 = 1 - l1 - l2;
        if (l1 < -1e-6 || l2 < -1e-6 || l3 < -1e-6) continue;
        hm.data[y * width + x] = l1 * z[ia] + l2 * z[ib] + l3 * z[ic];
      }
    }
  }
  const smooth = blurPlane(hm, 0.12 * ff.iod);
  const out = plane(width, height);
  const ln = Math.hypot(light.x, light.y, light.z);
  const lx = light.x / ln, ly = light.y / ln, lz = light.z / ln;
  let sum = 0;
  let wsum = 0;
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1; x < width - 1; x++) {
      const i = y * width + x;
      const gx = (smooth.data[i + 1] - smooth.data[i - 1]) / 2;
      const gy = (smooth.data[i + width] - smooth.data[i - width]) / 2;
      const nn = Math.hypot(gx, gy, 1);
      const lam = Math.max(0, (-gx * lx - gy * ly + lz) / nn);
      const s = 0.45 + 0.55 * lam;
      out.data[i] = s;
      sum += s * weight.data[i];
      wsum += weight.data[i];
    }
  }
  const m = wsum > 0 ? sum / wsum : 1;
  for (let i = 0; i < out.data.length; i++) out.data[i] = out.data[i] > 0 ? out.data[i] / m : 1;
  return out;
}
