// Daily rate limits: headers on every authenticated response (errors included), per-tier limits,
// a UTC-day window, exact counting under concurrency (a Durable Object per account).
import { describe, expect, it } from "vitest";
import { rateHeaders as headers } from "./helpers.ts";
import { createApiKey } from "../../worker/services/keys.ts";
import { api, createUser, db, nextUtcMidnight, postJson } from "./helpers.ts";


describe("X-RateLimit-* headers", () => {
  it("are on every authenticated response, success or error, and count down", async () => {
    const u = await createUser({ credits: 10 });
    const responses = [
      await api("/me", { key: u.key }), // 200
      await api("/jobs/job_AAAAAAAAAAAAAAAAAAAAAA", { key: u.key }), // 404 job_not_found
      await postJson("/images/face-blur", u.key, { blur_strength: 3 }), // 400 invalid_request
      await api("/me", { method: "PATCH", key: u.key }), // 405
      await api("/nope", { key: u.key }), // 404 not_found
      await postJson("/images/face-blur", u.key, { image_url: "https://media.example.com/a.png" }), // 503
      await api("/uploads/image", { method: "POST", key: u.key }), // 201
    ];
    expect(responses.map((r) => r.status)).toEqual([200, 404, 400, 405, 404, 503, 201]);
    responses.forEach((res, i) => expect(headers(res), `response ${i}`).toEqual({ limit: 100, remaining: 99 - i, reset: nextUtcMidnight() }));
  });

  it("Reset is the next 00:00 UTC as Unix seconds", async () => {
    const u = await createUser();
    const { reset } = headers(await api("/me", { key: u.key }));
    expect(reset % 86_400).toBe(0);
    expect(reset * 1000).toBeGreaterThan(Date.now());
    expect(reset * 1000 - Date.now()).toBeLessThanOrEqual(86_400_000);
    expect(new Date(reset * 1000).toISOString()).toMatch(/T00:00:00\.000Z$/);
  });
});

describe("limits per tier", () => {
  it("pro: 1000 per day", async () => {
    const u = await createUser({ tier: "pro" });
    expect(headers(await api("/me", { key: u.key }))).toMatchObject({ limit: 1000, remaining: 999 });
  });

  it("enterprise: the per-account limit, or the tier's fallback when none is set", async () => {
    const custom = await createUser({ tier: "enterprise", dailyLimit: 25_000 });
    expect(headers(await api("/me", { key: custom.key }))).toMatchObject({ limit: 25_000, remaining: 24_999 });
    const fallback = await createUser({ tier: "enterprise" });
    expect(headers(await api("/me", { key: fallback.key }))).toMatchObject({ limit: 10_000 });
  });

  it("a daily_limit on a free account is ignored (only enterprise limits are per account)", async () => {
    const u = await createUser({ tier: "free", dailyLimit: 5000 });
    expect(headers(await api("/me", { key: u.key })).limit).toBe(100);
  });

  it("accounts are counted separately", async () => {
    const a = await createUser({ tier: "enterprise", dailyLimit: 1 });
    const b = await createUser({ tier: "enterprise", dailyLimit: 1 });
    expect((await api("/me", { key: a.key })).status).toBe(200);
    expect((await api("/me", { key: a.key })).status).toBe(429);
    expect((await api("/me", { key: b.key })).status).toBe(200);
  });

  it("two keys of one account share its limit", async () => {
    const u = await createUser({ tier: "enterprise", dailyLimit: 2 });
    const second = await createApiKey(db(), u.account.id, "second");
    expect((await api("/me", { key: u.key })).status).toBe(200);
    expect((await api("/me", { key: second.key })).status).toBe(200);
    expect((await api("/me", { key: u.key })).status).toBe(429);
    expect((await api("/me", { key: second.key })).status).toBe(429);
  });
});

describe("exact under concurrency", () => {
  it("with limit N, 2N concurrent requests give exactly N non-429 answers", async () => {
    const N = 15;
    const u = await createUser({ tier: "enterprise", dailyLimit: N });
    const results = await Promise.all(Array.from({ length: 2 * N }, () => api("/me", { key: u.key })));
    const ok = results.filter((r) => r.status !== 429);
    expect(ok).toHaveLength(N);
    expect(results.filter((r) => r.status === 429)).toHaveLength(N);
    // Every allowed answer saw a different remaining count: N-1 .. 0.
    expect(ok.map((r) => headers(r).remaining).sort((a, b) => a - b)).toEqual(Array.from({ length: N }, (_, i) => i));
    await Promise.all(results.map((r) => r.body?.cancel()));
  });

  it("refused requests do not count: the limit stays exhausted, not beyond", async () => {
    const u = await createUser({ tier: "enterprise", dailyLimit: 2 });
    for (let i = 0; i < 5; i++) await api("/me", { key: u.key });
    const res = await api("/me", { key: u.key });
    expect(headers(res)).toMatchObject({ limit: 2, remaining: 0 });
  });
});
