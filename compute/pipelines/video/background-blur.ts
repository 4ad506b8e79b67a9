// video.background-blur: the person segmenter on every frame (it is fast), its mask smoothed
// over time so the edge does not shimmer, the background blurred behind it; watermark by default.
import type { FeatureParams } from "../../../schema/features.ts";
import type { Frame, Mask } from "../../types.ts";
import type { Models } from "../../models/index.ts";
import { backgroundBlurSigma, composite, gaussianBlur } from "../../effects/index.ts";
import { perFrame, type ChunkProcessor } from "../../video/stream.ts";
import { matte } from "../subject.ts";
import { withWatermark } from "./common.ts";

/** Weight of the new frame's mask; the rest comes from the previous frames' (temporal EMA). */
const MASK_SMOOTHING = 0.6;

export function backgroundBlurVideo(params: FeatureParams<"video.background-blur">, models: Pick<Models, "persons">): ChunkProcessor {
  let previous: Mask | null = null;
  const processor = perFrame(async (frame: Frame) => {
    const raw = matte(await models.persons.segment(frame));
    const mask: Mask = previous
      ? { ...raw, data: raw.data.map((v, i) => Math.round(MASK_SMOOTHING * v + (1 - MASK_SMOOTHING) * previous!.data[i]!)) }
      : raw;
    previous = mask;
    const blurred = await gaussianBlur(frame, backgroundBlurSigma(params.blur_strength, frame.width, frame.height));
    return composite(blurred, frame, mask);
  });
  return params.is_watermark ? withWatermark(processor) : processor;
}
