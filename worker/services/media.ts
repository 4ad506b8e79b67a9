// Where a request's media comes from: an upload this service issued (read from R2 directly) or
// an outside URL that passed the static SSRF policy (compute repeats it after DNS resolution).
import { and, eq } from "drizzle-orm";
import { ApiError } from "../../schema/errors.ts";
import { checkMediaUrl } from "../../schema/media-url.ts";
import { uploads } from "../../schema/tables.ts";
import type { Db } from "./db.ts";

export type MediaRef =
  | { kind: "upload"; uploadId: string; key: string; format: string; sizeBytes: number }
  | { kind: "url"; url: string };

/** Path of the media URL handed out for an upload: `${origin}/media/<upload id>`. */
export const UPLOAD_MEDIA_PATH = "/media/";
export const uploadKey = (uploadId: string) => `uploads/${uploadId}`;

export function uploadMediaUrl(origin: string, uploadId: string): string {
  return `${origin}${UPLOAD_MEDIA_PATH}${uploadId}`;
}

export async function resolveMedia(db: Db, accountId: string, origin: string, field: string, value: string, kind: "image" | "video" | "any"): Promise<MediaRef> {
  const own = ownUploadId(origin, value);
  if (own !== null) {
    const row = await db.query.uploads.findFirst({ where: and(eq(uploads.id, own), eq(uploads.accountId, accountId)) });
    // Another account's upload answers exactly like a missing one: ids reveal nothing.
    if (!row || !row.completedAt || Date.parse(row.expiresAt) < Date.now()) {
      throw new ApiError("media_not_found", `${field}: no uploaded media with this URL belongs to this account (it may have expired or never been uploaded).`);
    }
    if (kind !== "any" && row.kind !== kind) {
      throw new ApiError("unsupported_media_format", `${field}: the uploaded file is a ${row.kind}, this endpoint takes a ${kind}.`);
    }
    return { kind: "upload", uploadId: row.id, key: uploadKey(row.id), format: row.format ?? "", sizeBytes: row.sizeBytes ?? 0 };
  }
  try {
    return { kind: "url", url: checkMediaUrl(value).href };
  } catch (err) {
    if (err instanceof ApiError) throw new ApiError(err.code, `${field}: ${err.message}`);
    throw err;
  }
}

function ownUploadId(origin: string, value: string): string | null {
  const prefix = `${origin}${UPLOAD_MEDIA_PATH}`;
  if (!value.startsWith(prefix)) return null;
  const id = value.slice(prefix.length);
  return /^[A-Za-z0-9_-]{10,64}$/.test(id) ? id : null;
}
