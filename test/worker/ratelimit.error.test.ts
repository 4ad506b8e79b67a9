// Over the daily limit: 429 rate_limited with Retry-After and the rate headers, nothing runs.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { api, createUser, expectError, nextUtcMidnight, postJson, rateHeaders as headers } from "./helpers.ts";

describe("429 rate_limited", () => {
  it("free: 100 requests per UTC day, the 101st is 429 with Retry-After until midnight", async () => {
    const u = await createUser({ tier: "free" });
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) {
      const batch = await Promise.all(Array.from({ length: 10 }, () => api("/me", { key: u.key })));
      statuses.push(...batch.map((r) => r.status));
    }
    expect(statuses.filter((s) => s === 200), `statuses: ${statuses.join(",")}`).toHaveLength(100);
    const over = await api("/me", { key: u.key });
    expect(headers(over)).toEqual({ limit: 100, remaining: 0, reset: nextUtcMidnight() });
    const retryAfter = Number(over.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(Math.abs(Date.now() / 1000 + retryAfter - nextUtcMidnight()), `retry-after ${retryAfter}`).toBeLessThanOrEqual(2);
    await expectError(over, "rate_limited", /^Daily limit of 100 requests reached/);
  });

  it("a refused feature request runs nothing: no ledger entry, no idempotency record", async () => {
    const u = await createUser({ tier: "enterprise", dailyLimit: 1, credits: 10 });
    expect((await api("/me", { key: u.key })).status).toBe(200);
    const res = await postJson("/images/face-blur", u.key, { image_url: "https://media.example.com/a.png" }, { "idempotency-key": "rl-1" });
    expect(headers(res)).toEqual({ limit: 1, remaining: 0, reset: nextUtcMidnight() });
    await expectError(res, "rate_limited", "Daily limit of 1 requests reached; it resets at " + new Date(nextUtcMidnight() * 1000).toISOString() + " (00:00 UTC).");
    const { results } = await env.DB.prepare("SELECT kind FROM ledger_entries WHERE account_id = ?1").bind(u.account.id).all();
    expect(results).toEqual([{ kind: "grant" }]);
    expect(await env.DB.prepare("SELECT * FROM idempotency_records WHERE account_id = ?1").bind(u.account.id).first()).toBeNull();
  });
});
