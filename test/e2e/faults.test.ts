// Compute that survives: the compute process running a video job is killed (SIGKILL) mid-job. The
// supervisor of scripts/start.ts restarts it, the Worker answers every request meanwhile, the
// job's watchdog (no heartbeat for 90 s) re-dispatches it, and the job ends completed and charged
// exactly once, or failed and refunded in full; never stuck, never charged twice.
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import type { LocalStack } from "../../scripts/local-stack.ts";
import { FEATURES, priceOf } from "../../schema/features.ts";
import { makePanZoomVideo } from "../fixtures/make-video.ts";
import { api, credits, expectJson, featureAccount, upload, waitForJob } from "./helpers.ts";

const SECONDS = 8;
let dir: string;
let clip: Buffer;

const readStack = async () => JSON.parse(await readFile(inject("stackFile"), "utf8")) as LocalStack;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "obscura-faults-"));
  clip = await readFile(await makePanZoomVideo({ outPath: join(dir, "clip.mp4"), width: 480, height: 270, fps: 15, seconds: SECONDS }));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

it("SIGKILL of compute during a video job: the API keeps answering, compute restarts, the job ends settled exactly", async () => {
  const account = await featureAccount(1000);
  const before = await credits(account);
  const price = priceOf(FEATURES.find((f) => f.id === "video.face-blur")!, SECONDS);
  const res = await api(account, "/videos/face-blur", { method: "POST", json: { video_url: await upload(account, "video", clip) } });
  const { job_id } = await expectJson<{ job_id: string }>(res, 202);

  // Kill the instance as soon as it holds the job.
  for (let status = ""; status !== "processing"; ) {
    status = ((await (await api(account, `/jobs/${job_id}`)).json()) as { status: string }).status;
    expect(["queued", "processing"]).toContain(status);
    await new Promise((r) => setTimeout(r, 200));
  }
  const killed = (await readStack()).computePids[0]!;
  process.kill(killed, "SIGKILL");

  // The API answers while compute is gone and while it comes back.
  const answered: number[] = [];
  const job = waitForJob(account, job_id, 280_000);
  let finished = false;
  void job.finally(() => (finished = true));
  while (!finished) {
    answered.push((await api(account, "/me")).status);
    await new Promise((r) => setTimeout(r, 2000));
  }
  expect(answered.every((s) => s === 200)).toBe(true);
  expect((await readStack()).computePids[0]).not.toBe(killed);

  // The restarted compute removed the work directory (the job's input) the killed one left.
  expect((await readdir(tmpdir())).filter((name) => name.startsWith(`obscura-task-${killed}-`))).toEqual([]);

  const done = await job;
  console.log(`fault test: compute pid ${killed} killed; job ${done.status}${done.error ? ` (${done.error.code})` : ""}; /me answered ${answered.length}/${answered.length} polls`);
  const after = await credits(account);
  expect(after.reserved_credits).toBe(before.reserved_credits);
  if (done.status === "completed") {
    expect(done.credits_used).toBe(price);
    expect(before.available_credits - after.available_credits).toBe(price);
  } else {
    expect(after.available_credits).toBe(before.available_credits);
  }
});
