// The Worker's side of successful processing, with compute faked at the fetch level
// (fake-compute.ts): charged exactly once and only on success, exact under concurrency, signed
// dispatches, jobs created and priced. The real compute is exercised by the end-to-end tests.
import { env, SELF } from "cloudflare:test";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { api, balance, createUser, expectError, makePng, postJson, uploadedMedia } from "./helpers.ts";
import { installFakeCompute, type FakeCompute } from "./fake-compute.ts";

const IMG = "https://media.example.com/photo.png";
const VID = "https://media.example.com/clip.mp4";
let fake: FakeCompute;
beforeEach(() => {
  fake = installFakeCompute();
});
afterEach(() => vi.restoreAllMocks());

describe("image requests with compute up", () => {
  it("200 with the result stored and served, charged once on success", async () => {
    const u = await createUser({ credits: 10 });
    const res = await postJson("/images/face-blur", u.key, { image_url: IMG, pixelated: true });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { success: boolean; result_url: string; credits_used: number; remaining_credits: number };
    expect(body).toEqual({ success: true, result_url: expect.stringMatching(/^http:\/\/localhost\/results\/[A-Za-z0-9_-]{22}\.png$/), credits_used: 1, remaining_credits: 9 });
    const file = await SELF.fetch(body.result_url);
    expect(file.headers.get("content-type")).toBe("image/png");
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(await makePng());
    expect(await balance(u.account.id)).toEqual({ available: 9, purchased: 10, spent: 1, reserved: 0 });
    // The dispatch was signed and carried the validated parameters with their defaults.
    expect(fake.tasks).toHaveLength(1);
    expect(fake.tasks[0]!.signed).toBe(true);
    expect(fake.tasks[0]!.task).toMatchObject({ feature: "image.face-blur", params: { image_url: IMG, blur_strength: 0.7, pixelated: true }, media: { url: IMG, internal: false } });
  });

  it("an uploaded image goes to compute as a signed internal URL, never as the public media URL", async () => {
    const u = await createUser({ credits: 10 });
    const { url } = await uploadedMedia(u, "image");
    expect((await postJson("/images/blur-background", u.key, { image_url: url })).status).toBe(200);
    expect(fake.tasks[0]!.task.media).toEqual({ url: expect.stringMatching(/^http:\/\/localhost\/internal\/media\/[A-Za-z0-9_-]+\.[0-9a-f]{64}$/), internal: true });
  });

  it("50 concurrent requests with credits for 20: exactly 20 succeed, the rest 402, balance exactly 0", async () => {
    const u = await createUser({ tier: "pro", credits: 20 });
    const results = await Promise.all(Array.from({ length: 50 }, () => postJson("/images/face-blur", u.key, { image_url: IMG })));
    const statuses = results.map((r) => r.status);
    await Promise.all(results.map((r) => r.body?.cancel()));
    expect(statuses.filter((s) => s === 200)).toHaveLength(20);
    expect(statuses.filter((s) => s === 402)).toHaveLength(30);
    expect(await balance(u.account.id)).toEqual({ available: 0, purchased: 20, spent: 20, reserved: 0 });
  });

  it("an Idempotency-Key retry of a success replays it and is charged once", async () => {
    const u = await createUser({ credits: 10 });
    const h = { "idempotency-key": "pay-once" };
    const first = await postJson("/images/portrait-enhance", u.key, { image_url: IMG }, h);
    expect(first.status).toBe(200);
    const firstBody = await first.text();
    const retry = await postJson("/images/portrait-enhance", u.key, { image_url: IMG }, h);
    expect(retry.status).toBe(200);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect(await retry.text()).toBe(firstBody);
    expect(fake.tasks).toHaveLength(1);
    expect(await balance(u.account.id)).toEqual({ available: 7, purchased: 10, spent: 3, reserved: 0 });
  });

  it("NSFW detection answers the verdict and the charge", async () => {
    const u = await createUser({ credits: 10 });
    fake.onTask = () => Response.json({ is_nsfw: false, score: 0.03 });
    const res = await postJson("/detect/nsfw", u.key, { media_url: IMG });
    expect(await res.json()).toEqual({ success: true, is_nsfw: false, score: 0.03, credits_used: 1, remaining_credits: 9 });
    const video = await postJson("/detect/nsfw", u.key, { media_url: VID, media_type: "video" });
    expect(await video.json()).toMatchObject({ credits_used: 2, remaining_credits: 7 });
    expect(fake.tasks.map((t) => t.task.feature)).toEqual(["image.nsfw-detection", "video.nsfw-detection"]);
  });

});

describe("jobs with compute up", () => {
  it("a video request: 202 with the job, credits reserved from duration_seconds, the job queued", async () => {
    const u = await createUser({ credits: 20 });
    const res = await postJson("/videos/object-removal", u.key, { video_url: VID, duration_seconds: 15, object_text: "person" });
    expect(res.status).toBe(202);
    const job = (await res.json()) as Record<string, unknown>;
    expect(job).toEqual({ success: true, job_id: expect.stringMatching(/^job_/), status: "queued", feature: "object-removal", credits_used: 10, remaining_credits: 10 });
    expect(env.JOB_QUEUE.send).toHaveBeenCalledWith({ jobId: job.job_id });
    expect(await balance(u.account.id)).toEqual({ available: 10, purchased: 20, spent: 0, reserved: 10 });
    const status = await api(`/jobs/${job.job_id}`, { key: u.key });
    expect(await status.json()).toMatchObject({ job_id: job.job_id, status: "queued", progress: 0, credits_used: 10 });
  });

  it("a video without duration_seconds is priced from compute's probe", async () => {
    const u = await createUser({ credits: 20 });
    const res = await postJson("/videos/face-blur", u.key, { video_url: VID });
    expect(await res.json()).toMatchObject({ credits_used: 6, remaining_credits: 14 }); // 21 s -> 3 units x 2
  });

  it("an image with Prefer: respond-async: 202 with Preference-Applied, reserved not yet spent", async () => {
    const u = await createUser({ credits: 5 });
    const res = await postJson("/images/remove-background", u.key, { image_url: IMG }, { prefer: "respond-async" });
    expect(res.status).toBe(202);
    expect(res.headers.get("preference-applied")).toBe("respond-async");
    expect(await res.json()).toMatchObject({ status: "queued", feature: "remove-background", credits_used: 2, remaining_credits: 3 });
    expect(fake.tasks).toHaveLength(0);
    expect(await balance(u.account.id)).toMatchObject({ available: 3, spent: 0, reserved: 2 });
  });
});
