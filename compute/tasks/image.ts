// Image features as tasks: fetch, decode (format from the bytes, orientation applied, limits),
// run the pipeline, encode in the input's format with no metadata; with return_detections, what
// the pipeline hid goes with the image.
import type { Models } from "../models/index.ts";
import type { Detection } from "../types.ts";
import { imageDetections } from "../pipelines/detections.ts";
import type { ImagePipeline, NsfwPipeline } from "../pipelines/image/index.ts";
import { decodeImage, encodeImage } from "../media/image.ts";
import { loadMediaBytes } from "./media-source.ts";
import type { Task } from "./types.ts";

export function imageTask(feature: string, pipeline: ImagePipeline, models: () => Models): Task {
  return {
    feature,
    media: "image",
    async run(request, ctx) {
      const { frame, format } = await decodeImage(await loadMediaBytes(request.media, "image", ctx.signal));
      const hidden: Detection[] = [];
      const out = await pipeline(frame, request.params, models(), (found) => hidden.push(...found));
      const encoded = await encodeImage(out, format);
      const detections = request.params.return_detections === true ? imageDetections(frame, hidden) : undefined;
      return { type: "media", body: encoded.bytes, contentType: encoded.contentType, ...(detections ? { detections } : {}) };
    },
  };
}

export function nsfwImageTask(feature: string, pipeline: NsfwPipeline, models: () => Models): Task {
  return {
    feature,
    media: "image",
    async run(request, ctx) {
      const { frame } = await decodeImage(await loadMediaBytes(request.media, "image", ctx.signal));
      return { type: "json", body: await pipeline(frame, request.params, models()) };
    },
  };
}
