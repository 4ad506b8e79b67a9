// The dashboard's main path: sign up, keys (shown once), credits, usage, try-it, sign out.
import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { accounts, dashboardSessions } from "../../schema/tables.ts";
import { sha256Hex } from "../../schema/signing.ts";
import { PBKDF2_ITERATIONS, SIGN_UP_CREDITS } from "../../worker/dashboard/auth.ts";
import { Browser, ORIGIN, TINY_PNG, apiGet, db, newDeveloper, uniqueEmail } from "./dashboard.helpers.ts";

describe("sign up", () => {
  it("creates a free account with the sign-up credits, signs in and redirects to the overview", async () => {
    const browser = new Browser();
    const email = uniqueEmail().toUpperCase();
    const { res } = await browser.signUp(`  ${email} `);
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/dashboard");
    const account = await db().query.accounts.findFirst({ where: eq(accounts.email, email.toLowerCase()) });
    expect(account?.tier).toBe("free");
    expect(account?.passwordHash).toMatch(new RegExp(`^pbkdf2-sha256\\$${PBKDF2_ITERATIONS}\\$[A-Za-z0-9+/=]{24}\\$[A-Za-z0-9+/=]{44}$`));

    const overview = await browser.get("/dashboard");
    expect(overview.status).toBe(200);
    const html = await overview.text();
    expect(html).toContain(`data-testid="balance">${SIGN_UP_CREDITS}<`);
    expect(html).toContain(`data-testid="usage-used">0<`);
    expect(html).toContain(`data-testid="usage-limit">100<`);
    expect(html).toContain(email.toLowerCase());
  });

  it("sets the session cookie HttpOnly, Secure, SameSite=Lax with the __Host- prefix, and stores only its hash", async () => {
    const browser = new Browser();
    await browser.signUp();
    const cookie = browser.lastSetCookie!;
    expect(cookie).toMatch(/^__Host-obscura_session=[A-Za-z0-9_-]{43};/);
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; Secure/);
    expect(cookie).toMatch(/; SameSite=Lax/);
    expect(cookie).toMatch(/; Path=\//);
    expect(cookie).toMatch(/; Max-Age=604800/);
    expect(cookie).not.toMatch(/Domain=/i);
    const token = browser.cookie!.split("=")[1]!;
    const byHash = await db().query.dashboardSessions.findFirst({ where: eq(dashboardSessions.tokenHash, await sha256Hex(token)) });
    expect(byHash).toBeTruthy();
    expect(await db().query.dashboardSessions.findFirst({ where: eq(dashboardSessions.tokenHash, token) })).toBeUndefined();
  });

  it("serves its own CSS and JS (no CDN) and sends a strict CSP", async () => {
    const { browser } = await newDeveloper();
    const page = await browser.get("/dashboard");
    expect(page.headers.get("content-security-policy")).toContain("default-src 'none'; script-src 'self'");
    expect(page.headers.get("cache-control")).toBe("no-store");
    const html = await page.text();
    expect(html).not.toMatch(/(src|href)="https?:/);
    const css = await browser.get("/dashboard/assets/dashboard.css");
    expect(css.headers.get("content-type")).toMatch(/^text\/css/);
    const js = await browser.get("/dashboard/assets/dashboard.js");
    expect(js.headers.get("content-type")).toMatch(/^text\/javascript/);
  });
});

describe("keys", () => {
  it("shows a new key once; the list has name and prefix but never the plaintext; the count matches active_api_keys", async () => {
    const { browser } = await newDeveloper();
    const key = await browser.createKey("ci server");
    const list = await (await browser.get("/dashboard/keys")).text();
    expect(list).not.toContain(key);
    expect(list).toContain("ci server");
    expect(list).toContain(`${key.slice(0, 15)}…`);
    expect(list).toContain('data-testid="active-key-count">1<');

    const second = await browser.createKey("laptop");
    const credits = (await (await apiGet("/me/credits", second)).json()) as { active_api_keys: number; available_credits: number };
    expect(credits.active_api_keys).toBe(2);
    expect(credits.available_credits).toBe(50);
    const overview = await (await browser.get("/dashboard")).text();
    expect(overview).toContain('data-testid="active-keys">2<');
  });

  it("a created key works at once; revoking it makes the API answer 401", async () => {
    const { browser, email } = await newDeveloper();
    const key = await browser.createKey("temp");
    const me = await apiGet("/me", key);
    expect(me.status).toBe(200);
    expect(((await me.json()) as { email: string }).email).toBe(email);

    const html = await (await browser.get("/dashboard/keys")).text();
    const keyId = /data-key-id="(key_[^"]+)"/.exec(html)![1]!;
    const csrf = /name="_csrf" value="([^"]+)"/.exec(html)![1]!;
    const revoke = await browser.post(`/dashboard/keys/${keyId}/revoke`, { _csrf: csrf });
    expect(revoke.status).toBe(303);
    expect(revoke.headers.get("location")).toBe("/dashboard/keys?revoked");
    expect((await apiGet("/me", key)).status).toBe(401);
    const after = await (await browser.get("/dashboard/keys?revoked")).text();
    expect(after).toContain("The key was revoked");
    expect(after).toContain('data-testid="active-key-count">0<');
  });

  it("refuses a key without a name with a clear message", async () => {
    const { browser } = await newDeveloper();
    const res = await browser.post("/dashboard/keys", { name: "  ", _csrf: await browser.csrf() });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("Give the key a name");
  });
});

