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
import { blendInto, blurPlane, cropFloat, fillPolygon, plane, roiOf } from "./raster.ts";
import type { TextureOptions } from "./texture.ts";
import { retexture } from "./texture.ts";
import { delaunay, warpImage } from "./warp.ts";

/** A face to anonymize: its box and its 68 landmarks (iBUG order), in frame pixels. */
export interface FaceInput {
  box: Box;
  landmarks: Pt[];
}

export interface AnonymizeOptions {
  /** Scale of the identity's geometry changes (0 = no warp). */
  warp: number;
  /** Skin re-texturing, or false to keep the (warped) original texture. */
  texture: false | Omit<TextureOptions, "seed" | "tint" | "detail" | "frequency"> & { tone: boolean; procedural: boolean };
  /** Which features are re-drawn procedurally (false = none). */
  features: false | FeatureOptions;
  /** Replaced region: forehead height above the brows and outward growth of the outline (IOD). */
  forehead?: number;
  maskGrow?: number;
}

/** The measured default (see bench/anonymization.ts and the report in compute/anonymize/README.md). */
export const DEFAULT_ANONYMIZE_OPTIONS: AnonymizeOptions = {
  warp: 1,
  texture: { lowSigma: 0.12, fineSigma: 0.02, fineKeep: 0.5, tone: true, procedural: true },
  features: { eyes: true, brows: true, lips: true, nose: true },
};

/** Returns a new frame with this face replaced (the input frame is not modified). */
export function anonymizeFace(frame: Frame, face: FaceInput, identity: SyntheticIdentity, options: AnonymizeOptions = DEFAULT_ANONYMIZE_OPTIONS): Frame {
  const out: Frame = { ...frame, data: Buffer.from(frame.data) };
  anonymizeFaceInPlace(out, face, identity, options);
  return out;
}

export function anonymizeFaceInPlace(frame: Frame, face: FaceInput, identity: SyntheticIdentity, options: AnonymizeOptions = DEFAULT_ANONYMIZE_OPTIONS): void {
  const src = face.landmarks;
  if (src.length !== 68) throw new Error(`anonymizeFace needs 68 landmarks, got ${src.length}`);
  const ff0 = faceFrame(src);
  if (!(ff0.iod >= 2)) return; // degenerate landmarks: nothing sensible to draw
  const dst = options.warp > 0 ? reshape(src, identity, options.warp) : src.map((p) => ({ ...p }));
  const ring = anchorRing(src, 16, options.maskGrow ?? 0.02, options.forehead ?? 0.75);
  const xs = ring.map((p) => p.x);
  const ys = ring.map((p) => p.y);
  const roi = roiOf({ x: Math.min(...xs) - 2, y: Math.min(...ys) - 2, width: Math.max(...xs) - Math.min(...xs) + 4, height: Math.max(...ys) - Math.min(...ys) + 4 }, frame);
  if (roi.width < 4 || roi.height < 4) return;
  const local = (p: Pt): Pt => ({ x: p.x - roi.x, y: p.y - roi.y });
  let img = cropFloat(frame, roi);
  const ringMask = plane(roi.width, roi.height);
  fillPolygon(ringMask, ring.map(local), 1);
  if (options.warp > 0) {
    const from = [...src, ...ring].map(local);
    const to = [...dst, ...ring].map(local);
    img = warpImage(img, from, to, delaunay(to));
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
      face = retexture(img, ff, {
        lowSigma: t.lowSigma,
        fineSigma: t.fineSigma,
        fineKeep: t.fineKeep,
        detail: t.procedural ? identity.skinDetail : 0,
        frequency: identity.skinFrequency,
        tint: t.tone ? identity.skinTint : [1, 1, 1],
        seed: identity.noiseSeed,
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
  // Largest faces last, so a nearer face is drawn over a farther one where they overlap.
  const order = [...faces].sort((a, b) => a.box.width * a.box.height - b.box.width * b.box.height);
  for (const f of order) anonymizeFaceInPlace(out, f, identityFor(f.trackId), options);
  return out;
}
