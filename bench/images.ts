// npm run bench:images — image feature latency on this machine, measured, never estimated.
//
// For each image feature, on a ~2 MP real photo (test/fixtures/photos/group1.jpg, 1920x1280, three
// faces) and a ~12 MP photo (the same photo upscaled with lanczos3 to 4240x2830 and saved as JPEG
// q92: an upscale, so it has 12 MP of pixels but not 12 MP of detail; made once in the OS temp dir),
// it reports the median over N runs of what the compute service does per request: decode
// (in a decoder process, as compute does: sniff, orientation, limits) + pipeline + encode in the input's format (NSFW: decode
// + classify). Next to it: the median CPU time of one run (process.cpuUsage, all threads of the
// process: unlike wall time it does not depend on what else the 2-core machine runs), the ratio of
// both to sharp's plain decode + JPEG encode of the same file (the floor for "read an image, write
// an image"), and the peak RSS of the process. Each feature runs in a fresh child process with only
// the models it needs loaded and warmed (one untimed run on each photo first), so the peak RSS is
// that feature's alone: models + frames + intermediates (Linux getrusage maxrss).
//
// Then, per feature and size, where the time of one image goes: decode, each model call (the
// Models object's methods wrapped here, whatever runtime runs underneath), the effects
// (compute/timing.ts stages in compute/pipelines/hide.ts and the emoji overlay), the rest of the
// pipeline, encode; CPU and wall per image over the timed runs.
//
// Usage: npm run bench:images [-- --runs 5] [-- --only face-blur,nsfw] [-- --help]
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdir, rename } from "node:fs/promises";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import sharp from "sharp";
import { liveChildrenCpuSeconds } from "./proc.ts";
import { addStage, recordStages, stageLines, timeModels, type StageTotals } from "./stages.ts";
import { timeStage } from "../compute/timing.ts";

const USAGE = `npm run bench:images [-- options]
  --runs N        timed runs per photo size after one warm-up run (default 5)
  --only a,b      features whose name starts with one of these (default: all)
  --help          this text
Prints, per image feature and photo size: median wall and CPU of decode + pipeline + encode beside
the floor (sharp decode + JPEG encode of the same file), peak RSS; then where one image's time goes.`;

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const selfPath = fileURLToPath(import.meta.url);
const cacheDir = join(tmpdir(), "obscura-bench-images");
const SOURCE = join(repoRoot, "test/fixtures/photos/group1.jpg");
const BIG = { width: 4240, height: 2830 };

const FEATURES: Record<string, { id: string; params: Record<string, unknown> }> = {
  "face-blur": { id: "image.face-blur", params: {} },
  "license-plate-blur": { id: "image.license-plate-blur", params: {} },
  "blur-background": { id: "image.blur-background", params: {} },
  "remove-background": { id: "image.remove-background", params: { output_transparent: true } },
  "portrait-enhance": { id: "image.portrait-enhance", params: { enhance_face: true, depth_effect: true } },
  "blur-anything car": { id: "image.blur-anything", params: { prompt: "car" } },
  nsfw: { id: "image.nsfw", params: {} },
};

