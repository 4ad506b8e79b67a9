// Uploads: a signed, expiring PUT URL per upload (on Cloudflare this could be a presigned R2 URL;
// Miniflare has no S3 endpoint, so the Worker itself receives the PUT and streams it into R2).
// The content is checked by its magic bytes before anything is stored.
import { and, eq, isNull } from "drizzle-orm";
import { ApiError } from "../../schema/errors.ts";
import { maxBytesFor } from "../../schema/limits.ts";
import { SNIFF_BYTES, requireMediaFormat, type MediaKind } from "../../schema/media-format.ts";
import { randomId, signToken, verifyToken } from "../../schema/signing.ts";
import { uploads } from "../../schema/tables.ts";
import type { Env } from "../env.ts";
import { nowIso, type Db } from "./db.ts";
import { uploadKey, uploadMediaUrl, type MediaRef } from "./media.ts";

/** How long the PUT URL is valid, and how long the uploaded media stays usable. */
export const UPLOAD_URL_TTL_MS = 60 * 60_000;
export const UPLOAD_RETENTION_MS = 24 * 3600_000;
export const UPLOAD_PUT_PATH = "/uploads/";

interface UploadToken {
  id: string;
  acct: string;
  kind: MediaKind;
  exp: number;
}

export async function createUploadTicket(env: Env, db: Db, origin: string, accountId: string, kind: MediaKind) {
  const id = randomId(16);
  const exp = Date.now() + UPLOAD_URL_TTL_MS;
  await db.insert(uploads).values({ id, accountId, kind, createdAt: nowIso(), expiresAt: nowIso(exp) });
  const token = await signToken(env.SIGNING_SECRET, "upload", { id, acct: accountId, kind, exp } satisfies UploadToken);
  return { id, uploadUrl: `${origin}${UPLOAD_PUT_PATH}${token}`, mediaUrl: uploadMediaUrl(origin, id), expiresAt: nowIso(exp), maxBytes: maxBytesFor(kind) };
}

/** Handles the PUT of an upload URL: verifies the token, sniffs, streams into R2. */
export async function receiveUpload(env: Env, db: Db, token: string, request: Request) {
  const claims = await verifyToken<UploadToken>(env.SIGNING_SECRET, "upload", token);
  if (!claims) throw new ApiError("upload_expired", "This upload URL is invalid or has expired; request a new one.");
  // One PUT per URL: the claim is a conditional UPDATE, so of two concurrent PUTs only one streams.
  // A PUT that fails (wrong format, short body) gives the claim back, so the client can retry.
  const claimed = await db
    .update(uploads)
    .set({ claimedAt: nowIso() })
    .where(and(eq(uploads.id, claims.id), isNull(uploads.claimedAt), isNull(uploads.completedAt)))
    .returning({ id: uploads.id });
  if (claimed.length === 0) throw new ApiError("upload_expired", "This upload URL was already used; request a new one.");
  let stored: Awaited<ReturnType<typeof storeMedia>>;
  try {
    stored = await storeMedia(env, claims.id, claims.kind, request.body, request.headers.get("content-length"));
  } catch (err) {
    await db.update(uploads).set({ claimedAt: null }).where(eq(uploads.id, claims.id));
    throw err;
  }
  await db.update(uploads).set({ completedAt: nowIso(), format: stored.format, sizeBytes: stored.sizeBytes, expiresAt: nowIso(Date.now() + UPLOAD_RETENTION_MS) }).where(eq(uploads.id, claims.id));
  return { id: claims.id, ...stored };
}

/** Stores a multipart file part exactly like an upload and returns its media reference. */
export async function storeFilePart(env: Env, db: Db, accountId: string, kind: MediaKind, file: File): Promise<MediaRef> {
  const id = randomId(16);
  const stored = await storeMedia(env, id, kind, file.stream(), String(file.size));
  const now = nowIso();
  await db.insert(uploads).values({ id, accountId, kind, format: stored.format, sizeBytes: stored.sizeBytes, createdAt: now, completedAt: now, expiresAt: nowIso(Date.now() + UPLOAD_RETENTION_MS) });
  return { kind: "upload", uploadId: id, key: uploadKey(id), format: stored.format, sizeBytes: stored.sizeBytes };
}

async function storeMedia(env: Env, id: string, kind: MediaKind, body: ReadableStream<Uint8Array> | null, lengthHeader: string | null) {
  const max = maxBytesFor(kind);
  const length = lengthHeader === null ? NaN : Number(lengthHeader);
  if (!Number.isInteger(length) || length <= 0) {
    throw new ApiError("invalid_request", "The upload needs a Content-Length header and a non-empty body.");
  }
  if (length > max) throw new ApiError("media_too_large", `The ${kind} is ${length} bytes; the limit is ${max} bytes.`);
  if (!body) throw new ApiError("invalid_request", "The upload body is empty.");

  // Read just enough to sniff the format, then send those bytes and the rest on to R2.
  const reader = body.getReader();
  const head: Uint8Array[] = [];
  let headLength = 0;
  while (headLength < SNIFF_BYTES) {
    const { value, done } = await reader.read();
    if (done) break;
    head.push(value);
    headLength += value.byteLength;
  }
  const headBytes = concat(head, headLength);
  const sniffed = requireMediaFormat(headBytes, kind);
  const rest = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(headBytes);
    },
    async pull(controller) {
      const { value, done } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
  try {
    await env.MEDIA.put(uploadKey(id), rest.pipeThrough(new FixedLengthStream(length)), { httpMetadata: { contentType: sniffed.contentType } });
  } catch {
    throw new ApiError("invalid_request", `The upload body does not match its Content-Length of ${length} bytes.`);
  }
  return { format: sniffed.format, contentType: sniffed.contentType, sizeBytes: length };
}

function concat(chunks: Uint8Array[], length: number): Uint8Array {
  const out = new Uint8Array(length);
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.byteLength;
  }
  return out;
}
