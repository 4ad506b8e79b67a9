// Is an MP4/MOV file whole? Both are a sequence of top-level boxes ("atoms"), each starting with its
// own size. A file cut short (an interrupted upload or download) keeps a readable header, so
// ffprobe answers normally and decoding fails minutes later, or a classifier sees only the first
// frames; walking the box sizes finds the cut at once, by reading a few bytes per box.
import { open } from "node:fs/promises";
import { ApiError } from "../../schema/errors.ts";

/** Throws ApiError corrupt_media when a top-level box runs past the end of the file. */
export async function checkContainerComplete(path: string): Promise<void> {
  const file = await open(path, "r");
  try {
    const { size } = await file.stat();
    const header = Buffer.alloc(16);
    let offset = 0;
    // A tail shorter than a box header is padding some muxers leave; it holds no box.
    while (size - offset >= 8) {
      await file.read(header, 0, 16, offset);
      const type = header.toString("latin1", 4, 8);
      let boxSize = header.readUInt32BE(0);
      if (boxSize === 1) boxSize = Number(header.readBigUInt64BE(8));
      else if (boxSize === 0) return; // the last box, up to the end of the file
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
