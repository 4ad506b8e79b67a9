// Is an MP4/MOV file whole? Both are a sequence of top-level boxes ("atoms"), each starting with its
// own size. A file cut short (an interrupted upload or download) keeps a readable header, so
// ffprobe answers normally and decoding fails minutes later, or a classifier sees only the first
// frames; walking the box sizes finds the cut at once, by reading a few bytes per box.
import { open } from "node:fs/promises";
import { ApiError } from "../../schema/errors.ts";

/**
 * A box's type and size from its header (the 16 bytes at its start, or fewer at the end of the
 * file): a 32-bit size, or 1 and a 64-bit one after the type, or 0 for "up to the end of the
 * file", given as `rest` (the bytes from the box's start to the file's end). A size under 8 is a
 * damaged box.
 */
export function boxHeader(header: Buffer, rest: number): { type: string; size: number } {
  const type = header.toString("latin1", 4, 8);
  const size = header.readUInt32BE(0);
  if (size === 1) return { type, size: header.length >= 16 ? Number(header.readBigUInt64BE(8)) : 0 };
  return { type, size: size === 0 ? rest : size };
}

/** Throws ApiError corrupt_media when a top-level box runs past the end of the file. */
export async function checkContainerComplete(path: string): Promise<void> {
  const file = await open(path, "r");
  try {
    const { size } = await file.stat();
    const buffer = Buffer.alloc(16);
    let offset = 0;
    // A tail shorter than a box header is padding some muxers leave; it holds no box.
    while (size - offset >= 8) {
      const { bytesRead } = await file.read(buffer, 0, 16, offset);
      const { type, size: boxSize } = boxHeader(buffer.subarray(0, bytesRead), size - offset);
      if (boxSize < 8) throw new ApiError("corrupt_media", `The video's container is damaged (a '${printable(type)}' box of ${boxSize} bytes at byte ${offset}).`);
      if (offset + boxSize > size) {
        throw new ApiError("corrupt_media", `The video is truncated: its '${printable(type)}' box needs ${offset + boxSize} bytes and the file has ${size}.`);
      }
      offset += boxSize;
    }
  } finally {
    await file.close();
  }
}

const printable = (type: string) => type.replace(/[^\x20-\x7e]/g, "?");