describe("credits and usage", () => {
  it("shows the ledger (the sign-up grant) and counts today's API requests", async () => {
    const { browser } = await newDeveloper();
    const key = await browser.createKey("usage");
    await apiGet("/me", key);
    await apiGet("/me/credits", key);
    const html = await (await browser.get("/dashboard/credits")).text();
    expect(html).toContain('data-kind="grant"');
    expect(html).toContain("sign-up grant");
    expect(html).toContain('data-testid="usage-used">2<');
    expect(html).toMatch(/data-testid="usage-reset">\d{4}-\d\d-\d\d 00:00 UTC</);
    // Viewing the dashboard itself does not count as API usage.
    expect(await (await browser.get("/dashboard")).text()).toContain('data-testid="usage-used">2<');
  });
});

describe("try it", () => {
  it("runs image face blur for the session's account through the API path; without compute it is a clear 503 and nothing is charged", async () => {
    const { browser } = await newDeveloper();
    const csrf = await browser.csrf("/dashboard/try");
    const form = new FormData();
    form.append("image", new File([TINY_PNG], "tiny.png", { type: "image/png" }));
    form.append("blur_strength", "0.5");
    const res = await browser.fetch("/dashboard/api/face-blur", { method: "POST", body: form, headers: { origin: ORIGIN, "x-csrf-token": csrf } });
    expect(res.status).toBe(503);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("compute_unavailable");
    expect(body.error.message).toMatch(/nothing was charged/);
    // Counted against the daily limit like an API request (rate headers present).
    expect(res.headers.get("x-ratelimit-limit")).toBe("100");
    expect(await (await browser.get("/dashboard")).text()).toContain('data-testid="balance">50<');
  });

  it("validates the request like the API does", async () => {
    const { browser } = await newDeveloper();
    const csrf = await browser.csrf("/dashboard/try");
    const form = new FormData();
    form.append("image", new File([TINY_PNG], "tiny.png", { type: "image/png" }));
    form.append("blur_strength", "3");
    const res = await browser.fetch("/dashboard/api/face-blur", { method: "POST", body: form, headers: { origin: ORIGIN, "x-csrf-token": csrf } });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: string; message: string } }).error.message).toMatch(/blur_strength/);
  });
});

describe("sign out", () => {
  it("ends the session on the server and clears the cookie", async () => {
    const { browser } = await newDeveloper();
    const cookie = browser.cookie!;
    const res = await browser.post("/dashboard/sign-out", { _csrf: await browser.csrf() });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/dashboard/sign-in?signed-out");
    expect(browser.lastSetCookie).toMatch(/^__Host-obscura_session=;.*Max-Age=0/);
    // The old cookie, replayed, no longer works.
    const replay = await browser.fetch("/dashboard", { headers: { cookie } });
    expect(replay.status).toBe(303);
    expect(replay.headers.get("location")).toBe("/dashboard/sign-in");
  });

  it("signs back in with the password", async () => {
    const { browser, email } = await newDeveloper();
    await browser.post("/dashboard/sign-out", { _csrf: await browser.csrf() });
    const res = await browser.signIn(email);
    expect(res.status).toBe(303);
    expect((await browser.get("/dashboard")).status).toBe(200);
  });
});
