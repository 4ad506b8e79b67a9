// Hiding regions (faces, plates, objects) with the spec's knobs: blur_strength -> gaussian sigma
// per region size, or a mosaic when pixelated. Each region gets a strength scaled to its own size,
// so a 20 px face and a 400 px face are both unrecognisable. Shared by image and video pipelines.
import type { Box, Frame, Mask } from "../types.ts";
import { blurRegions, blurSigma, composite, DEFAULT_BLUR_STRENGTH, gaussianBlur, pixelate, pixelBlockSize } from "../effects/index.ts";

export interface HideOptions {
  blur_strength?: number;
  pixelated?: boolean;
  /** Overrides blur_strength for the mosaic (already mapped to 0..1 with pixelationToStrength). */
  pixelStrength?: number;
  shape?: "ellipse" | "rect";
  grow?: number;
  feather?: number;
}

export async function hideBoxes(frame: Frame, boxes: Box[], opts: HideOptions): Promise<Frame> {
  let out = frame;
  const strength = opts.blur_strength ?? DEFAULT_BLUR_STRENGTH;
  for (const b of boxes) {
    const size = Math.max(b.width, b.height);
    const effect = opts.pixelated
      ? { blockSize: pixelBlockSize(opts.pixelStrength ?? strength, size) }
      : { sigma: blurSigma(strength, size) };
    out = await blurRegions(out, [b], { ...effect, shape: opts.shape, grow: opts.grow, feather: opts.feather });
  }
  return out;
}

/** Hide everything under a soft mask (e.g. person segmentation); `size` = typical region size. */
export async function hideMask(frame: Frame, mask: Mask, size: number, opts: HideOptions): Promise<Frame> {
  const strength = opts.blur_strength ?? DEFAULT_BLUR_STRENGTH;
  const effected = opts.pixelated
    ? await pixelate(frame, pixelBlockSize(opts.pixelStrength ?? strength, size))
    : await gaussianBlur(frame, blurSigma(strength, size));
  return composite(frame, effected, mask);
}
