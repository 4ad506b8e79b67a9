// video.face-blur: faces detected, tracked across frames (one identity per track, covered while
// the detector misses them), and hidden with the requested mode.
import type { FeatureParams } from "../../../schema/features.ts";
import type { Models } from "../../models/index.ts";
import { coverWithEmoji } from "../../effects/overlay.ts";
import { trackedProcessor } from "../../video/tracked.ts";
import type { ChunkProcessor } from "../../video/stream.ts";
import { FACE_SHAPE, hideBoxes, type HideOptions } from "../hide.ts";
import { DETECT_EVERY, faceFrames, type VideoPipelineHooks } from "./common.ts";

/** How the blur/mosaic modes hide a face box (the leak measure probes the same shapes). */
export function faceHideOptions(params: FeatureParams<"video.face-blur">): HideOptions {
  // face_blur_mode wins over pixelated; without it, pixelated decides.
  const mode = params.face_blur_mode ?? (params.pixelated ? "pixelated" : "gaussian");
  return { blur_strength: params.blur_strength, pixelated: mode === "pixelated", ...FACE_SHAPE };
}

export function faceBlurVideo(params: FeatureParams<"video.face-blur">, models: Pick<Models, "faces">, hooks: VideoPipelineHooks = {}): ChunkProcessor {
  return trackedProcessor({
    detectEvery: DETECT_EVERY,
    detect: faceFrames(models.faces, params, hooks),
    onCoverage: hooks.onCoverage,
    apply: (frame, coverage) => {
      return params.face_blur_mode === "emoji"
        ? coverWithEmoji(frame, coverage.boxes, params.emoji)
        : hideBoxes(frame, coverage.boxes, faceHideOptions(params));
    },
  });
}
