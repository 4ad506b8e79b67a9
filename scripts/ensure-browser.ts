// Browser tests (docs page, dashboard) drive Debian's Chromium with playwright-core: no browser
// download from elsewhere. Installs the Debian package when it is missing (CI, fresh machines).
import { existsSync } from "node:fs";
import { aptInstall, canAptInstall } from "./apt-install.ts";

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

if (import.meta.main && !existsSync(CHROMIUM_PATH)) {
  if (!canAptInstall()) {
    console.error(`Chromium not found at ${CHROMIUM_PATH}; install it and set CHROMIUM_PATH.`);
    process.exit(1);
  }
  aptInstall("chromium", "for the browser tests");
}
