import type { MiddlewareHandler } from "hono";
import { ApiError } from "../../schema/errors.ts";
import { dailyLimitFor } from "../../schema/tiers.ts";
import type { RateDecision } from "../durable/rate-limiter.ts";
import type { AppEnv, Env } from "../env.ts";

export function rateLimiterFor(env: Env, accountId: string) {
  return env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(accountId));
}

function setRateHeaders(headers: Headers, d: RateDecision): void {
  headers.set("X-RateLimit-Limit", String(d.limit));
  headers.set("X-RateLimit-Remaining", String(d.remaining));
  headers.set("X-RateLimit-Reset", String(d.reset));
}

/**
 * Counts every authenticated request (polling included) against the account's daily limit,
 * a UTC-day window, and puts the rate headers on every authenticated response, errors too.
 */
export const rateLimit: MiddlewareHandler<AppEnv> = async (c, next) => {
  const account = c.get("account");
  const decision = await rateLimiterFor(c.env, account.id).hit(dailyLimitFor(account.tier, account.dailyLimit));
  if (!decision.allowed) {
    setRateHeaders(c.res.headers, decision);
    c.header("Retry-After", String(Math.max(1, Math.ceil(decision.reset - Date.now() / 1000))));
    throw new ApiError("rate_limited", `Daily limit of ${decision.limit} requests reached; it resets at ${new Date(decision.reset * 1000).toISOString()} (00:00 UTC).`);
  }
  await next();
  setRateHeaders(c.res.headers, decision);
};
