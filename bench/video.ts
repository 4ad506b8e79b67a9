// npm run bench:video — video throughput on this machine, measured, never estimated.
//
// For a generated 20 s 720p clip and a 20 s 1080p clip (pan and zoom over a real photo with faces,
// AAC audio) and a 3 s 720p clip from a still camera (test/fixtures/video-clips.ts' enter-leave:
// six faces of 14-140 px crossing a real photo; no audio), and with --only 4k a 2 s 3840x2160 pan,
// each made once and cached in the OS temp dir, it runs each case in a fresh process and
// reports frames per second (wall clock), the CPU seconds the case used (its whole process tree,
// from the reaped children's times in /proc/self/stat: unlike wall time, this does not depend on
// what else the machine is running; the load average is printed alongside), the ratios of both to
// the floor, and the peak RSS of the whole process tree (Node + both ffmpegs), sampled from /proc
// every 25 ms:
//   floor     one ffmpeg: decode + libx264 encode with the pipeline's settings. No pipeline can beat it.
//             (Every case's CPU and wall are those of its timed part: not Node's start-up and imports.)
//   identity  processVideo with a do-nothing processor: the cost of the raw-frame round trip through Node.
//   <name>    the video feature `video.<name>` exactly as the compute service runs it: its
//             ChunkProcessor from compute/pipelines/video/index.ts (VIDEO_PIPELINES), built from the
//             feature's default parameters (schema/features.ts), through processVideo. The models it
//             uses are loaded and warmed first (one black frame through the processor, untimed), so
//             the time is processing only; the peak RSS includes the loaded models.
//
// Then, per case, where the time goes per frame: the CPU of the decoding and the encoding ffmpeg
// (each sampled from /proc with the memory), and inside Node each model call (the Models object's
// methods wrapped here), the effects (compute/timing.ts stages in compute/pipelines/hide.ts and the
// emoji overlay), tracking and the rest of the processor, and Node's CPU outside those stages
// (mostly reading and writing the raw-frame pipes, GC); for face features, how many of the
// small-face tiles looked again (compute/pipelines/video/small-tile-scans.ts). Options: npm run
// bench:video -- --help.
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
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
import { childPids, cpuSeconds, liveChildrenCpuSeconds } from "./proc.ts";
import { addStage, recordStages, stageLines, timeModels, type StageTotals } from "./stages.ts";
import { timeStage } from "../compute/timing.ts";
import type { ChunkProcessor } from "../compute/video/stream.ts";
import type { SmallTileRun } from "../compute/pipelines/video/small-tile-scans.ts";
import { makeClip } from "../test/fixtures/video-clips.ts";

const USAGE = `npm run bench:video [-- options]
  --only 720p|1080p|720p-still|4k  one clip only (default: all but 4k)
  --pipelines a,b          video features to run (default: face-blur); face-blur:pixelated and
                           face-blur:emoji run face-blur in that face_blur_mode, blur-anything:car
                           with that prompt (object-removal:car: that object_text)
  --seconds N              clip length for every clip (default 20)
  --seconds-1080p N        clip length of the 1080p clip only
  --help                   this text
Prints, per clip: floor (one ffmpeg decode + encode), identity (raw frames through Node) and each
pipeline, wall and CPU beside the floor's; then per case the CPU (and wall) per frame of each stage.`;

const selfPath = fileURLToPath(import.meta.url);
const cacheDir = join(tmpdir(), "obscura-bench-video");
const CLIPS = [
  { name: "720p", width: 1280, height: 720, seconds: 20, fps: 25 },
  { name: "1080p", width: 1920, height: 1080, seconds: 20, fps: 25 },
  // A still camera: the generated clip's own length (75 frames), whatever --seconds says.
  { name: "720p-still", width: 1280, height: 720, seconds: 3, fps: 25, still: "enter-leave" },
  // The largest frame accepted (schema/limits.ts), 2 s unless --seconds: only with --only 4k (minutes on 2 cores).
  { name: "4k", width: 3840, height: 2160, seconds: 2, fps: 25, optIn: true },
];
const DEFAULT_PIPELINES = ["face-blur"];
/**
 * Bench variants of a feature: "face-blur:pixelated" runs face-blur with face_blur_mode pixelated,
 * "blur-anything:car" blur-anything with the prompt "car".
 */
const MODE_PARAM: Record<string, string> = { "face-blur": "face_blur_mode", "blur-anything": "prompt", "object-removal": "object_text" };

