// Does compute's memory stay flat over many requests? (A known pain of model servers: memory that
// grows with every image.) Starts the compute service in this process, serves fixture photos from a
// local HTTP server, and sends signed sync image tasks two at a time, cycling through features and
// photos; prints the process's RSS after the first `early` and after all `total` requests.
// Issue bar: RSS after 500 within 10 % of RSS after 50.
//   npx node bench/memory.ts [total=500] [early=50]
import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import { loadavg } from "node:os";
import { HEALTH_PATH, signRequest, TASKS_PATH, type ComputeHealth } from "../schema/compute-protocol.ts";
import { sha256Hex } from "../schema/signing.ts";
import { startCompute } from "../compute/server.ts";

const total = Number(process.argv[2] ?? 500);
const early = Number(process.argv[3] ?? 50);
const SECRET = "bench-secret";
const COMPUTE_PORT = 18941;
const MEDIA_PORT = 18942;
const base = `http://127.0.0.1:${COMPUTE_PORT}`;
const PHOTOS = ["group1.jpg", "group-collage-small-faces.jpg", "motorcycle_left.png", "astronaut.png", "chelsea.png"];
const FEATURES: Array<[string, Record<string, unknown>]> = [
  ["image.face-blur", {}],
  ["image.license-plate-blur", {}],
  ["image.blur-background", {}],
  ["image.blur-anything", { prompt: "person" }],
  ["image.nsfw-detection", {}],
];

const files = new Map<string, Buffer>();
for (const name of PHOTOS) files.set(name, await readFile(new URL(`../test/fixtures/photos/${name}`, import.meta.url)));
const media = createServer((req, res) => {
  const body = files.get((req.url ?? "").slice(1));
  if (!body) return void res.writeHead(404).end();
  res.writeHead(200, { "content-type": req.url!.endsWith(".png") ? "image/png" : "image/jpeg" }).end(body);
}).listen(MEDIA_PORT, "127.0.0.1");
startCompute({ port: COMPUTE_PORT, host: "127.0.0.1", secret: SECRET, concurrency: 2, maxWaiting: 4 });

// Ready when no model is loading for 3 s (they load one after another at start-up).
let quiet = 0;
while (quiet < 3) {
  await new Promise((r) => setTimeout(r, 1000));
  try {
    const health = (await (await fetch(base + HEALTH_PATH)).json()) as ComputeHealth;
    const list = Object.values(health.models);
    quiet = list.includes("loading") || list.every((m) => m === "idle") ? 0 : quiet + 1;
  } catch (err) {
    if (!(err instanceof TypeError)) throw err; // not listening yet
  }
}

async function task(i: number): Promise<void> {
  const [feature, params] = FEATURES[i % FEATURES.length]!;
  const photo = PHOTOS[Math.floor(i / FEATURES.length) % PHOTOS.length]!;
  const body = JSON.stringify({ task_id: `bench-memory-${i}`, feature, params, media: { url: `http://127.0.0.1:${MEDIA_PORT}/${photo}`, internal: true } });
  const headers = { "content-type": "application/json", ...(await signRequest(SECRET, "POST", TASKS_PATH, await sha256Hex(body))) };
  const res = await fetch(base + TASKS_PATH, { method: "POST", body, headers });
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`${feature} on ${photo}: HTTP ${res.status}`);
}

const mb = () => Math.round(process.memoryUsage().rss / 2 ** 20);
const started = performance.now();
let next = 0;
let rssEarly = 0;
const curve: string[] = [];
const lane = async () => {
  while (next < total) {
    const i = next++;
    await task(i);
    if (i + 1 === early) rssEarly = mb();
    if ((i + 1) % early === 0) curve.push(`${i + 1}: ${mb()}`);
  }
};
await Promise.all([lane(), lane()]);
const rssEnd = mb();
const growth = (100 * (rssEnd - rssEarly)) / rssEarly;
console.log(`${total} image tasks (${FEATURES.map(([f]) => f).join(", ")} over ${PHOTOS.length} photos), two at a time, ${((performance.now() - started) / 1000).toFixed(0)} s, load ${loadavg().map((l) => l.toFixed(1)).join(" ")}`);
console.log(`RSS (MB) by requests done: ${curve.join(", ")}`);
console.log(`RSS after ${early}: ${rssEarly} MB; after ${total}: ${rssEnd} MB (${growth >= 0 ? "+" : ""}${growth.toFixed(1)} %; bar: within 10 %)`);
media.close();
process.exit(0);
