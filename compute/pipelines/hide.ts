// Hiding regions (faces, plates, objects) with the spec's knobs: blur_strength -> gaussian sigma
// per region size, or a mosaic when pixelated. Each region gets a strength scaled to its own size,
// so a 20 px face and a 400 px face are both unrecognisable. Shared by image and video pipelines.
import type { Box, Frame, Mask } from "../types.ts";
import { timeStage } from "../timing.ts";
import { applyRegionEffects, blurSigma, composite, DEFAULT_BLUR_STRENGTH, gaussianBlur, pixelate, pixelBlockSize } from "../effects/index.ts";

export interface HideOptions {
  blur_strength?: number;
  pixelated?: boolean;
  /** Overrides blur_strength for the mosaic (already mapped to 0..1 with pixelationToStrength). */
  pixelStrength?: number;
  shape?: "ellipse" | "rect";
  grow?: number;
  feather?: number;
}

export function hideBoxes(frame: Frame, boxes: Box[], opts: HideOptions): Promise<Frame> {
  return timeStage("effects", async () => {
    const strength = opts.blur_strength ?? DEFAULT_BLUR_STRENGTH;
    const regions = boxes.map((box) => {
      const size = Math.max(box.width, box.height);
      return opts.pixelated
        ? { box, blockSize: pixelBlockSize(opts.pixelStrength ?? strength, size) }
        : { box, sigma: blurSigma(strength, size) };
    });
    if (regions.length === 0) return frame;
    // One copy of the frame for every box.
    const out: Frame = { ...frame, data: Buffer.from(frame.data) };
    applyRegionEffects(out, regions, { shape: opts.shape, grow: opts.grow, feather: opts.feather });
    return out;
  });
}

/** Hide everything under a soft mask (e.g. person segmentation); `size` = typical region size. */
export function hideMask(frame: Frame, mask: Mask, size: number, opts: HideOptions): Promise<Frame> {
  return timeStage("effects", async () => {
    const strength = opts.blur_strength ?? DEFAULT_BLUR_STRENGTH;
    const effected = opts.pixelated
      ? await pixelate(frame, pixelBlockSize(opts.pixelStrength ?? strength, size))
      : await gaussianBlur(frame, blurSigma(strength, size));
    return composite(frame, effected, mask);
  });
}
