// npm run bench:video — video throughput on this machine, measured, never estimated.
//
// For a generated 20 s 720p clip and a 20 s 1080p clip (pan and zoom over a real photo with faces,
// AAC audio; made once and cached in the OS temp dir), it runs each case in a fresh process and
// reports frames per second (wall clock), the CPU seconds the case used (its whole process tree,
// from the reaped children's times in /proc/self/stat: unlike wall time, this does not depend on
// what else the machine is running; the load average is printed alongside), the ratios of both to
// the floor, and the peak RSS of the whole process tree (Node + both ffmpegs), sampled from /proc
// every 25 ms:
//   floor     one ffmpeg: decode + libx264 encode with the pipeline's settings. No pipeline can beat it.
//   identity  processVideo with a do-nothing processor: the cost of the raw-frame round trip through Node.
//   <name>    the video feature `video.<name>` exactly as the compute service runs it: its
//             ChunkProcessor from compute/pipelines/video/index.ts (VIDEO_PIPELINES), built from the
//             feature's default parameters (schema/features.ts), through processVideo. The models it
//             uses are loaded and warmed first (one black frame through the processor, untimed), so
//             the time is processing only; the peak RSS includes the loaded models.
//
// Usage: npm run bench:video [-- --only 720p] [-- --pipelines face-blur,background-blur]
//        [-- --seconds 8] (clip length for every clip) [-- --seconds-1080p 8] (1080p clip only)
import { spawn } from "node:child_process";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { featureById } from "../schema/features.ts";
import { createModels } from "../compute/models/index.ts";
import { VIDEO_PIPELINES } from "../compute/pipelines/video/index.ts";
import { ffmpegPath } from "../compute/video/ffmpeg.ts";
import { DEFAULT_ENCODER, encoderSettingsArgs, processVideo } from "../compute/video/stream.ts";
import { makePanZoomVideo } from "../test/fixtures/make-video.ts";
import { warmUp } from "./warm-up.ts";

const selfPath = fileURLToPath(import.meta.url);
const cacheDir = join(tmpdir(), "obscura-bench-video");
const CLIPS = [
  { name: "720p", width: 1280, height: 720, seconds: 20, fps: 25 },
  { name: "1080p", width: 1920, height: 1080, seconds: 20, fps: 25 },
];
const DEFAULT_PIPELINES = ["face-blur"];

interface CaseResult {
  frames: number;
  seconds: number;
  /** CPU of the Node process alone during the timed part (pipelines only; the ffmpegs are in the tree figure). */
  nodeCpuSeconds?: number;
  /** CPU of the timed part, measured inside the case (pipelines: excludes model loading and warm-up). */
  timedCpuSeconds?: number;
}

/** The required prompts of features that have one: the clip shows people. */
const BENCH_PROMPTS: Record<string, Record<string, string>> = {
  "blur-anything": { prompt: "faces" },
  "object-removal": { object_text: "person" },
};

// ---- child: run one case, print its result as JSON ----
async function runCase(kind: string, clip: string, out: string): Promise<CaseResult> {
  const started = performance.now();
  if (kind === "floor") {
    await new Promise<void>((ok, fail) => {
      const child = spawn(ffmpegPath(), [
        "-hide_banner", "-nostdin", "-v", "error", "-y", "-i", clip, "-map", "0:v:0", "-map", "0:a:0?",
        ...encoderSettingsArgs(DEFAULT_ENCODER), "-c:a", "copy", "-movflags", "+faststart", out,
      ], { stdio: "inherit" });
      child.on("close", (code) => (code === 0 ? ok() : fail(new Error(`ffmpeg exited ${code}`))));
    });
    return { frames: await countFrames(clip), seconds: (performance.now() - started) / 1000 };
  }
  if (kind === "identity") {
    const result = await processVideo(clip, out, { processor: async (f) => f });
    return { frames: result.frames, seconds: (performance.now() - started) / 1000 };
  }
  const pipeline = VIDEO_PIPELINES[`video.${kind}`];
  const feature = featureById(`video.${kind}`);
  if (!pipeline || !feature) throw new Error(`no video pipeline video.${kind}`);
  const params = feature.params.parse({ video_url: "https://example.com/bench.mp4", duration_seconds: 60, ...BENCH_PROMPTS[kind] });
  const models = createModels();
  const { probeVideo } = await import("../compute/video/probe.ts");
  const info = await probeVideo(clip);
  await warmUp(pipeline(params, models), info.width, info.height);
  const cpu0 = process.cpuUsage();
  const reaped0 = reapedChildrenCpuSeconds();
  const t0 = performance.now();
  const result = await processVideo(clip, out, { processor: pipeline(params, models) });
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const reaped1 = reapedChildrenCpuSeconds();
  const nodeCpuSeconds = (cpu.user + cpu.system) / 1e6;
  // Timed part only: this process (Node, tfjs threads) plus the two ffmpegs it reaped.
  const cpuSeconds = reaped0 === null || reaped1 === null ? undefined : nodeCpuSeconds + reaped1 - reaped0;
  return { frames: result.frames, seconds, nodeCpuSeconds, timedCpuSeconds: cpuSeconds };
}

async function countFrames(clip: string): Promise<number> {
  const { probeVideo } = await import("../compute/video/probe.ts");
  return (await probeVideo(clip)).frameCount;
}


