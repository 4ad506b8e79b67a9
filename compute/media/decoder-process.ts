// An image decoder process (compute/media/image-decoders.ts starts it under limits, with no
// network): reads requests from stdin, one at a time, and answers each on stdout; a decode's
// pixels go to the scratch file compute handed it as file descriptor PIXELS_FD. A hostile file
// that crashes libvips or libheif, or makes them allocate or loop without end, takes down this
// process and its one request, never compute. It exits when stdin closes.
import { writeSync } from "node:fs";
import { ApiError } from "../../schema/errors.ts";
import { MAX_IMAGE_BYTES } from "../../schema/limits.ts";
import { decodeImage, readImageHeader } from "./image.ts";
import type { ImageHeader } from "./image.ts";
import { encodeMessage, MessageReader } from "./decoder-protocol.ts";

/** The scratch file the pixels are written to, from offset 0 (stdio's fourth entry). */
export const PIXELS_FD = 3;

/** What compute asks: the header only, or the pixels (with the header it already read, if any). */
export type DecoderRequest = { op: "header" } | { op: "decode"; header?: ImageHeader };

/** What the decoder answers; a decoded frame's pixels are in the scratch file. */
export type DecoderReply =
  | { ok: true; header: ImageHeader }
  | { ok: true; width: number; height: number; channels: 3 | 4; format: ImageHeader["format"] }
  | { ok: false; code: string; message: string };

async function answer(request: DecoderRequest, bytes: Buffer): Promise<Buffer[]> {
  try {
    if (request.op === "header") return encodeMessage({ ok: true, header: await readImageHeader(bytes) } satisfies DecoderReply);
    const { frame, format } = await decodeImage(bytes, request.header);
    for (let done = 0; done < frame.data.length; ) done += writeSync(PIXELS_FD, frame.data, done, frame.data.length - done, done);
    return encodeMessage({ ok: true, width: frame.width, height: frame.height, channels: frame.channels, format } satisfies DecoderReply);
  } catch (err) {
    const reply: DecoderReply =
      err instanceof ApiError ? { ok: false, code: err.code, message: err.message } : { ok: false, code: "corrupt_media", message: `The image cannot be decoded: ${(err as Error).message}` };
    return encodeMessage(reply);
  }
}

async function write(parts: Buffer[]): Promise<void> {
  for (const part of parts) {
    if (!process.stdout.write(part)) await new Promise((resolve) => process.stdout.once("drain", resolve));
  }
}

if (import.meta.main) {
  const reader = new MessageReader<DecoderRequest>({ maxHeadBytes: 64 * 1024, maxBodyBytes: MAX_IMAGE_BYTES });
  let queue = Promise.resolve();
  process.stdin.on("data", (chunk: Buffer) => {
    for (const { head, body } of reader.push(chunk)) queue = queue.then(async () => write(await answer(head, body)));
  });
  process.stdin.on("end", () => void queue.then(() => process.exit(0)));
}
