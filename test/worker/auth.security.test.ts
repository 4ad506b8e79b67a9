// Authentication: every way a key can be wrong answers 401 unauthorized (with no rate headers:
// there is no account to count against), keys are stored only as hashes, and a key sees only
// its own account's data.
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../../schema/signing.ts";
import { KEY_PREFIX, revokeApiKey } from "../../worker/services/keys.ts";
import { API, BASE, api, createTestJob, createUser, db, expectError, postJson, uploadedMedia } from "./helpers.ts";

const PROTECTED: Array<[string, string]> = [
  ["GET", "/me"],
  ["GET", "/me/credits"],
  ["GET", "/features"],
  ["GET", "/jobs/job_AAAAAAAAAAAAAAAAAAAAAA"],
  ["POST", "/uploads/image"],
  ["POST", "/uploads/video"],
  ["POST", "/images/face-blur"],
  ["POST", "/videos/face-blur"],
  ["POST", "/detect/nsfw"],
];

describe("401 unauthorized", () => {
  it.each(PROTECTED)("%s %s without a key", async (method, path) => {
    const res = await SELF.fetch(`${API}${path}`, { method });
    await expectError(res, "unauthorized", "Missing API key: send the header Authorization: Bearer <API_KEY>.");
    expect(res.headers.get("x-ratelimit-limit")).toBeNull();
  });

  it.each([
    ["a non-Bearer scheme", (k: string) => `Basic ${k}`],
    ["an empty bearer", () => "Bearer "],
    ["two tokens", (k: string) => `Bearer ${k} extra`],
  ])("malformed header: %s", async (_name, header) => {
    const u = await createUser();
    const res = await SELF.fetch(`${API}/me`, { headers: { authorization: header(u.key) } });
    await expectError(res, "unauthorized", /^Missing API key/);
  });

  it.each([
    ["wrong prefix", `sk_live_${"a".repeat(43)}`],
    ["too short", `${KEY_PREFIX}abc`],
    ["unknown but well-formed", `${KEY_PREFIX}${"A".repeat(43)}`],
  ])("invalid key: %s", async (_name, key) => {
    const res = await api("/me", { key });
    await expectError(res, "unauthorized", "Invalid or revoked API key.");
    expect(res.headers.get("x-ratelimit-remaining")).toBeNull();
  });

  it("a revoked key stops working at once; the account's other key keeps working", async () => {
    const u = await createUser();
    expect((await api("/me", { key: u.key })).status).toBe(200);
    expect(await revokeApiKey(db(), u.account.id, u.keyId)).toBe(true);
    await expectError(await api("/me", { key: u.key }), "unauthorized", "Invalid or revoked API key.");
    await expectError(await postJson("/images/face-blur", u.key, { image_url: "https://media.example.com/a.png" }), "unauthorized");
  });

  it("the bearer scheme is case-insensitive and a correct key is accepted", async () => {
    const u = await createUser();
    const res = await SELF.fetch(`${API}/me`, { headers: { authorization: `bearer ${u.key}` } });
    expect(res.status).toBe(200);
  });
});

describe("key storage", () => {
  it("stores only the SHA-256 of the key and a short display prefix: the plaintext is nowhere in D1", async () => {
    const u = await createUser();
    const row = await env.DB.prepare("SELECT * FROM api_keys WHERE id = ?1").bind(u.keyId).first<Record<string, unknown>>();
    expect(row).not.toBeNull();
    expect(row!.hash).toBe(await sha256Hex(u.key));
    expect(row!.prefix).toBe(u.key.slice(0, KEY_PREFIX.length + 6));
    expect(JSON.stringify(row)).not.toContain(u.key);
    expect(JSON.stringify(row)).not.toContain(u.key.slice(KEY_PREFIX.length + 6));
    // Nor in any other table.
    for (const table of ["accounts", "ledger_entries", "idempotency_records", "uploads", "jobs"]) {
      const { results } = await env.DB.prepare(`SELECT * FROM ${table}`).all();
      expect(JSON.stringify(results)).not.toContain(u.key);
    }
  });

  it("keys are prefixed and high-entropy (43 base64url characters = 256 bits), all different", async () => {
    const a = await createUser();
    const b = await createUser();
    expect(a.key).toMatch(/^obs_live_[A-Za-z0-9_-]{43}$/);
    expect(a.key).not.toBe(b.key);
  });
});

describe("tenant isolation", () => {
  it("GET /me shows the key's own account", async () => {
    const a = await createUser({ name: "Alice" });
    const b = await createUser({ name: "Bob" });
    const ma = (await (await api("/me", { key: a.key })).json()) as { id: string; email: string; name: string };
    const mb = (await (await api("/me", { key: b.key })).json()) as { id: string; email: string; name: string };
    expect([ma.id, ma.email, ma.name]).toEqual([a.account.id, a.account.email, "Alice"]);
    expect([mb.id, mb.email, mb.name]).toEqual([b.account.id, b.account.email, "Bob"]);
  });

  it("another account's job id answers 404 job_not_found, exactly like a missing one", async () => {
    const owner = await createUser({ credits: 10 });
    const other = await createUser();
    const { jobId } = await createTestJob(owner);
    expect((await api(`/jobs/${jobId}`, { key: owner.key })).status).toBe(200);
    await expectError(await api(`/jobs/${jobId}`, { key: other.key }), "job_not_found", `No job ${jobId} belongs to this account.`);
  });

  it("another account's upload media URL answers 404 media_not_found and stores nothing for the caller", async () => {
    const owner = await createUser();
    const other = await createUser({ credits: 10 });
    const { url } = await uploadedMedia(owner, "image");
    await expectError(await postJson("/images/face-blur", other.key, { image_url: url }), "media_not_found");
    await expectError(await postJson("/detect/nsfw", other.key, { media_url: url }), "media_not_found");
    expect((await env.DB.prepare("SELECT COUNT(*) AS n FROM ledger_entries WHERE account_id = ?1 AND kind != 'grant'").bind(other.account.id).first<{ n: number }>())!.n).toBe(0);
  });

  it("GET /me/credits counts only the caller's ledger and keys", async () => {
    const a = await createUser({ credits: 7 });
    const b = await createUser({ credits: 3 });
    const ca = (await (await api("/me/credits", { key: a.key })).json()) as { available_credits: number; active_api_keys: number };
    const cb = (await (await api("/me/credits", { key: b.key })).json()) as { available_credits: number; active_api_keys: number };
    expect([ca.available_credits, ca.active_api_keys]).toEqual([7, 1]);
    expect([cb.available_credits, cb.active_api_keys]).toEqual([3, 1]);
  });

  it("result files are served only under unguessable names", async () => {
    const res = await SELF.fetch(`${BASE}/results/short.png`);
    await expectError(res, "not_found", "No such result (it may have expired).");
  });
});
