// The Worker's HTTP application: public docs, authenticated API, signed internal routes.
import { OpenAPIHono } from "@hono/zod-openapi";
import { ApiError } from "../schema/errors.ts";
import type { AppEnv } from "./env.ts";
import { errorResponse, onError } from "./errors.ts";
import { authenticate } from "./middleware/auth.ts";
import { rateLimit } from "./middleware/rate-limit.ts";
import { UPLOAD_MEDIA_PATH } from "./services/media.ts";
import { formatIssues } from "./services/request-body.ts";
import { registerDashboardRoutes } from "./dashboard/routes.tsx";
import { registerAccountRoutes } from "./routes/account.ts";
import { registerDocsRoutes } from "./routes/docs.tsx";
import { registerFeatureRoutes } from "./routes/features.ts";
import { registerFileRoutes } from "./routes/files.ts";
import { registerInternalRoutes } from "./routes/internal.ts";
import { registerJobRoutes } from "./routes/jobs.ts";
import { registerUploadRoutes } from "./routes/uploads.ts";

const PUBLIC_API_PATHS = new Set(["/api/v2/openapi.json", "/api/v2/docs"]);

export function createApp() {
  const app = new OpenAPIHono<AppEnv>({
    defaultHook: (result) => {
      if (!result.success) throw new ApiError("invalid_request", formatIssues(result.error));
    },
  });
  app.onError(onError);

  app.use("/api/v2/*", async (c, next) => (PUBLIC_API_PATHS.has(c.req.path) ? next() : authenticate(c, next)));
  app.use("/api/v2/*", async (c, next) => (PUBLIC_API_PATHS.has(c.req.path) ? next() : rateLimit(c, next)));
  // Uploaded media (the image_url/video_url of an upload) is served to its owner only.
  app.use(`${UPLOAD_MEDIA_PATH}*`, authenticate, rateLimit);

  registerDocsRoutes(app);
  registerAccountRoutes(app);
  registerFeatureRoutes(app);
  registerJobRoutes(app);
  registerUploadRoutes(app);
  registerFileRoutes(app);
  registerInternalRoutes(app);
  registerDashboardRoutes(app);

  app.get("/", (c) => c.redirect("/api/v2/docs"));

  // Unknown paths: 404; known paths with another method: 405 with Allow.
  const routes = app.routes.filter((r) => r.method !== "ALL").map((r) => ({ method: r.method, pattern: new RegExp(`^${r.path.replace(/:[^/]+/g, "[^/]+")}$`) }));
  app.notFound((c) => {
    const allowed = [...new Set(routes.filter((r) => r.pattern.test(c.req.path)).map((r) => r.method))];
    if (allowed.length) return errorResponse("method_not_allowed", `${c.req.method} is not allowed on ${c.req.path}; allowed: ${allowed.join(", ")}.`, { Allow: allowed.join(", ") });
    return errorResponse("not_found", `No route ${c.req.method} ${c.req.path}. See /api/v2/docs.`);
  });
  return app;
}
