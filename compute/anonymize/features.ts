// Procedural facial features drawn at the (reshaped) landmark positions: eyes (sclera, iris with a
// limbal ring, pupil, catch-light, lash line, lid crease), brows (tapered, hair-textured strokes),
// lips (tinted, darker line between them, dark mouth opening when open) and nostrils. Colours are
// derived from the local low-passed skin, so lighting and skin tone stay consistent with the face.
import type { FaceFrame } from "./geometry.ts";
import { BROW_L, BROW_R, EYE_L, EYE_R, MOUTH_IN, MOUTH_OUT, mean, range, toFace, toImage } from "./geometry.ts";
import type { SyntheticIdentity } from "./identity.ts";
import type { FloatImage, Plane, Pt } from "./raster.ts";
import { blurImage, fillPolygon, plane, smoothOutline, strokePolyline } from "./raster.ts";
import { fbm } from "./texture.ts";

type RGB = [number, number, number];

/** Blend colour `col(i, j)` into `img` with coverage `cov` (0..1) times `opacity`. */
function paint(img: FloatImage, cov: Plane, opacity: number, col: (p: number) => RGB): void {
  for (let p = 0; p < cov.data.length; p++) {
    const a = cov.data[p] * opacity;
    if (a <= 0) continue;
    const c = col(p);
    const k = p * 3;
    for (let ch = 0; ch < 3; ch++) img.data[k + ch] += (c[ch] - img.data[k + ch]) * a;
  }
}

const lumOf = (d: Float32Array, k: number) => 0.299 * d[k] + 0.587 * d[k + 1] + 0.114 * d[k + 2];

export interface FeatureOptions {
  eyes: boolean;
  brows: boolean;
  lips: boolean;
  nose: boolean;
  /** Procedural eyeglasses (frame style and colour from the identity). */
  glasses?: boolean;
}

/**
 * Draw features into `img` (ROI-local, modified in place). `pts` are the reshaped landmarks in
 * frame coordinates, `ff` their face frame.
 */
