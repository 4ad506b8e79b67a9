// Installing a Debian package the project needs at run or test time (Chromium for the browser
// tests, ffmpeg for compute): on CI and fresh machines, through apt, as root or with sudo.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";

/** Whether this machine can install Debian packages at all. */
export function canAptInstall(): boolean {
  return process.platform === "linux" && existsSync("/usr/bin/apt-get");
}

export function aptInstall(packageName: string, why: string): void {
  const sudo = process.getuid?.() === 0 ? [] : ["sudo"];
  console.log(`Installing Debian's ${packageName} ${why}...`);
  // Another apt run on the machine may hold the dpkg lock for a while: wait for it rather than fail.
  const apt = (args: string[]) =>
    execFileSync(sudo[0] ?? "apt-get", [...sudo.slice(1), ...(sudo.length ? ["apt-get"] : []), "-o", "DPkg::Lock::Timeout=600", ...args], {
      stdio: "inherit",
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    });
  try {
    apt(["install", "-y", "--no-install-recommends", packageName]);
  } catch {
    // A machine whose package lists are missing or stale.
    apt(["update"]);
    apt(["install", "-y", "--no-install-recommends", packageName]);
  }
}
