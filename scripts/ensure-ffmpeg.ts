// Compute decodes untrusted video with Debian's ffmpeg (security-maintained; the README says why
// not a static build from the registry). Installs the Debian package when it is missing (CI, fresh
// machines), the way ensure-browser.ts gets Chromium. With FFMPEG_PATH / FFPROBE_PATH set, those
// binaries are used and only checked.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { ffmpegPath, ffprobePath } from "../compute/video/binaries.ts";

const missing = [ffmpegPath(), ffprobePath()].filter((path) => !existsSync(path));

if (import.meta.main && missing.length > 0) {
  if (process.env.FFMPEG_PATH || process.env.FFPROBE_PATH || process.platform !== "linux" || !existsSync("/usr/bin/apt-get")) {
    console.error(`ffmpeg/ffprobe not found at ${missing.join(", ")}; install ffmpeg and set FFMPEG_PATH and FFPROBE_PATH.`);
    process.exit(1);
  }
  const sudo = process.getuid?.() === 0 ? [] : ["sudo"];
  console.log("Installing Debian's ffmpeg for compute's video decoding...");
  // Another apt run on the machine may hold the dpkg lock for a while: wait for it rather than fail.
  const apt = (args: string[]) =>
    execFileSync(sudo[0] ?? "apt-get", [...sudo.slice(1), ...(sudo.length ? ["apt-get"] : []), "-o", "DPkg::Lock::Timeout=600", ...args], {
      stdio: "inherit",
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    });
  try {
    apt(["install", "-y", "--no-install-recommends", "ffmpeg"]);
  } catch {
    apt(["update"]);
    apt(["install", "-y", "--no-install-recommends", "ffmpeg"]);
  }
}
