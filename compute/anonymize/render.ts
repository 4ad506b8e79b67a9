// anonymizeFace: one face of one frame replaced by its synthetic identity.
//   1. reshape the landmarks (geometry.ts) and warp the face region onto them (warp.ts);
//   2. replace the skin texture: keep the low-passed shading, add procedural detail (texture.ts);
//   3. draw procedural eyes, brows, lips and nostrils at the reshaped landmarks (features.ts);
//   4. blend 2-3 into the warped region through a feathered mask of the face outline.
// Everything is a function of (frame, landmarks, identity), with no state: temporal stability
// comes from smoothed landmarks (see smoothing.ts) and from noise anchored in face coordinates.
import type { Box, Frame } from "../types.ts";
import type { FeatureOptions } from "./features.ts";
import { drawFeatures } from "./features.ts";
import { anchorRing, faceFrame, faceOutline, reshape } from "./geometry.ts";
import type { SyntheticIdentity } from "./identity.ts";
import type { Pt } from "./raster.ts";
import type { FloatImage, Plane } from "./raster.ts";
import { blendInto, blurImage, blurPlane, cropFloat, fillPolygon, plane, roiOf } from "./raster.ts";
import { syntheticShading } from "./shading.ts";
import type { FaceFrame } from "./geometry.ts";
import { toFace } from "./geometry.ts";
import type { TextureOptions } from "./texture.ts";
import { retexture } from "./texture.ts";
import type { Triangle } from "./warp.ts";
import { delaunay, foldFreeWarp, signedArea, warpImage } from "./warp.ts";

/** A face to anonymize: its box and its 68 landmarks (iBUG order), in frame pixels. */
export interface FaceInput {
  box: Box;
  landmarks: Pt[];
}

export interface AnonymizeOptions {
  /** Scale of the identity's geometry changes (0 = no warp). */
  warp: number;
  /** Skin re-texturing, or false to keep the (warped) original texture. */
  texture: false | Omit<TextureOptions, "seed" | "tint" | "detail" | "frequency" | "shading"> & { tone: boolean; procedural: boolean; shading?: number };
  /** Which features are re-drawn procedurally (false = none). */
  features: false | FeatureOptions;
  /** Replaced region: forehead height above the brows and outward growth of the outline (IOD). */
  forehead?: number;
  maskGrow?: number;
  /** Largest distance any landmark is moved by the identity's geometry (IOD). */
  maxShift?: number;
}

/** Default `maxShift`: seed identities (geometry 1, warp 2) move some landmark 0.23-0.36 IOD (median 0.24). */
export const DEFAULT_MAX_SHIFT = 0.3;

/** The measured default (see bench/anonymization.ts and the report in compute/anonymize/README.md). */
export const DEFAULT_ANONYMIZE_OPTIONS: AnonymizeOptions = {
  warp: 2,
  texture: { lowSigma: 0.12, fineSigma: 0.02, fineKeep: 0.5, tone: true, procedural: true },
  features: { eyes: true, brows: true, lips: true, nose: true },
};

/**
 * Where the identity moves the 68 landmarks, made fold-free (warp.ts foldFreeWarp: no mesh
 * triangle flips or collapses, so no eye or mouth is sampled mirrored), the fixed anchor ring
 * around the face, and the warp mesh over landmarks + ring (indices into [...dst, ...ring]).
 */
export function warpTargets(src: Pt[], identity: SyntheticIdentity, options: AnonymizeOptions = DEFAULT_ANONYMIZE_OPTIONS): { dst: Pt[]; ring: Pt[]; tris: Triangle[]; minScale: number } {
  const ring = anchorRing(src, 16, options.maskGrow ?? 0.02, options.forehead ?? 0.75);
  if (!(options.warp > 0)) return { dst: src.map((p) => ({ ...p })), ring, tris: [], minScale: 1 };
  const iod = faceFrame(src).iod;
  const cap = (options.maxShift ?? DEFAULT_MAX_SHIFT) * iod;
  // No landmark moves farther than `maxShift` IOD: escalated identities (calibrate.ts) saturate
  // here instead of dragging eyes into the hair or the mouth off the chin.
  const wanted = reshape(src, identity, options.warp).map((p, i) => {
    const dx = p.x - src[i].x, dy = p.y - src[i].y, d = Math.hypot(dx, dy);
    return d <= cap ? p : { x: src[i].x + (dx * cap) / d, y: src[i].y + (dy * cap) / d };
  });
  const warp = foldFreeWarp([...src, ...ring], [...wanted, ...ring], src.length);
  return { dst: warp.to.slice(0, src.length), ring, tris: warp.tris, minScale: warp.minScale };
}

