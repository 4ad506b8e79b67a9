// Headless Debian Chromium for browser tests, started with the flags this closed network needs.
import { chromium, type BrowserContext } from "playwright-core";
import { CHROMIUM_PATH } from "../../scripts/ensure-browser.ts";

export async function launchBrowser(): Promise<BrowserContext> {
  // An empty profile path gives a temporary profile that Playwright removes once Chromium has
  // exited. A folder of our own, removed when the context closed, came back: Chromium was still
  // writing into it (first_party_sets.db), so every run left one in the temp folder.
  return chromium.launchPersistentContext("", {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
}
