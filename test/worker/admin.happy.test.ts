// The operators' key routes behind `npm run keys:create / keys:revoke`: signed with the shared
// secret, they create the account, grant credits, set the tier and limit, and revoke keys.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { randomId } from "../../schema/signing.ts";
import { api, expectError, rateHeaders, signedInternal } from "./helpers.ts";

const admin = async (path: string, body: unknown) => {
  const res = await signedInternal("POST", path, JSON.stringify(body), { "content-type": "application/json" });
  return { status: res.status, body: (await res.json()) as Record<string, string> };
};

describe("admin key routes", () => {
  it("keys:create makes the account, grants credits, sets tier and limit, and returns a working key once", async () => {
    const email = `Ops-${randomId(6)}@Example.org`;
    const created = await admin("/internal/admin/keys", { email, name: "Ops", tier: "enterprise", credits: 25, daily_limit: 7 });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ success: true, account_id: expect.stringMatching(/^acct_/), key_id: expect.stringMatching(/^key_/), key: expect.stringMatching(/^obs_live_[A-Za-z0-9_-]{43}$/), available_credits: 25 });
    const me = await api("/me", { key: created.body.key });
    expect(await me.json()).toMatchObject({ id: created.body.account_id, email: email.toLowerCase(), name: "Ops", tier: "enterprise", available_credits: 25 });
    expect(rateHeaders(me)).toMatchObject({ limit: 7, remaining: 6 });

    // The same e-mail again: same account, a second key, credits added.
    const again = await admin("/internal/admin/keys", { email: email.toLowerCase(), credits: 5 });
    expect(again.body.account_id).toBe(created.body.account_id);
    expect(again.body.key).not.toBe(created.body.key);
    expect(again.body.available_credits).toBe(30);
    expect(await (await api("/me/credits", { key: again.body.key })).json()).toMatchObject({ available_credits: 30, total_purchased: 30, active_api_keys: 2 });
  });

  it("keys:revoke by key or by id: the key answers 401 afterwards, a second revoke is 404", async () => {
    const a = await admin("/internal/admin/keys", { email: `rv-${randomId(6)}@example.org` });
    const b = await admin("/internal/admin/keys", { email: `rv-${randomId(6)}@example.org` });
    // No --credits: keys:create warns from this that the key cannot run a feature yet.
    expect(a.body.available_credits).toBe(0);
    expect((await admin("/internal/admin/keys/revoke", { key: a.body.key })).status).toBe(200);
    expect((await admin("/internal/admin/keys/revoke", { key_id: b.body.key_id })).body).toEqual({ success: true, key_id: b.body.key_id });
    await expectError(await api("/me", { key: a.body.key }), "unauthorized", "Invalid or revoked API key.");
    await expectError(await api("/me", { key: b.body.key }), "unauthorized");
    const twice = await admin("/internal/admin/keys/revoke", { key: a.body.key });
    expect(twice.status).toBe(404);
    const row = await env.DB.prepare("SELECT revoked_at FROM api_keys WHERE id = ?1").bind(a.body.key_id).first<{ revoked_at: string }>();
    expect(row!.revoked_at).toEqual(expect.any(String));
  });

  it("validates its input", async () => {
    const bad = await admin("/internal/admin/keys", { email: "not-an-email" });
    expect(bad).toEqual({ status: 400, body: { error: { code: "invalid_request", message: "email must be an e-mail address.", status: 400 } } });
    expect((await admin("/internal/admin/keys", { email: "x@example.org", tier: "gold" })).body.error).toMatchObject({ message: "tier must be one of: free, pro, enterprise." });
    // Inherited property names are not tiers.
    expect((await admin("/internal/admin/keys", { email: "x@example.org", tier: "toString" })).body.error).toMatchObject({ message: "tier must be one of: free, pro, enterprise." });
    expect((await admin("/internal/admin/keys", { email: "x@example.org", credits: -1 })).body.error).toMatchObject({ message: "credits must be a whole number >= 0." });
    expect((await admin("/internal/admin/keys", { email: "x@example.org", daily_limit: -5 })).body.error).toMatchObject({ message: "daily_limit must be a whole number >= 0." });
    expect(await env.DB.prepare("SELECT * FROM accounts WHERE email = 'x@example.org'").first()).toBeNull();
  });
});
