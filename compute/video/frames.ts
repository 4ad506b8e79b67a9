// Cutting a raw rgb24 byte stream (ffmpeg's stdout) into whole frames, and writing frames into
// ffmpeg's stdin, both with backpressure: nothing is read before a frame is wanted and nothing is
// written faster than the encoder takes it, so memory holds a few frames, not the video.
import type { Readable, Writable } from "node:stream";

export class RawFrameReader {
  #iterator: AsyncIterator<Buffer>;
  #leftover: Buffer = Buffer.alloc(0);
  #frameBytes: number;

  constructor(stream: Readable, frameBytes: number) {
    this.#iterator = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
    this.#frameBytes = frameBytes;
  }

  /** The next whole frame in its own buffer (processors may keep it), or null at the end. */
  async next(): Promise<Buffer | null> {
    const frame = Buffer.allocUnsafe(this.#frameBytes);
    let filled = 0;
    while (filled < this.#frameBytes) {
      if (this.#leftover.length === 0) {
        const step = await this.#iterator.next();
        if (step.done) {
          // A partial last frame only happens when the decoder was cut short; the caller learns
          // why from the decoder's exit code.
          return null;
        }
        this.#leftover = step.value;
      }
      const n = Math.min(this.#frameBytes - filled, this.#leftover.length);
      this.#leftover.copy(frame, filled, 0, n);
      this.#leftover = this.#leftover.subarray(n);
      filled += n;
    }
    return frame;
  }

  /** Up to `count` frames; fewer only at the end of the stream. */
  async take(count: number): Promise<Buffer[]> {
    const frames: Buffer[] = [];
    while (frames.length < count) {
      const frame = await this.next();
      if (!frame) break;
      frames.push(frame);
    }
    return frames;
  }
}

/** Write one buffer, waiting for 'drain' when the pipe is full; rejects if `died` settles first. */
export async function writeWithBackpressure(stream: Writable, data: Buffer, died: Promise<never>): Promise<void> {
  if (stream.write(data)) return;
  let onDrain: () => void = () => {};
  try {
    const drained = new Promise<void>((resolve) => {
      onDrain = resolve;
      stream.once("drain", onDrain);
    });
    await Promise.race([drained, died]);
  } finally {
    stream.off("drain", onDrain);
  }
}
