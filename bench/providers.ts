// The face detector's networks, and the detector itself, on each ONNX Runtime execution provider:
// ms per call, how far each provider's outputs are from the CPU's, and whether the detector finds
// the same faces. For GPU hosts (README, "Runtime settings"): each provider runs in its own process, so a
// provider that cannot load fails its row instead of falling back to the CPU unseen.
//   npx node bench/providers.ts [--providers cpu,webgpu] [--rounds 10] [--threads N]
// --threads: inference threads per process (OBSCURA_INFERENCE_THREADS; default the service's).
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import sharp from "sharp";
import { ONNX_PROVIDERS, type OnnxProvider } from "../compute/config.ts";
import { convertedModelFile } from "../compute/models/convert/index.ts";
import { createFaceDetector } from "../compute/models/index.ts";
import { iou } from "../compute/models/geometry.ts";
import { createSession, inferenceThreadCount, ort } from "../compute/models/runtime/onnx.ts";
import { InferencePool } from "../compute/models/runtime/inference-pool.ts";
import type { Box, Frame } from "../compute/types.ts";
import { resizeToPlanes } from "../compute/models/resize-input.ts";
import { loadPhoto } from "../test/compute/photos.ts";
import { timePerCall } from "./timing.ts";

const { values: args } = parseArgs({
  options: {
    providers: { type: "string", default: "cpu,webgpu" },
    rounds: { type: "string", default: "10" },
    threads: { type: "string" },
    child: { type: "string" },
    out: { type: "string" },
  },
});
const ROUNDS = Number(args.rounds);

/** Pixel values as each network takes them (face-ssd.ts: 0-255; face-blaze.ts: -1..1). */
const SSD_PIXELS = { scale: 1, bias: 0 };
const BLAZE_PIXELS = { scale: 1 / 127.5, bias: -1 };
/** The networks as the detector calls them: input side, batch, pixel values. */
const NETWORKS = [
  { id: "face-api/ssd_mobilenetv1", side: 512, batch: 1, pixels: SSD_PIXELS, what: "SSD, whole frame" },
  { id: "human/blazeface-back", side: 256, batch: 4, pixels: BLAZE_PIXELS, what: "BlazeFace, 4 tiles" },
  { id: "human/blazeface-back", side: 256, batch: 16, pixels: BLAZE_PIXELS, what: "BlazeFace, 16 tiles" },
  { id: "human/blazeface-back", side: 256, batch: 48, pixels: BLAZE_PIXELS, what: "BlazeFace, 48 tiles" },
  { id: "human/facemesh-detection-full", side: 192, batch: 4, pixels: BLAZE_PIXELS, what: "full-range, 4 looks" },
] as const;

/** The detector's inputs: a group photo as it comes (1920x1280) and cut to a 720p frame. */
const FRAMES = [
  { name: "group1 1920x1280", load: () => loadPhoto("group1.jpg") },
  { name: "group1 1280x720", load: () => resized("group1.jpg", 1280, 720) },
];

interface ChildResult {
  provider: string;
  threads: number;
  networks: Array<{ what: string; ms: number; outputs: number[][] }>;
  /** runs: network calls per detect; runMs: their summed wall time (they overlap on several threads). */
  frames: Array<{ name: string; ms: number; runs: number; runMs: number; boxes: Box[] }>;
}

async function resized(name: string, width: number, height: number): Promise<Frame> {
  const photo = await loadPhoto(name);
  const { data, info } = await sharp(photo.data, { raw: { width: photo.width, height: photo.height, channels: 3 } })
    .resize(width, height, { fit: "cover" })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: 3 } as Frame;
}

/** A photo resized to side x side as NCHW planes, `batch` times over. */
async function planes(side: number, batch: number, pixels: { scale: number; bias: number }): Promise<Float32Array> {
  const photo = await loadPhoto("group2.jpg");
  const x = new Float32Array(batch * 3 * side * side);
  for (let b = 0; b < batch; b++) resizeToPlanes(photo, side, side, { ...pixels, out: x, offset: b * 3 * side * side });
  return x;
}

/** Mean wall ms per call after a warm-up call (timing.ts). */
const msPerCall = async (fn: () => Promise<unknown>) => (await timePerCall(1, ROUNDS, fn)).wall;

async function child(provider: OnnxProvider): Promise<ChildResult> {
  const networks: ChildResult["networks"] = [];
  for (const n of NETWORKS) {
    const session = await createSession(await convertedModelFile(n.id), { providers: [provider], intraOpThreads: 1 });
    const input = await planes(n.side, n.batch, n.pixels);
    const run = () => session.run({ [session.inputNames[0]!]: new ort.Tensor("float32", input.slice(), [n.batch, 3, n.side, n.side]) });
    const ms = await msPerCall(run);
    const out = await run();
    networks.push({ what: n.what, ms, outputs: session.outputNames.map((k) => Array.from(out[k]!.data as Float32Array)) });
    await session.release();
  }
  const calls = countRuns();
  const faces = createFaceDetector();
  const frames: ChildResult["frames"] = [];
  for (const f of FRAMES) {
    const frame = await f.load();
    const ms = await msPerCall(() => faces.detect(frame));
    calls.runs = calls.ms = 0;
    const boxes = (await faces.detect(frame)).map(({ x, y, width, height }) => ({ x, y, width, height }));
    frames.push({ name: f.name, ms, runs: calls.runs, runMs: calls.ms, boxes });
  }
  return { provider, threads: inferenceThreadCount(), networks, frames };
}

