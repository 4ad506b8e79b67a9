// Scale-out: the same batch of jobs on the real local stack (scripts/start.ts) with 1 and with 2
// compute instances, then the fault with two: the instance running a video job is killed (SIGKILL).
//
// Throughput: 20 synchronous image requests (face blur and background blur on real fixture photos
// at 640 px) and 2 video jobs (a real 6 s 480x270 clip) sent at once; prints the wall time until
// the last one ended, jobs per minute, and the tasks each instance finished (its /healthz
// `completed`), which shows the Worker spreading the work.
// Fault: a 8 s video face-blur job starts; the instance whose /healthz lists it is killed; the
// supervisor restarts it; /me every 2 s and an image request every 6 s are sent and must be answered (200,
// or 503 with Retry-After); the job's watchdog (90 s without heartbeat) queues it again and it ends
// completed on an instance (the survivor or the restarted one: printed) or failed and refunded;
// the credits must be exact and the ledger audit must pass. Exits 1 otherwise.
//   npx node bench/scale-out.ts [--skip-throughput] [--skip-fault]
// Ports 8847 (Worker), 8848 and 8849 (compute); state in /tmp/load-state/scale-<n> (deleted first).
import { mkdir, readFile } from "node:fs/promises";
import { loadavg } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import sharp from "sharp";
import { FEATURES, priceOf } from "../schema/features.ts";
import type { LocalStack } from "../scripts/local-stack.ts";
import { makePanZoomVideo } from "../test/fixtures/make-video.ts";
import { auditLedger, badServerAnswers, troubleLines, createAccount, health, Recorder, startStack, summarize, waitForJobs, type Account, type BenchStack } from "./lib/stack.ts";

const { values } = parseArgs({ options: { "skip-throughput": { type: "boolean" }, "skip-fault": { type: "boolean" } } });
const WORKER_PORT = Number(process.env.LOAD_WORKER_PORT ?? 8847);
const COMPUTE_PORT = Number(process.env.LOAD_COMPUTE_PORT ?? 8848);
const STATE_ROOT = process.env.LOAD_STATE_ROOT ?? "/tmp/load-state";
const PHOTOS = ["group1.jpg", "group2.jpg", "group3.jpg", "chelsea.png", "motorcycle_left.png"];
const IMAGES = 20;
const VIDEOS = 2;
const FAULT_SECONDS = 8;
const load = () => loadavg().map((l) => l.toFixed(1)).join(" ");

const scratch = join(STATE_ROOT, "scale-media");
await mkdir(scratch, { recursive: true });
const photos = await Promise.all(PHOTOS.map(async (name) => sharp(await readFile(new URL(`../test/fixtures/photos/${name}`, import.meta.url))).resize({ width: 640 }).toBuffer()));
const batchClip = await readFile(await makePanZoomVideo({ outPath: join(scratch, "clip-6s.mp4"), width: 480, height: 270, fps: 15, seconds: 6 }));
const faultClip = await readFile(await makePanZoomVideo({ outPath: join(scratch, `clip-${FAULT_SECONDS}s.mp4`), width: 480, height: 270, fps: 15, seconds: FAULT_SECONDS }));

let current: BenchStack | undefined;
process.on("SIGINT", () => void current?.stop().then(() => process.exit(130)));

async function upload(rec: Recorder, account: Account, media: "image" | "video", bytes: Uint8Array): Promise<string> {
  const ticket = await rec.call("upload ticket", `/uploads/${media}`, { method: "POST", key: account.key, json: {} });
  const put = await rec.call("upload PUT", ticket.body.upload_url as string, { method: "PUT", body: bytes, headers: { "content-length": String(bytes.byteLength) } });
  if (put.status !== 200) throw new Error(`upload: ${put.status}`);
  return (ticket.body.image_url ?? ticket.body.video_url) as string;
}

const completedPerInstance = async (stack: LocalStack) => Promise.all(stack.computeUrls.map(async (u) => (await health(u))?.completed ?? 0));

