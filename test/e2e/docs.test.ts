// The human API reference renders in a real browser with no internet: every request it makes
// goes to the service itself.
import { mkdir } from "node:fs/promises";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { BrowserContext } from "playwright-core";
import { launchBrowser } from "./browser.ts";
import { workerUrl } from "./helpers.ts";

let browser: BrowserContext;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

it("renders the API reference offline, listing every endpoint and error code", async () => {
  const page = await browser.newPage();
  const origin = new URL(workerUrl()).origin;
  const foreign: string[] = [];
  page.on("request", (req) => {
    if (!req.url().startsWith(origin) && !req.url().startsWith("data:")) foreign.push(req.url());
  });
  const res = await page.goto(`${workerUrl()}/api/v2/docs`, { waitUntil: "networkidle" });
  expect(res?.status()).toBe(200);
  expect(await page.title()).toBe("Obscura API reference");
  const text = await page.locator("body").innerText();
  for (const path of [
    "/api/v2/videos/background-blur", "/api/v2/videos/face-blur", "/api/v2/videos/license-plate-blur", "/api/v2/videos/object-removal",
    "/api/v2/videos/blur-anything", "/api/v2/videos/face-anonymization", "/api/v2/images/blur-background", "/api/v2/images/remove-background",
    "/api/v2/images/portrait-enhance", "/api/v2/images/face-blur", "/api/v2/images/license-plate-blur", "/api/v2/images/blur-anything",
    "/api/v2/detect/nsfw", "/api/v2/uploads/image", "/api/v2/uploads/video", "/api/v2/jobs/{job_id}", "/api/v2/me", "/api/v2/me/credits", "/api/v2/features",
  ]) {
    expect(text).toContain(path);
  }
  for (const code of ["unauthorized", "insufficient_credits", "rate_limited", "unsupported_prompt", "media_url_not_allowed"]) expect(text).toContain(code);
  // Laid out, not a wall of unstyled text: the stylesheet applied.
  expect(await page.locator("table").first().evaluate((t) => (globalThis as unknown as { getComputedStyle(e: unknown): { borderCollapse: string } }).getComputedStyle(t).borderCollapse)).toBe("collapse");
  expect(foreign).toEqual([]);
  await mkdir("test-output/screenshots", { recursive: true });
  await page.screenshot({ path: "test-output/screenshots/api-docs.png" });
});
