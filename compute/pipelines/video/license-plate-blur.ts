// video.license-plate-blur: the image two-stage plate search on detection frames, tracked.
import type { FeatureParams } from "../../../schema/features.ts";
import type { Models } from "../../models/index.ts";
import { trackedProcessor } from "../../video/tracked.ts";
import type { ChunkProcessor } from "../../video/stream.ts";
import { hideBoxes } from "../hide.ts";
import { findPlates } from "../plates.ts";
import { DETECT_EVERY, eachFrame, type VideoPipelineHooks } from "./common.ts";

export function licensePlateBlurVideo(params: FeatureParams<"video.license-plate-blur">, models: Pick<Models, "objects" | "text">, hooks: VideoPipelineHooks = {}): ChunkProcessor {
  return trackedProcessor({
    detectEvery: DETECT_EVERY,
    detect: eachFrame((frame) => findPlates(frame, models), params),
    onCoverage: hooks.onCoverage,
    apply: (frame, coverage) => hideBoxes(frame, coverage.boxes, { blur_strength: params.blur_strength, pixelated: params.pixelated, shape: "rect", grow: 0.1, feather: 0.15 }),
  });
}