async function throughput(instances: number): Promise<{ seconds: number; ok: boolean }> {
  const stack = (current = await startStack({ workerPort: WORKER_PORT, computePort: COMPUTE_PORT, instances, stateDir: join(STATE_ROOT, `scale-${instances}`) }));
  const rec = new Recorder(stack.workerUrl);
  const account = await createAccount(stack, "scale@example.com", 10_000);
  const imageUrls: string[] = [];
  for (const photo of photos) imageUrls.push(await upload(rec, account, "image", photo));
  const clipUrl = await upload(rec, account, "video", batchClip);
  const before = await completedPerInstance(stack);

  const t0 = performance.now();
  const images = Array.from({ length: IMAGES }, (_, i) =>
    rec.call(i % 2 ? "image blur-background" : "image face-blur", i % 2 ? "/images/blur-background" : "/images/face-blur", { method: "POST", key: account.key, json: { image_url: imageUrls[i % imageUrls.length] } }),
  );
  const accepted = await Promise.all(Array.from({ length: VIDEOS }, () => rec.call("video face-blur", "/videos/face-blur", { method: "POST", key: account.key, json: { video_url: clipUrl } })));
  const jobs = accepted.filter((a) => a.status === 202).map((a) => ({ id: a.body.job_id as string, key: account.key }));
  const imageStatuses = (await Promise.all(images)).map((r) => r.status);
  const ended = await waitForJobs(rec, jobs, 600_000);
  const seconds = (performance.now() - t0) / 1000;

  const after = await completedPerInstance(stack);
  const spread = after.map((n, i) => `instance ${i}: ${n - before[i]!}`).join(", ");
  const jobsOk = [...ended.values()].filter((j) => j.status === "completed").length;
  const imagesOk = imageStatuses.filter((s) => s === 200).length;
  const audit = await auditLedger(stack, [account], { expectNoOpenReservations: true });
  console.log(`${instances} instance(s): ${IMAGES} images + ${VIDEOS} videos in ${seconds.toFixed(1)} s = ${((60 * (IMAGES + VIDEOS)) / seconds).toFixed(1)} jobs/min; images 200: ${imagesOk}/${IMAGES}, videos completed: ${jobsOk}/${VIDEOS}; tasks finished per instance: ${spread}; load ${load()}`);
  for (const line of summarize(rec.answers.filter((a) => a.kind.startsWith("image") || a.kind.startsWith("video")))) console.log(line);
  console.log(audit.lines.at(-1));
  const trouble = troubleLines(stack);
  if (trouble.length) console.log(`  stack log, lines about errors or restarts:\n  ${trouble.join("\n  ")}`);
  await stack.stop();
  return { seconds, ok: audit.ok && imagesOk === IMAGES && jobsOk === VIDEOS && badServerAnswers(rec.answers).length === 0 };
}

