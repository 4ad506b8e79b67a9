// image.portrait-enhance
//   enhance_face: inside each face (feathered ellipse) edge-preserving skin smoothing then a light
//     unsharp for eyes/brows/lips; exposure and white balance for the whole photo, measured on the
//     faces (faces are what a portrait must get right).
//   depth_effect: background blur that grows with distance from the subject: three blur layers
//     (1/3, 2/3 and full sigma) chosen by how far a pixel is from the subject mask, blended softly.
//   blur_strength scales the depth blur (default 0.7).
import type { Box, Frame, Mask } from "../../types.ts";
import type { Models } from "../../models/index.ts";
import { backgroundBlurSigma, blurMask, composite, DEFAULT_BLUR_STRENGTH, dilateMask, ellipseMask, gaussianBlur } from "../../effects/index.ts";
import { applyGains, exposureGain, meanColor, sharpenDetail, smoothSkin, whiteBalanceGains } from "../../effects/tone.ts";
import { findSubject } from "../subject.ts";

export interface PortraitEnhanceParams {
  blur_strength?: number;
  enhance_face?: boolean;
  depth_effect?: boolean;
}

async function enhanceFaces(frame: Frame, models: Pick<Models, "faces">): Promise<Frame> {
  const faces = await models.faces.detect(frame);
  if (faces.length === 0) return frame;
  const faceMask = (boxes: Box[]) => ellipseMask(frame.width, frame.height, boxes, { grow: 0.05, feather: 0.15 });
  const mask = faceMask(faces);
  // Exposure follows the portrait's subject, the largest face: a small face in the background (or
  // a badge the detector takes for one) must not relight the whole picture.
  const main = faces.reduce((a, f) => (f.width * f.height > a.width * a.height ? f : a));
  const [r, g, b] = meanColor(frame, faceMask([main]));
  const luma = 0.299 * r + 0.587 * g + 0.114 * b;
  // Skin is not gray: balance on the whole frame's mean, expose on the faces (target: well-lit skin).
  const wb = whiteBalanceGains(meanColor(frame), 0.5);
  const ev = exposureGain(luma, 140);
  let out = applyGains(frame, [wb[0] * ev, wb[1] * ev, wb[2] * ev]);
  const size = Math.max(...faces.map((f) => Math.max(f.width, f.height)));
  // Smoothing removes texture weaker than ~24 levels (pores, blemishes); sharpening then crisps
  // only contrasts stronger than ~40 levels (eyes, brows, lips), so skin stays smooth.
  out = await smoothSkin(out, mask, Math.max(1, size * 0.025), 1, 24);
  out = await sharpenDetail(out, mask, Math.max(1, size * 0.02), 0.6, 40);
  return out;
}

async function depthEffect(frame: Frame, strength: number, models: Pick<Models, "persons" | "objects">): Promise<Frame> {
  const subject = await findSubject(frame, models);
  const sigma = backgroundBlurSigma(strength, frame.width, frame.height);
  const [near, mid, far] = await Promise.all([gaussianBlur(frame, sigma / 3), gaussianBlur(frame, (2 * sigma) / 3), gaussianBlur(frame, sigma)]);
  if (subject.kind === "none") return far;
  // Rings around the subject: within d1 of it -> near blur, within d2 -> mid, beyond -> far.
  const diag = Math.hypot(frame.width, frame.height);
  const ring = (r: number): Mask => blurMask(dilateMask(subject.mask, Math.round(r)), Math.max(1, r / 3));
  const d1 = ring(diag * 0.04);
  const d2 = ring(diag * 0.12);
  let out = composite(far, mid, d2);
  out = composite(out, near, d1);
  return composite(out, frame, subject.mask);
}

export async function portraitEnhance(frame: Frame, params: PortraitEnhanceParams, models: Pick<Models, "faces" | "persons" | "objects">): Promise<Frame> {
  let out = frame;
  if (params.enhance_face ?? true) out = await enhanceFaces(out, models);
  if (params.depth_effect ?? true) out = await depthEffect(out, params.blur_strength ?? DEFAULT_BLUR_STRENGTH, models);
  return out;
}
