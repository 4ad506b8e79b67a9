// Compute decodes untrusted video with Debian's ffmpeg (security-maintained; the README says why
// not a static build from the registry). Installs the Debian package when it is missing (CI, fresh
// machines), the way ensure-browser.ts gets Chromium. With FFMPEG_PATH / FFPROBE_PATH set, those
// binaries are used and only checked.
import { existsSync } from "node:fs";
import { ffmpegPath, ffprobePath } from "../compute/video/binaries.ts";
import { aptInstall, canAptInstall } from "./apt-install.ts";

const missing = [ffmpegPath(), ffprobePath()].filter((path) => !existsSync(path));

if (import.meta.main && missing.length > 0) {
  if (process.env.FFMPEG_PATH || process.env.FFPROBE_PATH || !canAptInstall()) {
    console.error(`ffmpeg/ffprobe not found at ${missing.join(", ")}; install ffmpeg and set FFMPEG_PATH and FFPROBE_PATH.`);
    process.exit(1);
  }
  aptInstall("ffmpeg", "for compute's video decoding");
}
