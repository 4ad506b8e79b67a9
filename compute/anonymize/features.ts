// Procedural facial features drawn at the (reshaped) landmark positions. First the original
// features' footprints (eyes, brows, lips at their warped positions) are inpainted from the
// surrounding skin (normalized convolution: a blur that ignores the holes), so no dark smudge of
// the original eye or brow survives; then eyes (sclera shaded by the lid, dark iris with a limbal
// ring, pupil, catch-light, lash lines, lid crease), brows (thin, tapered, hair-strand coverage),
// lips (skin-derived colour, darker upper lip, lit lower lip; an open mouth gets generic teeth and
// a dark cavity, never the input's own) and nostrils. Colours come from the inpainted local skin,
// so light and tone match.
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

const lumOf = (d: ArrayLike<number>, k: number) => 0.299 * d[k] + 0.587 * d[k + 1] + 0.114 * d[k + 2];

/** An ellipse of `n` points around `c` (face coordinates, radii in IOD), mapped to ROI pixels by `back`. */
function ellipse(back: (q: Pt) => Pt, c: Pt, rx: number, ry: number, n: number): Pt[] {
  return Array.from({ length: n }, (_, k) => {
    const t = (2 * Math.PI * k) / n;
    return back({ x: c.x + rx * Math.cos(t), y: c.y + ry * Math.sin(t) });
  });
}

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
    // Far inside a large hole the weights vanish: fall back to a wider plain blur.
    for (let c = 0; c < 3; c++) bn[p * 3 + c] = d > 0.05 ? bn[p * 3 + c] / d : coarse.data[p * 3 + c];
  }
  return { ...img, data: bn };
}

export interface FeatureOptions {
  eyes: boolean;
  brows: boolean;
  lips: boolean;
  nose: boolean;
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
  // How open the mouth is, 0..1 over a lip gap of 0.04..0.08 IOD: the open mouth fades in rather
  // than switching on, which would flicker with the landmark noise around the threshold.
  const mouthOpen = Math.min(1, Math.max(0, (gap - 0.04) / 0.04));

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
        // Half-thickness: a real brow is ~0.06-0.09 IOD tall at its head, tapering to a thin tail.
        return id.browThickness * iod * (0.22 + 0.45 * Math.sqrt(inner));
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

  // y of a curve (face coordinates, sorted by x or reversed) at face x: piecewise linear.
  const curveY = (curve: Pt[], x: number): number => {
    for (let k = 0; k + 1 < curve.length; k++) {
      const a = curve[k], b = curve[k + 1];
      if ((x - a.x) * (x - b.x) <= 0 && a.x !== b.x) return a.y + ((x - a.x) / (b.x - a.x)) * (b.y - a.y);
    }
    return Math.abs(x - curve[0].x) < Math.abs(x - curve[curve.length - 1].x) ? curve[0].y : curve[curve.length - 1].y;
  };

