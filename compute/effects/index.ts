// Pixel effects on Frames, shared by every image and video pipeline.
export { blurSigma, pixelBlockSize, pixelationToStrength, backgroundBlurSigma, DEFAULT_BLUR_STRENGTH } from "./strength.ts";
export { gaussianBlur, pixelate, blurRegions, applyRegionEffects } from "./blur.ts";
export type { RegionEffectOptions, RegionEffect } from "./blur.ts";
export {
  ellipseMask, rectMask, addEllipses, addRects, featherMask, dilateMask, blurMask, resizeMask, unionMasks,
  emptyMask, growBox, DEFAULT_GROW, DEFAULT_FEATHER,
} from "./mask.ts";
export type { ShapeOptions } from "./mask.ts";
export { composite, fillBackground, withAlpha, parseHexColor } from "./composite.ts";
