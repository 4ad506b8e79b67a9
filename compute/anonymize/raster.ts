// Small float raster toolkit for the anonymizer: an RGB float image of a region of interest (ROI),
// bilinear sampling, fast Gaussian-like blur (three box passes), anti-aliased polygon / ellipse
// coverage from signed distances, and Catmull-Rom smoothing of landmark outlines.
import type { Box, Frame } from "../types.ts";

export interface Pt {
  x: number;
  y: number;
}

/** An RGB float image (0..255) covering `box` of a frame; pixel (i, j) is frame pixel (box.x + i, box.y + j). */
export interface FloatImage {
  x0: number;
  y0: number;
  width: number;
  height: number;
  /** 3 floats per pixel. */
  data: Float32Array;
}

/** A single-channel float plane (coverage 0..1, or any scalar field) over the same ROI. */
export interface Plane {
  width: number;
  height: number;
  data: Float32Array;
}

export function plane(width: number, height: number): Plane {
  return { width, height, data: new Float32Array(width * height) };
}

/** Integer ROI of the frame containing `box`, clipped. */
export function roiOf(box: Box, frame: { width: number; height: number }): Box {
  const x0 = Math.max(0, Math.floor(box.x));
  const y0 = Math.max(0, Math.floor(box.y));
  const x1 = Math.min(frame.width, Math.ceil(box.x + box.width));
  const y1 = Math.min(frame.height, Math.ceil(box.y + box.height));
  return { x: x0, y: y0, width: Math.max(0, x1 - x0), height: Math.max(0, y1 - y0) };
}

export function cropFloat(frame: Frame, roi: Box): FloatImage {
  const { width, height } = roi;
  const out = new Float32Array(width * height * 3);
  const c = frame.channels;
  for (let j = 0; j < height; j++) {
    let s = ((roi.y + j) * frame.width + roi.x) * c;
    let d = j * width * 3;
    for (let i = 0; i < width; i++, s += c, d += 3) {
      out[d] = frame.data[s];
      out[d + 1] = frame.data[s + 1];
      out[d + 2] = frame.data[s + 2];
    }
  }
  return { x0: roi.x, y0: roi.y, width, height, data: out };
}

/** Bilinear RGB sample at ROI-local (x, y), clamped to the ROI. Writes into out[o..o+2]. */
export function sample(img: FloatImage, x: number, y: number, out: Float32Array, o: number): void {
  const w = img.width;
  const h = img.height;
  if (x < 0) x = 0;
  else if (x > w - 1) x = w - 1;
  if (y < 0) y = 0;
  else if (y > h - 1) y = h - 1;
  const xi = Math.min(w - 2, Math.floor(x));
  const yi = Math.min(h - 2, Math.floor(y));
  const fx = w === 1 ? 0 : x - Math.max(0, xi);
  const fy = h === 1 ? 0 : y - Math.max(0, yi);
  const x0 = Math.max(0, xi);
  const y0 = Math.max(0, yi);
  const x1 = Math.min(w - 1, x0 + 1);
  const y1 = Math.min(h - 1, y0 + 1);
  const d = img.data;
  const a = (y0 * w + x0) * 3;
  const b = (y0 * w + x1) * 3;
  const c = (y1 * w + x0) * 3;
  const e = (y1 * w + x1) * 3;
  for (let k = 0; k < 3; k++) {
    const top = d[a + k] + (d[b + k] - d[a + k]) * fx;
    const bot = d[c + k] + (d[e + k] - d[c + k]) * fx;
    out[o + k] = top + (bot - top) * fy;
  }
}

// One horizontal + vertical box pass of radius r over `ch` interleaved channels (edge-clamped),
// in place (`tmp` is scratch of the same length). The vertical pass walks rows with one running sum
// per column instead of walking columns: same sums, but memory is read in order.
function boxPass(buf: Float32Array, tmp: Float32Array, w: number, h: number, ch: number, r: number): void {
  const n = 2 * r + 1;
  for (let y = 0; y < h; y++) {
    const row = y * w;
    for (let k = 0; k < ch; k++) {
      let acc = 0;
      for (let i = -r; i <= r; i++) acc += buf[(row + Math.min(w - 1, Math.max(0, i))) * ch + k];
      for (let x = 0; x < w; x++) {
        tmp[(row + x) * ch + k] = acc / n;
        const add = Math.min(w - 1, x + r + 1);
        const sub = Math.max(0, x - r);
        acc += buf[(row + add) * ch + k] - buf[(row + sub) * ch + k];
      }
    }
  }
  const stride = w * ch;
  const acc = new Float64Array(stride);
  for (let i = -r; i <= r; i++) {
    const o = Math.min(h - 1, Math.max(0, i)) * stride;
    for (let c = 0; c < stride; c++) acc[c] += tmp[o + c];
  }
  for (let y = 0; y < h; y++) {
    const o = y * stride;
    const add = Math.min(h - 1, y + r + 1) * stride;
    const sub = Math.max(0, y - r) * stride;
    for (let c = 0; c < stride; c++) {
      buf[o + c] = acc[c] / n;
      acc[c] += tmp[add + c] - tmp[sub + c];
    }
  }
}

