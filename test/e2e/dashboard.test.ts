// The developer dashboard in a real browser (Debian's headless Chromium) against the running
// local stack: sign up with the keyboard, create a key (shown once, copied), use it on the API,
// watch usage and balance move in the dashboard, try face blur, revoke, and check that a second
// account sees nothing of the first. Screenshots of the main pages go to test-output/screenshots.
import { mkdir, readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BrowserContext, Page } from "playwright-core";
import { launchBrowser } from "./browser.ts";
import { adminCreateKey, workerUrl } from "./helpers.ts";

const SHOTS = "test-output/screenshots";
const PASSWORD = "a long enough password";
const PHOTO = "test/fixtures/photos/group1.jpg";

let context: BrowserContext;
let page: Page;
let origin: string;
const foreign: string[] = [];
const pageErrors: string[] = [];

const alice = { email: `alice-${Date.now()}@example.com`, key: "", operatorKey: "" };

async function shot(name: string): Promise<void> {
  await page.screenshot({ path: `${SHOTS}/dashboard-${name}.png`, fullPage: true });
}

function api(path: string, key: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set("authorization", `Bearer ${key}`);
  return fetch(`${origin}/api/v2${path}`, { ...init, headers });
}

/** The operator's admin route (what `npm run keys:create` signs), for the same e-mail. */
async function operatorGrant(email: string, credits: number): Promise<string> {
  const res = await adminCreateKey({ email, credits, key_name: "operator key" });
  expect(res.status).toBe(201);
  return ((await res.json()) as { key: string }).key;
}

const text = (testId: string) => page.getByTestId(testId).first().innerText();

async function featureAvailable(key: string, id: string): Promise<boolean> {
  const body = (await (await api("/features", key)).json()) as { features: { id: string; available: boolean }[] };
  return body.features.find((f) => f.id === id)?.available ?? false;
}

beforeAll(async () => {
  origin = new URL(workerUrl()).origin;
  await mkdir(SHOTS, { recursive: true });
  context = await launchBrowser();
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin });
  page = await context.newPage();
  page.on("request", (req) => {
    const url = req.url();
    if (!url.startsWith(origin) && !url.startsWith("blob:") && !url.startsWith("data:")) foreign.push(url);
  });
  page.on("pageerror", (err) => pageErrors.push(err.message));
  page.on("console", (msg) => {
    // A refused try-it request logs its HTTP status; anything else (CSP violations, script errors) is a bug.
    if (msg.type() === "error" && !/Failed to load resource: the server responded with a status of (4|5)\d\d/.test(msg.text())) pageErrors.push(msg.text());
  });
});

afterAll(async () => {
  await context?.close();
});