  if (opts.eyes) {
    for (const idx of [range(EYE_R), range(EYE_L)]) {
      // Everything is laid out in face coordinates (IOD units), then mapped back: the eye follows
      // the head's roll and scale exactly, and all edges are soft over >= ~1.2 px.
      const ef = idx.map((i) => local(L[i]));
      const cf = { x: ef.reduce((s, p) => s + p.x, 0) / 6, y: ef.reduce((s, p) => s + p.y, 0) / 6 };
      const eyeW = Math.max(0.15, Math.hypot(ef[0].x - ef[3].x, ef[0].y - ef[3].y));
      // Slightly larger than the landmarks (detectors place the eye points inside the lash line,
      // and a drawn eye of exactly that size reads as small and faint).
      const grow = (p: Pt): Pt => ({ x: cf.x + (p.x - cf.x) * 1.06, y: cf.y + (p.y - cf.y) * 1.12 });
      const upperF = smoothOutline([ef[0], ef[1], ef[2], ef[3]].map(grow), 5, false);
      const lowerF = smoothOutline([ef[0], ef[5], ef[4], ef[3]].map(grow), 5, false);
      // A minimum aperture: a smiling or squinting eye (the landmarks nearly meet) still shows a
      // thin dark slit of iris under a full lash line, instead of vanishing into blank skin.
      const minOpen = 0.036;
      for (let k = 1; k + 1 < upperF.length; k++) {
        const t = k / (upperF.length - 1);
        const want = minOpen * Math.sin(Math.PI * t) ** 0.7;
        const gap = lowerF[k].y - upperF[k].y;
        if (gap < want) {
          upperF[k] = { x: upperF[k].x, y: upperF[k].y - 0.35 * (want - gap) };
          lowerF[k] = { x: lowerF[k].x, y: lowerF[k].y + 0.65 * (want - gap) };
        }
      }
      const open = Math.max(...upperF.map((p, k) => lowerF[k].y - p.y));
      const upper = upperF.map(back);
      const lower = lowerF.map(back);
      const inner = Math.abs(ef[0].x) < Math.abs(ef[3].x) ? 0 : 1; // which end (0 = first) is the nose side
      // Socket: a soft shadow over the upper lid and a faint one under the eye.
      const socket = plane(W, H);
      const lid = upperF.map((q) => back({ x: q.x, y: q.y - 0.05 }));
      strokePolyline(socket, lid, lid.map((_, k) => (0.02 + 0.05 * Math.sin((Math.PI * k) / (lid.length - 1))) * iod), 0.08 * iod);
      paint(img, socket, 0.35, (p) => {
        const s = skinAt(p);
        return [s[0] * 0.72, s[1] * 0.66, s[2] * 0.66];
      });
      // Eyeball: sclera shaded by the lid and turning away at the corners, iris filling the
      // aperture's height when the eye is narrow.
      const eye = plane(W, H);
      fillPolygon(eye, [...upper, ...lower.slice(1, -1).reverse()], Math.max(1.2, soft));
      const rF = Math.min(0.12, Math.max(0.09, 0.23 * eyeW));
      const rPx = rF * iod;
      const midY = (curveY(upperF, cf.x) + curveY(lowerF, cf.x)) / 2;
      // The upper lid covers the top of the iris (an iris ringed by white all round reads as a
      // startled cartoon stare); in a narrow eye the iris fills the slit.
      const irisC = { x: cf.x, y: Math.min(curveY(upperF, cf.x) + 0.72 * rF, midY + 0.25 * rF) };
      const aa = Math.max(0.08, 1.2 / rPx);
      const ramp = (edge0: number, x: number) => Math.min(1, Math.max(0, (x - edge0) / aa + 0.5));
      paint(img, eye, 1, (p) => {
        const q = pixFace(p);
        const s = skinAt(p);
        const l = Math.min(1.1, Math.max(0.45, lumOf(skin.data, p * 3) / 170));
        const below = Math.max(0, q.y - curveY(upperF, q.x));
        const lidShadow = Math.exp(-below / 0.03);
        const side = Math.min(1, Math.abs(q.x - cf.x) / (0.5 * eyeW));
        const shade = (1 - 0.5 * lidShadow) * (1 - 0.5 * side * side);
        const sclera: RGB = [(0.8 * 192 * l + 0.2 * s[0]) * shade, (0.8 * 184 * l + 0.2 * s[1]) * shade, (0.8 * 178 * l + 0.2 * s[2]) * shade];
        const d = Math.hypot(q.x - irisC.x, q.y - irisC.y) / rF;
        if (d >= 1.03 + aa) return sclera;
        const ang = Math.atan2(q.y - irisC.y, q.x - irisC.x);
        const fib = 0.78 + 0.44 * (0.5 + 0.5 * fbm(ang * 6, d * 3, id.noiseSeed + 5));
        const ring = 1 - 0.55 * ramp(0.78, d); // limbal ring
        const k = fib * ring * l * (1 - 0.5 * lidShadow) * 0.9;
        const pupil = 1 - ramp(0.42, d);
        const edge = ramp(1.03, d);
        const dh = Math.hypot(q.x - (irisC.x - 0.35 * rF), q.y - (irisC.y - 0.3 * rF)) / rF;
        const hl = 0.8 * (1 - ramp(0.16, dh));
        const col: RGB = [0, 0, 0];
        for (let ch = 0; ch < 3; ch++) {
          let v = id.iris[ch] * k * (1 - pupil) + 12 * pupil;
          v = v * (1 - edge) + sclera[ch] * edge;
          col[ch] = v * (1 - hl) + 230 * l * hl;
        }
        return col;
      });
      // Upper lash line: sits on the lid margin (shifted up by part of its width), thickest past
      // the middle towards the outer corner, ending in a short tapered flick; a fainter lower lash
      // line. These carry the eye when it is narrow.
      const nU = upperF.length - 1;
      const lashR = (k: number) => {
        const t = k / nU;
        const outer = inner === 0 ? t : 1 - t;
        return (0.009 + 0.014 * Math.sin(Math.PI * t) ** 0.6 + 0.008 * outer) * iod;
      };
      const outerEnd = inner === 0 ? upperF[nU] : upperF[0];
      const outerPrev = inner === 0 ? upperF[nU - 2] : upperF[2];
      const dirX = outerEnd.x - outerPrev.x, dirY = outerEnd.y - outerPrev.y;
      const dl = Math.hypot(dirX, dirY) || 1;
      const flickTip = { x: outerEnd.x + (dirX / dl) * 0.045, y: outerEnd.y + (dirY / dl) * 0.045 - 0.018 };
      const lashLine = upperF.map((q, k) => back({ x: q.x, y: q.y - (0.35 * lashR(k)) / iod }));
      const lashRadii = upperF.map((_, k) => Math.max(0.7, lashR(k)));
      const flick = [back(outerEnd), back(flickTip)];
      const lash = plane(W, H);
      strokePolyline(lash, lashLine, lashRadii, Math.max(1.2, soft));
      strokePolyline(lash, flick, [Math.max(0.6, lashR(inner === 0 ? nU : 0) * 0.8), 0.3], Math.max(1.2, soft), 0.8);
      paint(img, lash, 0.92, (p) => {
        const s = skinAt(p);
        return [s[0] * 0.14, s[1] * 0.12, s[2] * 0.12];
      });
      const lowLash = plane(W, H);
      strokePolyline(lowLash, lower, lower.map((_, k) => Math.max(0.5, (0.004 + 0.004 * Math.sin((Math.PI * k) / (lower.length - 1))) * iod)), Math.max(1.2, soft * 1.5));
      paint(img, lowLash, 0.5, (p) => {
        const s = skinAt(p);
        return [s[0] * 0.4, s[1] * 0.34, s[2] * 0.34];
      });
      // Lid crease: follows the lid, flatter, a little closer when the eye is narrow; tapered ends.
      const creaseOff = 0.05 + 0.35 * Math.min(0.08, open);
      const creaseLine = upperF.map((q) => back({ x: cf.x + (q.x - cf.x) * 0.95, y: cf.y + (q.y - cf.y) * 0.8 - creaseOff }));
      const crease = plane(W, H);
      strokePolyline(crease, creaseLine, creaseLine.map((_, k) => 0.009 * iod * Math.sin((Math.PI * k) / nU) ** 0.5), Math.max(1.2, 0.03 * iod));
      paint(img, crease, 0.45, (p) => {
        const s = skinAt(p);
        return [s[0] * 0.6, s[1] * 0.54, s[2] * 0.54];
      });
      // Corner shadows (the lids fold into the inner corner, the outer corner is in shade).
      const corners = plane(W, H);
      for (const [q, r] of [[inner === 0 ? upperF[0] : upperF[nU], 0.022], [outerEnd, 0.018]] as const) {
        fillPolygon(corners, ellipse(back, q, r, r * 0.8, 10), Math.max(1.2, 0.03 * iod));
      }
      paint(img, corners, 0.4, (p) => {
        const s = skinAt(p);
        return [s[0] * 0.55, s[1] * 0.48, s[2] * 0.48];
      });
    }
  }

