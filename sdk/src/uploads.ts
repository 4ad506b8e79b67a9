// Sending bytes the API can take: an upload ticket, then a PUT of the bytes to its signed URL
// (never with the API key). Returns the media URL to pass to a feature.
import { errorOf, type Transport } from "./http.ts";
import type { MediaKind, UploadDone, UploadTicket } from "./types.ts";

export interface Uploaded {
  upload_id: string;
  /** The image_url or video_url to pass to a feature (usable for 24 hours, by this account only). */
  media_url: string;
  format: string;
  size_bytes: number;
}

const VIDEO_EXTENSION = /\.(mp4|mov|m4v|qt)$/i;

/** image or video, from the file's first bytes (the ISO-BMFF brand: HEIC is an image) or, failing that, its name. */
export function mediaKindOf(name: string, head: Uint8Array): MediaKind {
  const ascii = (from: number, to: number) => String.fromCharCode(...head.subarray(from, to));
  if (ascii(4, 8) === "ftyp") return /^(heic|heix|hevc|heim|heis|mif1|msf1)$/.test(ascii(8, 12)) ? "image" : "video";
  return VIDEO_EXTENSION.test(name) ? "video" : "image";
}

export interface UploadOptions {
  signal?: AbortSignal;
  /** Called as the bytes are handed to the connection (sent, total); makes the PUT a stream. */
  onProgress?: (sent: number, total: number) => void;
}

/** Chunks handed to the connection between progress reports. */
const PROGRESS_CHUNK = 256 * 1024;

/** The bytes as a stream that reports how much of them the connection has pulled. */
function countingStream(bytes: Uint8Array, onProgress: (sent: number, total: number) => void): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= bytes.byteLength) {
        controller.close();
        return;
      }
      const chunk = bytes.subarray(sent, sent + PROGRESS_CHUNK);
      controller.enqueue(chunk);
      sent += chunk.byteLength;
      onProgress(sent, bytes.byteLength);
    },
  });
}

export async function uploadBytes(transport: Transport, kind: MediaKind, bytes: Uint8Array, opts: UploadOptions = {}): Promise<Uploaded> {
  const { data: ticket } = await transport.request<UploadTicket>("POST", `/uploads/${kind}`, { signal: opts.signal });
  const headers: Record<string, string> = { "content-type": "application/octet-stream" };
  let body: BodyInit = bytes as BodyInit;
  if (opts.onProgress) {
    // A stream has no length of its own: the upload target requires Content-Length, so say it.
    headers["content-length"] = String(bytes.byteLength);
    opts.onProgress(0, bytes.byteLength);
    body = countingStream(bytes, opts.onProgress) as BodyInit;
  }
  const res = await transport.raw("PUT", ticket.upload_url, { body, auth: false, headers, signal: opts.signal, duplex: opts.onProgress ? "half" : undefined });
  if (!res.ok) throw await errorOf(res);
  const done = (await res.json()) as UploadDone;
  return { upload_id: ticket.upload_id, media_url: (kind === "image" ? ticket.image_url : ticket.video_url)!, format: done.format, size_bytes: done.size_bytes };
}
