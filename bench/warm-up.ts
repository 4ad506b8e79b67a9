// Loads and warms what a video pipeline uses before a timed run: one black frame through a
// throwaway instance of it (untimed), so the timed run pays no model loading, no first-inference
// kernel compile and no worker-thread start-up.
import type { ChunkProcessor } from "../compute/video/stream.ts";

export async function warmUp(processor: ChunkProcessor, width: number, height: number): Promise<void> {
  await processor.processChunk([{ data: Buffer.alloc(width * height * 3), width, height, channels: 3 }], 0);
  await processor.flush?.();
  await processor.close?.();
}
