// Load: a mix of concurrent requests against the real local stack (scripts/start.ts: wrangler dev's
// workerd with D1/R2/Durable Objects/Queues, real compute with its models and ffmpeg), then an
// audit from the ledger. The mix: image features on real fixture photos scaled to 384 px (sync,
// multipart and async), a few short video jobs, the upload flow, account reads, and bad input (bad
// JSON, an unknown field, no key, a wrong key, a text file as an image, an account without enough
// credits). After every job has ended it audits D1 (bench/lib/stack.ts auditLedger): for every
// account balance = grants - captures - open reservations, no reservation left open, every job
// terminal and settled as it ended, /me/credits equal to the ledger; and no 5xx other than 503
// with Retry-After. Prints counts by status and code, p50/p95 latency per kind, the audit; exits 1
// when the audit fails or an answer was not one the request allows.
//   npx node bench/load.ts [--requests 1000] [--concurrency 50] [--instances 1]
// Ports 8847 (Worker) and 8848.. (compute), state in /tmp/load-state/load (deleted first);
// LOAD_WORKER_PORT, LOAD_COMPUTE_PORT and LOAD_STATE_DIR change them.
import { mkdir, readFile } from "node:fs/promises";
import { loadavg } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import sharp from "sharp";
import { makePanZoomVideo } from "../test/fixtures/make-video.ts";
import { auditLedger, badServerAnswers, troubleLines, createAccount, Recorder, startStack, summarize, waitForJobs, type Account } from "./lib/stack.ts";

const { values } = parseArgs({ options: { requests: { type: "string", default: "1000" }, concurrency: { type: "string", default: "50" }, instances: { type: "string", default: "1" } } });
const REQUESTS = Number(values.requests);
const CONCURRENCY = Number(values.concurrency);
const stateDir = process.env.LOAD_STATE_DIR ?? "/tmp/load-state/load";
const PHOTOS = ["group1.jpg", "group3.jpg", "chelsea.png", "motorcycle_left.png", "text.png"];
const RICH_ACCOUNTS = 8;
const POOR_CREDITS = 5;

const t0 = performance.now();
const secondsSince = (t: number) => ((performance.now() - t) / 1000).toFixed(1);

// Media: real photos at 384 px wide (same format), one real 4 s clip, and a text file posing as an image.
const scratch = join(stateDir, "..", "load-media");
await mkdir(scratch, { recursive: true });
const photos = await Promise.all(
  PHOTOS.map(async (name) => {
    const bytes = await sharp(await readFile(new URL(`../test/fixtures/photos/${name}`, import.meta.url))).resize({ width: 384 }).toBuffer();
    return { name, bytes, type: name.endsWith(".png") ? "image/png" : "image/jpeg" };
  }),
);
const clip = await readFile(await makePanZoomVideo({ outPath: join(scratch, "clip-4s.mp4"), width: 320, height: 180, fps: 10, seconds: 4 }));
const notAnImage = Buffer.from("this is a text file, not an image\n".repeat(20));

const stack = await startStack({
  workerPort: Number(process.env.LOAD_WORKER_PORT ?? 8847),
  computePort: Number(process.env.LOAD_COMPUTE_PORT ?? 8848),
  instances: Number(values.instances),
  stateDir,
});
const stopStack = () => void stack.stop().then(() => process.exit(130));
process.on("SIGINT", stopStack);
console.log(`stack up with ${stack.computeUrls.length} compute instance(s) and models warm after ${secondsSince(t0)} s`);

const rec = new Recorder(stack.workerUrl);
const rich: Account[] = [];
for (let i = 0; i < RICH_ACCOUNTS; i++) rich.push(await createAccount(stack, `load-${i}@example.com`, 10_000));
const poor = await createAccount(stack, "load-poor@example.com", POOR_CREDITS);
const accounts = [...rich, poor];

async function upload(kind: string, account: Account, media: "image" | "video", bytes: Uint8Array): Promise<{ status: number; url?: string }> {
  const ticket = await rec.call(`${kind} ticket`, `/uploads/${media}`, { method: "POST", key: account.key, json: {} });
  if (ticket.status !== 201) return { status: ticket.status };
  const put = await rec.call(`${kind} PUT`, ticket.body.upload_url as string, { method: "PUT", body: bytes, headers: { "content-length": String(bytes.byteLength) } });
  return { status: put.status, url: (ticket.body.image_url ?? ticket.body.video_url) as string };
}

