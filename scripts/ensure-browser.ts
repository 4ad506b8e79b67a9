// Browser tests (docs page, dashboard) drive Debian's Chromium with playwright-core: no browser
// download from elsewhere. Installs the Debian package when it is missing (CI, fresh machines).
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

if (import.meta.main && !existsSync(CHROMIUM_PATH)) {
  if (process.platform !== "linux" || !existsSync("/usr/bin/apt-get")) {
    console.error(`Chromium not found at ${CHROMIUM_PATH}; install it and set CHROMIUM_PATH.`);
    process.exit(1);
  }
  const sudo = process.getuid?.() === 0 ? [] : ["sudo"];
  console.log("Installing Debian's chromium for the browser tests...");
  const apt = (args: string[]) => execFileSync(sudo[0] ?? "apt-get", [...sudo.slice(1), ...(sudo.length ? ["apt-get"] : []), ...args], { stdio: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
  try {
    apt(["install", "-y", "--no-install-recommends", "chromium"]);
  } catch {
    apt(["update"]);
    apt(["install", "-y", "--no-install-recommends", "chromium"]);
  }
}
