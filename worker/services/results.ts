// Results and internal media reads. Results are served under unguessable URLs (128 random bits);
// compute reads uploads through short-lived signed URLs, never through R2 credentials.
import { randomId, signToken } from "../../schema/signing.ts";
import type { Env } from "../env.ts";
import type { MediaRef } from "./media.ts";

export const RESULT_PATH = "/results/";
export const INTERNAL_MEDIA_PATH = "/internal/media/";
const INTERNAL_MEDIA_TTL_MS = 2 * 3600_000;

const EXTENSIONS: Record<string, string> = { "image/png": "png", "image/jpeg": "jpg", "image/webp": "webp", "video/mp4": "mp4" };

export async function storeResult(env: Env, origin: string, body: ReadableStream | ArrayBuffer, contentType: string, accountId: string, length?: number): Promise<string> {
  const ext = EXTENSIONS[contentType] ?? "bin";
  const name = `${randomId(16)}.${ext}`;
  const value = body instanceof ReadableStream && length !== undefined ? body.pipeThrough(new FixedLengthStream(length)) : body;
  await env.MEDIA.put(`results/${name}`, value as ReadableStream, { httpMetadata: { contentType }, customMetadata: { accountId } });
  return `${origin}${RESULT_PATH}${name}`;
}

/** The URL compute fetches a piece of media from: a signed Worker URL for uploads, else the URL. */
export async function mediaForCompute(env: Env, origin: string, media: MediaRef): Promise<{ url: string; internal: boolean }> {
  if (media.kind === "url") return { url: media.url, internal: false };
  const token = await signToken(env.SIGNING_SECRET, "media", { key: media.key, exp: Date.now() + INTERNAL_MEDIA_TTL_MS });
  return { url: `${origin}${INTERNAL_MEDIA_PATH}${token}`, internal: true };
}
