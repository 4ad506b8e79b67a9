// A video's container index without its frames: to price a video the Worker needs what ffprobe
// reads from an MP4/MOV's boxes (moov: streams, sample tables, edit lists), not the media data
// (mdat), which is nearly all of the file. So the probe fetches the boxes by HTTP range into a
// sparse file of the video's full size, with the media data left as a hole, and probes that: the
// same sizes, offsets and tables as the whole file, so the same answers and the same refusals
// (a box cut short, a missing index), for a few requests instead of up to 1 GiB.
import { open, rm } from "node:fs/promises";
import { boxHeader } from "./container.ts";

/** Reads bytes start..end (inclusive) and the file's size, or null where ranges are not served. */
export type RangeReader = (start: number, end: number) => Promise<{ bytes: Buffer; total: number } | null>;

/** The first request: the leading boxes (ftyp, often the whole moov of a short clip). */
const HEAD_BYTES = 64 * 1024;
/** Box types read whole; the rest (the media data, padding) stay holes. */
const HOLES = new Set(["mdat", "free", "skip", "wide"]);
/** Box types a file may start with (as `sniffContainer` accepts): anything else is not walked. */
const LEADING = new Set(["ftyp", "moov", "mdat", "wide", "free", "skip", "pnot", "uuid"]);
/** Past these, the whole file is fetched instead (a fragmented MP4 spreads its index over many boxes). */
const MAX_BOXES = 64;
const MAX_INDEX_BYTES = 64 * 1024 * 1024;

/**
 * Writes the video at `read`'s URL to `path` with every top-level box but the media data, at its
 * own offset, in a file of the video's size. Returns false where that cannot stand in for the whole
 * file (no ranges served, a fragmented MP4, an index over 64 MiB): the caller fetches all of it.
 * A file that is not MP4/MOV gets its first bytes only, enough to be told apart.
 */
export async function copyContainerIndex(read: RangeReader, path: string): Promise<boolean> {
  const head = await read(0, HEAD_BYTES - 1);
  if (!head) return false;
  const file = await open(path, "w");
  let whole = false;
  try {
    await file.truncate(head.total);
    await file.write(head.bytes, 0, head.bytes.length, 0);
    whole = await copyBoxes(read, head, (bytes, at) => file.write(bytes, 0, bytes.length, at).then(() => {}));
  } finally {
    await file.close();
    if (!whole) await rm(path, { force: true });
  }
  return whole;
}

async function copyBoxes(read: RangeReader, head: { bytes: Buffer; total: number }, write: (bytes: Buffer, at: number) => Promise<void>): Promise<boolean> {
  const { total } = head;
  const header = async (offset: number): Promise<Buffer | null> => {
    if (offset + 16 <= head.bytes.length) return head.bytes.subarray(offset, offset + 16);
    const got = await read(offset, Math.min(total, offset + 16) - 1);
    return got?.bytes ?? null;
  };
  let offset = 0;
  let fetched = 0;
  for (let boxes = 0; total - offset >= 8; boxes++) {
    if (boxes === MAX_BOXES) return false;
    const h = await header(offset);
    if (!h || h.length < 8) return false;
    const { type, size } = boxHeader(h, total - offset);
    if (offset === 0 && !LEADING.has(type)) return true; // not MP4/MOV: the first bytes say so
    if (type === "moof") return false;
    // A damaged or cut box: the copy stops here as the file does, and the probe refuses it the same way.
    if (size < 8 || offset + size > total) return true;
    const have = Math.max(0, Math.min(head.bytes.length, offset + size) - offset);
    if (!HOLES.has(type) && have < size) {
      fetched += size - have;
      if (fetched > MAX_INDEX_BYTES) return false;
      const rest = await read(offset + have, offset + size - 1);
      if (!rest || rest.bytes.length !== size - have) return false;
      await write(rest.bytes, offset + have);
    }
    offset += size;
  }
  return true;
}
