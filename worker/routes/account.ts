// GET /me, GET /me/credits, GET /features.
import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import { and, count, eq, isNull } from "drizzle-orm";
import { Account, Credits, FeatureCatalog } from "../../schema/api/resources.ts";
import { FEATURES, VIDEO_BILLING_UNIT_SECONDS } from "../../schema/features.ts";
import { apiKeys } from "../../schema/tables.ts";
import type { AppEnv } from "../env.ts";
import { computeHealth } from "../services/compute.ts";
import { webhookSecret } from "../durable/job.ts";
import { creditSummary } from "../services/ledger.ts";
import { AUTHENTICATED, BEARER, COMMON_ERRORS, errorResponses, success } from "./openapi-helpers.ts";

const ok = <T extends z.ZodType>(schema: T, description: string) => ({
  ...success(200, description, { "application/json": { schema } }, AUTHENTICATED),
  ...errorResponses(AUTHENTICATED, ...COMMON_ERRORS),
});

const me = createRoute({ method: "get", path: "/api/v2/me", tags: ["Account"], summary: "Validate the key and show the account", security: BEARER, responses: ok(Account, "The account that owns the key.") });
const credits = createRoute({ method: "get", path: "/api/v2/me/credits", tags: ["Account"], summary: "Credit summary", security: BEARER, responses: ok(Credits, "Balance and totals, derived from the ledger.") });
const webhook = createRoute({
  method: "get",
  path: "/api/v2/me/webhook-secret",
  tags: ["Account"],
  summary: "Secret that signs this account's webhooks",
  description: "Webhook POSTs carry `obscura-timestamp` and `obscura-signature: v1=<hex>`, where hex = HMAC-SHA256(secret, timestamp + \"\\n\" + sha256_hex(raw body)). Refuse timestamps older than 5 minutes.",
  security: BEARER,
  responses: ok(z.object({ success: z.literal(true), webhook_secret: z.string() }).openapi("WebhookSecret"), "The secret."),
});
const features = createRoute({ method: "get", path: "/api/v2/features", tags: ["Account"], summary: "Feature catalog with prices and parameters", security: BEARER, responses: ok(FeatureCatalog, "Every feature.") });

type Paths = Record<string, { post?: { requestBody?: { content: Record<string, { schema: Record<string, unknown> }> } } }>;

export function registerAccountRoutes(app: OpenAPIHono<AppEnv>): void {
  // A feature's `parameters` are its JSON request schema exactly as the OpenAPI document states it
  // (rules, defaults, descriptions, closed); built once, after every route is registered.
  let parameters: Map<string, Record<string, unknown>> | undefined;
  const parametersOf = (path: string) => {
    if (!parameters) {
      const paths = app.getOpenAPI31Document({ openapi: "3.1.0", info: { title: "", version: "" } }).paths as unknown as Paths;
      parameters = new Map(FEATURES.map((f) => [f.path, paths[`/api/v2${f.path}`]!.post!.requestBody!.content["application/json"]!.schema]));
    }
    return parameters.get(path)!;
  };

  app.openapi(me, async (c) => {
    const account = c.get("account");
    const { available } = await creditSummary(c.env.DB, account.id);
    return c.json({ success: true as const, id: account.id, name: account.name, email: account.email, is_developer: account.isDeveloper, available_credits: available, tier: account.tier }, 200);
  });

  app.openapi(credits, async (c) => {
    const account = c.get("account");
    const summary = await creditSummary(c.env.DB, account.id);
    const [keys] = await c.get("db").select({ n: count() }).from(apiKeys).where(and(eq(apiKeys.accountId, account.id), isNull(apiKeys.revokedAt)));
    return c.json(
      { success: true as const, available_credits: summary.available, total_purchased: summary.purchased, total_spent: summary.spent, reserved_credits: summary.reserved, active_api_keys: keys?.n ?? 0 },
      200,
    );
  });

  app.openapi(webhook, async (c) => c.json({ success: true as const, webhook_secret: await webhookSecret(c.env.SIGNING_SECRET, c.get("account").id) }, 200));

  app.openapi(features, async (c) => {
    const served = new Set((await computeHealth(c.env))?.features ?? []);
    return c.json(
      {
        success: true as const,
        features: FEATURES.map((f) => ({
          id: f.id,
          name: f.name,
          description: f.description,
          media: f.media,
          method: "POST" as const,
          path: `/api/v2${f.path}`,
          credits: f.credits,
          unit: f.unit === "request" ? "request" : `video_${VIDEO_BILLING_UNIT_SECONDS}s`,
          available: served.has(f.id),
          parameters: parametersOf(f.path),
        })),
      },
      200,
    );
  });
}