interface CaseResult {
  frames: number;
  seconds: number;
  /** CPU of the Node process alone during the timed part (pipelines only; the ffmpegs are in the tree figure). */
  nodeCpuSeconds?: number;
  /** CPU of the timed part, measured inside the case (pipelines: excludes model loading and warm-up). */
  timedCpuSeconds?: number;
  /** Node-side stages of the timed part (pipelines only). */
  stages?: StageTotals;
  /** Face features: small-face runs, how many looked at every tile, and tiles looked at of all. */
  smallFaces?: { runs: number; full: number; looked: number; tiles: number };
}

/** The required prompts of features that have one: the clip shows people. */
const BENCH_PROMPTS: Record<string, Record<string, string>> = {
  "blur-anything": { prompt: "faces" },
  "object-removal": { object_text: "person" },
};

// ---- child: run one case, print its result as JSON ----
async function runCase(kind: string, clip: string, out: string): Promise<CaseResult> {
  if (kind === "floor") {
    const frames = await countFrames(clip);
    return timedPart(() => new Promise<number>((ok, fail) => {
      const child = spawn(ffmpegPath(), [
        "-hide_banner", "-nostdin", "-v", "error", "-y", "-i", clip, "-map", "0:v:0", "-map", "0:a:0?",
        ...encoderSettingsArgs(DEFAULT_ENCODER), "-c:a", "copy", "-movflags", "+faststart", out,
      ], { stdio: "inherit" });
      child.on("close", (code) => (code === 0 ? ok(frames) : fail(new Error(`ffmpeg exited ${code}`))));
    }));
  }
  if (kind === "identity") {
    return timedPart(async () => (await processVideo(clip, out, { processor: async (f) => f })).frames, recordStages());
  }
  const [name, mode] = kind.split(":");
  const pipeline = VIDEO_PIPELINES[`video.${name}`];
  const feature = featureById(`video.${name}`);
  if (!pipeline || !feature) throw new Error(`no video pipeline video.${name}`);
  const params = feature.params.parse({
    video_url: "https://example.com/bench.mp4", duration_seconds: 60, ...BENCH_PROMPTS[name], ...(mode ? { [MODE_PARAM[name]]: mode } : {}),
  });
  const models = timeModels(createModels());
  const { probeVideo } = await import("../compute/video/probe.ts");
  const info = await probeVideo(clip);
  await warmUp(pipeline(params, models), info.width, info.height);
  const smallFaces = { runs: 0, full: 0, looked: 0, tiles: 0 };
  const onSmallFaceRun = (r: SmallTileRun) => {
    smallFaces.runs++;
    if (r.full) smallFaces.full++;
    smallFaces.looked += r.looked;
    smallFaces.tiles += r.tiles;
  };
  const processor = timedProcessor(pipeline(params, models, { onSmallFaceRun }));
  const result = await timedPart(async () => (await processVideo(clip, out, { processor })).frames, recordStages());
  return smallFaces.runs ? { ...result, smallFaces } : result;
}

/**
 * Wall and CPU of the timed part only (not Node's start-up, imports, model loading or warm-up):
 * this process (Node, model threads) plus the ffmpegs (started and reaped by compute's process
 * spawner, a child of this process). With `stages`, Node's CPU
 * outside every timed stage is added too: mostly reading decoded frames from the pipe and writing
 * them to the encoder, plus garbage collection and threads that run on between stages.
 */
async function timedPart(run: () => Promise<number>, stages?: StageTotals): Promise<CaseResult> {
  const cpu0 = process.cpuUsage();
  const reaped0 = childrenCpuSeconds();
  const t0 = performance.now();
  const frames = await run();
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const reaped1 = childrenCpuSeconds();
  const nodeCpuSeconds = (cpu.user + cpu.system) / 1e6;
  const timedCpuSeconds = reaped0 === null || reaped1 === null ? undefined : nodeCpuSeconds + reaped1 - reaped0;
  if (stages) {
    const inStages = Object.values(stages).reduce((sum, t) => sum + t.cpuMs, 0);
    addStage(stages, "node outside the stages (frame pipes, GC)", null, nodeCpuSeconds * 1000 - inStages);
  }
  return { frames, seconds, nodeCpuSeconds, timedCpuSeconds, stages };
}