/**
 * Whether the warp anonymizeFace applies for this identity folds the face: some mesh triangle flips
 * orientation (the source is sampled mirrored there). warpTargets makes the warp fold-free, so
 * this is the check the tests run on it, and the number of landmarks it had to hold back.
 */
export function warpFolds(landmarks: Pt[], identity: SyntheticIdentity, options: AnonymizeOptions = DEFAULT_ANONYMIZE_OPTIONS): { folds: boolean; minScale: number } {
  const { dst, ring, tris, minScale } = warpTargets(landmarks, identity, options);
  const from = [...landmarks, ...ring];
  const to = [...dst, ...ring];
  return { folds: tris.some((t) => signedArea(from, t) * signedArea(to, t) <= 0), minScale };
}

/** Returns a new frame with this face replaced (the input frame is not modified). */
export function anonymizeFace(frame: Frame, face: FaceInput, identity: SyntheticIdentity, options: AnonymizeOptions = DEFAULT_ANONYMIZE_OPTIONS): Frame {
  const out: Frame = { ...frame, data: Buffer.from(frame.data) };
  anonymizeFaceInPlace(out, face, identity, options);
  return out;
}

/** Landmarks whose eye centres are closer than this (px) are degenerate: nothing sensible can be drawn from them. */
export const MIN_DRAWABLE_IOD = 2;

export function anonymizeFaceInPlace(frame: Frame, face: FaceInput, identity: SyntheticIdentity, options: AnonymizeOptions = DEFAULT_ANONYMIZE_OPTIONS): void {
  const src = face.landmarks;
  if (src.length !== 68) throw new Error(`anonymizeFace needs 68 landmarks, got ${src.length}`);
  const ff0 = faceFrame(src);
  if (!(ff0.iod >= MIN_DRAWABLE_IOD)) return; // degenerate landmarks (the video pipeline blurs those faces instead)
  const { dst, ring, tris } = warpTargets(src, identity, options);
  const xs = ring.map((p) => p.x);
  const ys = ring.map((p) => p.y);
  const roi = roiOf({ x: Math.min(...xs) - 2, y: Math.min(...ys) - 2, width: Math.max(...xs) - Math.min(...xs) + 4, height: Math.max(...ys) - Math.min(...ys) + 4 }, frame);
  if (roi.width < 4 || roi.height < 4) return;
  const local = (p: Pt): Pt => ({ x: p.x - roi.x, y: p.y - roi.y });
  let img = cropFloat(frame, roi);
  const ringMask = plane(roi.width, roi.height);
  fillPolygon(ringMask, ring.map(local), 1);
  if (options.warp > 0) {
    img = warpImage(img, [...src, ...ring].map(local), [...dst, ...ring].map(local), tris);
  }
  const ff = faceFrame(dst);
  if (options.texture || options.features) {
    // Face mask: jaw + forehead outline of the reshaped face, feathered outwards a little.
    const mask = plane(roi.width, roi.height);
    fillPolygon(mask, faceOutline(dst, options.forehead ?? 0.75).map(local), 1, (options.maskGrow ?? 0.02) * ff.iod);
    const soft = blurPlane(mask, 0.08 * ff.iod);
    for (let i = 0; i < soft.data.length; i++) soft.data[i] = Math.min(1, soft.data[i] * 1.15) * ringMask.data[i];
    let face = img;
    if (options.texture) {
      const t = options.texture;
      let shading: Plane | undefined;
      if (t.shading && t.shading > 0) shading = shadingFor(img, dst, ring, ff, soft, t.shading, options.forehead ?? 0.75);
      face = retexture(img, ff, {
        lowSigma: t.lowSigma * identity.flatten,
        fineSigma: t.fineSigma,
        fineKeep: t.fineKeep,
        detail: t.procedural ? identity.skinDetail : 0,
        frequency: identity.skinFrequency,
        tint: t.tone ? identity.skinTint : [1, 1, 1],
        seed: identity.noiseSeed,
        shading,
      }, soft);
    } else {
      face = { ...img, data: new Float32Array(img.data) };
    }
    if (options.features) drawFeatures(face, dst, ff, identity, options.features);
    // face already equals img outside the mask where texture is applied; blend features by mask too.
    for (let p = 0; p < soft.data.length; p++) {
      const a = soft.data[p];
      const k = p * 3;
      for (let c = 0; c < 3; c++) img.data[k + c] += (face.data[k + c] - img.data[k + c]) * a;
    }
  }
  blendInto(frame, img, ringMask);
}

