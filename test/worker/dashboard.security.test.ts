// Dashboard security: failure messages, lockout, CSRF, operator accounts, tenant isolation.
import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { apiKeys } from "../../schema/tables.ts";
import type { JobState } from "../../worker/durable/job.ts";
import { LOCK_MS, MAX_FAILURES, MAX_SIGN_UPS_PER_HOUR, PBKDF2_ITERATIONS, hashPassword, signIn, verifyPassword } from "../../worker/dashboard/auth.ts";
import { ensureAccount } from "../../worker/services/accounts.ts";
import { nowIso } from "../../worker/services/db.ts";
import { jobStub } from "../../worker/services/jobs.ts";
import { createApiKey } from "../../worker/services/keys.ts";
import { jobs } from "../../schema/tables.ts";
import { Browser, ORIGIN, PASSWORD, TINY_PNG, apiGet, db, env, newDeveloper, uniqueEmail } from "./dashboard.helpers.ts";

describe("sign-in failures", () => {
  it("answers a wrong password and an unknown e-mail with the same message", async () => {
    const { email } = await newDeveloper();
    const wrong = await new Browser().signIn(email, "not the password");
    const unknown = await new Browser().signIn(uniqueEmail("nobody"), PASSWORD);
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    const a = await wrong.text();
    const b = await unknown.text();
    expect(a).toContain("The e-mail or password is incorrect.");
    expect(b).toContain("The e-mail or password is incorrect.");
    expect(wrong.headers.get("set-cookie")).toBeNull();
  });

  it("asks for both fields", async () => {
    const res = await new Browser().post("/dashboard/sign-in", { email: "", password: "" });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("Enter your e-mail and password.");
  });

  it("locks an e-mail after 5 failures in 15 minutes, even for the right password, and unlocks after 15 minutes", async () => {
    const { email } = await newDeveloper();
    const browser = new Browser();
    for (let i = 1; i < MAX_FAILURES; i++) expect((await browser.signIn(email, `wrong-${i}`)).status).toBe(401);
    const fifth = await browser.signIn(email, "wrong-5");
    expect(fifth.status).toBe(429);
    expect(await fifth.text()).toMatch(/Too many failed sign-ins for this e-mail. It is locked until \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
    const right = await browser.signIn(email, PASSWORD);
    expect(right.status).toBe(429);
    expect(Number(right.headers.get("retry-after"))).toBeGreaterThan(LOCK_MS / 1000 - 60);
    expect(right.headers.get("set-cookie")).toBeNull();
    // Another e-mail is not affected.
    const other = await newDeveloper();
    expect((await new Browser().signIn(other.email)).status).toBe(303);
    // After the lock, the right password works (and resets the count).
    const later = await signIn(db(), email, PASSWORD, Date.now() + LOCK_MS + 1000);
    expect(later.ok).toBe(true);
  });

  it("locks unknown e-mails the same way (no account enumeration through the lockout)", async () => {
    const email = uniqueEmail("ghost");
    const browser = new Browser();
    for (let i = 0; i < MAX_FAILURES - 1; i++) await browser.signIn(email, "x");
    expect((await browser.signIn(email, "x")).status).toBe(429);
  });
});

describe("sign-up refusals", () => {
  it("refuses short passwords and invalid e-mails with clear messages", async () => {
    const short = await new Browser().signUp(uniqueEmail(), "short");
    expect(short.res.status).toBe(400);
    expect(await short.res.text()).toContain("The password is too short: use at least 10 characters.");
    const bad = await new Browser().signUp("not-an-email", PASSWORD);
    expect(bad.res.status).toBe(400);
    expect(await bad.res.text()).toContain("Enter a valid e-mail address");
  });

  it("refuses an e-mail that already has an account", async () => {
    const { email } = await newDeveloper();
    const again = await new Browser().signUp(email, "another password here");
    expect(again.res.status).toBe(409);
    expect(await again.res.text()).toContain("An account with this e-mail already exists. Sign in instead.");
  });

  it("refuses to claim an account an operator made (no password yet): no takeover of its keys and credits", async () => {
    const email = uniqueEmail("operator-made");
    const account = await ensureAccount(db(), { email });
    const { key } = await createApiKey(db(), account.id, "ops");
    const attempt = await new Browser().signUp(email, "attacker password 123");
    expect(attempt.res.status).toBe(409);
    expect(await attempt.res.text()).toContain("an operator created");
    expect(attempt.res.headers.get("set-cookie")).toBeNull();
    const after = await db().query.accounts.findFirst({ where: (a, { eq }) => eq(a.id, account.id) });
    expect(after?.passwordHash).toBeNull();
    // Nor can anyone sign in to it: it has no password.
    expect((await new Browser().signIn(email, "")).status).toBe(400);
    expect((await new Browser().signIn(email, "attacker password 123")).status).toBe(401);
    expect((await apiGet("/me", key)).status).toBe(200);
  });
});

describe("sign-up throttle", () => {
  it("limits sign-ups per client address per hour (each new account gets free credits)", async () => {
    const ip = "203.0.113.77";
    for (let i = 0; i < MAX_SIGN_UPS_PER_HOUR; i++) {
      const res = await new Browser().post("/dashboard/sign-up", { email: uniqueEmail("farm"), password: PASSWORD }, { "cf-connecting-ip": ip });
      expect(res.status).toBe(303);
    }
    const refused = await new Browser().post("/dashboard/sign-up", { email: uniqueEmail("farm"), password: PASSWORD }, { "cf-connecting-ip": ip });
    expect(refused.status).toBe(429);
    expect(await refused.text()).toContain("Too many accounts were created from your network in the last hour.");
    const elsewhere = await new Browser().post("/dashboard/sign-up", { email: uniqueEmail("farm"), password: PASSWORD }, { "cf-connecting-ip": "203.0.113.78" });
    expect(elsewhere.status).toBe(303);
  }, 60_000);
});

describe("CSRF", () => {
  it("refuses a POST from another origin, even with a valid session and token", async () => {
    const { browser } = await newDeveloper();
    const csrf = await browser.csrf("/dashboard/keys");
    const res = await browser.post("/dashboard/keys", { name: "evil", _csrf: csrf }, { origin: "https://evil.example" });
    expect(res.status).toBe(403);
    expect(await res.text()).toContain("cross-site request refused");
    const keys = await db().select().from(apiKeys).where(eq(apiKeys.name, "evil"));
    expect(keys).toHaveLength(0);
  });

  it("refuses a POST with neither Origin nor Sec-Fetch-Site: same-origin", async () => {
    const { browser } = await newDeveloper();
    const csrf = await browser.csrf();
    const res = await browser.fetch("/dashboard/keys", { method: "POST", body: new URLSearchParams({ name: "x", _csrf: csrf }) });
    expect(res.status).toBe(403);
    const viaFetchMetadata = await browser.fetch("/dashboard/keys", { method: "POST", body: new URLSearchParams({ name: "x", _csrf: csrf }), headers: { "sec-fetch-site": "same-origin" } });
    expect(viaFetchMetadata.status).toBe(201);
  });

  it("refuses a same-origin POST without the session's token, or with another session's token", async () => {
    const { browser } = await newDeveloper();
    const other = await newDeveloper();
    const missing = await browser.post("/dashboard/keys", { name: "no token" });
    expect(missing.status).toBe(403);
    expect(await missing.text()).toContain("security token is missing or out of date");
    const foreign = await browser.post("/dashboard/keys", { name: "foreign token", _csrf: await other.browser.csrf() });
    expect(foreign.status).toBe(403);
    const signOut = await browser.post("/dashboard/sign-out", {});
    expect(signOut.status).toBe(403);
    expect((await browser.get("/dashboard")).status).toBe(200);
  });

  it("refuses a cross-site sign-in (login CSRF) and a try-it call without the header token", async () => {
    const { email } = await newDeveloper();
    const res = await new Browser().post("/dashboard/sign-in", { email, password: PASSWORD }, { origin: "https://evil.example" });
    expect(res.status).toBe(403);
    expect(res.headers.get("set-cookie")).toBeNull();

    const { browser } = await newDeveloper();
    const form = new FormData();
    form.append("image", new File([TINY_PNG], "tiny.png", { type: "image/png" }));
    const noToken = await browser.fetch("/dashboard/api/face-blur", { method: "POST", body: form, headers: { origin: ORIGIN } });
    expect(noToken.status).toBe(403);
    expect(((await noToken.json()) as { error: { code: string } }).error.code).toBe("forbidden");
  });
});

describe("sessions", () => {
  it("sends anonymous visitors to sign in and answers the try-it endpoint with 401", async () => {
    for (const path of ["/dashboard", "/dashboard/keys", "/dashboard/credits", "/dashboard/jobs", "/dashboard/try"]) {
      const res = await new Browser().get(path);
      expect(res.status, path).toBe(303);
      expect(res.headers.get("location")).toBe("/dashboard/sign-in");
    }
    const forged = await new Browser().fetch("/dashboard", { headers: { cookie: "__Host-obscura_session=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA" } });
    expect(forged.status).toBe(303);
    const res = await new Browser().fetch("/dashboard/api/face-blur", { method: "POST", body: new FormData(), headers: { origin: ORIGIN } });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("unauthorized");
  });

  it("does not accept the session cookie without its __Host- prefix", async () => {
    const { browser } = await newDeveloper();
    const bare = browser.cookie!.replace("__Host-", "");
    expect((await browser.fetch("/dashboard", { headers: { cookie: bare } })).status).toBe(303);
  });
});

describe("tenant isolation", () => {
  it("another account sees none of the first account's keys or jobs, and cannot revoke its keys", async () => {
    const alice = await newDeveloper();
    const aliceKey = await alice.browser.createKey("alice-secret-key-name");
    const aliceAccount = (await (await apiGet("/me", aliceKey)).json()) as { id: string };
    const jobId = `job_${"a".repeat(16)}${Date.now()}`;
    const now = nowIso();
    const state: JobState = {
      jobId, accountId: aliceAccount.id, feature: "video.face-blur", params: {}, media: { kind: "url", url: "https://example.com/v.mp4" }, origin: ORIGIN,
      status: "processing", progress: 42, createdAt: now, updatedAt: now, reservationId: "res_test", creditsReserved: 2, attempts: 1,
    };
    await db().insert(jobs).values({ id: jobId, accountId: aliceAccount.id, feature: state.feature, creditsReserved: 2, createdAt: now });
    await jobStub(env, jobId).create(state);

    const aliceJobs = await (await alice.browser.get("/dashboard/jobs")).text();
    expect(aliceJobs).toContain(jobId);
    expect(aliceJobs).toContain("42%");
    expect(aliceJobs).toContain("video.face-blur");

    const bob = await newDeveloper();
    const bobKeys = await (await bob.browser.get("/dashboard/keys")).text();
    expect(bobKeys).not.toContain("alice-secret-key-name");
    expect(bobKeys).not.toContain(aliceKey.slice(0, 15));
    expect(bobKeys).toContain("No keys yet.");
    const bobJobs = await (await bob.browser.get("/dashboard/jobs")).text();
    expect(bobJobs).not.toContain(jobId);
    expect(bobJobs).toContain("No jobs yet.");
    const bobCredits = await (await bob.browser.get("/dashboard/credits")).text();
    expect(bobCredits).not.toContain(aliceAccount.id);

    const aliceKeyId = /data-key-id="(key_[^"]+)"/.exec(await (await alice.browser.get("/dashboard/keys")).text())![1]!;
    const revoke = await bob.browser.post(`/dashboard/keys/${aliceKeyId}/revoke`, { _csrf: await bob.browser.csrf() });
    expect(revoke.status).toBe(404);
    expect((await apiGet("/me", aliceKey)).status).toBe(200);
  });
});

describe("password hashing", () => {
  it("hashes with PBKDF2-SHA256, 100,000 iterations (the Cloudflare runtime's cap) and a per-user salt", async () => {
    expect(PBKDF2_ITERATIONS).toBe(100_000);
    const a = await hashPassword(PASSWORD);
    const b = await hashPassword(PASSWORD);
    expect(a.split("$")[2]).not.toBe(b.split("$")[2]);
    expect(a).not.toBe(b);
    expect(await verifyPassword(PASSWORD, a)).toBe(true);
    expect(await verifyPassword(`${PASSWORD}!`, a)).toBe(false);
  });

  it("refuses stored hashes with an iteration count it would not write, without deriving", async () => {
    const [scheme, , salt, hash] = (await hashPassword(PASSWORD)).split("$");
    expect(await verifyPassword(PASSWORD, [scheme, 100_000_000, salt, hash].join("$"))).toBe(false);
    expect(await verifyPassword(PASSWORD, [scheme, 0, salt, hash].join("$"))).toBe(false);
    expect(await verifyPassword(PASSWORD, null)).toBe(false);
  });
});