async function fault(): Promise<boolean> {
  const stack = (current = await startStack({ workerPort: WORKER_PORT, computePort: COMPUTE_PORT, instances: 2, stateDir: join(STATE_ROOT, "scale-fault") }));
  const rec = new Recorder(stack.workerUrl);
  const account = await createAccount(stack, "fault@example.com", 1000);
  const imageUrl = await upload(rec, account, "image", photos[0]!);
  const clipUrl = await upload(rec, account, "video", faultClip);
  const credits = async () => (await rec.call("GET /me/credits", "/me/credits", { key: account.key })).body as { available_credits: number; reserved_credits: number };
  const before = await credits();
  const price = priceOf(FEATURES.find((f) => f.id === "video.face-blur")!, FAULT_SECONDS);

  const t0 = performance.now();
  const res = await rec.call("video face-blur", "/videos/face-blur", { method: "POST", key: account.key, json: { video_url: clipUrl } });
  if (res.status !== 202) throw new Error(`video job: ${res.status} ${JSON.stringify(res.body)}`);
  const jobId = res.body.job_id as string;
  // The instance that holds the job lists it in its /healthz.
  let holder = -1;
  while (holder < 0) {
    const answers = await Promise.all(stack.computeUrls.map(health));
    holder = answers.findIndex((h) => h?.jobs.includes(jobId));
    if (performance.now() - t0 > 120_000) throw new Error("no instance took the job in 120 s");
    if (holder < 0) await new Promise((r) => setTimeout(r, 200));
  }
  await new Promise((r) => setTimeout(r, 2000)); // well into the job
  const pid = (JSON.parse(await readFile(join(stack.stateDir, "obscura-stack.json"), "utf8")) as LocalStack).computePids[holder]!;
  process.kill(pid, "SIGKILL");
  const killedAt = performance.now();
  console.log(`fault: job ${jobId} ran on instance ${holder} (pid ${pid}); SIGKILL ${((killedAt - t0) / 1000).toFixed(1)} s after the 202`);

  // Meanwhile: /me every 2 s and an image request every 6 s; note which instance runs the job again.
  let finished = false;
  const job = waitForJobs(rec, [{ id: jobId, key: account.key }], 400_000).finally(() => (finished = true));
  const ranOn = new Set<number>();
  let rerunAt = 0;
  const imageCalls: Array<Promise<unknown>> = [];
  let tick = 0;
  while (!finished) {
    await rec.call("GET /me (during fault)", "/me", { key: account.key });
    if (tick++ % 3 === 0) imageCalls.push(rec.call("image (during fault)", "/images/face-blur", { method: "POST", key: account.key, json: { image_url: imageUrl } }));
    const answers = await Promise.all(stack.computeUrls.map(health));
    answers.forEach((h, i) => {
      if (h?.jobs.includes(jobId)) {
        ranOn.add(i);
        rerunAt ||= performance.now();
      }
    });
    await new Promise((r) => setTimeout(r, 2000));
  }
  const done = (await job).get(jobId)!;
  await Promise.all(imageCalls);
  const after = await credits();
  const restarts = stack.log.filter((l) => l.includes("[supervisor]"));
  const during = rec.answers.filter((a) => a.kind.endsWith("(during fault)"));
  const allowed = during.filter((a) => a.status === 200 || (a.status === 503 && a.retryAfter));
  // The image requests made meanwhile are charged too (one credit each on success).
  const images = during.filter((a) => a.kind.startsWith("image") && a.status === 200).length;
  const imagePrice = FEATURES.find((f) => f.id === "image.face-blur")!.credits;
  const spent = before.available_credits - after.available_credits;
  const exact = after.reserved_credits === before.reserved_credits && spent === (done.status === "completed" ? price : 0) + images * imagePrice;
  const audit = await auditLedger(stack, [account], { expectNoOpenReservations: true });
  const where = [...ranOn].map((i) => (i === holder ? `instance ${i} (restarted)` : `instance ${i} (the survivor)`)).join(", ") || "not seen";
  console.log(`fault: ${restarts.join(" | ") || "no restart logged"}`);
  console.log(`fault: re-dispatched ${rerunAt ? ((rerunAt - killedAt) / 1000).toFixed(0) : "?"} s after the kill to ${where}; job ${done.status}${done.error ? ` (${done.error.code})` : ""} ${((performance.now() - t0) / 1000).toFixed(0)} s after the 202`);
  console.log(`fault: answered during the fault: ${allowed.length}/${during.length} (${summarize(during).map((l) => l.trim()).join("; ")})`);
  console.log(`fault: credits before ${before.available_credits}, after ${after.available_credits}: the job ${done.status === "completed" ? `charged once (${price})` : "refunded"} + ${images} images (${images * imagePrice}): ${exact ? "exact" : "NOT EXACT"}; reserved ${after.reserved_credits}; load ${load()}`);
  for (const line of audit.lines) console.log(line);
  console.log(`fault: stack log, lines about errors or restarts:\n  ${troubleLines(stack, 20).join("\n  ")}`);
  await stack.stop();
  return exact && audit.ok && allowed.length === during.length && restarts.length > 0;
}

const t0 = performance.now();
let ok = true;
if (!values["skip-throughput"]) {
  const one = await throughput(1);
  const two = await throughput(2);
  console.log(`throughput: 1 instance ${one.seconds.toFixed(1)} s, 2 instances ${two.seconds.toFixed(1)} s for the same batch (x${(one.seconds / two.seconds).toFixed(2)})`);
  ok &&= one.ok && two.ok;
}
if (!values["skip-fault"]) ok &&= await fault();
console.log(`${ok ? "PASS" : "FAIL"}; wall time ${((performance.now() - t0) / 1000).toFixed(0)} s`);
process.exit(ok ? 0 : 1);
