// The SDK (sdk/src) against the real Worker: typed errors, the upload flow, running a feature
// (compute faked at the fetch level), and waiting for a job with progress, backing off and
// obeying Retry-After. Its committed OpenAPI snapshot must be the document the Worker serves.
import { env, SELF } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import snapshot from "../../sdk/openapi.json";
import { budgetWait, createObscura, featurePath, mediaKindOf, ObscuraError, ObscuraJobError, type Job } from "../../sdk/src/index.ts";
import { sha256Hex } from "../../schema/signing.ts";
import { jobStub } from "../../worker/services/jobs.ts";
import { installFakeCompute } from "./fake-compute.ts";
import { API, createTestJob, createUser, makeMp4Head, makePng, signedInternal, TEXT } from "./helpers.ts";

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

const client = (apiKey: string) => createObscura({ apiKey, baseUrl: API, fetch: (input, init) => SELF.fetch(input, init) });

describe("SDK", () => {
  it("sdk/openapi.json is the served document (regenerate: npm run sdk:generate)", async () => {
    expect(await (await SELF.fetch(`${API}/openapi.json`)).json()).toEqual(snapshot);
  });

  it("maps catalog ids to endpoints", () => {
    expect(featurePath("image.face-blur")).toBe("/images/face-blur");
    expect(featurePath("video.object-removal")).toBe("/videos/object-removal");
    expect(featurePath("image.nsfw-detection")).toBe("/detect/nsfw");
    expect(() => featurePath("face-blur")).toThrow(TypeError);
  });

  it("tells images from videos by their bytes (HEIC is an image), else by the name", () => {
    const ftyp = (brand: string) => new TextEncoder().encode(`\0\0\0\x18ftyp${brand}`);
    expect(mediaKindOf("clip.bin", makeMp4Head())).toBe("video");
    expect(mediaKindOf("photo.mp4", ftyp("heic"))).toBe("image");
    expect(mediaKindOf("movie.mov", ftyp("qt  "))).toBe("video");
    expect(mediaKindOf("movie.MOV", new Uint8Array(16))).toBe("video");
    expect(mediaKindOf("photo.jpg", new Uint8Array([0xff, 0xd8, 0xff]))).toBe("image");
  });

  it("spreads polls over the time to the reset only when the daily budget runs low", () => {
    const now = 1_000_000_000_000;
    const reset = now / 1000 + 3600;
    expect(budgetWait({ limit: 100, remaining: 50, reset }, 10, now)).toBe(0);
    expect(budgetWait({ limit: 100, remaining: 4, reset }, 10, now)).toBe(900_000);
    expect(budgetWait({ limit: 100, remaining: 0, reset }, 10, now)).toBe(3_600_000);
    expect(budgetWait(undefined, 10, now)).toBe(0);
  });

  it("errors are ObscuraError with the envelope's code, status and message, and the rate headers", async () => {
    await expect(client("obs_live_nope").me()).rejects.toMatchObject({ name: "ObscuraError", code: "unauthorized", status: 401, rateLimit: undefined });
    const u = await createUser();
    const err = await client(u.key).run("image.face-blur", { image_url: "https://media.example.com/a.png" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ObscuraError);
    expect(err).toMatchObject({ code: "insufficient_credits", status: 402, message: "This request costs 1 credits and the account has 0.", retryable: false });
    expect((err as ObscuraError).rateLimit).toMatchObject({ limit: 100, remaining: expect.any(Number) });
  });

  it("uploads bytes, runs a feature on them and downloads the result", async () => {
    installFakeCompute();
    // Past any cached view of compute from before the fake was installed.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 60_000 });
    const u = await createUser({ credits: 5 });
    const sdk = client(u.key);
    const uploaded = await sdk.uploadBytes("image", await makePng());
    expect(uploaded).toMatchObject({ format: "png", size_bytes: (await makePng()).length, media_url: expect.stringMatching(/^http:\/\/localhost\/media\//) });
    const { data, status } = await sdk.run("image.face-blur", { image_url: uploaded.media_url, pixelated: true });
    expect(status).toBe(200);
    const result = await sdk.download((data as { result_url: string }).result_url);
    expect(result).toEqual({ bytes: await makePng(), contentType: "image/png" });
    await expect(sdk.uploadBytes("image", TEXT)).rejects.toMatchObject({ code: "unsupported_media_format", status: 422 });
  });

  it("waits for a job: progress reported as it changes, polls back off, the completed job returned", async () => {
    const u = await createUser({ credits: 10 });
    const { jobId } = await createTestJob(u, { credits: 2 });
    const seen: Array<[Job["status"], number]> = [];
    const waits: number[] = [];
    // Each "sleep" moves the job on, as compute would between two polls.
    const steps = [
      async () => void (await jobStub(env, jobId).startAttempt()),
      async () => void (await signedInternal("POST", `/internal/jobs/${jobId}/progress`, JSON.stringify({ progress: 40 }))),
      async () => undefined,
      async () => {
        const video = makeMp4Head();
        const hash = await sha256Hex(video);
        await signedInternal("PUT", `/internal/jobs/${jobId}/result`, video, { "content-type": "video/mp4", "x-obscura-content-sha256": hash, "x-obscura-duration-seconds": "5" }, hash);
      },
    ];
    const job = await client(u.key).waitForJob(jobId, {
      onProgress: (j) => seen.push([j.status, j.progress]),
      sleep: async (ms) => {
        waits.push(ms);
        await steps.shift()!();
      },
    });
    expect(job).toMatchObject({ job_id: jobId, status: "completed", progress: 100, result_url: expect.stringContaining("/results/") });
    expect(seen).toEqual([["queued", 0], ["processing", 0], ["processing", 40], ["completed", 100]]);
    expect(waits).toEqual([2000, 3000, 4500, 6750]);
  });

  it("a failed job throws ObscuraJobError with the job's code", async () => {
    const u = await createUser({ credits: 10 });
    const { jobId } = await createTestJob(u, { credits: 2 });
    await jobStub(env, jobId).fail("corrupt_media", "The video is cut short.");
    const err = await client(u.key).waitForJob(jobId, { sleep: async () => undefined }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ObscuraJobError);
    expect(err).toMatchObject({ jobId, code: "corrupt_media", message: "The video is cut short." });
  });

  it("over the daily limit it sleeps as long as Retry-After says; past the timeout it gives up with the 429", async () => {
    const u = await createUser({ tier: "enterprise", dailyLimit: 1, credits: 10 });
    const { jobId } = await createTestJob(u, { credits: 2 });
    const waits: number[] = [];
    const stop = new Error("stop");
    const sdk = client(u.key);
    // The first poll uses the only request of the day; the budget is then spread to the reset.
    const err = await sdk.waitForJob(jobId, { sleep: async (ms) => { waits.push(ms); if (waits.length === 2) throw stop; } }).catch((e: unknown) => e);
    expect(err).toBe(stop);
    const toReset = (Math.floor(Date.now() / 86_400_000) + 1) * 86_400_000 - Date.now();
    expect(waits[0]).toBeGreaterThan(toReset - 5_000); // remaining 0: wait for the reset
    expect(Math.abs(waits[1]! - toReset)).toBeLessThan(5_000); // the 429's Retry-After
    await expect(sdk.waitForJob(jobId, { timeoutMs: 60_000, sleep: async () => undefined })).rejects.toMatchObject({ code: "rate_limited", status: 429, retryAfter: expect.any(Number) });
  });
});