// Set-up (not in the mix): every account uploads each photo and the clip once; the features read
// them from R2 (an upload is usable only by the account that made it).
const photoUrls = new Map<string, string[]>();
const clipUrls = new Map<string, string>();
for (const account of accounts) {
  const urls: string[] = [];
  for (const photo of photos) urls.push((await upload("setup upload", account, "image", photo.bytes)).url!);
  photoUrls.set(account.key, urls);
  clipUrls.set(account.key, (await upload("setup upload", account, "video", clip)).url!);
}

let seed = 7;
const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
const richAccount = () => pick(rich);
const photoUrl = (account: Account) => pick(photoUrls.get(account.key)!);
const jobs: Array<{ id: string; key: string }> = [];

interface Op {
  kind: string;
  /** Statuses this request may get (503 compute_unavailable is allowed wherever compute is used). */
  allowed: number[];
  run(): Promise<number>;
}
const status = async (p: Promise<{ status: number }>) => (await p).status;
const feature = (kind: string, path: string, json: (a: Account) => Record<string, unknown>, account = richAccount): Op => ({
  kind,
  allowed: [200, 503],
  run: () => {
    const a = account();
    return status(rec.call(kind, path, { method: "POST", key: a.key, json: json(a) }));
  },
});
const job = (kind: string, path: string, json: (a: Account) => Record<string, unknown>, headers: Record<string, string> = {}): Op => ({
  kind,
  allowed: [202, 503],
  run: async () => {
    const a = richAccount();
    const res = await rec.call(kind, path, { method: "POST", key: a.key, json: json(a), headers });
    if (res.status === 202) jobs.push({ id: res.body.job_id as string, key: a.key });
    return res.status;
  },
});
const read = (kind: string, path: string): Op => ({ kind, allowed: [200], run: () => status(rec.call(kind, path, { key: richAccount().key })) });
const multipart = (kind: string, account: Account, file: { bytes: Uint8Array; type: string; name: string }) => {
  const form = new FormData();
  form.set("image", new Blob([file.bytes], { type: file.type }), file.name);
  return rec.call(kind, "/images/face-blur", { method: "POST", key: account.key, body: form });
};

/** The mix per 1,000 requests; the account reads take what the others leave. */
const MIX: Array<[number, () => Op]> = [
  [50, () => feature("image face-blur", "/images/face-blur", (a) => ({ image_url: photoUrl(a) }))],
  [20, () => ({ kind: "image multipart", allowed: [200, 503], run: () => status(multipart("image multipart", richAccount(), pick(photos))) })],
  [25, () => feature("image blur-background", "/images/blur-background", (a) => ({ image_url: photoUrl(a) }))],
  [15, () => feature("image plate-blur", "/images/license-plate-blur", (a) => ({ image_url: photoUrl(a) }))],
  [40, () => feature("nsfw", "/detect/nsfw", (a) => ({ media_url: photoUrl(a) }))],
  [10, () => job("image async", "/images/face-blur", (a) => ({ image_url: photoUrl(a) }), { prefer: "respond-async" })],
  [2, () => job("video face-blur", "/videos/face-blur", (a) => ({ video_url: clipUrls.get(a.key) }))],
  [2, () => job("video bg-blur", "/videos/background-blur", (a) => ({ video_url: clipUrls.get(a.key) }))],
  // Five credits for twenty requests at one credit each: exactly five may pass.
  [20, () => ({ kind: "402 poor account", allowed: [200, 402, 503], run: () => status(rec.call("402 poor account", "/images/face-blur", { method: "POST", key: poor.key, json: { image_url: photoUrl(poor) } })) })],
  [150, () => ({ kind: "upload", allowed: [200], run: async () => (await upload("upload", richAccount(), "image", pick(photos).bytes)).status })],
  [30, () => ({ kind: "bad json", allowed: [400], run: () => status(rec.call("bad json", "/images/face-blur", { method: "POST", key: richAccount().key, body: '{"image_url": ', headers: { "content-type": "application/json" } })) })],
  [30, () => ({ kind: "unknown field", allowed: [400], run: () => status(rec.call("unknown field", "/images/face-blur", { method: "POST", key: richAccount().key, json: { image_url: "https://example.com/a.jpg", blurr: 1 } })) })],
  [30, () => ({ kind: "missing key", allowed: [401], run: () => status(rec.call("missing key", "/me/credits")) })],
  [30, () => ({ kind: "wrong key", allowed: [401], run: () => status(rec.call("wrong key", "/me", { key: `obs_live_${"A".repeat(43)}` })) })],
  [30, () => ({ kind: "unsupported media", allowed: [422], run: () => status(multipart("unsupported media", richAccount(), { bytes: notAnImage, type: "image/png", name: "a.png" })) })],
  [100, () => read("GET /features", "/features")],
];
const ops: Op[] = [];
for (const [per1000, make] of MIX) for (let i = 0; i < Math.round((per1000 * REQUESTS) / 1000); i++) ops.push(make());
while (ops.length < REQUESTS) ops.push(ops.length % 2 ? read("GET /me", "/me") : read("GET /me/credits", "/me/credits"));
ops.length = REQUESTS;
for (let i = ops.length - 1; i > 0; i--) {
  const j = Math.floor(random() * (i + 1));
  [ops[i], ops[j]] = [ops[j]!, ops[i]!];
}

