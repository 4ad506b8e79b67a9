// Which ffmpeg and ffprobe read untrusted video. Debian's package (security-maintained, with
// libx264; scripts/ensure-ffmpeg.ts installs it) unless FFMPEG_PATH / FFPROBE_PATH name others.
// There is no fallback to a static build from the registry: those are snapshots that never get a
// security fix, and a compute instance that cannot find a maintained decoder refuses to start.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";

export const DEBIAN_FFMPEG = "/usr/bin/ffmpeg";
export const DEBIAN_FFPROBE = "/usr/bin/ffprobe";

export function ffmpegPath(): string {
  return process.env.FFMPEG_PATH || DEBIAN_FFMPEG;
}

export function ffprobePath(): string {
  return process.env.FFPROBE_PATH || DEBIAN_FFPROBE;
}

/** "ffmpeg version 5.1.9-0+deb12u1 Copyright ..." -> "5.1.9-0+deb12u1". */
export function mediaToolVersion(binary: string): string {
  const first = execFileSync(binary, ["-hide_banner", "-version"], { encoding: "utf8", timeout: 30_000 }).split("\n")[0] ?? "";
  const match = /version (\S+)/.exec(first);
  if (!match) throw new Error(`${binary} -version printed no version: ${first.slice(0, 200)}`);
  return match[1]!;
}

/**
 * Start-up check: both tools exist and run. Returns ffmpeg's version; throws an error that says
 * how to fix it, so a misconfigured instance fails at once rather than on its first video.
 */
export function checkMediaTools(): string {
  for (const [name, path, variable] of [["ffmpeg", ffmpegPath(), "FFMPEG_PATH"], ["ffprobe", ffprobePath(), "FFPROBE_PATH"]] as const) {
    if (!existsSync(path)) {
      throw new Error(`${name} not found at ${path}. Install Debian's ffmpeg (node scripts/ensure-ffmpeg.ts; npm start and npm test run it) or set ${variable}.`);
    }
  }
  mediaToolVersion(ffprobePath());
  return mediaToolVersion(ffmpegPath());
}
