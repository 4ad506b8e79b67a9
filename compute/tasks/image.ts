// Image features as tasks: fetch, decode (format from the bytes, orientation applied, limits),
// run the pipeline, encode in the input's format with no metadata; with return_detections, what
// the pipeline hid goes with the image.
import type { Models } from "../models/index.ts";
import type { Detection } from "../types.ts";
import { imageDetections } from "../pipelines/detections.ts";
import type { ImagePipeline, NsfwPipeline } from "../pipelines/image/index.ts";
import { decodeImage, encodeImage, readImageHeader } from "../media/image.ts";
import { pixelBudget, type PixelBudget } from "../pixel-budget.ts";
import { loadMediaBytes } from "./media-source.ts";
import type { Task } from "./types.ts";

export function imageTask(feature: string, pipeline: ImagePipeline, models: () => Models, budget: () => PixelBudget = pixelBudget): Task {
  return {
    feature,
    media: "image",
    async run(request, ctx) {
      return withPixels(budget(), await loadMediaBytes(request.media, "image", ctx.signal), ctx.signal, async (bytes) => {
        const { frame, format } = await decodeImage(bytes);
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
      return withPixels(budget(), await loadMediaBytes(request.media, "image", ctx.signal), ctx.signal, async (bytes) => {
        const { frame } = await decodeImage(bytes);
        return { type: "json", body: await pipeline(frame, request.params, models()) };
      });
    },
  };
}

/** Runs `work` on the image's bytes once the budget holds its decoded pixels (read from its header), and gives them back after. */
async function withPixels<T>(budget: PixelBudget, bytes: Buffer, signal: AbortSignal, work: (bytes: Buffer) => Promise<T>): Promise<T> {
  // The header is read again by decodeImage, which refuses what is over the limits; here an
  // unreadable header reserves nothing and lets decodeImage say what is wrong.
  const pixels = await readImageHeader(bytes).then((h) => h.width * h.height, () => 0);
  const release = await budget.reserve(pixels, signal);
  try {
    return await work(bytes);
  } finally {
    release();
  }
}