export function drawFeatures(img: FloatImage, pts: Pt[], ff: FaceFrame, id: SyntheticIdentity, opts: FeatureOptions): void {
  const L = pts.map((p) => ({ x: p.x - img.x0, y: p.y - img.y0 })); // ROI-local
  const iod = ff.iod;
  const W = img.width;
  const H = img.height;
  // Smooth skin reference (colour and shading) for feature colours and for erasing the originals.
  const skin = blurImage(img, 0.35 * iod);
  const skinAt = (p: number): RGB => [skin.data[p * 3], skin.data[p * 3 + 1], skin.data[p * 3 + 2]];
  const soft = Math.max(1, 0.02 * iod);
  const local = (p: Pt) => toFace(ff, { x: p.x + img.x0, y: p.y + img.y0 });
  const back = (q: Pt): Pt => {
    const r = toImage(ff, q);
    return { x: r.x - img.x0, y: r.y - img.y0 };
  };
  const pixFace = (p: number) => local({ x: (p % W) + 0.5, y: Math.floor(p / W) + 0.5 });

  if (opts.brows) {
    for (const [idx, side] of [[range(BROW_R), -1], [range(BROW_L), 1]] as const) {
      // Erase the original brow band with smooth skin, then draw the new brow.
      const erase = plane(W, H);
      const line = smoothOutline(idx.map((i) => L[i]), 4, false);
      strokePolyline(erase, line, line.map(() => 0.09 * iod), 0.08 * iod);
      paint(img, erase, 0.9, skinAt);
      const cov = plane(W, H);
      const radii = line.map((_, k) => {
        const t = k / (line.length - 1); // 0 at the image-left end
        const inner = side < 0 ? t : 1 - t; // 1 at the nose end
        return id.browThickness * iod * (0.45 + 0.65 * Math.sqrt(inner));
      });
      strokePolyline(cov, line, radii, soft * 1.5);
      paint(img, cov, 0.92, (p) => {
        const q = pixFace(p);
        // Hair strands: noise stretched along the brow direction.
        const n = 0.5 + 0.5 * fbm(q.x * 9, q.y * 60, id.noiseSeed + 11);
        const s = skinAt(p);
        const k = id.browDarkness * (0.75 + 0.5 * n);
        return [s[0] * k * 0.95, s[1] * k * 0.9, s[2] * k * 0.88];
      });
    }
  }

  if (opts.eyes) {
    for (const idx of [range(EYE_R), range(EYE_L)]) {
      const outline = smoothOutline(idx.map((i) => L[i]), 5, true);
      const c = mean(L, idx);
      const cf = local(c);
      const e = idx.map((i) => L[i]);
      const open = (Math.hypot(e[1].x - e[5].x, e[1].y - e[5].y) + Math.hypot(e[2].x - e[4].x, e[2].y - e[4].y)) / 2 / iod;
      // Erase the original eye (a socket-shaded skin patch).
      const erase = plane(W, H);
      fillPolygon(erase, outline, 0.1 * iod, 0.06 * iod);
      paint(img, erase, 0.95, (p) => {
        const s = skinAt(p);
        return [s[0] * 0.9, s[1] * 0.86, s[2] * 0.86];
      });
      const upper = smoothOutline([e[0], e[1], e[2], e[3]], 5, false);
      if (open > 0.05) {
        const eye = plane(W, H);
        fillPolygon(eye, outline, soft);
        const lumSkin = (p: number) => lumOf(skin.data, p * 3) / 170;
        const r = 0.105 * iod;
        const irisC = { x: c.x, y: c.y + 0.01 * iod };
        paint(img, eye, 1, (p) => {
          const x = (p % W) + 0.5;
          const y = Math.floor(p / W) + 0.5;
          const d = Math.hypot(x - irisC.x, y - irisC.y) / r;
          const l = Math.min(1.15, Math.max(0.45, lumSkin(p)));
          const sclera: RGB = [222 * l, 214 * l, 206 * l];
          if (d >= 1.06) {
            // Shadow of the upper lid on the sclera.
            const top = Math.max(0, 1 - (y - (c.y - 0.08 * iod)) / (0.08 * iod));
            return sclera.map((v) => v * (1 - 0.25 * Math.min(1, top))) as RGB;
          }
          const q = local({ x, y });
          const ang = Math.atan2(q.y - cf.y, q.x - cf.x);
          const fib = 0.85 + 0.3 * (0.5 + 0.5 * fbm(ang * 6, d * 3, id.noiseSeed + 5));
          const ring = d > 0.82 ? 0.55 : 1; // limbal ring
          const iris: RGB = [id.iris[0] * fib * ring * l, id.iris[1] * fib * ring * l, id.iris[2] * fib * ring * l];
          const pupil = d < 0.38 ? 1 : d < 0.44 ? (0.44 - d) / 0.06 : 0;
          const edge = d > 1 ? (d - 1) / 0.06 : 0;
          const hl = Math.hypot(x - (irisC.x - 0.35 * r), y - (irisC.y - 0.35 * r)) < 0.16 * r ? 1 : 0;
          const col: RGB = [0, 0, 0];
          for (let k = 0; k < 3; k++) {
            let v = iris[k] * (1 - pupil) + 12 * pupil;
            v = v * (1 - edge) + sclera[k] * edge;
            col[k] = v * (1 - hl) + 245 * hl;
          }
          return col;
        });
      }
      // Lash line on the upper lid, a faint crease above it.
      const lash = plane(W, H);
      strokePolyline(lash, upper, upper.map((_, k) => (0.012 + 0.018 * Math.sin((Math.PI * k) / (upper.length - 1))) * iod), soft);
      paint(img, lash, 0.9, (p) => {
        const s = skinAt(p);
        return [s[0] * 0.18, s[1] * 0.15, s[2] * 0.15];
      });
      const crease = plane(W, H);
      const creaseLine = upper.map((p) => back({ x: local(p).x, y: local(p).y - 0.07 }));
      strokePolyline(crease, creaseLine, creaseLine.map(() => 0.01 * iod), 0.03 * iod);
      paint(img, crease, 0.35, (p) => {
        const s = skinAt(p);
        return [s[0] * 0.6, s[1] * 0.55, s[2] * 0.55];
      });
    }
  }

  if (opts.nose) {
    for (const [a, b] of [[31, 32], [35, 34]] as const) {
      const p = { x: (L[a].x * 0.55 + L[b].x * 0.45), y: (L[a].y * 0.55 + L[b].y * 0.45) };
      const cov = plane(W, H);
      const q = local(p);
      const blob = Array.from({ length: 10 }, (_, k) => {
        const t = (2 * Math.PI * k) / 10;
        return back({ x: q.x + 0.05 * Math.cos(t), y: q.y - 0.01 + 0.025 * Math.sin(t) });
      });
      fillPolygon(cov, blob, 0.04 * iod);
      paint(img, cov, 0.55, (p2) => {
        const s = skinAt(p2);
        return [s[0] * 0.35, s[1] * 0.3, s[2] * 0.3];
      });
    }
  }

  if (opts.glasses) {
    // Frames in face coordinates around each (reshaped) eye: a rounded rectangle (superellipse).
    const cov = plane(W, H);
    const lens = plane(W, H);
    const rim = id.glassesRim * iod;
    const centres: Pt[] = [];
    for (const idx of [range(EYE_R), range(EYE_L)]) {
      const c = local(mean(L, idx));
      centres.push(c);
      const ring: Pt[] = [];
      const n = 28;
      const ex = 2 / id.glassesRound;
      for (let k = 0; k < n; k++) {
        const t = (2 * Math.PI * k) / n;
        const ct = Math.cos(t);
        const st = Math.sin(t);
        const x = Math.sign(ct) * Math.abs(ct) ** ex * id.glassesW;
        const y = Math.sign(st) * Math.abs(st) ** ex * id.glassesH;
        ring.push(back({ x: c.x + x, y: c.y + 0.03 + y }));
      }
      fillPolygon(lens, ring, soft);
      strokePolyline(cov, [...ring, ring[0]], new Array(n + 1).fill(rim), soft);
    }
    // Bridge and the start of the temples.
    const [r, l] = centres;
    const bridge = [back({ x: r.x + id.glassesW, y: r.y - 0.02 }), back({ x: 0, y: (r.y + l.y) / 2 - 0.06 }), back({ x: l.x - id.glassesW, y: l.y - 0.02 })];
    strokePolyline(cov, bridge, bridge.map(() => rim * 0.8), soft);
    strokePolyline(cov, [back({ x: r.x - id.glassesW, y: r.y - 0.02 }), back({ x: r.x - id.glassesW - 0.25, y: r.y - 0.04 })], [rim, rim], soft);
    strokePolyline(cov, [back({ x: l.x + id.glassesW, y: l.y - 0.02 }), back({ x: l.x + id.glassesW + 0.25, y: l.y - 0.04 })], [rim, rim], soft);
    paint(img, lens, 0.12, () => [235, 240, 245]);
    paint(img, cov, 0.95, (p) => {
      const s = skinAt(p);
      const k = lumOf(skin.data, p * 3) / 170;
      return [id.glassesColor[0] * k, id.glassesColor[1] * k, id.glassesColor[2] * k].map((v, i) => Math.min(v, s[i])) as RGB;
    });
  }

  if (opts.lips) {
    const outer = smoothOutline(range(MOUTH_OUT).map((i) => L[i]), 4, true);
    const inner = range(MOUTH_IN).map((i) => L[i]);
    const erase = plane(W, H);
    fillPolygon(erase, outer, 0.1 * iod, 0.05 * iod);
    paint(img, erase, 0.85, skinAt);
    const lips = plane(W, H);
    fillPolygon(lips, outer, soft * 1.5);
    paint(img, lips, 0.85, (p) => {
      const s = skinAt(p);
      const q = pixFace(p);
      const n = 0.93 + 0.07 * fbm(q.x * 30, q.y * 8, id.noiseSeed + 21);
      return [s[0] * id.lipTint[0] * n, s[1] * id.lipTint[1] * n, s[2] * id.lipTint[2] * n];
    });
    const gap = Math.hypot(L[62].x - L[66].x, L[62].y - L[66].y) / iod;
    if (gap > 0.04) {
      const mouth = plane(W, H);
      fillPolygon(mouth, smoothOutline(inner, 4, true), soft);
      paint(img, mouth, 0.95, (p) => {
        const s = skinAt(p);
        return [s[0] * 0.22, s[1] * 0.14, s[2] * 0.14];
      });
    } else {
      const line = plane(W, H);
      const mid = smoothOutline([L[60], L[61], L[62], L[63], L[64]], 4, false);
      strokePolyline(line, mid, mid.map(() => 0.012 * iod), soft);
      paint(img, line, 0.75, (p) => {
        const s = skinAt(p);
        return [s[0] * 0.4, s[1] * 0.28, s[2] * 0.28];
      });
    }
  }
}