describe("developer dashboard", () => {
  it("sends a visitor to sign in, and signs up with the keyboard alone", async () => {
    await page.goto(`${origin}/dashboard`);
    expect(new URL(page.url()).pathname).toBe("/dashboard/sign-in");
    await shot("sign-in");
    await page.getByRole("link", { name: "Create one" }).click();
    await page.waitForURL(/\/dashboard\/sign-up$/);
    // A too-short password is refused by the server with a clear message (bypassing the browser's own check).
    await page.locator("form").evaluate((f) => f.setAttribute("novalidate", ""));
    await page.getByLabel("E-mail").fill(alice.email);
    await page.getByLabel("Password").fill("short");
    await page.getByLabel("Password").press("Enter");
    await expect.poll(() => page.getByRole("alert").innerText()).toContain("The password is too short");
    await shot("sign-up-error");

    await page.goto(`${origin}/dashboard/sign-up`);
    // The e-mail field has focus on arrival; Tab reaches the password; Enter submits. Typing
    // waits for that focus: keys sent before autofocus lands would be lost under load.
    const emailField = page.getByLabel("E-mail");
    await expect.poll(() => emailField.evaluate((el) => el === (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement), { timeout: 10_000 }).toBe(true);
    await page.keyboard.type(alice.email);
    await page.keyboard.press("Tab");
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press("Enter");
    await page.waitForURL(`${origin}/dashboard`);
    expect(await text("account-email")).toBe(alice.email);
    expect(await text("balance")).toBe("50");
    expect(await text("usage-used")).toBe("0");
    expect(await text("usage-limit")).toBe("100");
    expect(await text("tier")).toBe("free");
    const cookie = (await context.cookies(origin)).find((c) => c.name === "__Host-obscura_session");
    expect(cookie).toMatchObject({ httpOnly: true, secure: true, sameSite: "Lax", path: "/" });
    expect(await page.evaluate(() => (globalThis as unknown as { document: { cookie: string } }).document.cookie)).toBe("");
    await shot("overview-new");
  });

  it("creates a key shown once, with a working copy button", async () => {
    await page.getByRole("link", { name: "API keys" }).click();
    await page.getByLabel("Name").fill("e2e laptop");
    await page.getByRole("button", { name: "Create key" }).click();
    alice.key = (await text("new-key")).trim();
    expect(alice.key).toMatch(/^obs_live_[A-Za-z0-9_-]{43}$/);
    await page.getByRole("button", { name: "Copy" }).click();
    await expect.poll(() => page.locator(".copied").innerText()).toBe("Copied to the clipboard.");
    expect(await page.evaluate(() => (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText())).toBe(alice.key);
    await shot("key-created");

    await page.goto(`${origin}/dashboard/keys`);
    expect(await page.content()).not.toContain(alice.key);
    const row = page.locator("[data-testid=keys-table] tbody tr", { hasText: "e2e laptop" });
    expect(await row.innerText()).toContain(alice.key.slice(0, 15));
    expect(await row.innerText()).toContain("never");
    expect(await text("active-key-count")).toBe("1");
  });

  it("uses the key on the API; the dashboard shows the usage, last use and balance", async () => {
    const me = await api("/me", alice.key);
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ email: alice.email, available_credits: 50 });
    const credits = await api("/me/credits", alice.key);
    expect(await credits.json()).toMatchObject({ available_credits: 50, total_purchased: 50, total_spent: 0, active_api_keys: 1 });
    const used = Number(credits.headers.get("x-ratelimit-limit")) - Number(credits.headers.get("x-ratelimit-remaining"));
    expect(used).toBe(2);

    // An operator grants credits to the same e-mail through the admin command's route: the
    // balance moves, and the operator's key counts among the active keys.
    alice.operatorKey = await operatorGrant(alice.email, 25);
    const after = (await (await api("/me/credits", alice.key)).json()) as { available_credits: number; active_api_keys: number };
    expect(after).toMatchObject({ available_credits: 75, active_api_keys: 2 });

    await page.goto(`${origin}/dashboard`);
    expect(await text("usage-used")).toBe("3");
    expect(await text("balance")).toBe("75");
    expect(await text("active-keys")).toBe(String(after.active_api_keys));
    await shot("overview-used");

    await page.getByRole("link", { name: "Credits" }).click();
    expect(await text("balance")).toBe("75");
    expect(await text("total-purchased")).toBe("75");
    const ledger = await page.getByTestId("ledger-table").innerText();
    expect(ledger).toContain("sign-up grant");
    expect(ledger).toContain("admin grant");
    await shot("credits");

    await page.goto(`${origin}/dashboard/keys`);
    const row = page.locator("[data-testid=keys-table] tbody tr", { hasText: "e2e laptop" });
    expect(await row.innerText()).not.toContain("never");
  });

  it("runs face blur from the try-it panel (or shows compute's clear error) and charges like the API", async () => {
    const available = await featureAvailable(alice.key, "image.face-blur");
    const before = Number((await (await api("/me/credits", alice.key)).json() as { available_credits: number }).available_credits);
    await page.getByRole("link", { name: "Try it" }).click();
    expect(await text("try-balance")).toBe(String(before));
    await page.getByLabel("Image (PNG, JPEG, WEBP or HEIC)").setInputFiles(PHOTO);
    await page.getByRole("button", { name: "Blur faces" }).click();
    await expect.poll(() => page.locator("#try-before").isVisible()).toBe(true);
    if (available) {
      await page.locator("#try-after").waitFor({ state: "visible", timeout: 180_000 });
      await expect.poll(() => page.locator("#try-after").evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBeGreaterThan(0);
      expect(await page.locator("#try-status").innerText()).toMatch(/^Done: 1 credit\(s\) used/);
      expect(await text("try-balance")).toBe(String(before - 1));
      // The same call through the API with the key costs the same.
      const form = new FormData();
      form.append("image", new Blob([await readFile(PHOTO)], { type: "image/jpeg" }), "group1.jpg");
      const res = await api("/images/face-blur", alice.key, { method: "POST", body: form });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ success: true, credits_used: 1, remaining_credits: before - 2 });
    } else {
      await expect.poll(() => page.locator("#try-status").innerText(), { timeout: 30_000 }).toMatch(/^(not_implemented|compute_unavailable): .*nothing was charged/);
      expect(await page.locator("#try-status").getAttribute("class")).toContain("error");
    }
    await shot("try-it");
    const spent = available ? 2 : 0;
    await page.goto(`${origin}/dashboard/credits`);
    expect(await text("balance")).toBe(String(before - spent));
    expect(await text("total-spent")).toBe(String(spent));
    if (available) expect(await page.getByTestId("ledger-table").innerText()).toContain("Charge (capture)");
  });

  it("lists the account's jobs", async () => {
    let jobId: string | null = null;
    if (await featureAvailable(alice.key, "image.face-blur")) {
      const form = new FormData();
      form.append("image", new Blob([await readFile(PHOTO)], { type: "image/jpeg" }), "group1.jpg");
      const res = await api("/images/face-blur", alice.key, { method: "POST", body: form, headers: { prefer: "respond-async" } });
      expect(res.status).toBe(202);
      jobId = ((await res.json()) as { job_id: string }).job_id;
    }
    await page.getByRole("link", { name: "Jobs" }).click();
    if (jobId) {
      const row = page.locator(`tr[data-job-id="${jobId}"]`);
      expect(await row.innerText()).toContain("image.face-blur");
      // Reload (as the page says) until the job finishes; completed jobs link to their result.
      const deadline = Date.now() + 180_000;
      while (!/completed|failed/.test(await row.locator(".badge").innerText()) && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 1000));
        await page.reload();
      }
      expect(await row.locator(".badge").innerText()).toBe("completed");
      expect(await row.innerText()).toContain("100%");
      const href = await row.getByRole("link", { name: "Download result" }).getAttribute("href");
      expect((await fetch(href!)).headers.get("content-type")).toMatch(/^image\//);
    } else {
      expect(await page.getByTestId("no-jobs").innerText()).toBe("No jobs yet.");
    }
    await shot("jobs");
  });

  it("revokes the key: the API answers 401 and the counts agree", async () => {
    await page.goto(`${origin}/dashboard/keys`);
    page.once("dialog", (d) => void d.accept());
    await page.getByRole("button", { name: "Revoke key e2e laptop" }).click();
    await page.waitForURL(/\/dashboard\/keys\?revoked$/);
    expect(await page.getByRole("status").first().innerText()).toContain("The key was revoked");
    const res = await api("/me", alice.key);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error: { code: "unauthorized", status: 401 } });
    const credits = (await (await api("/me/credits", alice.operatorKey)).json()) as { active_api_keys: number };
    expect(credits.active_api_keys).toBe(1);
    expect(await text("active-key-count")).toBe("1");
    expect(await page.locator("[data-testid=keys-table] tbody tr", { hasText: "e2e laptop" }).innerText()).toContain("revoked");
    await shot("keys-revoked");
  });

  it("signs out; a second account sees none of the first account's keys or jobs", async () => {
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL(/\/dashboard\/sign-in\?signed-out$/);
    expect(await page.getByRole("status").innerText()).toBe("You are signed out.");
    await page.goto(`${origin}/dashboard/keys`);
    expect(new URL(page.url()).pathname).toBe("/dashboard/sign-in");

    // Wrong password, then the lockout-free right one for a brand-new account.
    await page.getByLabel("E-mail").fill(alice.email);
    await page.getByLabel("Password").fill("not my password");
    await page.getByRole("button", { name: "Sign in" }).click();
    expect(await page.getByRole("alert").innerText()).toBe("The e-mail or password is incorrect.");
    await shot("sign-in-error");

    await page.goto(`${origin}/dashboard/sign-up`);
    await page.getByLabel("E-mail").fill(`bob-${Date.now()}@example.com`);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Create account" }).click();
    await page.waitForURL(`${origin}/dashboard`);
    expect(await text("balance")).toBe("50");
    expect(await text("usage-used")).toBe("0");
    await page.goto(`${origin}/dashboard/keys`);
    const keys = await page.locator("main").innerText();
    expect(keys).toContain("No keys yet.");
    expect(keys).not.toContain("e2e laptop");
    expect(keys).not.toContain("operator key");
    await page.goto(`${origin}/dashboard/jobs`);
    expect(await page.getByTestId("no-jobs").innerText()).toBe("No jobs yet.");
    await page.goto(`${origin}/dashboard/credits`);
    const ledger = await page.getByTestId("ledger-table").innerText();
    expect(ledger).not.toContain("admin grant");
  });

  it("made every request to the service itself, with no script errors", () => {
    expect(foreign).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