/** Synthetic relief shading for the reshaped face, lit from the side the input is lit from. */
function shadingFor(img: FloatImage, dst: Pt[], ring: Pt[], ff: FaceFrame, weight: Plane, amount: number, forehead: number): Plane {
  const local = (p: Pt): Pt => ({ x: p.x - img.x0, y: p.y - img.y0 });
  const outline = faceOutline(dst, forehead);
  const top = outline.slice(17); // forehead points
  const topZ = top.map((_, k) => 0.25 + 0.2 * Math.sin((Math.PI * (k + 1)) / (top.length + 1)));
  const pts = [...dst, ...top, ...ring].map(local);
  const tris = delaunay(pts);
  // Light direction: which side of the face is brighter in the input's coarse shading.
  const coarse = blurImage(img, 0.3 * ff.iod);
  let left = 0, right = 0, nl = 0, nr = 0;
  for (let j = 0; j < img.height; j += 2) {
    for (let i = 0; i < img.width; i += 2) {
      const w = weight.data[j * img.width + i];
      if (w < 0.5) continue;
      const k = (j * img.width + i) * 3;
      const l = 0.299 * coarse.data[k] + 0.587 * coarse.data[k + 1] + 0.114 * coarse.data[k + 2];
      const q = toFace(ff, { x: img.x0 + i, y: img.y0 + j });
      if (q.x < -0.15) { left += l; nl++; } else if (q.x > 0.15) { right += l; nr++; }
    }
  }
  const L = nl ? left / nl : 1, R = nr ? right / nr : 1;
  const lx = Math.max(-0.8, Math.min(0.8, (3 * (R - L)) / Math.max(1, R + L)));
  // Light direction in image axes (face x rotated by roll).
  const light = { x: lx * ff.cos + 0.35 * ff.sin, y: lx * ff.sin - 0.35 * ff.cos, z: 1 };
  const s = syntheticShading(img.width, img.height, pts, [...topZ, ...ring.map(() => -0.25)], tris, ff, light, weight);
  if (amount !== 1) for (let i = 0; i < s.data.length; i++) s.data[i] = 1 + (s.data[i] - 1) * amount;
  return s;
}

/**
 * Every face of a frame replaced by its track's synthetic identity. `identityFor` maps a face's
 * track id to its identity (cache it per track: see IdentityCache in index.ts).
 */
export function anonymizeFaces(
  frame: Frame,
  faces: Array<FaceInput & { trackId: number | string }>,
  identityFor: (trackId: number | string) => SyntheticIdentity,
  options: AnonymizeOptions = DEFAULT_ANONYMIZE_OPTIONS,
): Frame {
  const out: Frame = { ...frame, data: Buffer.from(frame.data) };
  anonymizeFacesInPlace(out, faces, identityFor, options);
  return out;
}

/** anonymizeFaces drawing into `frame` itself (for a caller that owns a copy already). */
export function anonymizeFacesInPlace(
  frame: Frame,
  faces: Array<FaceInput & { trackId: number | string }>,
  identityFor: (trackId: number | string) => SyntheticIdentity,
  options: AnonymizeOptions = DEFAULT_ANONYMIZE_OPTIONS,
): void {
  // Largest faces last, so a nearer face is drawn over a farther one where they overlap.
  const order = [...faces].sort((a, b) => a.box.width * a.box.height - b.box.width * b.box.height);
  for (const f of order) anonymizeFaceInPlace(frame, f, identityFor(f.trackId), options);
}