/** Approximate Gaussian blur (three box passes) of an interleaved float buffer. */
export function blurData(data: Float32Array, w: number, h: number, ch: number, sigma: number): Float32Array {
  const out = new Float32Array(data);
  if (sigma < 0.5) return out;
  // Three box passes of width n approximate a Gaussian with sigma^2 = 3 (n^2 - 1) / 12.
  const r = Math.max(1, Math.round((Math.sqrt(4 * sigma * sigma + 1) - 1) / 2));
  const tmp = new Float32Array(out.length);
  for (let p = 0; p < 3; p++) boxPass(out, tmp, w, h, ch, r);
  return out;
}

export function blurImage(img: FloatImage, sigma: number): FloatImage {
  return { ...img, data: blurData(img.data, img.width, img.height, 3, sigma) };
}

export function blurPlane(p: Plane, sigma: number): Plane {
  return { ...p, data: blurData(p.data, p.width, p.height, 1, sigma) };
}

function segDist2(px: number, py: number, a: Pt, b: Pt): number {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const l2 = dx * dx + dy * dy;
  let t = l2 > 0 ? ((px - a.x) * dx + (py - a.y) * dy) / l2 : 0;
  t = t < 0 ? 0 : t > 1 ? 1 : t;
  const ex = a.x + t * dx - px;
  const ey = a.y + t * dy - py;
  return ex * ex + ey * ey;
}

/**
 * Coverage of a closed polygon (ROI-local coordinates) with a soft edge: 1 inside at more than
 * `soft`/2 px from the edge, 0 outside beyond it, linear in between. `grow` moves the edge outwards.
 * Combined into `target` with max().
 */
export function fillPolygon(target: Plane, poly: Pt[], soft = 1, grow = 0, strength = 1): void {
  if (poly.length < 3) return;
  const pad = soft + Math.max(0, grow) + 1;
  const xs = poly.map((p) => p.x);
  const ys = poly.map((p) => p.y);
  const xa = Math.max(0, Math.floor(Math.min(...xs) - pad));
  const xb = Math.min(target.width - 1, Math.ceil(Math.max(...xs) + pad));
  const ya = Math.max(0, Math.floor(Math.min(...ys) - pad));
  const yb = Math.min(target.height - 1, Math.ceil(Math.max(...ys) + pad));
  const half = Math.max(0.5, soft / 2);
  // Coverage is 1 or 0 wherever the edge is farther than `reach`: only pixels near some edge need
  // distances, and only to the edges near them; the rest is inside/outside by the row's crossings.
  const reach = half + Math.abs(grow) + 0.5;
  const edges = poly.map((q, i) => {
    const p = poly[(i + poly.length - 1) % poly.length];
    return { p, q, x0: Math.min(p.x, q.x) - reach, x1: Math.max(p.x, q.x) + reach, y0: Math.min(p.y, q.y) - reach, y1: Math.max(p.y, q.y) + reach };
  });
  const crossings: number[] = [];
  const near: typeof edges = [];
  for (let y = ya; y <= yb; y++) {
    const py = y + 0.5;
    // Where the row crosses the outline: a pixel is inside when an odd number of crossings lie to
    // its right (the even-odd rule).
    crossings.length = 0;
    for (const { p: a, q: b } of edges) if (a.y > py !== b.y > py) crossings.push(((b.x - a.x) * (py - a.y)) / (b.y - a.y) + a.x);
    crossings.sort((u, v) => u - v);
    near.length = 0;
    for (const e of edges) if (py >= e.y0 && py <= e.y1) near.push(e);
    let passed = 0; // crossings at or left of px
    for (let x = xa; x <= xb; x++) {
      const px = x + 0.5;
      while (passed < crossings.length && crossings[passed] <= px) passed++;
      const isInside = (crossings.length - passed) % 2 === 1;
      let d2 = Infinity;
      for (const e of near) if (px >= e.x0 && px <= e.x1) d2 = Math.min(d2, segDist2(px, py, e.p, e.q));
      let a: number;
      if (d2 === Infinity) a = isInside ? strength : 0;
      else {
        const d = (isInside ? -Math.sqrt(d2) : Math.sqrt(d2)) - grow;
        a = Math.min(1, Math.max(0, 0.5 - d / (2 * half))) * strength;
      }
      const idx = y * target.width + x;
      if (a > target.data[idx]) target.data[idx] = a;
    }
  }
}

