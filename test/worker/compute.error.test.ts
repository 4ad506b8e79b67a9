// Compute's answers that are errors, with compute faked at the fetch level (fake-compute.ts):
// its codes pass through unchanged and nothing is charged; a feature it does not serve is 501.
// The real compute producing these codes is covered by the end-to-end tests.
import { env } from "cloudflare:test";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { balance, createUser, expectError, ledgerKinds, postJson } from "./helpers.ts";
import { installFakeCompute, type FakeCompute } from "./fake-compute.ts";

const IMG = "https://media.example.com/photo.png";
const VID = "https://media.example.com/clip.mp4";

let fake: FakeCompute;
beforeEach(() => {
  fake = installFakeCompute();
});
afterEach(() => vi.restoreAllMocks());

describe("compute errors", () => {
  it.each([
    ["corrupt_media", 422, "The image cannot be decoded."],
    ["media_unreachable", 422, "The media URL answered HTTP 404."],
    ["unsupported_prompt", 422, "No car could be told apart in this image."],
    ["media_too_large", 413, "The image has 60 megapixels; the limit is 50."],
  ] as const)("compute's %s passes through unchanged and nothing is charged", async (code, status, message) => {
    const u = await createUser({ credits: 10 });
    fake.onTask = () => Response.json({ error: { code, message, status } }, { status });
    await expectError(await postJson("/images/blur-anything", u.key, { image_url: IMG, prompt: "car" }), code, message);
    expect(await balance(u.account.id)).toEqual({ available: 10, purchased: 10, spent: 0, reserved: 0 });
    expect((await ledgerKinds(u.account.id)).sort()).toEqual(["grant", "refund", "reserve"]);
  });

  it("compute answering garbage: 500 internal_error, nothing charged", async () => {
    const u = await createUser({ credits: 10 });
    fake.onTask = () => new Response("oops", { status: 500 });
    const quiet = vi.spyOn(console, "error").mockImplementation(() => {});
    await expectError(await postJson("/images/face-blur", u.key, { image_url: IMG }), "internal_error");
    quiet.mockRestore();
    expect(await balance(u.account.id)).toMatchObject({ available: 10, spent: 0, reserved: 0 });
  });

  it("every instance busy (503): compute_unavailable, nothing charged", async () => {
    const u = await createUser({ credits: 10 });
    fake.onTask = () => new Response("busy", { status: 503 });
    await expectError(await postJson("/images/face-blur", u.key, { image_url: IMG }), "compute_unavailable");
    expect(await balance(u.account.id)).toMatchObject({ available: 10, spent: 0, reserved: 0 });
  });

  it("too few credits for the video's duration: 402 before anything is queued", async () => {
    const u = await createUser({ credits: 5 });
    await expectError(await postJson("/videos/face-anonymization", u.key, { video_url: VID, duration_seconds: 11 }), "insufficient_credits", "This request costs 10 credits and the account has 5.");
    expect(env.JOB_QUEUE.send).not.toHaveBeenCalled();
    expect(fake.tasks).toHaveLength(0);
  });

  it.each([
    ["media_too_large", 413, "The video lasts 601.0 s; the limit is 600 s."],
    ["media_too_large", 413, "The video runs at 480.00 fps; the limit is 240 fps."],
    ["corrupt_media", 422, "The video is truncated: its 'mdat' box needs 900000 bytes and the file has 700000."],
  ] as const)("a video the probe refuses (%s: %s) is refused before the 202, even with duration_seconds declared; nothing held", async (code, status, message) => {
    const u = await createUser({ credits: 200 });
    fake.onProbe = () => Response.json({ error: { code, message, status } }, { status });
    await expectError(await postJson("/videos/face-blur", u.key, { video_url: VID, duration_seconds: 30 }), code, message);
    expect(env.JOB_QUEUE.send).not.toHaveBeenCalled();
    expect(await balance(u.account.id)).toEqual({ available: 200, purchased: 200, spent: 0, reserved: 0 });
  });
});

// Last: it moves the clock past the Worker's 15 s health cache to read a reduced feature list.
describe("a feature compute does not serve", () => {
  it("501 not_implemented, nothing charged", async () => {
    // Wait out the health cache so the reduced feature list is read.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 60_000 });
    fake.served = ["image.face-blur"];
    const u = await createUser({ credits: 10 });
    await expectError(await postJson("/images/portrait-enhance", u.key, { image_url: IMG }), "not_implemented", "image.portrait-enhance is not available on this deployment yet; nothing was charged.");
    vi.useRealTimers();
    expect(await ledgerKinds(u.account.id)).toEqual(["grant"]);
  });
});
