// Feature id -> image pipeline. Every pipeline is (frame, params, models) => Promise<Frame>,
// except image.nsfw which returns an NsfwVerdict.
import type { Detection, Frame, NsfwVerdict } from "../../types.ts";
import type { Models } from "../../models/index.ts";
import { blurAnything } from "./blur-anything.ts";
import { blurBackground } from "./blur-background.ts";
import { faceBlur } from "./face-blur.ts";
import { licensePlateBlur } from "./license-plate-blur.ts";
import { nsfw } from "./nsfw.ts";
import { portraitEnhance } from "./portrait-enhance.ts";
import { removeBackground } from "./remove-background.ts";

export { blurAnything, blurBackground, faceBlur, licensePlateBlur, nsfw, portraitEnhance, removeBackground };

// Params arrive validated by the Worker with the spec's field names; each pipeline applies defaults.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyParams = any;

/** `onHidden` (when given) receives every detection the pipeline hides, in frame pixels. */
export type ImagePipeline = (frame: Frame, params: AnyParams, models: Models, onHidden?: OnHidden) => Promise<Frame>;
export type OnHidden = (hidden: Detection[]) => void;
export type NsfwPipeline = (frame: Frame, params: AnyParams, models: Models) => Promise<NsfwVerdict>;

export const IMAGE_PIPELINES = {
  "image.face-blur": faceBlur as ImagePipeline,
  "image.license-plate-blur": licensePlateBlur as ImagePipeline,
  "image.blur-background": blurBackground as ImagePipeline,
  "image.remove-background": removeBackground as ImagePipeline,
  "image.portrait-enhance": portraitEnhance as ImagePipeline,
  "image.blur-anything": blurAnything as ImagePipeline,
  "image.nsfw": nsfw as NsfwPipeline,
} as const;

export type ImageFeatureId = keyof typeof IMAGE_PIPELINES;
