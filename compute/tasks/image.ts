// Image features as tasks: fetch, decode (format from the bytes, orientation applied, limits),
// run the pipeline, encode in the input's format with no metadata; with return_detections, what
// the pipeline hid goes with the image.
import type { Models } from "../models/index.ts";
import type { Detection } from "../types.ts";
import { imageDetections } from "../pipelines/detections.ts";
import type { ImagePipeline, NsfwPipeline } from "../pipelines/image/index.ts";
import { encodeImage, type DecodedImage } from "../media/image.ts";
import { imageDecoders, type ImageDecoders } from "../media/image-decoders.ts";
import { pixelBudget, type PixelBudget } from "../pixel-budget.ts";
import { loadMediaBytes } from "./media-source.ts";
import type { Task } from "./types.ts";

/** Where an image task's pixels come from: the memory they may take, and the processes that decode them. */
export interface ImageSources {
  budget: () => PixelBudget;
  decoders: () => ImageDecoders;
}

const INSTANCE: ImageSources = { budget: pixelBudget, decoders: imageDecoders };

export function imageTask(feature: string, pipeline: ImagePipeline, models: () => Models, sources: ImageSources = INSTANCE): Task {
  return {
    feature,
    media: "image",
    async run(request, ctx) {
      return withImage(sources, await loadMediaBytes(request.media, "image", ctx.signal), ctx.signal, async ({ frame, format }) => {
        const hidden: Detection[] = [];
        const out = await pipeline(frame, request.params, models(), (found) => hidden.push(...found));
        const encoded = await encodeImage(out, format);
        const detections = request.params.return_detections === true ? imageDetections(frame, hidden) : undefined;
        return { type: "media", body: encoded.bytes, contentType: encoded.contentType, ...(detections ? { detections } : {}) };
      });
    },
  };
}

export function nsfwImageTask(feature: string, pipeline: NsfwPipeline, models: () => Models, sources: ImageSources = INSTANCE): Task {
  return {
    feature,
    media: "image",
    async run(request, ctx) {
      return withImage(sources, await loadMediaBytes(request.media, "image", ctx.signal), ctx.signal, async ({ frame }) => ({
        type: "json",
        body: await pipeline(frame, request.params, models()),
      }));
    },
  };
}

/**
 * Runs `work` on the decoded image once the budget holds its pixels; afterwards the pixel buffer
 * goes back to the decoders and the reservation to the budget (`work`'s result is new objects,
 * encoded bytes or JSON: nothing in it refers to the pixels).
 */
async function withImage<T>(sources: ImageSources, bytes: Buffer, signal: AbortSignal, work: (image: DecodedImage) => Promise<T>): Promise<T> {
  // The decoder refuses what is over the limits; an unreadable header reserves nothing and lets
  // the decode (reading it itself) say what is wrong. An abort is not an unreadable header.
  const header = await sources.decoders().readHeader(bytes, signal).catch((err) => {
    if (signal.aborted) throw err;
    return undefined;
  });
  const release = await sources.budget().reserve(header ? header.width * header.height : 0, signal);
  try {
    const image = await sources.decoders().decode(bytes, header, signal);
    try {
      return await work(image);
    } finally {
      image.release();
    }
  } finally {
    release();
  }
}