interface SizeResult {
  /** Stage totals over the timed runs. */
  stages: StageTotals;
  medianMs: number;
  medianCpuMs: number;
  floorMs: number;
  floorCpuMs: number;
}
interface CaseResult {
  sizes: Record<string, SizeResult>;
  peakRssMb: number;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** CPU ms spent so far by the image decoder processes (compute/media/image-decoders.ts). */
const decoderCpuMs = () => liveChildrenCpuSeconds("decoder-process.ts") * 1000;

/** Wall and CPU ms of `fn`; CPU includes the decoder processes' (the image's decode happens there). */
async function timed(fn: () => Promise<unknown>): Promise<{ ms: number; cpuMs: number }> {
  const c0 = process.cpuUsage();
  const k0 = decoderCpuMs();
  const t0 = performance.now();
  await fn();
  const ms = performance.now() - t0;
  const c = process.cpuUsage(c0);
  return { ms, cpuMs: (c.user + c.system) / 1000 + decoderCpuMs() - k0 };
}

async function bigPhoto(): Promise<string> {
  const path = join(cacheDir, `group1-${BIG.width}x${BIG.height}.jpg`);
  if (!existsSync(path)) {
    await mkdir(cacheDir, { recursive: true });
    await sharp(SOURCE).resize(BIG.width, BIG.height, { fit: "fill", kernel: "lanczos3" }).jpeg({ quality: 92 }).toFile(`${path}.part`);
    await rename(`${path}.part`, path);
  }
  return path;
}

// ---- child: one feature, both sizes ----
async function runCase(name: string, files: Record<string, string>, runs: number): Promise<CaseResult> {
  const { createModels } = await import("../compute/models/index.ts");
  const { IMAGE_PIPELINES } = await import("../compute/pipelines/image/index.ts");
  const { encodeImage } = await import("../compute/media/image.ts");
  const { imageDecoders } = await import("../compute/media/image-decoders.ts");
  const feature = FEATURES[name];
  const models = timeModels(createModels());
  const pipeline = IMAGE_PIPELINES[feature.id as keyof typeof IMAGE_PIPELINES];
  let stages: StageTotals | undefined; // the timed runs' totals (none during warm-up)
  const once = async (bytes: Buffer) => {
    // As compute does: the header (for the pixel budget), then the pixels, in a decoder process.
    const decoderCpu = decoderCpuMs();
    const { frame, format, release } = await timeStage("decode", async () => imageDecoders().decode(bytes, await imageDecoders().readHeader(bytes)));
    if (stages) addStage(stages, "decoder process (in decode)", null, decoderCpuMs() - decoderCpu);
    const out = await timeStage<unknown>("rest of pipeline", () => pipeline(frame, { ...feature.params }, models));
    if (feature.id !== "image.nsfw") await timeStage("encode", () => encodeImage(out as Parameters<typeof encodeImage>[0], format));
    release();
  };
  const sizes: Record<string, SizeResult> = {};
  const bytesOf = Object.fromEntries(Object.entries(files).map(([k, f]) => [k, readFileSync(f)]));
  // Warm-up: models load lazily on first use; one untimed run per photo.
  for (const bytes of Object.values(bytesOf)) await once(bytes);
  for (const [size, bytes] of Object.entries(bytesOf)) {
    const floor: { ms: number; cpuMs: number }[] = [];
    const feat: { ms: number; cpuMs: number }[] = [];
    stages = recordStages();
    for (let i = 0; i < runs; i++) {
      floor.push(await timed(() => sharp(bytes).jpeg({ quality: 90 }).toBuffer()));
      feat.push(await timed(() => once(bytes)));
    }
    sizes[size] = {
      stages: stages!,
      medianMs: median(feat.map((r) => r.ms)), medianCpuMs: median(feat.map((r) => r.cpuMs)),
      floorMs: median(floor.map((r) => r.ms)), floorCpuMs: median(floor.map((r) => r.cpuMs)),
    };
  }
  await imageDecoders().close();
  return { sizes, peakRssMb: process.resourceUsage().maxRSS / 1024 };
}

async function measure(name: string, files: Record<string, string>, runs: number): Promise<CaseResult & { load: number }> {
  const load = loadavg()[0];
  const child = spawn(process.execPath, [selfPath, "--case", name, JSON.stringify(files), String(runs)], { stdio: ["ignore", "pipe", "inherit"] });
  let stdout = "";
  child.stdout.on("data", (d) => (stdout += d));
  const code = await new Promise<number | null>((ok) => child.on("close", ok));
  if (code !== 0) throw new Error(`case ${name} failed (exit ${code})`);
  return { ...(JSON.parse(stdout.trim().split("\n").at(-1)!) as CaseResult), load };
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args[0] === "--case") {
    console.log(JSON.stringify(await runCase(args[1], JSON.parse(args[2]) as Record<string, string>, Number(args[3]))));
    return;
  }
  if (args.includes("--help") || args.includes("-h")) {
    console.log(USAGE);
    return;
  }
  const runs = args.includes("--runs") ? Number(args[args.indexOf("--runs") + 1]) : 5;
  const only = args.includes("--only") ? args[args.indexOf("--only") + 1].split(",") : null;
  const big = await bigPhoto();
  const files = { "2.5MP": SOURCE, "12MP": big };
  console.log(`photos: 2.5MP = group1.jpg 1920x1280 (real); 12MP = group1.jpg upscaled to ${BIG.width}x${BIG.height} (lanczos3, JPEG q92)`);
  console.log(`${runs} timed runs per size after warm-up; node ${process.version}; ${cpus().length} cores; floor = sharp decode + JPEG q90 encode`);
  console.log(`load average before: ${loadavg().map((l) => l.toFixed(2)).join(" ")}`);
  const breakdowns: string[] = [];
  const rows: string[][] = [["feature", "size", "median ms", "CPU ms", "floor ms", "floor CPU ms", "x floor wall", "x floor CPU", "peak RSS MB", "load before"]];
  for (const name of Object.keys(FEATURES)) {
    if (only && !only.some((o) => name.startsWith(o))) continue;
    const r = await measure(name, files, runs);
    for (const [size, s] of Object.entries(r.sizes)) {
      rows.push([
        name, size, s.medianMs.toFixed(0), s.medianCpuMs.toFixed(0), s.floorMs.toFixed(0), s.floorCpuMs.toFixed(0),
        (s.medianMs / s.floorMs).toFixed(1), (s.medianCpuMs / s.floorCpuMs).toFixed(1), r.peakRssMb.toFixed(0), r.load.toFixed(1),
      ]);
      console.log(rows.at(-1)!.join("\t"));
      breakdowns.push(`\n${name} ${size}: where one image's time goes (${runs} runs, load before ${r.load.toFixed(1)})`, ...stageLines(s.stages, runs, "image"));
    }
  }
  for (const line of breakdowns) console.log(line);
  console.log("");
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  for (const r of rows) console.log(r.map((cell, c) => cell.padEnd(widths[c])).join("  "));
}

await main();
