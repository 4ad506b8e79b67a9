// The compute server's HTTP layer for jobs: a dispatch the Worker has given up on (signed longer ago
// than it waits for an accept: the instance was frozen or swamped, and the job is queued again) is
// dropped, never run; a second dispatch of a job this instance is running is accepted, not run twice;
// /healthz lists the jobs it runs now and counts the tasks it finished; a probe the Worker stops
// waiting for stops fetching.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { HEALTH_PATH, JOB_ACCEPT_TIMEOUT_MS, PROBE_PATH, TASKS_PATH, signedParts, type ComputeHealth, type TaskRequest } from "../../schema/compute-protocol.ts";
import { SIGNATURE_HEADER, TIMESTAMP_HEADER, sha256Hex, signParts } from "../../schema/signing.ts";
import { startCompute } from "../../compute/server.ts";

const SECRET = "test-only-compute-secret";
let compute: Server;
let peer: Server; // plays the Worker: serves the media and receives the job's callbacks
const hits: string[] = [];
let holdMedia: (() => void) | undefined;

const url = (s: Server) => `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
const listening = (s: Server) => new Promise<void>((r) => (s.listening ? r() : s.once("listening", () => r())));

beforeAll(async () => {
  peer = createServer((req, res) => {
    hits.push(req.url!);
    if (req.url!.startsWith("/stalled")) return res.on("close", () => hits.push(`closed ${req.url}`));
    if (req.url!.startsWith("/media")) holdMedia = () => {
      holdMedia = undefined;
      res.writeHead(404).end();
    };
    else res.writeHead(200, { "content-type": "application/json" }).end("{}");
  }).listen(0, "127.0.0.1");
  compute = startCompute({ port: 0, host: "127.0.0.1", secret: SECRET, concurrency: 1, maxWaiting: 4, warm: false });
  await Promise.all([listening(peer), listening(compute)]);
});
afterAll(() => {
  holdMedia?.();
  compute.close();
  peer.close();
});

async function dispatch(jobId: string, signedAt = Date.now()): Promise<Response> {
  const task: TaskRequest = {
    task_id: jobId,
    feature: "video.face-blur",
    params: { video_url: `${url(peer)}/media/${jobId}` },
    media: { url: `${url(peer)}/media/${jobId}`, internal: true },
    callback_url: `${url(peer)}/internal/jobs/${jobId}`,
  } as TaskRequest;
  const body = JSON.stringify(task);
  const { timestamp, signature } = await signParts(SECRET, signedParts("POST", TASKS_PATH, await sha256Hex(body)), signedAt);
  return fetch(url(compute) + TASKS_PATH, { method: "POST", body, headers: { "content-type": "application/json", [TIMESTAMP_HEADER]: timestamp, [SIGNATURE_HEADER]: signature } });
}

it("drops a job dispatch signed longer ago than the Worker waits for an accept: 503, the job is not started", async () => {
  const res = await dispatch("job_stale", Date.now() - JOB_ACCEPT_TIMEOUT_MS - 5_000);
  expect(res.status).toBe(503);
  expect(((await res.json()) as { error: { code: string } }).error.code).toBe("compute_unavailable");
  await new Promise((r) => setTimeout(r, 300));
  expect(hits.filter((h) => h.includes("job_stale"))).toEqual([]);
});

it("accepts a second dispatch of a job it is running without running it again", async () => {
  expect((await dispatch("job_twice")).status).toBe(202);
  for (let i = 0; i < 50 && !hits.some((h) => h === "/media/job_twice"); i++) await new Promise((r) => setTimeout(r, 100));
  expect((await dispatch("job_twice")).status).toBe(202);
  await new Promise((r) => setTimeout(r, 300));
  expect(hits.filter((h) => h === "/media/job_twice")).toHaveLength(1);
  const health = async () => (await (await fetch(url(compute) + HEALTH_PATH)).json()) as ComputeHealth;
  expect(await health()).toMatchObject({ jobs: ["job_twice"], completed: 0 });
  // Let the job end (its media is missing): it reports a failure once.
  holdMedia?.();
  for (let i = 0; i < 50 && !hits.some((h) => h === "/internal/jobs/job_twice/fail"); i++) await new Promise((r) => setTimeout(r, 100));
  expect(hits.filter((h) => h === "/internal/jobs/job_twice/fail")).toHaveLength(1);
  // The count moves once the failure callback has been answered.
  for (let i = 0; i < 20 && (await health()).completed === 0; i++) await new Promise((r) => setTimeout(r, 100));
  expect(await health()).toMatchObject({ jobs: [], completed: 1 });
});

it("stops a probe's media fetch when the Worker hangs up (its timeout passed)", async () => {
  const body = JSON.stringify({ media: { url: `${url(peer)}/stalled/probe.mp4`, internal: true } });
  const { timestamp, signature } = await signParts(SECRET, signedParts("POST", PROBE_PATH, await sha256Hex(body)));
  const hangUp = new AbortController();
  const answer = fetch(url(compute) + PROBE_PATH, { method: "POST", body, signal: hangUp.signal, headers: { "content-type": "application/json", [TIMESTAMP_HEADER]: timestamp, [SIGNATURE_HEADER]: signature } });
  answer.catch(() => {});
  for (let i = 0; i < 50 && !hits.includes("/stalled/probe.mp4"); i++) await new Promise((r) => setTimeout(r, 100));
  expect(hits).toContain("/stalled/probe.mp4");
  hangUp.abort();
  for (let i = 0; i < 50 && !hits.includes("closed /stalled/probe.mp4"); i++) await new Promise((r) => setTimeout(r, 100));
  expect(hits).toContain("closed /stalled/probe.mp4");
});
