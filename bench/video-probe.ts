// What pricing a video costs: the probe the Worker asks of compute before it charges (duration,
// limits), read from the container index by HTTP range (compute/video/container-index.ts) against
// the whole file fetched, its floor before. A 1080p clip (`--seconds`, at a high bitrate: a phone's
// or a camera's file) served at `--mbit` Mbit/s by a local server, index after the media data as
// most cameras write it. Run: npx node bench/video-probe.ts [--seconds 60] [--mbit 100]
import { execFileSync } from "node:child_process";
import { createReadStream, statSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { probeTask } from "../compute/tasks/index.ts";
import { ffmpegPath } from "../compute/video/ffmpeg.ts";

const { values: flags } = parseArgs({ options: { seconds: { type: "string", default: "60" }, mbit: { type: "string", default: "100" } } });
const dir = await mkdtemp(join(tmpdir(), "video-probe-"));
const clip = join(dir, "clip.mp4");
execFileSync(ffmpegPath(), ["-v", "error", "-y", "-f", "lavfi", "-i", `testsrc2=size=1920x1080:rate=30:duration=${flags.seconds}`, "-f", "lavfi", "-i", `anoisesrc=duration=${flags.seconds}`, "-c:v", "libx264", "-preset", "ultrafast", "-crf", "8", "-c:a", "aac", "-shortest", clip]);
const size = statSync(clip).size;
const bytesPerSecond = (Number(flags.mbit) * 1e6) / 8;

// /ranged serves one byte range where asked; /whole always the whole file. Both paced to the link's rate.
let sent = 0;
const server = http.createServer((req, res) => {
  const m = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? "");
  const ranged = req.url === "/ranged" && m;
  const [start, end] = ranged ? [Number(m[1]), Math.min(size - 1, Number(m[2]))] : [0, size - 1];
  res.writeHead(ranged ? 206 : 200, { "content-length": end - start + 1, ...(ranged ? { "content-range": `bytes ${start}-${end}/${size}` } : {}) });
  void (async () => {
    const t0 = Date.now();
    let n = 0;
    for await (const chunk of createReadStream(clip, { start, end, highWaterMark: 64 * 1024 }) as AsyncIterable<Buffer>) {
      if (res.destroyed) return;
      n += chunk.length;
      sent += chunk.length;
      const due = t0 + (n / bytesPerSecond) * 1000;
      if (due > Date.now()) await new Promise((r) => setTimeout(r, due - Date.now()));
      if (!res.write(chunk)) await new Promise((r) => res.once("drain", r));
    }
    res.end();
  })();
});
await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
const port = (server.address() as AddressInfo).port;

const rows: string[] = [];
for (const mode of ["ranged", "whole"] as const) {
  const work = await mkdtemp(join(dir, mode));
  sent = 0;
  const t0 = performance.now();
  const price = await probeTask({ url: `http://127.0.0.1:${port}/${mode}`, internal: true }, { workDir: work, signal: new AbortController().signal });
  const ms = performance.now() - t0;
  rows.push(`| ${mode === "ranged" ? "the container index, by range" : "the whole file (floor: the probe before)"} | ${(ms / 1000).toFixed(1)} s | ${(sent / 1e6).toFixed(2)} MB | ${price.kind === "video" ? price.duration_seconds : "?"} s |`);
}
server.close();
await rm(dir, { recursive: true, force: true });
console.log(`probing a ${flags.seconds} s 1080p clip of ${(size / 1e6).toFixed(0)} MB at ${flags.mbit} Mbit/s (load ${(await import("node:os")).loadavg()[0]!.toFixed(1)}):`);
console.log("| read | time | sent | duration found |\n|---|---|---|---|\n" + rows.join("\n"));
