// Procedural facial features drawn at the (reshaped) landmark positions. First the original
// features' footprints (eyes, brows, lips at their warped positions) are inpainted from the
// surrounding skin (normalized convolution: a blur that ignores the holes), so no dark smudge of
// the original eye or brow survives; then eyes (sclera shaded by the lid, dark iris with a limbal
// ring, pupil, catch-light, lash lines, lid crease), brows (thin, tapered, hair-strand coverage),
// lips (skin-derived colour, darker upper lip, lit lower lip; an open mouth keeps its own warped
// interior) and nostrils. Colours come from the inpainted local skin, so light and tone match.
import type { FaceFrame } from "./geometry.ts";
import { BROW_L, BROW_R, EYE_L, EYE_R, MOUTH_IN, MOUTH_OUT, mean, range, toFace, toImage } from "./geometry.ts";
import type { SyntheticIdentity } from "./identity.ts";
import type { FloatImage, Plane, Pt } from "./raster.ts";
import { blurData, blurImage, fillPolygon, plane, smoothOutline, strokePolyline } from "./raster.ts";
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

/** Smooth skin under `hole` (0..1) from its surroundings: blur(img * (1 - hole)) / blur(1 - hole). */
export function inpaintSmooth(img: FloatImage, hole: Plane, sigma: number): FloatImage {
  const n = hole.data.length;
  const w = new Float32Array(n);
  const num = new Float32Array(n * 3);
  for (let p = 0; p < n; p++) {
    const v = Math.max(0, 1 - hole.data[p]) ** 2;
    w[p] = v;
    for (let c = 0; c < 3; c++) num[p * 3 + c] = img.data[p * 3 + c] * v;
  }
  const bn = blurData(num, img.width, img.height, 3, sigma);
  const bw = blurData(w, img.width, img.height, 1, sigma);
  const coarse = blurImage(img, sigma * 2);
  for (let p = 0; p < n; p++) {
    const d = bw[p];
    for (let c = 0; c < 3; c++) {
      const k = p * 3 + c;
      // Far inside a large hole the weights vanish: fall back to a wider plain blur.
      bn[k] = d > 0.05 ? bn[k] / d : coarse.data[k];
    }
  }
  return { ...img, data: bn };
}

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
 * frame coordinates, `ff` their face frame. `interior`, when given, is the warped (not
 * re-textured) input, whose open-mouth interior is kept.
 */