/** The processor's own time (tracking, glue) is what remains of its calls once models and effects are out. */
function timedProcessor(processor: ChunkProcessor): ChunkProcessor {
  const stage = "tracking + rest of processor";
  return {
    chunkSize: processor.chunkSize,
    processChunk: (frames, startIndex) => timeStage(stage, () => processor.processChunk(frames, startIndex)),
    ...(processor.flush ? { flush: () => timeStage(stage, () => processor.flush!()) } : {}),
    ...(processor.close ? { close: () => processor.close!() } : {}),
  };
}

async function countFrames(clip: string): Promise<number> {
  const { probeVideo } = await import("../compute/video/probe.ts");
  return (await probeVideo(clip)).frameCount;
}


// ---- parent: sample the process tree's memory and its ffmpegs' CPU while a case runs ----
interface TreeSample {
  rssKb: number;
  /** Last seen utime+stime (s) of each ffmpeg below the case, by pid, with its role. */
  ffmpegCpu: Map<number, { role: string; seconds: number }>;
}

/** The ffmpeg's role from its command line: processVideo's decoder writes to pipe:1, its encoder reads pipe:0. */
function ffmpegRole(pid: number): string | null {
  const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
  if (!/ffmpeg[^/]*$/.test(argv[0] ?? "")) return null;
  if (argv.includes("pipe:1")) return "decode (ffmpeg)";
  if (argv.includes("pipe:0")) return "encode (ffmpeg)";
  return "decode + encode (ffmpeg)";
}

function sampleTree(pid: number, sample: TreeSample): void {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    sample.rssKb += Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    const role = sample.ffmpegCpu.get(pid)?.role ?? ffmpegRole(pid);
    if (role) sample.ffmpegCpu.set(pid, { role, seconds: cpuSeconds(pid, { own: true }) });
    for (const child of childPids(pid)) sampleTree(child, sample);
  } catch {
    // The process ended between listing and reading.
  }
}

/**
 * CPU seconds of this process's children: those it reaped, and the live process spawner
 * (compute/video/spawner.ts) with the ffmpegs it reaped; Linux only.
 */
function childrenCpuSeconds(): number | null {
  const reaped = reapedChildrenCpuSeconds();
  return reaped === null ? null : reaped + liveChildrenCpuSeconds("spawner-process.ts");
}

/** CPU seconds of this process's reaped children (utime+stime of their whole trees); Linux only. */
function reapedChildrenCpuSeconds(): number | null {
  try {
    return cpuSeconds("self", { reaped: true });
  } catch {
    return null;
  }
}

async function measure(kind: string, clip: string): Promise<CaseResult & { peakRssMb: number | null; cpuSeconds: number | null; load: number }> {
  const out = join(cacheDir, `out-${kind.replace(":", "-")}-${process.pid}.mp4`);
  const load = loadavg()[0];
  const cpuBefore = reapedChildrenCpuSeconds();
  try {
    const child = spawn(process.execPath, [selfPath, "--case", kind, clip, out], { stdio: ["ignore", "pipe", "inherit"] });
    let stdout = "";
    child.stdout.on("data", (d) => (stdout += d));
    let peak = 0;
    const ffmpegCpu: TreeSample["ffmpegCpu"] = new Map();
    const canSample = existsSync("/proc/self/status");
    const timer = setInterval(() => {
      const sample = { rssKb: 0, ffmpegCpu };
      sampleTree(child.pid!, sample);
      peak = Math.max(peak, sample.rssKb);
    }, 25);
    const code = await new Promise<number | null>((ok) => child.on("close", ok));
    clearInterval(timer);
    if (code !== 0) throw new Error(`case ${kind} failed (exit ${code})`);
    const result = JSON.parse(stdout.trim().split("\n").at(-1)!) as CaseResult;
    const cpuAfter = reapedChildrenCpuSeconds();
    const cpuSeconds = result.timedCpuSeconds ?? (cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore);
    // The last 25 ms of each ffmpeg's CPU can fall after its last sample; wall is not per stage here (they run in parallel).
    const stages: StageTotals = { ...result.stages };
    for (const { role, seconds } of ffmpegCpu.values()) addStage(stages, role, null, seconds * 1000);
    return { ...result, stages, peakRssMb: canSample ? peak / 1024 : null, cpuSeconds, load };
  } finally {
    await rm(out, { force: true });
  }
}

