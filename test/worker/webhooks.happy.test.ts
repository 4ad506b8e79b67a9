// Webhooks: when a job ends, its record is POSTed to webhook_url, signed with the account's
// webhook secret, and retried with backoff until the receiver accepts it.
import { env, runDurableObjectAlarm } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { hmacHex, sha256Hex } from "../../schema/signing.ts";
import { jobStub } from "../../worker/services/jobs.ts";
import { api, createTestJob, createUser, jobState, signedInternal } from "./helpers.ts";

const HOOK = "https://hooks.example.com/obscura";

interface Delivery {
  body: string;
  timestamp: string;
  signature: string;
}

/** Captures webhook POSTs; the receiver answers with the given statuses in turn. */
function receiver(statuses: number[]): Delivery[] {
  const deliveries: Delivery[] = [];
  const realFetch = globalThis.fetch;
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    if (!url.startsWith(HOOK)) return realFetch(input, init);
    const headers = new Headers(init?.headers);
    deliveries.push({ body: String(init?.body), timestamp: headers.get("obscura-timestamp") ?? "", signature: headers.get("obscura-signature") ?? "" });
    return new Response(null, { status: statuses[deliveries.length - 1] ?? 200 });
  });
  return deliveries;
}

afterEach(() => vi.restoreAllMocks());

describe("webhooks", () => {
  it("POST the failed job's record, verifiable with GET /me/webhook-secret, and retry until accepted", async () => {
    const user = await createUser({ credits: 10 });
    const { jobId } = await createTestJob(user, { webhookUrl: HOOK });
    const deliveries = receiver([500, 200]);
    const stub = jobStub(env, jobId);

    await stub.fail("corrupt_media", "The video could not be decoded.");
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(deliveries).toHaveLength(1);
    expect((await jobState(jobId)).webhook).toMatchObject({ attempts: 1, delivered: false });

    // The receiver failed: the alarm tries again (after the backoff delay).
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(deliveries).toHaveLength(2);
    expect((await jobState(jobId)).webhook).toMatchObject({ attempts: 2, delivered: true });
    // Delivered: nothing more is scheduled.
    expect(await runDurableObjectAlarm(stub)).toBe(false);

    const record = JSON.parse(deliveries[1]!.body);
    expect(record).toMatchObject({ success: true, job_id: jobId, status: "failed", error: { code: "corrupt_media", message: "The video could not be decoded." }, credits_used: 0 });

    const { webhook_secret } = (await (await api("/me/webhook-secret", { key: user.key })).json()) as { webhook_secret: string };
    const { timestamp, signature, body } = deliveries[1]!;
    expect(signature).toBe(`v1=${await hmacHex(webhook_secret, `${timestamp}\n${await sha256Hex(body)}`)}`);
    expect(Math.abs(Date.now() / 1000 - Number(timestamp))).toBeLessThan(60);
    // The internal signing secret does not verify it: customers never see that one.
    expect(signature).not.toBe(`v1=${await hmacHex(env.SIGNING_SECRET, `${timestamp}\n${await sha256Hex(body)}`)}`);
  });

  it("POST the completed job's record with its result_url", async () => {
    const user = await createUser({ credits: 10 });
    const { jobId } = await createTestJob(user, { webhookUrl: HOOK });
    const deliveries = receiver([204]);
    const stub = jobStub(env, jobId);
    await stub.startAttempt();
    const bytes = new TextEncoder().encode("not really an mp4, but bytes");
    const res = await signedInternal("PUT", `/internal/jobs/${jobId}/result`, bytes, { "content-type": "video/mp4", "content-length": String(bytes.length), "x-obscura-content-sha256": await sha256Hex(bytes) }, await sha256Hex(bytes));
    expect(res.status).toBe(200);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(deliveries).toHaveLength(1);
    const record = JSON.parse(deliveries[0]!.body);
    expect(record).toMatchObject({ job_id: jobId, status: "completed", progress: 100 });
    expect(record.result_url).toMatch(/^http:\/\/localhost\/results\/[A-Za-z0-9_-]{22}\.mp4$/);
  });

  it("give up after five attempts when the receiver keeps failing", async () => {
    const user = await createUser({ credits: 10 });
    const { jobId } = await createTestJob(user, { webhookUrl: HOOK });
    const deliveries = receiver([500, 500, 500, 500, 500, 500]);
    const stub = jobStub(env, jobId);
    await stub.fail("internal_error", "x");
    for (let i = 0; i < 5; i++) expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(deliveries).toHaveLength(5);
    expect(await runDurableObjectAlarm(stub)).toBe(false);
    expect((await jobState(jobId)).webhook).toMatchObject({ attempts: 5, delivered: false });
  });
});
