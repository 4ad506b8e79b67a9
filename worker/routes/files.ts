// GET /results/<name>: processed media, public under unguessable names (128 random bits).
// GET /media/<upload id>: an uploaded file (the image_url/video_url an upload ticket hands out),
// to the account that uploaded it only (bearer key; another account's upload is a 404).
import { z, type OpenAPIHono } from "@hono/zod-openapi";
import { and, eq } from "drizzle-orm";
import { ApiError } from "../../schema/errors.ts";
import { uploads } from "../../schema/tables.ts";
import { DetectionsDocument } from "../../schema/api/detections.ts";
import type { AppEnv } from "../env.ts";
import { UPLOAD_MEDIA_PATH, uploadKey } from "../services/media.ts";
import { RESULT_PATH, resultObjectKey } from "../services/results.ts";
import { rangedObjectResponse } from "../services/byte-ranges.ts";
import { AUTHENTICATED, BEARER, COMMON_ERRORS, PUBLIC, errorResponses, success } from "./openapi-helpers.ts";

const binary = { schema: z.string().openapi({ type: "string", format: "binary" }) };
const MEDIA_CONTENT = { "image/*": binary, "video/*": binary };
const RESULT_CONTENT = { ...MEDIA_CONTENT, "application/json": { schema: DetectionsDocument } };

/** Headers of a served file (200) and of one range of it (206: `Range: bytes=first-last`, `bytes=first-` or `bytes=-count`). */
const FILE_HEADERS = { "Accept-Ranges": { schema: { type: "string" as const, enum: ["bytes"] }, required: true, description: "One byte range of the file can be asked for with `Range` (a video player seeks so)." } };
const RANGE_HEADERS = { ...FILE_HEADERS, "Content-Range": { schema: { type: "string" as const }, required: true, description: "The range sent and the file's size: `bytes first-last/size`." } };
const FILE_RESPONSE_HEADERS = (cacheControl: string) => ({ "cache-control": cacheControl, "x-content-type-options": "nosniff" });
const RANGE_DESCRIPTION = "One byte range of the file, for `Range: bytes=first-last` (or `first-`, `-count`), clipped to the file. Several ranges, or one past the end, get the whole file (200).";

export function registerFileRoutes(app: OpenAPIHono<AppEnv>): void {
  app.openAPIRegistry.registerPath({
    method: "get",
    path: `${RESULT_PATH}{name}`,
    operationId: "getResult",
    tags: ["Files"],
    summary: "A processed image or video (the result_url), or a detections document (the detections_url)",
    description: "Public: the name is unguessable (128 random bits), so no key is needed and the URL can be embedded. No rate-limit headers.",
    security: [],
    request: { params: z.object({ name: z.string().openapi({ example: "3q2X9c0d1e2f3g4h5i6j7k.png" }) }) },
    responses: {
      ...success(200, "The file; Content-Type is its format (application/json for a detections document).", RESULT_CONTENT, PUBLIC, FILE_HEADERS),
      ...success(206, RANGE_DESCRIPTION, RESULT_CONTENT, PUBLIC, RANGE_HEADERS),
      ...errorResponses(PUBLIC, "not_found", "internal_error"),
    },
  });
  app.get(`${RESULT_PATH}:name`, async (c) => {
    const name = c.req.param("name");
    const served = /^[A-Za-z0-9_-]{16,64}\.[a-z0-9]{2,5}$/.test(name) ? await rangedObjectResponse(c.env.MEDIA, resultObjectKey(name), c.req.header("range"), FILE_RESPONSE_HEADERS("private, max-age=3600")) : null;
    if (!served) throw new ApiError("not_found", "No such result (it may have expired).");
    return served;
  });

  app.openAPIRegistry.registerPath({
    method: "get",
    path: `${UPLOAD_MEDIA_PATH}{upload_id}`,
    operationId: "getUploadedMedia",
    tags: ["Files"],
    summary: "An uploaded file (the image_url or video_url of an upload)",
    description: "The uploaded bytes, to the account that uploaded them (for 24 hours after the upload). Counts against the daily limit like every authenticated request.",
    security: BEARER,
    request: { params: z.object({ upload_id: z.string() }) },
    responses: {
      ...success(200, "The file; Content-Type is its format, read from its bytes.", MEDIA_CONTENT, AUTHENTICATED, FILE_HEADERS),
      ...success(206, RANGE_DESCRIPTION, MEDIA_CONTENT, AUTHENTICATED, RANGE_HEADERS),
      ...errorResponses(AUTHENTICATED, ...COMMON_ERRORS, "media_not_found"),
    },
  });
  app.get(`${UPLOAD_MEDIA_PATH}:upload_id`, async (c) => {
    const id = c.req.param("upload_id");
    const row = /^[A-Za-z0-9_-]{10,64}$/.test(id) ? await c.get("db").query.uploads.findFirst({ where: and(eq(uploads.id, id), eq(uploads.accountId, c.get("account").id)) }) : undefined;
    const served = row?.completedAt && Date.parse(row.expiresAt) >= Date.now() ? await rangedObjectResponse(c.env.MEDIA, uploadKey(id), c.req.header("range"), FILE_RESPONSE_HEADERS("private, no-store")) : null;
    // Another account's upload answers exactly like a missing one: ids reveal nothing.
    if (!served) throw new ApiError("media_not_found", "No uploaded media with this URL belongs to this account (it may have expired or never been uploaded).");
    return served;
  });
}
