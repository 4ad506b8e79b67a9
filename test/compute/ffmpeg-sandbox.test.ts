// Untrusted media: the ffmpeg in use is the maintained one, and every ffmpeg/ffprobe the pipeline
// starts runs under its limits (CPU time, address space, file size, no network). A process
// stopped by a limit fails its task with the intended error code, and leaves nothing running.
import { execFile } from "node:child_process";
import { existsSync, readFileSync, readlinkSync } from "node:fs";
import { mkdir, mkdtemp, readdir, rm } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { ApiError } from "../../schema/errors.ts";
import { DEBIAN_FFMPEG, mediaToolVersion } from "../../compute/video/binaries.ts";
import { ffmpegPath, ffprobePath, startMediaProcess } from "../../compute/video/ffmpeg.ts";
import { probeVideo } from "../../compute/video/probe.ts";
import * as processLimits from "../../compute/video/process-limits.ts";
import { checkSandbox, networkIsolationArgs, untrustedProbeInput } from "../../compute/video/sandbox.ts";
import { processVideo } from "../../compute/video/stream.ts";
import { makePanZoomVideo } from "../fixtures/make-video.ts";
import { descendantProcesses } from "./processes.ts";

// The real budgets unless a test narrows one (vi.mocked(...).mockReturnValueOnce).
vi.mock("../../compute/video/process-limits.ts", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../compute/video/process-limits.ts")>();
  return { ...real, decoderLimits: vi.fn(real.decoderLimits), encoderLimits: vi.fn(real.encoderLimits) };
});

let dir: string;
let clip: string; // 640x360, 25 fps, 5 s = 125 frames, AAC audio

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "obscura-sandbox-test-"));
  clip = await makePanZoomVideo({ outPath: join(dir, "panzoom.mp4") });
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

afterEach(() => {
  delete process.env.FFMPEG_MEMORY_MB;
  delete process.env.FFMPEG_OUTPUT_MB;
});

function mediaChildren(): number[] {
  return descendantProcesses().filter((l) => /ffmpeg|ffprobe|prlimit|unshare/.test(l)).map((l) => Number(l.split(" ")[0]));
}

/** "Max cpu time  12  12  seconds" -> [12, 12] (soft, hard). */
function limitOf(pid: number, name: string): [string, string] {
  const line = readFileSync(`/proc/${pid}/limits`, "utf8").split("\n").find((l) => l.startsWith(name))!;
  const [soft, hard] = line.slice(name.length).trim().split(/\s+/);
  return [soft!, hard!];
}

async function tempDirFor(name: string): Promise<string> {
  const tempDir = join(dir, name);
  await mkdir(tempDir);
  return tempDir;
}

describe("the decoder in use", () => {
  it("is a maintained ffmpeg (Debian's 5.1 security line unless FFMPEG_PATH names another), not the 2018 snapshot", () => {
    for (const binary of [ffmpegPath(), ffprobePath()]) {
      const version = mediaToolVersion(binary);
      expect(Number(version.split(".")[0]), `${binary} ${version}`).toBeGreaterThanOrEqual(5);
    }
    if (!process.env.FFMPEG_PATH) {
      expect(ffmpegPath()).toBe(DEBIAN_FFMPEG);
      expect(mediaToolVersion(ffmpegPath())).toMatch(/\+deb\d+u\d+/);
    }
    expect(ffmpegPath()).not.toMatch(/ffmpeg-installer/);
  });

  it("runs in a sandbox this host supports: prlimit always, a network namespace where the kernel allows one (else one warning)", () => {
    expect(checkSandbox()).toEqual(networkIsolationArgs() ? [] : [expect.stringMatching(/unshare --net is not permitted/)]);
  });
});

