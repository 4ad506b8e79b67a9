// How a media tool is started on untrusted input: under util-linux's prlimit (CPU time, address
// space, file size) and, where the kernel lets us, unshare --net (a network namespace with no
// interface up, so even a decoder taken over by a hostile file reaches no host). Both exec the tool
// in place, so the pid we hold is ffmpeg's own. The arguments also keep ffmpeg itself off the
// network: `untrustedInput` pins the demuxer and allows only local files and pipes.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import type { ProcessLimits } from "./process-limits.ts";

const PRLIMIT = "/usr/bin/prlimit";
const UNSHARE = "/usr/bin/unshare";

/**
 * `-i path` for a file we only know to be MP4/MOV from its first bytes: read by the mov demuxer
 * alone (no probing through ffmpeg's hundreds of others) and through the file protocol alone (no
 * http, tcp, concat, data...; references inside the file inherit the whitelist).
 */
export function untrustedInput(path: string): string[] {
  return ["-protocol_whitelist", "file", "-f", "mov", "-i", path];
}

/** The same for ffprobe, which takes the input as its last argument. */
export function untrustedProbeInput(path: string): string[] {
  return ["-protocol_whitelist", "file", "-f", "mov", path];
}

let networkIsolation: string[] | null | undefined;

/** The unshare arguments that work here (root, or an unprivileged user namespace), or null; probed once. */
export function networkIsolationArgs(): string[] | null {
  if (networkIsolation !== undefined) return networkIsolation;
  networkIsolation = null;
  for (const args of [["--net"], ["--map-root-user", "--net"]]) {
    if (existsSync(UNSHARE) && spawnSync(UNSHARE, [...args, "true"], { stdio: "ignore", timeout: 10_000 }).status === 0) {
      networkIsolation = args;
      break;
    }
  }
  return networkIsolation;
}

/** FFMPEG_LIMITS=off runs the tools bare: for a host without prlimit, as the operator's explicit choice. */
export function limitsDisabled(): boolean {
  return process.env.FFMPEG_LIMITS === "off";
}

/**
 * Start-up check of the sandbox. Throws when prlimit is missing (unless FFMPEG_LIMITS=off);
 * returns warnings for what is weaker than intended, for the log.
 */
export function checkSandbox(): string[] {
  if (limitsDisabled()) return ["FFMPEG_LIMITS=off: ffmpeg and ffprobe run without CPU, memory and file-size limits on untrusted media."];
  if (!existsSync(PRLIMIT)) throw new Error(`${PRLIMIT} (util-linux) not found: it limits the ffmpeg processes. Install util-linux, or set FFMPEG_LIMITS=off to run them unlimited.`);
  if (!networkIsolationArgs()) return ["unshare --net is not permitted here: ffmpeg keeps only its protocol whitelist (local files and pipes) against network access."];
  return [];
}

/** The command line that runs `binary args` under the limits. */
export function sandboxed(binary: string, args: string[], limits: ProcessLimits): { command: string; args: string[] } {
  if (limitsDisabled()) return { command: binary, args };
  const net = networkIsolationArgs();
  return {
    command: PRLIMIT,
    args: [
      // soft = hard: the kernel sends SIGKILL at once (ffmpeg would treat SIGXCPU as a polite stop request).
      ...(limits.cpuSeconds === undefined ? [] : [`--cpu=${limits.cpuSeconds}:${limits.cpuSeconds}`]),
      // Plain byte counts: util-linux's prlimit crashed here on suffixes ("--as=8G").
      `--${limits.memory === "data" ? "data" : "as"}=${limits.memoryBytes}:${limits.memoryBytes}`,
      `--fsize=${limits.fileBytes}:${limits.fileBytes}`,
      "--",
      ...(net ? [UNSHARE, ...net, "--"] : []),
      binary,
      ...args,
    ],
  };
}

export interface BrokenLimit {
  kind: "cpu" | "memory" | "output-size";
  /** For messages: "CPU-time limit (42 s)". */
  text: string;
}

/** Which limit stopped a process, from how it ended; null when it ended on its own. */
export function limitBroken(signal: NodeJS.Signals | null, killedByUs: boolean, stderr: string, limits: ProcessLimits): BrokenLimit | null {
  if (limitsDisabled()) return null;
  if (signal === "SIGXFSZ") return { kind: "output-size", text: `output-size limit (${mib(limits.fileBytes)} MiB)` };
  // Nothing else here sends SIGKILL: the CPU limit (or the kernel's OOM killer, rarer under an address-space limit).
  if (signal === "SIGKILL" && !killedByUs && limits.cpuSeconds !== undefined) return { kind: "cpu", text: `CPU-time limit (${limits.cpuSeconds} s)` };
  // How ffmpeg, x264 and the loader say an allocation failed (EAGAIN: no room for a thread's stack).
  if (/Cannot allocate memory|Failed to allocate|malloc of size \d+ failed|failed to map segment|Resource temporarily unavailable|out of memory/i.test(stderr)) {
    return { kind: "memory", text: `memory limit (${mib(limits.memoryBytes)} MiB)` };
  }
  return null;
}

function mib(bytes: number): string {
  return String(Number((bytes / 1024 ** 2).toFixed(2)));
}
