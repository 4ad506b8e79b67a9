// Pricing a video reads its container index by HTTP range, not the whole file: the probe of the
// index must answer exactly as the probe of the whole file, refuse what it refuses, and fall back
// to the whole file where ranges are not served or the index is spread through it.
import { execFileSync } from "node:child_process";
import { createReadStream, statSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetchMediaRange } from "../../compute/media/fetch.ts";
import { probeTask } from "../../compute/tasks/index.ts";
import { copyContainerIndex } from "../../compute/video/container-index.ts";
import { ffmpegPath } from "../../compute/video/ffmpeg.ts";
import { probeVideo } from "../../compute/video/probe.ts";
import { makeMiddleCutVideo, makeRotatedMov, makeTruncatedVideo } from "../fixtures/make-video.ts";

let dir = "";
let server: http.Server;
let port = 0;
/** Bytes the server sent, by file name. */
const sent = new Map<string, number>();
const clips: Record<string, string> = {};

const ffmpeg = (args: string[]) => execFileSync(ffmpegPath(), ["-v", "error", "-y", ...args], { stdio: ["ignore", "ignore", "inherit"] });
const SOURCE = ["-f", "lavfi", "-i", "testsrc2=size=640x360:rate=25:duration=4", "-f", "lavfi", "-i", "sine=frequency=440:duration=4", "-c:v", "libx264", "-preset", "ultrafast", "-crf", "16", "-c:a", "aac", "-shortest"];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "container-index-"));
  const clip = (name: string, args: string[]) => {
    clips[name] = join(dir, name);
    ffmpeg([...args, clips[name]]);
  };
  clip("index-last.mp4", SOURCE); // ffmpeg's default, as most cameras: the index after the media data
  clip("faststart.mp4", [...SOURCE, "-movflags", "+faststart"]);
  clip("fragmented.mp4", [...SOURCE, "-movflags", "frag_keyframe+empty_moov"]);
  clips["rotated.mov"] = await makeRotatedMov(clips["index-last.mp4"]!, join(dir, "rotated.mov"));
  clips["edit-list.mp4"] = await makeMiddleCutVideo(clips["index-last.mp4"]!, join(dir, "edit-list.mp4"), 1, 2);
  clips["cut-short.mp4"] = await makeTruncatedVideo(clips["faststart.mp4"]!, join(dir, "cut-short.mp4"), Math.round(statSync(clips["faststart.mp4"]!).size * 0.6));
  // /ranged/NAME serves one byte range where asked; /whole/NAME always the whole file.
  server = http.createServer((req, res) => {
    const [, mode, name] = (req.url ?? "").split("/");
    // /gone/NAME: ignores a range, and answers 404 when asked for the whole file; /no-ranges/NAME
    // answers a range request 403 (as some servers do), the whole file as usual.
    if (mode === "gone" && !req.headers.range) return void res.writeHead(404).end();
    if (mode === "no-ranges" && req.headers.range) return void res.writeHead(403).end();
    const path = join(dir, basename(name ?? ""));
    const size = statSync(path).size;
    const m = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? "");
    const [start, end] = mode === "ranged" && m ? [Number(m[1]), Math.min(size - 1, Number(m[2]))] : [0, size - 1];
    sent.set(name!, (sent.get(name!) ?? 0) + end - start + 1);
    const partial = mode === "ranged" && m;
    res.writeHead(partial ? 206 : 200, { "content-length": end - start + 1, ...(partial ? { "content-range": `bytes ${start}-${end}/${size}` } : {}) });
    createReadStream(path, { start, end }).pipe(res);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r));
  await rm(dir, { recursive: true, force: true });
});

