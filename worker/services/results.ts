// Results and internal media reads. Results are served under unguessable URLs (128 random bits);
// compute reads uploads through short-lived signed URLs, never through R2 credentials.
import { randomId, signToken } from "../../schema/signing.ts";
import type { Env } from "../env.ts";
import type { MediaRef } from "./media.ts";

export const RESULT_PATH = "/results/";
export const INTERNAL_MEDIA_PATH = "/internal/media/";
const INTERNAL_MEDIA_TTL_MS = 2 * 3600_000;

const EXTENSIONS: Record<string, string> = { "image/png": "png", "image/jpeg": "jpg", "image/webp": "webp", "video/mp4": "mp4", "application/json": "json" };

export interface ResultInput {
  /** A stream needs `length` (R2 only takes streams of known length). */
  body: ReadableStream | ArrayBuffer;
  length?: number;
  contentType: string;
  /** When given, R2 refuses the write unless the bytes have this SHA-256 (hex). */
  sha256?: string;
  metadata: { accountId: string; jobId?: string };
}

/** The R2 key of the result named `name` (the last segment of its URL). */
export const resultObjectKey = (name: string) => `results/${name}`;

/** A result in R2: its public URL and its object key. */
export interface StoredResult {
  url: string;
  key: string;
}

/** Deletes a stored result (one that ended up belonging to nothing). */
export async function discardResult(env: Env, result: StoredResult): Promise<void> {
  await env.MEDIA.delete(result.key);
}

/** Stores a result in R2 under an unguessable name. */
export async function storeResult(env: Env, origin: string, input: ResultInput): Promise<StoredResult> {
  const name = `${randomId(16)}.${EXTENSIONS[input.contentType] ?? "bin"}`;
  const key = resultObjectKey(name);
  const value = input.body instanceof ReadableStream && input.length !== undefined ? input.body.pipeThrough(new FixedLengthStream(input.length)) : input.body;
  await env.MEDIA.put(key, value as ReadableStream, {
    httpMetadata: { contentType: input.contentType },
    customMetadata: input.metadata,
    ...(input.sha256 ? { sha256: input.sha256 } : {}),
  });
  return { url: `${origin}${RESULT_PATH}${name}`, key };
}

/** The URL compute fetches a piece of media from: a signed Worker URL for uploads, else the URL. */
export async function mediaForCompute(env: Env, origin: string, media: MediaRef): Promise<{ url: string; internal: boolean }> {
  if (media.kind === "url") return { url: media.url, internal: false };
  const token = await signToken(env.SIGNING_SECRET, "media", { key: media.key, exp: Date.now() + INTERNAL_MEDIA_TTL_MS });
  return { url: `${origin}${INTERNAL_MEDIA_PATH}${token}`, internal: true };
}
