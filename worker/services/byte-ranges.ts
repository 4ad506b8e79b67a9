// One byte range of an R2 object (HTTP Range, RFC 9110 §14): compute's probe reads a video's
// container index by range (compute/video/container-index.ts), a few requests instead of the whole
// file. One range only; anything else in the header is ignored and the whole object served, as the
// RFC allows.

/** The first..last byte (inclusive) a `Range` header asks for of an object of `size` bytes; null: not one range; "unsatisfiable": past the end. */
export function byteRange(header: string | undefined, size: number): { offset: number; length: number } | "unsatisfiable" | null {
  const m = /^bytes=(\d*)-(\d*)$/.exec(header?.trim() ?? "");
  if (!m || (m[1] === "" && m[2] === "")) return null;
  if (m[1] === "") {
    // bytes=-N: the last N bytes.
    const suffix = Math.min(Number(m[2]), size);
    return suffix === 0 ? "unsatisfiable" : { offset: size - suffix, length: suffix };
  }
  const first = Number(m[1]);
  const last = m[2] === "" ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (m[2] !== "" && Number(m[2]) < first) return null; // malformed: ignored
  if (first >= size) return "unsatisfiable";
  return { offset: first, length: last - first + 1 };
}

/** The object at `key`, or the range of it `rangeHeader` asks for (206); null when there is no such object. */
export async function rangedObjectResponse(bucket: R2Bucket, key: string, rangeHeader: string | undefined, headers: Record<string, string>): Promise<Response | null> {
  const meta = rangeHeader ? await bucket.head(key) : null;
  const range = meta ? byteRange(rangeHeader, meta.size) : null;
  if (range === "unsatisfiable") return new Response(null, { status: 416, headers: { "content-range": `bytes */${meta!.size}` } });
  const object = await bucket.get(key, range ? { range } : {});
  if (!object) return null;
  const type = object.httpMetadata?.contentType ?? "application/octet-stream";
  const common = { ...headers, "content-type": type, "accept-ranges": "bytes" };
  if (!range) return new Response(object.body, { headers: { ...common, "content-length": String(object.size) } });
  const last = range.offset + range.length - 1;
  return new Response(object.body, { status: 206, headers: { ...common, "content-length": String(range.length), "content-range": `bytes ${range.offset}-${last}/${object.size}` } });
}
