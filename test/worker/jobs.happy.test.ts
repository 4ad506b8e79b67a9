// Jobs: creation, the status record, and signed compute callbacks moving a job to completion,
// with the credits settled exactly once.
import { env, runInDurableObject, SELF } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { sha256Hex } from "../../schema/signing.ts";
import type { JobObject } from "../../worker/durable/job.ts";
import { createJob, jobStub } from "../../worker/services/jobs.ts";
import { reserveCredits } from "../../worker/services/ledger.ts";
import { BASE, api, balance, createTestJob, createUser, db, jobState, ledgerKinds, makeMp4Head, signedInternal } from "./helpers.ts";

afterEach(() => vi.restoreAllMocks());

const getJob = async (key: string, jobId: string) => {
  const res = await api(`/jobs/${jobId}`, { key });
  expect(res.status).toBe(200);
  return (await res.json()) as Record<string, unknown>;
};

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe("createJob", () => {
  it("holds the job in its Durable Object, indexes it in D1 and queues it for dispatch", async () => {
    const send = vi.spyOn(env.JOB_QUEUE, "send").mockResolvedValue(undefined as never);
    const u = await createUser({ credits: 10 });
    const reservation = await reserveCredits(env.DB, u.account.id, 4, "video.face-blur");
    const job = await createJob(env, db(), { accountId: u.account.id, feature: "video.face-blur", params: { video_url: "https://media.example.com/a.mp4", duration_seconds: 15 }, media: { kind: "url", url: "https://media.example.com/a.mp4" }, origin: BASE, reservation });
    expect(job.jobId).toMatch(/^job_[A-Za-z0-9_-]{22}$/);
    expect(send).toHaveBeenCalledExactlyOnceWith({ jobId: job.jobId });
    expect(await env.DB.prepare("SELECT account_id, feature, credits_reserved FROM jobs WHERE id = ?1").bind(job.jobId).first()).toEqual({ account_id: u.account.id, feature: "video.face-blur", credits_reserved: 4 });
    // The object watches the queue: an alarm is set for the queue timeout.
    const alarm = await runInDurableObject(jobStub(env, job.jobId), (_i: JobObject, state) => state.storage.getAlarm());
    expect(alarm).toBeGreaterThan(Date.now() + 29 * 60_000);
  });
});

describe("GET /api/v2/jobs/{job_id}", () => {
  it("returns the record with status, progress, credits and timestamps", async () => {
    const u = await createUser({ credits: 10 });
    const { jobId } = await createTestJob(u, { credits: 4 });
    const body = await getJob(u.key, jobId);
    expect(body).toEqual({ success: true, job_id: jobId, status: "queued", feature: "face-blur", progress: 0, credits_used: 4, created_at: expect.stringMatching(ISO), updated_at: expect.stringMatching(ISO) });
    expect(Date.parse(body.updated_at as string)).toBeGreaterThanOrEqual(Date.parse(body.created_at as string));
  });
});