  if (opts.nose) drawNose(img, L, local, back, skinAt, iod, soft);

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
    if (mouthOpen > 0) {
      // A generic open mouth instead of the input's own teeth (they identify the person: on a
      // laughing face, dropping them moved the descriptor 0.09 farther): upper teeth under the
      // upper lip, shaded towards the corners, with faint gaps; a dark cavity; a tongue when wide.
      const mouth = plane(W, H);
      fillPolygon(mouth, innerLip, soft);
      const upF = [60, 61, 62, 63, 64].map((i) => local(L[i]));
      const loF = [60, 67, 66, 65, 64].map((i) => local(L[i]));
      const cx = (upF[0].x + upF[4].x) / 2;
      const half = Math.max(0.05, Math.abs(upF[4].x - upF[0].x) / 2);
      const aa = Math.max(0.012, 1 / iod); // one pixel, in face units
      const step = (edge: number, x: number) => Math.min(1, Math.max(0, (x - edge) / aa + 0.5));
      paint(img, mouth, mouthOpen, (p) => {
        const q = pixFace(p);
        const l = Math.min(1.1, Math.max(0.45, lumOf(skin.data, p * 3) / 170));
        const top = curveY(upF, q.x);
        const h = Math.max(1e-3, curveY(loF, q.x) - top);
        const depth = q.y - top;
        const side = Math.min(1, Math.abs(q.x - cx) / half);
        const teethH = Math.min(0.09, 0.7 * h);
        const u = (q.x - cx) / 0.085; // tooth widths from the centre line
        const gapLine = Math.max(0, 1 - Math.abs(u - Math.round(u)) * 0.085 / aa);
        const tooth = (1 - 0.6 * side * side) * (1 - 0.18 * gapLine) * (1 - 0.25 * step(teethH * 0.75, depth));
        const tongue = h > 0.16 ? step(0.62, depth / h) : 0;
        const cavity = [45 + 70 * tongue, 22 + 28 * tongue, 24 + 28 * tongue].map((v) => v * l * (1 - 0.4 * side));
        const t = 1 - step(teethH, depth);
        return [0, 1, 2].map((c) => [222, 214, 200][c] * l * tooth * t + cavity[c] * (1 - t)) as RGB;
      });
    }
    if (mouthOpen < 1) {
      const line = plane(W, H);
      strokePolyline(line, mid, mid.map((_, k) => Math.max(0.5, (0.006 + 0.008 * Math.sin((Math.PI * k) / (mid.length - 1))) * iod)), soft * 1.5);
      paint(img, line, 0.7 * (1 - mouthOpen), (p) => {
        const s = skinAt(p);
        return [s[0] * 0.45, s[1] * 0.32, s[2] * 0.32];
      });
    }
  }
}

