// Jobs that go wrong: the queue consumer with compute down, a job no instance ever takes, and
// the heartbeat alarm that notices a silent compute. No job stays processing forever, and every
// failed job gives its credits back.
import { createExecutionContext, createMessageBatch, env, getQueueResult, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { HEARTBEAT_TIMEOUT_MS, MAX_ATTEMPTS, QUEUE_TIMEOUT_MS, type JobObject, type JobState } from "../../worker/durable/job.ts";
import type { JobMessage } from "../../worker/env.ts";
import { MAX_DELIVERIES, jobStub } from "../../worker/services/jobs.ts";
import worker from "../../worker/index.ts";
import { api, balance, createTestJob, createUser, jobState } from "./helpers.ts";

afterEach(() => vi.restoreAllMocks());

async function deliver(jobId: string, attempts: number) {
  const batch = createMessageBatch<JobMessage>("obscura-jobs", [{ id: `msg-${attempts}`, timestamp: new Date(), attempts, body: { jobId } }]);
  const ctx = createExecutionContext();
  await worker.queue(batch, env);
  return getQueueResult(batch, ctx);
}

async function editState(jobId: string, edit: (s: JobState) => void) {
  await runInDurableObject(jobStub(env, jobId), async (_i: JobObject, state) => {
    const s = (await state.storage.get<JobState>("job"))!;
    edit(s);
    await state.storage.put("job", s);
  });
}

describe("queue consumer with compute down", () => {
  it("abandons the attempt and retries the message later with backoff; the job stays queued and reserved", async () => {
    const u = await createUser({ credits: 10 });
    const { jobId } = await createTestJob(u, { credits: 4 });
    const result = await deliver(jobId, 1);
    expect(result.explicitAcks).toEqual([]);
    // (The plugin's QueueResult does not report retry delays; the backoff is 2^attempts s, max 60.)
    expect(result.retryMessages).toEqual([expect.objectContaining({ msgId: "msg-1" })]);
    const s = await jobState(jobId);
    expect([s.status, s.attempts]).toEqual(["queued", 0]);
    expect(await balance(u.account.id)).toMatchObject({ available: 6, reserved: 4 });

    // Every delivery short of the limit retries again; the job is never lost in between.
    for (const attempts of [2, MAX_DELIVERIES - 1]) {
      expect((await deliver(jobId, attempts)).retryMessages).toEqual([expect.objectContaining({ msgId: `msg-${attempts}` })]);
      expect((await jobState(jobId)).status).toBe("queued");
    }
  });

  it(`after ${MAX_DELIVERIES} deliveries the job fails with compute_unavailable and the reservation is refunded`, async () => {
    const u = await createUser({ credits: 10 });
    const { jobId } = await createTestJob(u, { credits: 4 });
    const result = await deliver(jobId, MAX_DELIVERIES);
    expect(result.explicitAcks).toEqual([`msg-${MAX_DELIVERIES}`]);
    expect(result.retryMessages).toEqual([]);
    const job = (await (await api(`/jobs/${jobId}`, { key: u.key })).json()) as Record<string, unknown>;
    expect(job).toMatchObject({ status: "failed", credits_used: 0, error: { code: "compute_unavailable", message: "No compute instance could take the job; the credits were refunded." } });
    expect(await balance(u.account.id)).toEqual({ available: 10, purchased: 10, spent: 0, reserved: 0 });
  });

  it("a message for a finished or unknown job is acknowledged and changes nothing", async () => {
    const u = await createUser({ credits: 10 });
    const { jobId } = await createTestJob(u, { credits: 4 });
    await jobStub(env, jobId).fail("corrupt_media", "bad");
    const result = await deliver(jobId, 1);
    expect(result.explicitAcks).toEqual(["msg-1"]);
    expect((await jobState(jobId)).error).toEqual({ code: "corrupt_media", message: "bad" });
    expect((await deliver("job_doesnotexist0000000", 1)).explicitAcks).toEqual(["msg-1"]);
  });
});

describe("the job's alarm", () => {
  it("a silent compute: the heartbeat alarm re-queues once, then fails the job and refunds it", async () => {
    const send = vi.spyOn(env.JOB_QUEUE, "send").mockResolvedValue(undefined as never);
    const u = await createUser({ credits: 10 });
    const { jobId } = await createTestJob(u, { credits: 4 });
    const stub = jobStub(env, jobId);

    // First dispatch, then silence.
    expect(await stub.startAttempt()).toBe(true);
    await editState(jobId, (s) => {
      s.progress = 30;
      s.lastHeartbeatAt = Date.now() - HEARTBEAT_TIMEOUT_MS - 1;
    });
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    let s = await jobState(jobId);
    expect([s.status, s.progress, s.attempts]).toEqual(["queued", 0, 1]);
    expect(send).toHaveBeenCalledExactlyOnceWith({ jobId });
    expect(await balance(u.account.id)).toMatchObject({ reserved: 4 });

    // Second dispatch, silence again: that was the last attempt.
    expect(await stub.startAttempt()).toBe(true);
    expect((await jobState(jobId)).attempts).toBe(MAX_ATTEMPTS);
    await editState(jobId, (s) => {
      s.lastHeartbeatAt = Date.now() - HEARTBEAT_TIMEOUT_MS - 1;
    });
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    s = await jobState(jobId);
    expect(s.status).toBe("failed");
    expect(s.error).toEqual({ code: "internal_error", message: `Compute stopped reporting on this job ${MAX_ATTEMPTS} times; the credits were refunded.` });
    expect(send).toHaveBeenCalledTimes(1);
    expect(await balance(u.account.id)).toEqual({ available: 10, purchased: 10, spent: 0, reserved: 0 });
    // Nothing left to watch.
    expect(await runDurableObjectAlarm(stub)).toBe(false);
  });

  describe("the instance that took the job is asked whether it still holds it (every 15 s)", () => {
    const INSTANCE = "http://compute-a.test:8788";
    /** Answers the instance's /healthz as `answer` says (a job list, a timeout, or a refused connection). */
    function instanceAnswers(answer: () => string[] | "timeout" | "refused") {
      const realFetch = globalThis.fetch;
      return vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
        const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
        if (!url.startsWith(INSTANCE)) return realFetch(input, init);
        const a = answer();
        if (a === "timeout") throw new DOMException("The operation was aborted due to timeout", "TimeoutError");
        if (a === "refused") throw new TypeError("fetch failed: connection refused");
        return Response.json({ ok: true, features: [], models: {}, busy: 0, capacity: 2, jobs: a, completed: 0 });
      });
    }
    async function dispatched(credits = 4) {
      const u = await createUser({ credits: 10 });
      const { jobId } = await createTestJob(u, { credits });
      const stub = jobStub(env, jobId);
      expect(await stub.startAttempt()).toBe(true);
      await stub.accepted(INSTANCE);
      return { u, jobId, stub };
    }

    for (const [what, answer] of [["restarted (answers without the job)", () => [] as string[]], ["died (refuses the connection)", () => "refused" as const]] as const) {
      it(`an instance that ${what}: the job is queued again after two checks, long before the heartbeat deadline`, async () => {
        const send = vi.spyOn(env.JOB_QUEUE, "send").mockResolvedValue(undefined as never);
        instanceAnswers(answer);
        const { u, jobId, stub } = await dispatched();
        expect(await runDurableObjectAlarm(stub)).toBe(true);
        expect((await jobState(jobId)).status).toBe("processing");
        expect(await runDurableObjectAlarm(stub)).toBe(true);
        const s = await jobState(jobId);
        expect([s.status, s.attempts, s.instance]).toEqual(["queued", 1, undefined]);
        // The next dispatch tries the other instances first.
        expect(send).toHaveBeenCalledExactlyOnceWith({ jobId, avoid: INSTANCE });
        expect(await balance(u.account.id)).toMatchObject({ reserved: 4 });
      });
    }

    it("the job queued again goes to another instance when there is one, and is watched there", async () => {
      const pool = ["http://compute-a.test:8788", "http://compute-b.test:8788"];
      const took: string[] = [];
      const realFetch = globalThis.fetch;
      vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
        const url = new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url);
        if (!pool.includes(url.origin)) return realFetch(input, init);
        if (url.pathname === "/v1/tasks") took.push(url.origin);
        return Response.json({ accepted: true }, { status: 202 });
      });
      const u = await createUser({ credits: 10 });
      for (let i = 0; i < 6; i++) {
        const { jobId } = await createTestJob(u, { credits: 1 });
        const batch = createMessageBatch<JobMessage>("obscura-jobs", [{ id: `m${i}`, timestamp: new Date(), attempts: 1, body: { jobId, avoid: pool[0] } }]);
        await worker.queue(batch, { ...env, COMPUTE_URLS: pool.join(",") });
        expect((await jobState(jobId)).instance).toBe(pool[1]);
      }
      expect(took).toEqual(Array(6).fill("http://compute-b.test:8788"));
    });

    it("an instance that holds the job, or is too busy to answer, keeps it; one miss between answers is forgiven", async () => {
      const send = vi.spyOn(env.JOB_QUEUE, "send").mockResolvedValue(undefined as never);
      let jobId = "";
      const answers: Array<() => string[] | "timeout" | "refused"> = [() => [jobId], () => "timeout", () => [], () => [jobId], () => "timeout", () => "timeout", () => []];
      let k = 0;
      instanceAnswers(() => answers[Math.min(k++, answers.length - 1)]!());
      const job = await dispatched();
      jobId = job.jobId;
      for (let i = 0; i < answers.length; i++) {
        expect(await runDurableObjectAlarm(job.stub)).toBe(true);
        expect((await jobState(jobId)).status, `check ${i}`).toBe("processing");
      }
      expect(send).not.toHaveBeenCalled();
    });
  });

  it("a heartbeat inside the window keeps the job processing", async () => {
    const u = await createUser({ credits: 10 });
    const { jobId } = await createTestJob(u, { credits: 4 });
    const stub = jobStub(env, jobId);
    await stub.startAttempt();
    await stub.progress(10);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect((await jobState(jobId)).status).toBe("processing");
  });

  it("a job that no instance takes within the queue timeout fails and is refunded", async () => {
    const u = await createUser({ credits: 10 });
    const { jobId } = await createTestJob(u, { credits: 4 });
    await editState(jobId, (s) => {
      s.updatedAt = new Date(Date.now() - QUEUE_TIMEOUT_MS).toISOString();
    });
    expect(await runDurableObjectAlarm(jobStub(env, jobId))).toBe(true);
    const s = await jobState(jobId);
    expect([s.status, s.error?.code]).toEqual(["failed", "compute_unavailable"]);
    expect(await balance(u.account.id)).toEqual({ available: 10, purchased: 10, spent: 0, reserved: 0 });
  });

  it("every live job has an alarm: queued after creation, processing after dispatch", async () => {
    const u = await createUser({ credits: 10 });
    const { jobId } = await createTestJob(u, { credits: 4 });
    const stub = jobStub(env, jobId);
    const alarmAt = () => runInDurableObject(stub, (_i: JobObject, state) => state.storage.getAlarm());
    expect(await alarmAt()).toBeGreaterThan(Date.now() + QUEUE_TIMEOUT_MS - 60_000);
    await stub.startAttempt();
    const a = (await alarmAt())!;
    expect(a).toBeGreaterThan(Date.now());
    expect(a).toBeLessThanOrEqual(Date.now() + HEARTBEAT_TIMEOUT_MS);
  });
});