describe("signed compute callbacks", () => {
  it("progress, then the result: completed with a served result_url, credits captured once", async () => {
    const u = await createUser({ credits: 10 });
    const { jobId } = await createTestJob(u, { credits: 6, durationSeconds: 30 });
    expect(await jobStub(env, jobId).startAttempt()).toBe(true);
    expect((await getJob(u.key, jobId)).status).toBe("processing");

    const p = await signedInternal("POST", `/internal/jobs/${jobId}/progress`, JSON.stringify({ progress: 42.4 }));
    expect(p.status).toBe(200);
    expect(await getJob(u.key, jobId)).toMatchObject({ status: "processing", progress: 42 });
    // Progress never goes backwards and stays below 100 until the result is in.
    await signedInternal("POST", `/internal/jobs/${jobId}/progress`, JSON.stringify({ progress: 10 }));
    expect((await getJob(u.key, jobId)).progress).toBe(42);
    await signedInternal("POST", `/internal/jobs/${jobId}/progress`, JSON.stringify({ progress: 100 }));
    expect((await getJob(u.key, jobId)).progress).toBe(99);

    const video = makeMp4Head();
    const hash = await sha256Hex(video);
    const path = `/internal/jobs/${jobId}/result`;
    const r = await signedInternal("PUT", path, video, { "content-type": "video/mp4", "x-obscura-content-sha256": hash, "x-obscura-duration-seconds": "30" }, hash);
    expect(r.status, await r.clone().text()).toBe(200);

    const done = await getJob(u.key, jobId);
    expect(done).toMatchObject({ status: "completed", progress: 100, credits_used: 6, result_url: expect.stringMatching(new RegExp(`^${BASE}/results/[A-Za-z0-9_-]{22}\\.mp4$`)) });
    const file = await SELF.fetch(done.result_url as string);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("video/mp4");
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(video);
    expect(await balance(u.account.id)).toEqual({ available: 4, purchased: 10, spent: 6, reserved: 0 });

    // A second result for the finished job is refused and settles nothing again.
    const again = await signedInternal("PUT", path, video, { "content-type": "video/mp4", "x-obscura-content-sha256": hash }, hash);
    expect(again.status).toBe(404);
    expect(await balance(u.account.id)).toEqual({ available: 4, purchased: 10, spent: 6, reserved: 0 });
    expect((await ledgerKinds(u.account.id)).sort()).toEqual(["capture", "grant", "reserve"]);
  });

  it("a shorter real duration captures only what it costs and refunds the rest", async () => {
    const u = await createUser({ credits: 10 });
    const { jobId } = await createTestJob(u, { credits: 6, durationSeconds: 30 }); // 3 units x 2
    await jobStub(env, jobId).startAttempt();
    const video = makeMp4Head();
    const hash = await sha256Hex(video);
    await signedInternal("PUT", `/internal/jobs/${jobId}/result`, video, { "content-type": "video/mp4", "x-obscura-content-sha256": hash, "x-obscura-duration-seconds": "12" }, hash);
    expect((await getJob(u.key, jobId)).credits_used).toBe(4); // 2 units x 2
    expect(await balance(u.account.id)).toEqual({ available: 6, purchased: 10, spent: 4, reserved: 0 });
  });

  it("a fail callback fails the job with its error and refunds the reservation", async () => {
    const u = await createUser({ credits: 10 });
    const { jobId } = await createTestJob(u, { credits: 4 });
    await jobStub(env, jobId).startAttempt();
    expect((await balance(u.account.id)).available).toBe(6);
    const res = await signedInternal("POST", `/internal/jobs/${jobId}/fail`, JSON.stringify({ code: "corrupt_media", message: "The video cannot be decoded." }));
    expect(res.status).toBe(200);
    expect(await getJob(u.key, jobId)).toMatchObject({ status: "failed", credits_used: 0, error: { code: "corrupt_media", message: "The video cannot be decoded." } });
    expect(await balance(u.account.id)).toEqual({ available: 10, purchased: 10, spent: 0, reserved: 0 });
    // Terminal: later callbacks change nothing.
    await signedInternal("POST", `/internal/jobs/${jobId}/fail`, JSON.stringify({ code: "internal_error", message: "again" }));
    await signedInternal("POST", `/internal/jobs/${jobId}/progress`, JSON.stringify({ progress: 50 }));
    expect(await getJob(u.key, jobId)).toMatchObject({ status: "failed", progress: 0, error: { code: "corrupt_media" } });
    expect(await balance(u.account.id)).toEqual({ available: 10, purchased: 10, spent: 0, reserved: 0 });
  });

  it("complete() on a finished job is a no-op: the credits are settled exactly once", async () => {
    const u = await createUser({ credits: 10 });
    const { jobId } = await createTestJob(u, { credits: 2 });
    const stub = jobStub(env, jobId);
    await stub.startAttempt();
    const results = await Promise.all([stub.complete(`${BASE}/results/a.mp4`), stub.complete(`${BASE}/results/b.mp4`), stub.fail("internal_error", "late")]);
    expect(results.filter(Boolean)).toHaveLength(1);
    const s = await jobState(jobId);
    expect(s.status).toBe("completed");
    expect(await balance(u.account.id)).toEqual({ available: 8, purchased: 10, spent: 2, reserved: 0 });
  });
});