console.log(`${accounts.length} accounts, ${photos.length} photos and a 4 s clip uploaded; firing ${ops.length} requests, ${CONCURRENCY} in flight (load ${loadavg().map((l) => l.toFixed(1)).join(" ")})`);
const unexpected: string[] = [];
const tFire = performance.now();
let next = 0;
await Promise.all(
  Array.from({ length: CONCURRENCY }, async () => {
    while (next < ops.length) {
      const op = ops[next++]!;
      const got = await op.run();
      if (!op.allowed.includes(got)) unexpected.push(`${op.kind}: ${got}`);
    }
  }),
);
const fireSeconds = secondsSince(tFire);
console.log(`all ${ops.length} answered in ${fireSeconds} s; waiting for ${jobs.length} jobs`);
const tJobs = performance.now();
const ended = await waitForJobs(rec, jobs, 600_000);
const jobStates = new Map<string, number>();
for (const j of ended.values()) jobStates.set(`${j.status}${j.error ? ` (${j.error.code})` : ""}`, (jobStates.get(`${j.status}${j.error ? ` (${j.error.code})` : ""}`) ?? 0) + 1);
console.log(`jobs ended ${secondsSince(tJobs)} s later: ${[...jobStates].map(([s, n]) => `${s} ${n}`).join(", ")}${ended.size < jobs.length ? `; ${jobs.length - ended.size} still running` : ""}`);

console.log("\nanswers by kind (status and error code), latency from request to full body:");
for (const line of summarize(rec.answers)) console.log(line);
const byStatus = new Map<number, number>();
for (const a of rec.answers) byStatus.set(a.status, (byStatus.get(a.status) ?? 0) + 1);
console.log(`all ${rec.answers.length} HTTP answers by status: ${[...byStatus].sort((a, b) => a[0] - b[0]).map(([s, n]) => `${s}: ${n}`).join(", ")}`);

for (const a of rec.answers.filter((a) => a.status >= 500)) console.log(`  ${a.status} on ${a.kind} after ${a.ms.toFixed(0)} ms, Retry-After ${a.retryAfter ?? "none"}: ${a.message}`);

const audit = await auditLedger(stack, accounts, { expectNoOpenReservations: true });
const server = badServerAnswers(rec.answers);
console.log("");
for (const line of audit.lines.slice(0, -1)) console.log(line);
console.log(`5xx other than 503 with Retry-After (or no answer): ${server.length}${server.length ? ` (${server.slice(0, 5).map((a) => `${a.kind} ${a.status} ${a.code ?? ""}`).join("; ")})` : ""}`);
console.log(`answers a request does not allow: ${unexpected.length}${unexpected.length ? ` (${[...new Set(unexpected)].slice(0, 10).join("; ")})` : ""}`);
const trouble = troubleLines(stack);
console.log(`stack log, lines about errors or restarts: ${trouble.length ? `\n  ${trouble.join("\n  ")}` : "none"}`);
const pass = audit.ok && server.length === 0 && unexpected.length === 0 && ended.size === jobs.length;
console.log(`${pass ? "PASS" : "FAIL"}; wall time ${secondsSince(t0)} s (start-up and set-up included; requests ${fireSeconds} s), load ${loadavg().map((l) => l.toFixed(1)).join(" ")}`);
await stack.stop();
process.exit(pass ? 0 : 1);
