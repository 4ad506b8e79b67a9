// POST /uploads/image, POST /uploads/video (tickets) and the PUT target they hand out.
import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import { UploadDone, UploadRequest, UploadTicket } from "../../schema/api/resources.ts";
import { SUPPORTED_IMAGE_FORMATS_TEXT, SUPPORTED_VIDEO_FORMATS_TEXT, type MediaKind } from "../../schema/media-format.ts";
import type { AppEnv } from "../env.ts";
import { createDb } from "../services/db.ts";
import { uploadMediaUrl } from "../services/media.ts";
import { readBody } from "../services/request-body.ts";
import { UPLOAD_PUT_PATH, createUploadTicket, receiveUpload } from "../services/uploads.ts";
import { AUTHENTICATED, BEARER, COMMON_ERRORS, PUBLIC, errorResponses, success } from "./openapi-helpers.ts";

function ticketRoute(kind: MediaKind) {
  return createRoute({
    method: "post",
    path: `/api/v2/uploads/${kind}`,
    tags: ["Uploads"],
    summary: `Get an upload URL for a ${kind}`,
    description: `Returns a signed \`upload_url\` valid for one hour. \`PUT\` the file to it (with Content-Length), then pass \`${kind}_url\` to a ${kind} feature. Accepted: ${kind === "image" ? SUPPORTED_IMAGE_FORMATS_TEXT : SUPPORTED_VIDEO_FORMATS_TEXT}, checked from the bytes.`,
    security: BEARER,
    request: { body: { required: false, content: { "application/json": { schema: UploadRequest } } } },
    responses: {
      ...success(201, "Upload ticket.", { "application/json": { schema: UploadTicket } }, AUTHENTICATED),
      ...errorResponses(AUTHENTICATED, ...COMMON_ERRORS, "invalid_request", "invalid_json", "request_too_large", "unsupported_media_type"),
    },
  });
}

export function registerUploadRoutes(app: OpenAPIHono<AppEnv>): void {
  for (const kind of ["image", "video"] as const) {
    const route = ticketRoute(kind);
    app.openAPIRegistry.registerPath(route);
    app.post(route.path, async (c) => {
      await readBody(c.req.raw, UploadRequest);
      const t = await createUploadTicket(c.env, c.get("db"), new URL(c.req.url).origin, c.get("account").id, kind);
      return c.json(
        {
          success: true as const,
          upload_id: t.id,
          upload_url: t.uploadUrl,
          method: "PUT" as const,
          [`${kind}_url`]: t.mediaUrl,
          expires_at: t.expiresAt,
          max_bytes: t.maxBytes,
          accepted_formats: (kind === "image" ? SUPPORTED_IMAGE_FORMATS_TEXT : SUPPORTED_VIDEO_FORMATS_TEXT).split(", "),
        },
        201,
      );
    });
  }

  app.openAPIRegistry.registerPath({
    method: "put",
    path: `${UPLOAD_PUT_PATH}{token}`,
    operationId: "uploadPut",
    tags: ["Uploads"],
    summary: "Upload target (the upload_url)",
    description: "The signed URL itself authorizes the upload: no bearer key, and no rate-limit headers. Send the file as the raw body with a `Content-Length`; any `Content-Type` is accepted, the format is read from the magic bytes. Each URL takes one successful upload.",
    security: [],
    request: {
      params: z.object({ token: z.string().openapi({ description: "The signed token at the end of `upload_url`." }) }),
      body: { required: true, description: "The file's bytes.", content: { "application/octet-stream": { schema: { type: "string", format: "binary" } } } },
    },
    responses: {
      ...success(200, "Stored.", { "application/json": { schema: UploadDone } }, PUBLIC),
      ...errorResponses(PUBLIC, "invalid_request", "upload_expired", "media_too_large", "unsupported_media_format", "internal_error"),
    },
  });
  app.put(`${UPLOAD_PUT_PATH}:token`, async (c) => {
    const stored = await receiveUpload(c.env, createDb(c.env.DB), c.req.param("token"), c.req.raw);
    const origin = new URL(c.req.url).origin;
    return c.json({ success: true as const, upload_id: stored.id, format: stored.format, size_bytes: stored.sizeBytes, media_url: uploadMediaUrl(origin, stored.id) }, 200);
  });
}