/**
 * A procedural nose at the reshaped nose landmarks (27-35): the texture replacement removes the
 * input's own nose relief (it is in the feature band), and a face with only two nostril dots reads
 * as flat and unnatural. Drawn as light falls on a generic nose: side-wall shadows from the inner
 * eye corners down to the wings (darker on the side away from the light), a highlight along the
 * bridge and on the tip, the shadow under the tip, curved creases around the wings and soft
 * nostrils. The light side comes from the inpainted skin's left/right brightness at the cheeks.
 * The relief is a frontal template, so it fades out on turned heads (nose tip off the jaw's
 * centre by 0.45-0.75 of the half-width: on a profile it drew a frontal nose across the cheek)
 * and on small faces (inter-ocular distance 40 down to 20 px, where its lines are a pixel or two
 * wide and read as marks, not shading), down to the nostrils alone.
 */
function drawNose(img: FloatImage, L: Pt[], local: (p: Pt) => Pt, back: (q: Pt) => Pt, skinAt: (p: number) => RGB, iod: number, soft: number): void {
  const W = img.width;
  const H = img.height;
  const q = L.map(local); // face coordinates of the reshaped landmarks
  const lumAt = (f: Pt): number => {
    const r = back(f);
    const i = Math.min(W - 1, Math.max(0, Math.round(r.x)));
    const j = Math.min(H - 1, Math.max(0, Math.round(r.y)));
    return lumOf(skinAt(j * W + i), 0);
  };
  const lumL = lumAt({ x: q[2].x * 0.6 + q[30].x * 0.4, y: q[30].y }); // image-left cheek
  const lumR = lumAt({ x: q[14].x * 0.6 + q[30].x * 0.4, y: q[30].y });
  // -1 = light from image left, +1 = from image right.
  const lightX = Math.max(-1, Math.min(1, (3 * (lumR - lumL)) / Math.max(1, lumL + lumR)));
  const shade = (opacity: number, k: RGB) => (cov: Plane) => paint(img, cov, opacity, (p) => {
    const s = skinAt(p);
    return [s[0] * k[0], s[1] * k[1], s[2] * k[2]];
  });
  const yaw = Math.abs(q[30].x - (q[0].x + q[16].x) / 2) / Math.max(1e-3, (q[16].x - q[0].x) / 2);
  const clamp01 = (v: number) => Math.min(1, Math.max(0, v));
  const relief = clamp01((iod - 20) / 20) * clamp01((0.75 - yaw) / 0.3);
  if (relief > 0) {
    const dark: RGB = [0.62, 0.55, 0.55];
    const light: RGB = [1.14, 1.13, 1.12];
    const top = q[27], tip = q[30], base = q[33];
    const len = Math.max(0.25, base.y - top.y);
    // Side walls: from beside the bridge top down to above each wing.
    for (const [ala, side] of [[q[31], -1], [q[35], 1]] as const) {
      const wall = plane(W, H);
      const line = [
        { x: top.x + side * 0.11, y: top.y + 0.02 },
        { x: (top.x + ala.x) / 2 + side * 0.06, y: top.y + 0.55 * len },
        { x: ala.x + side * 0.01, y: ala.y - 0.1 },
      ].map(back);
      strokePolyline(wall, line, [0.025 * iod, 0.045 * iod, 0.06 * iod], 0.1 * iod);
      const away = side * lightX < 0 ? 1 : 0.45; // the side facing away from the light is darker
      shade(0.3 * away * relief, dark)(wall);
      // Crease around the wing: from above it, outwards, down and back in under it.
      const crease = plane(W, H);
      const arc = smoothOutline([
        { x: ala.x - side * 0.01, y: ala.y - 0.11 },
        { x: ala.x + side * 0.05, y: ala.y - 0.05 },
        { x: ala.x + side * 0.04, y: ala.y + 0.02 },
        { x: ala.x - side * 0.03, y: ala.y + 0.04 },
      ].map(back), 4, false);
      strokePolyline(crease, arc, arc.map((_, k) => Math.max(0.5, 0.014 * iod * Math.sin((Math.PI * k) / (arc.length - 1)) ** 0.5)), Math.max(1.2, 0.03 * iod));
      shade(0.45 * relief, [0.55, 0.47, 0.47])(crease);
    }
    // Highlights: a narrow band down the bridge (shifted towards the light) and the tip.
    const hl = plane(W, H);
    const ridge = [top, { x: (top.x + tip.x) / 2, y: (top.y + tip.y) / 2 }, tip].map((p, k) => back({ x: p.x + lightX * 0.025, y: p.y + (k === 0 ? 0.12 : k === 2 ? -0.06 : 0) }));
    strokePolyline(hl, ridge, [0.012 * iod, 0.02 * iod, 0.035 * iod], 0.05 * iod);
    shade(0.5 * relief, light)(hl);
    // Shadow under the tip (between the tip and the base, falling off to the sides).
    const under = plane(W, H);
    const uc = { x: (tip.x + base.x) / 2, y: tip.y * 0.35 + base.y * 0.65 };
    const halfW = Math.max(0.06, Math.abs(q[35].x - q[31].x) * 0.28);
    fillPolygon(under, ellipse(back, uc, halfW, 0.03, 12), 0.04 * iod);
    shade(0.28 * relief, dark)(under);
  }
  // Nostrils: soft and partial (hard dark dots read as a snout).
  for (const [a, b] of [[31, 32], [35, 34]] as const) {
    const c = { x: q[a].x * 0.55 + q[b].x * 0.45, y: q[a].y * 0.55 + q[b].y * 0.45 - 0.01 };
    const cov = plane(W, H);
    fillPolygon(cov, ellipse(back, c, 0.04, 0.018, 10), Math.max(soft, 0.05 * iod));
    shade(0.32 + 0.08 * relief, [0.4, 0.33, 0.33])(cov);
  }
}
