// Feature id -> video pipeline: (params, models) => the ChunkProcessor processVideo runs.
import type { Models } from "../../models/index.ts";
import type { ChunkProcessor } from "../../video/stream.ts";
import { backgroundBlurVideo } from "./background-blur.ts";
import { blurAnythingVideo } from "./blur-anything.ts";
import { faceAnonymizationVideo } from "./face-anonymization.ts";
import { faceBlurVideo } from "./face-blur.ts";
import { licensePlateBlurVideo } from "./license-plate-blur.ts";
import { objectRemovalVideo } from "./object-removal.ts";
import type { VideoPipelineHooks } from "./common.ts";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type VideoPipeline = (params: any, models: Models, hooks?: VideoPipelineHooks) => ChunkProcessor;

export const VIDEO_PIPELINES: Record<string, VideoPipeline> = {
  "video.face-blur": faceBlurVideo,
  "video.license-plate-blur": licensePlateBlurVideo,
  "video.blur-anything": blurAnythingVideo,
  "video.background-blur": backgroundBlurVideo,
  "video.face-anonymization": faceAnonymizationVideo,
  // Its third parameter is the fill's tuning (tests), not hooks: it takes no detection controls.
  "video.object-removal": (params, models) => objectRemovalVideo(params, models),
};
