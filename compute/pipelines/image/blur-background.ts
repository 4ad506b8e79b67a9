// image.blur-background: the subject stays sharp, everything behind it gets an aesthetic gaussian
// blur (backgroundBlurSigma: grows with blur_strength and the frame size). Soft mask edges blend.
import type { Frame } from "../../types.ts";
import type { Models } from "../../models/index.ts";
import { backgroundBlurSigma, composite, DEFAULT_BLUR_STRENGTH, gaussianBlur } from "../../effects/index.ts";
import { findSubject } from "../subject.ts";

export interface BlurBackgroundParams {
  blur_strength?: number;
}

export async function blurBackground(frame: Frame, params: BlurBackgroundParams, models: Pick<Models, "persons" | "objects">): Promise<Frame> {
  const subject = await findSubject(frame, models);
  const sigma = backgroundBlurSigma(params.blur_strength ?? DEFAULT_BLUR_STRENGTH, frame.width, frame.height);
  const blurred = await gaussianBlur(frame, sigma);
  if (subject.kind === "none") return blurred; // no subject: the whole frame is background
  return composite(blurred, frame, subject.mask);
}
