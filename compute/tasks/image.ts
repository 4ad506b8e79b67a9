// Image features as tasks: fetch, decode (format from the bytes, orientation applied, limits),
// run the pipeline, encode in the input's format with no metadata; with return_detections, what
// the pipeline hid goes with the image.
import type { Models } from "../models/index.ts";
import type { Detection } from "../types.ts";
import { imageDetections } from "../pipelines/detections.ts";
import type { ImagePipeline, NsfwPipeline } from "../pipelines/image/index.ts";
import { decodeImage, encodeImage, readImageHeader, type ImageHeader } from "../media/image.ts";
import { pixelBudget, type PixelBudget } from "../pixel-budget.ts";
import { loadMediaBytes } from "./media-source.ts";
import type { Task } from "./types.ts";

export function imageTask(feature: string, pipeline: ImagePipeline, models: () => Models, budget: () => PixelBudget = pixelBudget): Task {
  return {
    feature,
    media: "image",
    async run(request, ctx) {
      return withPixels(budget(), await loadMediaBytes(request.media, "image", ctx.signal), ctx.signal, async (bytes, header) => {
        const { frame, format } = await decodeImage(bytes, header);
        const hidden: Detection[] = [];
        const out = await pipeline(frame, request.params, models(), (found) => hidden.push(...found));
        const encoded = await encodeImage(out, format);
        const detections = request.params.return_detections === true ? imageDetections(frame, hidden) : undefined;
        return { type: "media", body: encoded.bytes, contentType: encoded.contentType, ...(detections ? { detections } : {}) };
      });
    },
  };
}

export function nsfwImageTask(feature: string, pipeline: NsfwPipeline, models: () => Models, budget: () => PixelBudget = pixelBudget): Task {
  return {
    feature,
    media: "image",
    async run(request, ctx) {
      return withPixels(budget(), await loadMediaBytes(request.media, "image", ctx.signal), ctx.signal, async (bytes, header) => {
        const { frame } = await decodeImage(bytes, header);
        return { type: "json", body: await pipeline(frame, request.params, models()) };
      });
    },
  };
}

/**
 * Runs `work` on the image's bytes (and its header, for decodeImage not to read it again) once the
 * budget holds its decoded pixels, and gives them back after.
 */
async function withPixels<T>(budget: PixelBudget, bytes: Buffer, signal: AbortSignal, work: (bytes: Buffer, header?: ImageHeader) => Promise<T>): Promise<T> {
  // decodeImage refuses what is over the limits; an unreadable header reserves nothing and lets
  // decodeImage (reading it itself) say what is wrong.
  const header = await readImageHeader(bytes).catch(() => undefined);
  const release = await budget.reserve(header ? header.width * header.height : 0, signal);
  try {
    return await work(bytes, header);
  } finally {
    release();
  }
}