/** Coverage of a thick open polyline (a stroke), radius given per vertex (interpolated). */
export function strokePolyline(target: Plane, line: Pt[], radii: number[], soft = 1, strength = 1): void {
  for (let s = 0; s + 1 < line.length; s++) {
    const a = line[s];
    const b = line[s + 1];
    const ra = radii[s];
    const rb = radii[s + 1];
    const pad = Math.max(ra, rb) + soft + 1;
    const xa = Math.max(0, Math.floor(Math.min(a.x, b.x) - pad));
    const xb = Math.min(target.width - 1, Math.ceil(Math.max(a.x, b.x) + pad));
    const ya = Math.max(0, Math.floor(Math.min(a.y, b.y) - pad));
    const yb = Math.min(target.height - 1, Math.ceil(Math.max(a.y, b.y) + pad));
    const dx = b.x - a.x;
    const dy = b.y - a.y;
    const l2 = dx * dx + dy * dy || 1;
    for (let y = ya; y <= yb; y++) {
      for (let x = xa; x <= xb; x++) {
        const px = x + 0.5;
        const py = y + 0.5;
        let t = ((px - a.x) * dx + (py - a.y) * dy) / l2;
        t = t < 0 ? 0 : t > 1 ? 1 : t;
        const ex = a.x + t * dx - px;
        const ey = a.y + t * dy - py;
        const d = Math.sqrt(ex * ex + ey * ey) - (ra + (rb - ra) * t);
        const v = Math.min(1, Math.max(0, 0.5 - d / Math.max(1, soft))) * strength;
        const idx = y * target.width + x;
        if (v > target.data[idx]) target.data[idx] = v;
      }
    }
  }
}

/** Closed (or open) Catmull-Rom resampling of an outline, `per` points per segment. */
export function smoothOutline(pts: Pt[], per = 4, closed = true): Pt[] {
  const n = pts.length;
  const out: Pt[] = [];
  const at = (i: number): Pt => (closed ? pts[(i + n) % n] : pts[Math.max(0, Math.min(n - 1, i))]);
  const segs = closed ? n : n - 1;
  for (let i = 0; i < segs; i++) {
    const p0 = at(i - 1);
    const p1 = at(i);
    const p2 = at(i + 1);
    const p3 = at(i + 2);
    for (let s = 0; s < per; s++) {
      const t = s / per;
      const t2 = t * t;
      const t3 = t2 * t;
      const f = (a: number, b: number, c: number, d: number) =>
        0.5 * (2 * b + (-a + c) * t + (2 * a - 5 * b + 4 * c - d) * t2 + (-a + 3 * b - 3 * c + d) * t3);
      out.push({ x: f(p0.x, p1.x, p2.x, p3.x), y: f(p0.y, p1.y, p2.y, p3.y) });
    }
  }
  if (!closed) out.push(pts[n - 1]);
  return out;
}

/** Write a float ROI back into a frame (copy), blending by `alpha` (0..1 per ROI pixel). */
export function blendInto(frame: Frame, img: FloatImage, alpha: Plane): void {
  const c = frame.channels;
  for (let j = 0; j < img.height; j++) {
    for (let i = 0; i < img.width; i++) {
      const a = alpha.data[j * img.width + i];
      if (a <= 0) continue;
      const s = (j * img.width + i) * 3;
      const d = ((img.y0 + j) * frame.width + img.x0 + i) * c;
      for (let k = 0; k < 3; k++) {
        const v = frame.data[d + k] * (1 - a) + img.data[s + k] * a;
        frame.data[d + k] = v < 0 ? 0 : v > 255 ? 255 : Math.round(v);
      }
    }
  }
}