async function clipFor(spec: (typeof CLIPS)[number]): Promise<string> {
  const path = join(cacheDir, spec.still ? `still-${spec.still}-${spec.width}x${spec.height}.mp4` : `panzoom-${spec.name}-${spec.seconds}s-${spec.fps}fps.mp4`);
  if (!existsSync(path)) {
    process.stdout.write(`generating ${spec.name} clip (${spec.width}x${spec.height}, ${spec.seconds} s)... `);
    const t = performance.now();
    if (spec.still) await encodeClip(spec.still, `${path}.part.mp4`, spec.fps);
    else await makePanZoomVideo({ outPath: `${path}.part.mp4`, width: spec.width, height: spec.height, seconds: spec.seconds, fps: spec.fps, supersample: 1 });
    const { rename } = await import("node:fs/promises");
    await rename(`${path}.part.mp4`, path);
    console.log(`${((performance.now() - t) / 1000).toFixed(1)} s`);
  }
  return path;
}

/** A generated clip's frames (test/fixtures/video-clips.ts) as an H.264 file. */
async function encodeClip(name: string, outPath: string, fps: number): Promise<void> {
  const clip = await makeClip(name);
  const { width, height } = clip.frames[0]!;
  const child = spawn(ffmpegPath(), [
    "-hide_banner", "-nostdin", "-v", "error", "-y", "-f", "rawvideo", "-pix_fmt", "rgb24", "-s", `${width}x${height}`, "-r", String(fps), "-i", "pipe:0",
    "-c:v", "libx264", "-preset", "medium", "-crf", "18", "-pix_fmt", "yuv420p", outPath,
  ], { stdio: ["pipe", "inherit", "inherit"] });
  const done = new Promise<void>((ok, fail) => child.on("close", (code) => (code === 0 ? ok() : fail(new Error(`ffmpeg exited ${code}`)))));
  for (const frame of clip.frames) if (!child.stdin.write(frame.data)) await new Promise((ok) => child.stdin.once("drain", ok));
  child.stdin.end();
  await done;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args[0] === "--case") {
    const result = await runCase(args[1], args[2], args[3]);
    console.log(JSON.stringify(result));
    return;
  }
  if (args.includes("--help") || args.includes("-h")) {
    console.log(USAGE);
    return;
  }
  const only = args.includes("--only") ? args[args.indexOf("--only") + 1] : null;
  const pipelines = args.includes("--pipelines") ? args[args.indexOf("--pipelines") + 1].split(",") : DEFAULT_PIPELINES;
  await mkdir(cacheDir, { recursive: true });
  console.log(`encoder: libx264 preset=${DEFAULT_ENCODER.preset} crf=${DEFAULT_ENCODER.crf} yuv420p; node ${process.version}; ${cpus().length} cores`);
  console.log(`load average before: ${loadavg().map((l) => l.toFixed(2)).join(" ")}`);
  const available = pipelines.filter((name) => VIDEO_PIPELINES[`video.${name.split(":")[0]}`]);
  for (const name of pipelines) if (!available.includes(name)) console.log(`${name}: no video pipeline video.${name} (have: ${Object.keys(VIDEO_PIPELINES).join(", ")})`);
  const secondsAll = args.includes("--seconds") ? Number(args[args.indexOf("--seconds") + 1]) : null;
  const seconds1080 = args.includes("--seconds-1080p") ? Number(args[args.indexOf("--seconds-1080p") + 1]) : null;
  const clips = CLIPS.map((c) => ({ ...c, seconds: c.still ? c.seconds : ((c.name === "1080p" ? seconds1080 : null) ?? secondsAll ?? c.seconds) }));

  const breakdowns: string[] = [];
  const rows: string[][] = [["clip", "case", "frames", "wall s", "fps", "x floor wall", "CPU s", "CPU ms/frame", "x floor CPU", "peak RSS MB", "load before"]];
  for (const spec of clips) {
    if (only ? spec.name !== only : spec.optIn) continue;
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
      if (r.stages && Object.keys(r.stages).length) {
        breakdowns.push(`\n${spec.name} ${kind}: where the time goes (${r.frames} frames, load before ${r.load.toFixed(1)})`, ...stageLines(r.stages, r.frames, "frame"));
        const sf = r.smallFaces;
        if (sf) breakdowns.push(`small-face runs: ${sf.runs} (${sf.full} looking at every tile); tiles looked at: ${sf.looked} of ${sf.tiles} (${Math.round((100 * sf.looked) / sf.tiles)} %)`);
      }
    }
  }
  for (const line of breakdowns) console.log(line);
  console.log("");
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  for (const r of rows) console.log(r.map((cell, c) => cell.padEnd(widths[c])).join("  "));
}

await main();
