// GET /results/<name>: processed media, public under unguessable names (128 random bits).
import type { OpenAPIHono } from "@hono/zod-openapi";
import { ApiError } from "../../schema/errors.ts";
import type { AppEnv } from "../env.ts";
import { RESULT_PATH, resultObjectKey } from "../services/results.ts";

export function registerFileRoutes(app: OpenAPIHono<AppEnv>): void {
  app.get(`${RESULT_PATH}:name`, async (c) => {
    const name = c.req.param("name");
    const object = /^[A-Za-z0-9_-]{16,64}\.[a-z0-9]{2,5}$/.test(name) ? await c.env.MEDIA.get(resultObjectKey(name)) : null;
    if (!object) throw new ApiError("not_found", "No such result (it may have expired).");
    return new Response(object.body, {
      headers: {
        "content-type": object.httpMetadata?.contentType ?? "application/octet-stream",
        "content-length": String(object.size),
        "cache-control": "private, max-age=3600",
        "x-content-type-options": "nosniff",
      },
    });
  });
}