/** Counts the network calls of every session opened from now on, and their wall time. */
function countRuns(): { runs: number; ms: number } {
  const count = { runs: 0, ms: 0 };
  const open = InferencePool.prototype.open;
  InferencePool.prototype.open = async function (this: InferencePool, ...args: Parameters<InferencePool["open"]>) {
    const session = await open.apply(this, args);
    return {
      ...session,
      provider: session.provider,
      inputNames: session.inputNames,
      outputNames: session.outputNames,
      run: async (feeds, options) => {
        const t0 = performance.now();
        try {
          return await session.run(feeds, options);
        } finally {
          count.runs++;
          count.ms += performance.now() - t0;
        }
      },
    };
  };
  return count;
}

function maxDiff(a: number[][], b: number[][]): number {
  let d = 0;
  for (let k = 0; k < a.length; k++) for (let i = 0; i < a[k]!.length; i++) d = Math.max(d, Math.abs(a[k]![i]! - b[k]![i]!));
  return d;
}

/** Boxes of `a` with a box of `b` at IoU >= 0.8. */
const matched = (a: Box[], b: Box[]) => a.filter((x) => b.some((y) => iou(x, y) >= 0.8)).length;

function main(): void {
  const providers = args.providers.split(",").map((s) => s.trim());
  for (const p of providers) if (!(ONNX_PROVIDERS as readonly string[]).includes(p)) throw new Error(`--providers: unknown provider ${p}`);
  console.log(`load ${loadavg()[0]!.toFixed(1)}, rounds ${ROUNDS}, inference threads ${args.threads ?? "default"}`);
  const results: ChildResult[] = [];
  const dir = mkdtempSync(path.join(tmpdir(), "providers-"));
  for (const p of providers) {
    const env = { ...process.env, OBSCURA_ONNX_PROVIDERS: p, ...(args.threads ? { OBSCURA_INFERENCE_THREADS: args.threads } : {}) };
    const out = path.join(dir, `${p}.json`);
    const r = spawnSync(process.execPath, [...process.execArgv, process.argv[1]!, "--child", p, "--rounds", String(ROUNDS), "--out", out], { env, encoding: "utf8" });
    if (r.status !== 0) {
      const lines = (r.stderr || r.stdout).trim().split("\n");
      console.log(`${p}: failed (exit ${r.status}): ${(lines.find((l) => /error/i.test(l)) ?? lines.at(-1))!.slice(0, 400)}`);
      continue;
    }
    results.push(JSON.parse(readFileSync(out, "utf8")) as ChildResult);
    // ONNX Runtime's warnings, e.g. nodes a provider does not run (they go to the CPU, with copies).
    for (const line of new Set(r.stderr.split("\n").filter((l) => /\[W:onnxruntime|not assigned/.test(l)))) console.log(`${p}: ${line.replace(/^.*?\] /, "").slice(0, 300)}`);
  }
  const base = results[0];
  if (!base) return;
  console.log(`\nnetwork (one session, 1 intra-op thread) | ${results.map((r) => `${r.provider} ms`).join(" | ")} | largest |difference| from ${base.provider}`);
  for (let i = 0; i < base.networks.length; i++) {
    const diffs = results.slice(1).map((r) => maxDiff(base.networks[i]!.outputs, r.networks[i]!.outputs).toExponential(1));
    console.log(`${base.networks[i]!.what} | ${results.map((r) => r.networks[i]!.ms.toFixed(1)).join(" | ")} | ${diffs.join(" | ") || "-"}`);
  }
  console.log(`\nface detector | ${results.map((r) => `${r.provider}, ${r.threads} inference thread(s): ms (faces)`).join(" | ")} | boxes matched to ${base.provider}'s (IoU >= 0.8)`);
  for (let i = 0; i < base.frames.length; i++) {
    const b = base.frames[i]!;
    const same = results.slice(1).map((r) => `${matched(r.frames[i]!.boxes, b.boxes)}/${b.boxes.length}`);
    console.log(`${b.name} | ${results.map((r) => `${r.frames[i]!.ms.toFixed(0)} (${r.frames[i]!.boxes.length})`).join(" | ")} | ${same.join(" | ") || "-"}`);
    console.log(`  network calls per detect, and their summed ms from call to answer (queueing included): ${results.map((r) => `${r.provider} ${r.frames[i]!.runs}, ${r.frames[i]!.runMs.toFixed(0)}`).join("; ")}`);
  }
}

if (args.child) {
  writeFileSync(args.out!, JSON.stringify(await child(args.child as OnnxProvider)));
  process.exit(0); // the inference threads are unref'd, but open sessions keep native handles
} else {
  main();
}
