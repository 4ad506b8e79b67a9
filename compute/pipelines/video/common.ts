// Pieces every detector-based video feature shares: running a per-frame detector over a batch,
// how often detection runs, and the visible watermark.
import type { Detection, Frame } from "../../types.ts";
import { drawWatermark } from "../../effects/overlay.ts";
import type { ChunkProcessor } from "../../video/stream.ts";

/**
 * Detection runs on every k-th frame; the tracker covers the frames between by interpolating
 * between detections on either side (with a growing margin) and back-fills tracks that start in
 * between, so skipping never leaves a frame uncovered (compute/video/tracked.ts). k = 2 halves
 * the detector cost while a face moving across the frame in a second is still interpolated
 * within a few pixels.
 */
export const DETECT_EVERY = 2;

/** A detect() for trackedProcessor from a per-frame detector (frames run one after another). */
export function eachFrame(detect: (frame: Frame) => Promise<Detection[]>) {
  return async (frames: Frame[]): Promise<Detection[][]> => {
    const out: Detection[][] = [];
    for (const frame of frames) out.push(await detect(frame));
    return out;
  };
}

/** Adds the visible watermark to every frame a processor returns. */
export function withWatermark(processor: ChunkProcessor): ChunkProcessor {
  return {
    chunkSize: processor.chunkSize,
    async processChunk(frames, startIndex) {
      return (await processor.processChunk(frames, startIndex)).map(drawWatermark);
    },
    ...(processor.flush ? { flush: async () => (await processor.flush!()).map(drawWatermark) } : {}),
    ...(processor.close ? { close: () => processor.close!() } : {}),
  };
}