// ---- parent: sample the process tree's memory while a case runs ----
function treeRssKb(pid: number): number {
  let total = 0;
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    total += Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const children = readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").trim();
      for (const child of children ? children.split(/\s+/) : []) total += treeRssKb(Number(child));
    }
  } catch {
    // The process ended between listing and reading.
  }
  return total;
}

/** CPU seconds of this process's reaped children (utime+stime of their whole trees); Linux only. */
function reapedChildrenCpuSeconds(): number | null {
  try {
    const stat = readFileSync("/proc/self/stat", "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // Fields 16 and 17 of stat (cutime, cstime) are at 13 and 14 after the command name; USER_HZ is 100 on Linux.
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return null;
  }
}

async function measure(kind: string, clip: string): Promise<CaseResult & { peakRssMb: number | null; cpuSeconds: number | null; load: number }> {
  const out = join(cacheDir, `out-${kind}-${process.pid}.mp4`);
  const load = loadavg()[0];
  const cpuBefore = reapedChildrenCpuSeconds();
  try {
    const child = spawn(process.execPath, [selfPath, "--case", kind, clip, out], { stdio: ["ignore", "pipe", "inherit"] });
    let stdout = "";
    child.stdout.on("data", (d) => (stdout += d));
    let peak = 0;
    const canSample = existsSync("/proc/self/status");
    const timer = setInterval(() => (peak = Math.max(peak, treeRssKb(child.pid!))), 25);
    const code = await new Promise<number | null>((ok) => child.on("close", ok));
    clearInterval(timer);
    if (code !== 0) throw new Error(`case ${kind} failed (exit ${code})`);
    const result = JSON.parse(stdout.trim().split("\n").at(-1)!) as CaseResult;
    const cpuAfter = reapedChildrenCpuSeconds();
    const cpuSeconds = result.timedCpuSeconds ?? (cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore);
    return { ...result, peakRssMb: canSample ? peak / 1024 : null, cpuSeconds, load };
  } finally {
    await rm(out, { force: true });
  }
}

async function clipFor(spec: (typeof CLIPS)[number]): Promise<string> {
  const path = join(cacheDir, `panzoom-${spec.name}-${spec.seconds}s-${spec.fps}fps.mp4`);
  if (!existsSync(path)) {
    process.stdout.write(`generating ${spec.name} clip (${spec.width}x${spec.height}, ${spec.seconds} s)... `);
    const t = performance.now();
    await makePanZoomVideo({ outPath: `${path}.part.mp4`, width: spec.width, height: spec.height, seconds: spec.seconds, fps: spec.fps, supersample: 1 });
    const { rename } = await import("node:fs/promises");
    await rename(`${path}.part.mp4`, path);
    console.log(`${((performance.now() - t) / 1000).toFixed(1)} s`);
  }
  return path;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args[0] === "--case") {
    const result = await runCase(args[1], args[2], args[3]);
    console.log(JSON.stringify(result));
    return;
  }
  const only = args.includes("--only") ? args[args.indexOf("--only") + 1] : null;
  const pipelines = args.includes("--pipelines") ? args[args.indexOf("--pipelines") + 1].split(",") : DEFAULT_PIPELINES;
  await mkdir(cacheDir, { recursive: true });
  console.log(`encoder: libx264 preset=${DEFAULT_ENCODER.preset} crf=${DEFAULT_ENCODER.crf} yuv420p; node ${process.version}; ${cpus().length} cores`);
  const available = pipelines.filter((name) => VIDEO_PIPELINES[`video.${name}`]);
  for (const name of pipelines) if (!available.includes(name)) console.log(`${name}: no video pipeline video.${name} (have: ${Object.keys(VIDEO_PIPELINES).join(", ")})`);
  const secondsAll = args.includes("--seconds") ? Number(args[args.indexOf("--seconds") + 1]) : null;
  const seconds1080 = args.includes("--seconds-1080p") ? Number(args[args.indexOf("--seconds-1080p") + 1]) : null;
  const clips = CLIPS.map((c) => ({ ...c, seconds: (c.name === "1080p" ? seconds1080 : null) ?? secondsAll ?? c.seconds }));

  const rows: string[][] = [["clip", "case", "frames", "wall s", "fps", "x floor wall", "CPU s", "CPU ms/frame", "x floor CPU", "peak RSS MB", "load before"]];
  for (const spec of clips) {
    if (only && spec.name !== only) continue;
    const clip = await clipFor(spec);
    let floorSeconds = 0;
    let floorCpu = 0;
    for (const kind of ["floor", "identity", ...available]) {
      const r = await measure(kind, clip);
      if (kind === "floor") {
        floorSeconds = r.seconds;
        floorCpu = r.cpuSeconds ?? 0;
      }
      rows.push([
        spec.name, kind, String(r.frames), r.seconds.toFixed(2), (r.frames / r.seconds).toFixed(1), (r.seconds / floorSeconds).toFixed(2),
        r.cpuSeconds === null ? "n/a" : r.cpuSeconds.toFixed(1),
        r.cpuSeconds === null ? "n/a" : ((r.cpuSeconds / r.frames) * 1000).toFixed(1),
        r.cpuSeconds === null || !floorCpu ? "n/a" : (r.cpuSeconds / floorCpu).toFixed(2),
        r.peakRssMb === null ? "n/a" : r.peakRssMb.toFixed(0), r.load.toFixed(1),
      ]);
      console.log(rows.at(-1)!.join("\t"));
    }
  }
  console.log("");
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  for (const r of rows) console.log(r.map((cell, c) => cell.padEnd(widths[c])).join("  "));
}

await main();
