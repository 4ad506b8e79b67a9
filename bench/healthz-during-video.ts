// Does the compute service answer GET /healthz promptly while it processes a video? A load balancer
// or the Worker marks an instance dead when /healthz stalls, and model inference on the main thread
// (TF.js wasm and onnxruntime-node's run() both execute synchronously there) stalls every request.
// ONNX Runtime sessions run on the inference threads (compute/models/runtime/inference-pool.ts), so
// what remains on the event loop is our own per-frame JS (tiles, decode glue, effects, mask resize).
//
// Starts the compute service in this process, serves a generated 720p clip from a local HTTP
// server, submits one signed sync video task, and requests /healthz every 100 ms while the task
// runs (from a worker thread, so the sampler's own timing is not held up by the loop it measures).
// Prints the latency distribution (idle and during the job), the event loop's delay and the
// task's wall time.
//   npx node bench/healthz-during-video.ts [feature=video.background-blur] [seconds=6]
import { createReadStream, existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { loadavg, tmpdir } from "node:os";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { Worker } from "node:worker_threads";
import { join } from "node:path";
import { HEALTH_PATH, signRequest, TASKS_PATH, type ComputeHealth } from "../schema/compute-protocol.ts";
import { sha256Hex } from "../schema/signing.ts";
import { startCompute } from "../compute/server.ts";
import { makePanZoomVideo } from "../test/fixtures/make-video.ts";

const feature = process.argv[2] ?? "video.background-blur";
const seconds = Number(process.argv[3] ?? 6);
const SECRET = "bench-secret";
const COMPUTE_PORT = 18931;
const MEDIA_PORT = 18932;
const base = `http://127.0.0.1:${COMPUTE_PORT}`;

const dir = join(tmpdir(), "obscura-bench-healthz");
await mkdir(dir, { recursive: true });
const clip = join(dir, `pan-720p-${seconds}s.mp4`);
if (!existsSync(clip)) await makePanZoomVideo({ outPath: clip, width: 1280, height: 720, fps: 25, seconds });

const media: Server = createServer((_req, res) => {
  res.writeHead(200, { "content-type": "video/mp4" });
  createReadStream(clip).pipe(res);
}).listen(MEDIA_PORT, "127.0.0.1");
startCompute({ port: COMPUTE_PORT, host: "127.0.0.1", secret: SECRET, concurrency: 1, maxWaiting: 1 });

async function healthLatency(): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(base + HEALTH_PATH);
  await res.json();
  return performance.now() - t0;
}

/**
 * /healthz latencies sampled every 100 ms until `done` settles, by a worker thread: a sampler on
 * the service's own event loop starts each request only after a stall has ended, so it never
 * sees one (it reported max 109 ms where the loop stalled for up to a second).
 */
async function sample(done: Promise<unknown>): Promise<number[]> {
  const sampler = new Worker(
    `const { parentPort } = require("node:worker_threads");
     const out = [];
     let stop = false;
     parentPort.on("message", () => { stop = true; });
     (async () => {
       while (!stop) {
         const t0 = performance.now();
         await (await fetch(${JSON.stringify(base + HEALTH_PATH)})).json();
         out.push(performance.now() - t0);
         await new Promise((r) => setTimeout(r, 100));
       }
       parentPort.postMessage(out);
     })();`,
    { eval: true },
  );
  await done.catch(() => undefined);
  const result = new Promise<number[]>((resolve) => sampler.once("message", resolve));
  sampler.postMessage("stop");
  const out = await result;
  await sampler.terminate();
  return out;
}

function summary(ms: number[]): string {
  const s = [...ms].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))]!.toFixed(1);
  return `n=${s.length} p50 ${q(0.5)} ms, p95 ${q(0.95)} ms, max ${s[s.length - 1]!.toFixed(1)} ms, over 100 ms: ${s.filter((v) => v > 100).length}`;
}

// Wait for the service and for its start-up warm-up (models load one after another; a failure
// stops it, so "no model loading for 3 s" is the end) before measuring.
console.log("compute started, waiting for warm-up");
let quiet = 0;
let states = "";
while (quiet < 3) {
  await new Promise((r) => setTimeout(r, 1000));
  try {
    const health = (await (await fetch(base + HEALTH_PATH)).json()) as ComputeHealth;
    const list = Object.values(health.models);
    states = Object.entries(health.models).map(([id, state]) => `${id}:${state}`).join(" ");
    quiet = list.includes("loading") || list.every((m) => m === "idle") ? 0 : quiet + 1;
  } catch (err) {
    if (!(err instanceof TypeError)) throw err; // TypeError: not listening yet
  }
}
console.log(`models: ${states}`);
const idle: number[] = [];
for (let i = 0; i < 20; i++) idle.push(await healthLatency());

const body = JSON.stringify({ task_id: "bench-healthz", feature, params: {}, media: { url: `http://127.0.0.1:${MEDIA_PORT}/clip.mp4`, internal: true } });
const headers = { "content-type": "application/json", ...(await signRequest(SECRET, "POST", TASKS_PATH, await sha256Hex(body))) };
const t0 = performance.now();
const job = fetch(base + TASKS_PATH, { method: "POST", body, headers }).then(async (res) => {
  const bytes = (await res.arrayBuffer()).byteLength;
  if (!res.ok) throw new Error(`task failed: HTTP ${res.status} ${new TextDecoder().decode(new Uint8Array(await res.arrayBuffer().catch(() => new ArrayBuffer(0))))}`);
  return bytes;
});
const loop = monitorEventLoopDelay({ resolution: 10 });
loop.enable();
const during = await sample(job);
loop.disable();
const bytes = await job;
console.log(`load ${loadavg().map((l) => l.toFixed(2)).join(" ")}; ${feature} on a ${seconds} s 720p clip: ${((performance.now() - t0) / 1000).toFixed(1)} s, ${bytes} bytes out`);
console.log(`/healthz idle:       ${summary(idle)}`);
console.log(`/healthz during job: ${summary(during)}`);
console.log(`event loop delay during job: p50 ${(loop.percentile(50) / 1e6).toFixed(1)} ms, p99 ${(loop.percentile(99) / 1e6).toFixed(1)} ms, max ${(loop.max / 1e6).toFixed(1)} ms`);
media.close();
process.exit(0);