export function drawFeatures(img: FloatImage, pts: Pt[], ff: FaceFrame, id: SyntheticIdentity, opts: FeatureOptions, interior?: FloatImage): void {
  const L = pts.map((p) => ({ x: p.x - img.x0, y: p.y - img.y0 })); // ROI-local
  const iod = ff.iod;
  const W = img.width;
  const H = img.height;
  const soft = Math.max(1, 0.02 * iod);
  const local = (p: Pt) => toFace(ff, { x: p.x + img.x0, y: p.y + img.y0 });
  const back = (q: Pt): Pt => {
    const r = toImage(ff, q);
    return { x: r.x - img.x0, y: r.y - img.y0 };
  };
  const pixFace = (p: number) => local({ x: (p % W) + 0.5, y: Math.floor(p / W) + 0.5 });
  const browLines = [range(BROW_R), range(BROW_L)].map((idx) => smoothOutline(idx.map((i) => L[i]), 4, false));
  const eyeOutlines = [range(EYE_R), range(EYE_L)].map((idx) => smoothOutline(idx.map((i) => L[i]), 5, true));
  const outerLip = smoothOutline(range(MOUTH_OUT).map((i) => L[i]), 4, true);
  const innerLip = smoothOutline(range(MOUTH_IN).map((i) => L[i]), 4, true);
  const gap = Math.hypot(L[62].x - L[66].x, L[62].y - L[66].y) / iod;
  const mouthOpen = gap > 0.06;

  // 1. Inpaint the footprints of the original features (they were warped along with the landmarks).
  const hole = plane(W, H);
  if (opts.brows) for (const line of browLines) strokePolyline(hole, line, line.map(() => 0.1 * iod), 0.08 * iod);
  if (opts.eyes) for (const o of eyeOutlines) fillPolygon(hole, o, 0.08 * iod, 0.1 * iod);
  if (opts.lips) fillPolygon(hole, outerLip, 0.06 * iod, 0.06 * iod);
  const skin = inpaintSmooth(img, hole, 0.18 * iod);
  const skinAt = (p: number): RGB => [skin.data[p * 3], skin.data[p * 3 + 1], skin.data[p * 3 + 2]];
  // Keep a little of the (procedural) grain in the filled area, so it is not a flat patch.
  const grain = blurImage(img, Math.max(0.6, 0.03 * iod));
  paint(img, hole, 1, (p) => {
    const k = p * 3;
    return [0, 1, 2].map((c) => skin.data[k + c] + 0.5 * (img.data[k + c] - grain.data[k + c])) as RGB;
  });

  if (opts.brows) {
    for (const [line, side] of [[browLines[0], -1], [browLines[1], 1]] as const) {
      const cov = plane(W, H);
      const radii = line.map((_, k) => {
        const t = k / (line.length - 1); // 0 at the image-left end
        const inner = side < 0 ? t : 1 - t; // 1 at the nose end
        return id.browThickness * iod * (0.35 + 0.55 * Math.sqrt(inner));
      });
      strokePolyline(cov, line, radii, soft * 2.5);
      // Hair strands: coverage broken up by noise stretched along the brow direction.
      for (let p = 0; p < cov.data.length; p++) {
        if (cov.data[p] <= 0) continue;
        const q = pixFace(p);
        const n = 0.5 + 0.5 * fbm(q.x * 14 * side, q.y * 70, id.noiseSeed + 11);
        cov.data[p] *= 0.55 + 0.45 * n;
      }
      paint(img, cov, 0.8, (p) => {
        const s = skinAt(p);
        const k = id.browDarkness;
        return [s[0] * k * 0.95, s[1] * k * 0.88, s[2] * k * 0.85];
      });
    }
  }

  if (opts.eyes) {
    for (const [n, idx] of [range(EYE_R), range(EYE_L)].entries()) {
      const outline = eyeOutlines[n];
      const c = mean(L, idx);
      const cf = local(c);
      const e = idx.map((i) => L[i]);
      const open = (Math.hypot(e[1].x - e[5].x, e[1].y - e[5].y) + Math.hypot(e[2].x - e[4].x, e[2].y - e[4].y)) / 2 / iod;
      const upper = smoothOutline([e[0], e[1], e[2], e[3]], 5, false);
      const lower = smoothOutline([e[3], e[4], e[5], e[0]], 5, false);
      // Socket: a soft shadow over the upper lid and a faint one under the eye.
      const socket = plane(W, H);
      const lid = upper.map((p) => back({ x: local(p).x, y: local(p).y - 0.05 }));
      strokePolyline(socket, lid, lid.map((_, k) => (0.02 + 0.05 * Math.sin((Math.PI * k) / (lid.length - 1))) * iod), 0.08 * iod);
      paint(img, socket, 0.35, (p) => {
        const s = skinAt(p);
        return [s[0] * 0.72, s[1] * 0.66, s[2] * 0.66];
      });
      if (open > 0.04) {
        const eye = plane(W, H);
        fillPolygon(eye, outline, soft);
        const lumSkin = (p: number) => lumOf(skin.data, p * 3) / 170;
        const r = 0.1 * iod;
        const irisC = { x: c.x, y: c.y + 0.005 * iod };
        paint(img, eye, 1, (p) => {
          const x = (p % W) + 0.5;
          const y = Math.floor(p / W) + 0.5;
          const d = Math.hypot(x - irisC.x, y - irisC.y) / r;
          const l = Math.min(1.1, Math.max(0.4, lumSkin(p)));
          const q = local({ x, y });
          // Upper-lid shadow falls on the eyeball; corners are darker (the ball turns away).
          const top = Math.max(0, Math.min(1, 1 - (q.y - (cf.y - 0.07)) / 0.07));
          const side = Math.min(1, Math.abs(q.x - cf.x) / 0.22);
          const shade = (1 - 0.35 * top) * (1 - 0.3 * side * side);
          const sclera: RGB = [205 * l * shade, 198 * l * shade, 192 * l * shade];
          if (d >= 1.03 + Math.max(0.08, 1.2 / r)) return sclera;
          const ang = Math.atan2(q.y - cf.y, q.x - cf.x);
          const fib = 0.8 + 0.4 * (0.5 + 0.5 * fbm(ang * 6, d * 3, id.noiseSeed + 5));
          // Every radial transition is anti-aliased over at least ~1.2 px (in units of d), so the
          // small eyes of a video face do not shimmer as they move by fractions of a pixel.
          const aa = Math.max(0.08, 1.2 / r);
          const ramp = (edge0: number, x: number) => Math.min(1, Math.max(0, (x - edge0) / aa + 0.5));
          const ring = 1 - 0.5 * ramp(0.8, d); // limbal ring
          const k = fib * ring * l * (1 - 0.3 * top);
          const iris: RGB = [id.iris[0] * k, id.iris[1] * k, id.iris[2] * k];
          const pupil = 1 - ramp(0.4, d);
          const edge = ramp(1.03, d);
          const dh = Math.hypot(x - (irisC.x - 0.32 * r), y - (irisC.y - 0.32 * r)) / r;
          const hl = 0.85 * (1 - ramp(0.17, dh));
          const col: RGB = [0, 0, 0];
          for (let ch = 0; ch < 3; ch++) {
            let v = iris[ch] * (1 - pupil) + 10 * pupil;
            v = v * (1 - edge) + sclera[ch] * edge;
            col[ch] = v * (1 - hl) + 235 * l * hl;
          }
          return col;
        });
      }
      // Lash line on the upper lid (thickest in the middle, slightly past the outer corner), a
      // faint lower lash line, a crease above the lid.
      const lash = plane(W, H);
      strokePolyline(lash, upper, upper.map((_, k) => Math.max(0.6, (0.01 + 0.017 * Math.sin((Math.PI * k) / (upper.length - 1))) * iod)), soft * 1.5);
      strokePolyline(lash, lower, lower.map(() => Math.max(0.5, 0.006 * iod)), soft * 1.5, 0.35);
      paint(img, lash, 0.85, (p) => {
        const s = skinAt(p);
        return [s[0] * 0.2, s[1] * 0.17, s[2] * 0.17];
      });
      const crease = plane(W, H);
      const creaseLine = upper.map((p) => back({ x: local(p).x, y: local(p).y - 0.075 }));
      strokePolyline(crease, creaseLine, creaseLine.map(() => 0.008 * iod), 0.035 * iod);
      paint(img, crease, 0.3, (p) => {
        const s = skinAt(p);
        return [s[0] * 0.62, s[1] * 0.57, s[2] * 0.57];
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
        return back({ x: q.x + 0.045 * Math.cos(t), y: q.y - 0.01 + 0.022 * Math.sin(t) });
      });
      fillPolygon(cov, blob, 0.05 * iod);
      paint(img, cov, 0.45, (p2) => {
        const s = skinAt(p2);
        return [s[0] * 0.4, s[1] * 0.33, s[2] * 0.33];
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
    const lips = plane(W, H);
    fillPolygon(lips, outerLip, soft * 2);
    const mid = smoothOutline([L[48], L[60], L[61], L[62], L[63], L[64], L[54]], 4, false);
    const midY = (x: number) => {
      // y of the lip parting line at ROI x (piecewise linear along `mid`).
      for (let k = 0; k + 1 < mid.length; k++) {
        const a = mid[k], b = mid[k + 1];
        if ((x - a.x) * (x - b.x) <= 0 && a.x !== b.x) return a.y + ((x - a.x) / (b.x - a.x)) * (b.y - a.y);
      }
      return mid[Math.floor(mid.length / 2)].y;
    };
    const lowerC = mean(L, [56, 57, 58, 65, 66, 67]);
    paint(img, lips, 0.75, (p) => {
      const s = skinAt(p);
      const x = (p % W) + 0.5;
      const y = Math.floor(p / W) + 0.5;
      const q = pixFace(p);
      const n = 0.94 + 0.06 * fbm(q.x * 40, q.y * 6, id.noiseSeed + 21);
      const upperLip = y < midY(x);
      // Upper lip faces down (darker), lower lip catches the light around its centre.
      const dl = Math.hypot((x - lowerC.x) / (0.25 * iod), (y - lowerC.y) / (0.08 * iod));
      const light = upperLip ? 0.86 : 1 + 0.1 * Math.max(0, 1 - dl);
      return [s[0] * id.lipTint[0] * n * light, s[1] * id.lipTint[1] * n * light, s[2] * id.lipTint[2] * n * light];
    });
    if (mouthOpen && interior) {
      // The input's own mouth interior (teeth, tongue, shadow), warped to the new lip shape.
      const mouth = plane(W, H);
      fillPolygon(mouth, innerLip, soft);
      paint(img, mouth, 1, (p) => [interior.data[p * 3] * 0.9, interior.data[p * 3 + 1] * 0.88, interior.data[p * 3 + 2] * 0.88]);
    } else if (mouthOpen) {
      const mouth = plane(W, H);
      fillPolygon(mouth, innerLip, soft);
      paint(img, mouth, 0.9, (p) => {
        const s = skinAt(p);
        return [s[0] * 0.3, s[1] * 0.2, s[2] * 0.2];
      });
    } else {
      const line = plane(W, H);
      strokePolyline(line, mid, mid.map((_, k) => Math.max(0.5, (0.006 + 0.008 * Math.sin((Math.PI * k) / (mid.length - 1))) * iod)), soft * 1.5);
      paint(img, line, 0.7, (p) => {
        const s = skinAt(p);
        return [s[0] * 0.45, s[1] * 0.32, s[2] * 0.32];
      });
    }
  }
}