const url = (mode: "ranged" | "whole" | "gone" | "no-ranges", name: string) => `http://127.0.0.1:${port}/${mode}/${name}`;
const opts = { maxBytes: 1024 ** 3, timeoutMs: 10_000, policy: { checkUrl: (u: string) => new URL(u), isAllowedAddress: () => true } };
const indexOf = async (mode: "ranged" | "whole", name: string) => {
  const path = join(dir, `index-${mode}-${name}`);
  return { copied: await copyContainerIndex((start, end) => fetchMediaRange(url(mode, name), start, end, opts), path), path };
};
const outcome = (p: Promise<unknown>) => p.then((value) => ({ value }), (e: { code?: string; message?: string }) => ({ error: [e.code, e.message] }));

describe("a video's container index, read by range", () => {
  it.each(["index-last.mp4", "faststart.mp4", "rotated.mov", "edit-list.mp4"])("probes %s from a small part of its bytes exactly as from the whole file", async (name) => {
    sent.delete(name);
    const { copied, path } = await indexOf("ranged", name);
    expect(copied).toBe(true);
    const size = statSync(clips[name]!).size;
    expect(size).toBeGreaterThan(800_000);
    expect(sent.get(name)).toBeLessThan(size / 10);
    // Every field: size, frames counted from the packets, edit list, rotation, audio, duration.
    expect(await probeVideo(path)).toEqual(await probeVideo(clips[name]!));
  });

  it("refuses a video cut short as the whole file is refused", async () => {
    const { copied, path } = await indexOf("ranged", "cut-short.mp4");
    expect(copied).toBe(true);
    const whole = await outcome(probeVideo(clips["cut-short.mp4"]!));
    expect(whole).toMatchObject({ error: ["corrupt_media", expect.stringMatching(/truncated/)] });
    expect(await outcome(probeVideo(path))).toEqual(whole);
  });

  it("falls back to the whole file for a fragmented MP4 or a server that does not serve ranges", async () => {
    expect((await indexOf("ranged", "fragmented.mp4")).copied).toBe(false);
    expect((await indexOf("whole", "index-last.mp4")).copied).toBe(false);
  });

  it("prices the same whatever the server does with ranges: served, ignored (the whole file sent) or refused", async () => {
    const work = await mkdtemp(join(dir, "task-"));
    const signal = new AbortController().signal;
    const probe = async (mode: "ranged" | "whole" | "no-ranges", name: string) => {
      await rm(join(work, "probe"), { force: true });
      sent.delete(name);
      const result = await probeTask({ url: url(mode, name), internal: true }, { workDir: work, signal });
      return { result, sent: sent.get(name)! };
    };
    for (const name of ["index-last.mp4", "fragmented.mp4"]) {
      const size = statSync(clips[name]!).size;
      const expected = { kind: "video", format: "mp4", duration_seconds: (await probeVideo(clips[name]!)).durationSeconds };
      const ranged = await probe("ranged", name);
      const whole = await probe("whole", name);
      const refused = await probe("no-ranges", name);
      expect(ranged.result).toEqual(expected);
      expect(whole.result).toEqual(expected);
      expect(refused.result).toEqual(expected);
      // The fragmented file is fetched whole after its first 64 KiB.
      if (name === "fragmented.mp4") expect(ranged.sent).toBe(size + 64 * 1024);
      if (name === "index-last.mp4") expect(ranged.sent).toBeLessThan(size / 10);
    }
  });

  it("says why the whole file was fetched when fetching it fails", async () => {
    const work = await mkdtemp(join(dir, "task-"));
    const failed = await outcome(probeTask({ url: url("gone", "index-last.mp4"), internal: true }, { workDir: work, signal: new AbortController().signal }));
    expect(failed).toEqual({ error: ["media_unreachable", expect.stringMatching(/^The media URL answered HTTP 404\. A video is priced from its container index, read by HTTP range requests; .*Upload the video \(POST \/api\/v2\/uploads\/video\)/)] });
  });

  it("refuses a range whose file is over the size limit before reading it", async () => {
    const small = { ...opts, maxBytes: 100_000 };
    await expect(fetchMediaRange(url("ranged", "index-last.mp4"), 0, 1023, small)).rejects.toMatchObject({ code: "media_too_large" });
  });
});