describe("every decoding process runs under its limits", () => {
  it("the pipeline's decoder and encoder carry the CPU, memory and file-size limits, in their own network namespace", async () => {
    const seen: Array<{ args: string; cpu: [string, string]; as: [string, string]; fsize: [string, string]; net: string }> = [];
    await processVideo(clip, join(dir, "limits-out.mp4"), {
      processor: async (frame, index) => {
        if (index === 10) {
          for (const pid of mediaChildren()) {
            seen.push({
              args: readFileSync(`/proc/${pid}/cmdline`, "utf8"),
              cpu: limitOf(pid, "Max cpu time"),
              as: limitOf(pid, "Max address space"),
              fsize: limitOf(pid, "Max file size"),
              net: readlinkSync(`/proc/${pid}/ns/net`),
            });
          }
        }
        return frame;
      },
    });
    const decoder = seen.find((p) => p.args.includes("pipe:1"))!;
    const encoder = seen.find((p) => p.args.includes("pipe:0"))!;
    expect(decoder && encoder).toBeTruthy();
    // 125 frames of 0.23 MP: 30 s + 0.25 s per MP-frame for decoding, 30 s + 0.35 s for encoding.
    expect(decoder.cpu).toEqual(["38", "38"]);
    expect(encoder.cpu).toEqual(["41", "41"]);
    expect(decoder.as).toEqual([String(6144 * 1024 ** 2), String(6144 * 1024 ** 2)]);
    expect(decoder.fsize).toEqual(["0", "0"]); // it writes to a pipe only
    expect(encoder.fsize).toEqual([String(4096 * 1024 ** 2), String(4096 * 1024 ** 2)]);
    // Each in a network namespace of its own: not this process's.
    const own = readlinkSync("/proc/self/ns/net");
    if (networkIsolationArgs()) for (const p of [decoder, encoder]) expect(p.net).not.toBe(own);
  });

  it("a decoder over its CPU limit is killed by the kernel, and the limit is named", async () => {
    const limits = { cpuSeconds: 1, memoryBytes: 6144 * 1024 ** 2, fileBytes: 0 };
    const started = Date.now();
    // Work without end: decoding a synthetic source forever, as a decoder bomb would.
    const proc = await startMediaProcess(ffmpegPath(), ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=1280x720", "-f", "null", "-"], { limits });
    expect(await proc.exited).toBe(null);
    expect(proc.signal()).toBe("SIGKILL");
    expect(proc.limitBroken()).toEqual({ kind: "cpu", text: "CPU-time limit (1 s)" });
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it("a real decode over its memory limit fails the task with corrupt_media, leaving nothing behind", async () => {
    vi.mocked(processLimits.decoderLimits).mockReturnValueOnce({ cpuSeconds: 60, memoryBytes: 16 * 1024 ** 2, fileBytes: 0 });
    const tempDir = await tempDirFor("tmp-memory");
    const out = join(dir, "memory-out.mp4");
    const error = await processVideo(clip, out, { processor: async (f) => f, tempDir }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: "corrupt_media", message: "The video could not be decoded: decoding exceeded its memory limit (16 MiB)." });
    expect(await readdir(tempDir)).toEqual([]);
    expect(existsSync(out)).toBe(false);
    expect(mediaChildren()).toEqual([]);
  });

  it("the prober under an operator's memory limit (FFMPEG_MEMORY_MB) refuses the file as corrupt_media", async () => {
    process.env.FFMPEG_MEMORY_MB = "16";
    await expect(probeVideo(clip)).rejects.toMatchObject({
      code: "corrupt_media",
      message: "The video could not be read: reading its container exceeded the prober's memory limit (16 MiB).",
    });
  });

  it("an output past the encoder's file-size limit (FFMPEG_OUTPUT_MB) fails with media_too_large, leaving nothing behind", async () => {
    process.env.FFMPEG_OUTPUT_MB = "0.05";
    const tempDir = await tempDirFor("tmp-fsize");
    const out = join(dir, "fsize-out.mp4");
    const error = await processVideo(clip, out, { processor: async (f) => f, tempDir }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "media_too_large", status: 413, message: "The processed video outgrew the encoder's output-size limit (0.05 MiB)." });
    expect(await readdir(tempDir)).toEqual([]);
    expect(existsSync(out)).toBe(false);
    expect(mediaChildren()).toEqual([]);
  });
});

describe("no network", () => {
  let server: ReturnType<typeof createServer>;
  let url: string;
  let requests = 0;

  beforeAll(async () => {
    const body = readFileSync(clip);
    server = createServer((_req, res) => {
      requests++;
      res.writeHead(200, { "content-type": "video/mp4" }).end(body);
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/clip.mp4`;
  });

  afterAll(async () => {
    await new Promise((r) => server.close(r));
  });

  it("a network URL as input is refused by the protocol whitelist, before any connection", async () => {
    const proc = await startMediaProcess(ffprobePath(), ["-v", "error", "-show_format", ...untrustedProbeInput(url)]);
    expect(await proc.exited).not.toBe(0);
    expect(proc.stderrTail()).toMatch(/Protocol 'http' not on whitelist 'file'/);
    expect(requests).toBe(0);
  });

  it.skipIf(!networkIsolationArgs())("even without the whitelist, a sandboxed ffprobe reaches no host (not even this machine's loopback)", async () => {
    // Control: the same command outside the sandbox does fetch it (async: this process serves it).
    await promisify(execFile)(ffprobePath(), ["-v", "error", "-show_format", url], { timeout: 30_000 });
    expect(requests).toBeGreaterThan(0);
    const before = requests;
    const proc = await startMediaProcess(ffprobePath(), ["-v", "error", "-show_format", url]);
    expect(await proc.exited).not.toBe(0);
    expect(requests).toBe(before);
  });
});
