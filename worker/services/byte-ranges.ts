// One byte range of an R2 object (HTTP Range, RFC 9110 §14): compute's probe reads a video's
// container index by range (compute/video/container-index.ts), a few requests instead of the whole
// file, and a browser plays and seeks a result video by range (Safari plays none without it). One
// range only; anything else (several ranges, a malformed or unsatisfiable one) is ignored and the
// whole object served, as the RFC allows a server to do.

/** The range a `Range` header asks for of an object of `size` bytes, clipped to it; null: serve the whole object. */
export function byteRange(header: string | undefined, size: number): { offset: number; length: number } | null {
  const m = /^bytes=(\d*)-(\d*)$/.exec(header?.trim() ?? "");
  if (!m || (m[1] === "" && m[2] === "")) return null;
  if (m[1] === "") {
    // bytes=-N: the last N bytes.
    const suffix = Math.min(Number(m[2]), size);
    return suffix > 0 ? { offset: size - suffix, length: suffix } : null;
  }
  const first = Number(m[1]);
  const last = m[2] === "" ? size - 1 : Math.min(Number(m[2]), size - 1);
  return first <= last ? { offset: first, length: last - first + 1 } : null;
}

/** The object at `key` (200), or the range of it `rangeHeader` asks for (206); null when there is no such object. */
export async function rangedObjectResponse(bucket: R2Bucket, key: string, rangeHeader: string | undefined, headers: Record<string, string>): Promise<Response | null> {
  // The object's size first, to clip the range to it (R2 refuses a range past the end).
  const meta = rangeHeader ? await bucket.head(key) : null;
  const range = meta ? byteRange(rangeHeader, meta.size) : null;
  const object = await bucket.get(key, range ? { range } : {});
  if (!object) return null;
  const common = { ...headers, "content-type": object.httpMetadata?.contentType ?? "application/octet-stream", "accept-ranges": "bytes" };
  if (!range) return new Response(object.body, { headers: { ...common, "content-length": String(object.size) } });
  const last = range.offset + range.length - 1;
  return new Response(object.body, { status: 206, headers: { ...common, "content-length": String(range.length), "content-range": `bytes ${range.offset}-${last}/${object.size}` } });
}
