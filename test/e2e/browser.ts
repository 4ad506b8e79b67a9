// Headless Debian Chromium for browser tests, started with the flags this closed network needs.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext } from "playwright-core";
import { CHROMIUM_PATH } from "../../scripts/ensure-browser.ts";

export async function launchBrowser(): Promise<BrowserContext> {
  const userDataDir = await mkdtemp(join(tmpdir(), "obscura-chromium-"));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  // Its profile (~2.5 MB) goes with it, not left in the temp folder by every run.
  context.on("close", () => void rm(userDataDir, { recursive: true, force: true, maxRetries: 3 }).catch(() => undefined));
  return context;
}
