import { eq } from "drizzle-orm";
import type { MiddlewareHandler } from "hono";
import { ApiError } from "../../schema/errors.ts";
import { accounts, apiKeys } from "../../schema/tables.ts";
import type { AppEnv } from "../env.ts";
import { createDb, nowIso } from "../services/db.ts";
import { findActiveKey } from "../services/keys.ts";

/** Bearer API key -> account. Missing, malformed, unknown and revoked keys all answer 401. */
export const authenticate: MiddlewareHandler<AppEnv> = async (c, next) => {
  const db = createDb(c.env.DB);
  c.set("db", db);
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(c.req.header("authorization") ?? "");
  if (!match) throw new ApiError("unauthorized", "Missing API key: send the header Authorization: Bearer <API_KEY>.");
  const key = await findActiveKey(db, match[1]!);
  if (!key) throw new ApiError("unauthorized", "Invalid or revoked API key.");
  const account = await db.query.accounts.findFirst({ where: eq(accounts.id, key.accountId) });
  if (!account) throw new ApiError("unauthorized", "Invalid or revoked API key.");
  c.set("account", account);
  c.set("apiKeyId", key.id);
  c.executionCtx.waitUntil(db.update(apiKeys).set({ lastUsedAt: nowIso() }).where(eq(apiKeys.id, key.id)).then(() => undefined));
  await next();
};
