// Processing endpoints on their good paths, as far as workerd can take them without compute:
// valid requests pass every check and reach compute (503 here, nothing charged), and an
// Idempotency-Key replays the first final answer without running or charging again.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { grantCredits } from "../../worker/services/ledger.ts";
import { BASE, api, balance, createUser, expectError, ledgerKinds, makePng, postJson, uploadedMedia } from "./helpers.ts";

const IMG = "https://media.example.com/photo.png";
const VID = "https://media.example.com/clip.mp4";

describe("valid requests reach compute", () => {
  it.each([
    ["video face blur with every option", "/videos/face-blur", { video_url: VID, duration_seconds: 9.5, blur_strength: 0, pixelated: true, face_blur_mode: "emoji", emoji: "\u{1F642}" }],
    ["video blur anything", "/videos/blur-anything", { video_url: VID, duration_seconds: 3, prompt: "red car", pixelated: true, pixelation_strength: 50, sam3_batch_size: 64, sam3_chunk_size: 1, blur_anything_blur_mode: "gaussian" }],
    ["video object removal at 40 characters", "/videos/object-removal", { video_url: VID, duration_seconds: 3, object_text: `car ${"x".repeat(36)}`, prompt_bg: "grass" }],
    ["image background removal with a colour", "/images/remove-background", { image_url: IMG, output_transparent: false, background_color: "#0F0" }],
    ["image portrait enhance", "/images/portrait-enhance", { image_url: IMG, blur_strength: 1, enhance_face: false, depth_effect: true }],
    ["image blur anything", "/images/blur-anything", { image_url: IMG, prompt: "the dogs and licence plates", pixelated: true }],
    ["NSFW detection of a video", "/detect/nsfw", { media_url: VID, media_type: "video" }],
    ["a public IPv4 literal", "/images/face-blur", { image_url: "http://93.184.216.34/a.png" }],
    ["a public IPv6 literal", "/images/face-blur", { image_url: "http://[2606:2800:220:1:248:1893:25c8:1946]/a.png" }],
    ["an unsigned URL with an ordinary query", "/images/face-blur", { image_url: "https://cdn.example.net/a.png?w=800&v=3" }],
  ])("%s: passes validation, 503 compute_unavailable, nothing charged", async (_name, path, body) => {
    const u = await createUser({ credits: 100 });
    await expectError(await postJson(path, u.key, body), "compute_unavailable");
    expect(await ledgerKinds(u.account.id)).toEqual(["grant"]);
  });

  it("an image request with Prefer: respond-async also gets as far as compute", async () => {
    const u = await createUser({ credits: 100 });
    await expectError(await postJson("/images/face-blur", u.key, { image_url: IMG }, { prefer: "respond-async, wait=10" }), "compute_unavailable");
    expect(await balance(u.account.id)).toEqual({ available: 100, purchased: 100, spent: 0, reserved: 0 });
  });

  it("multipart text fields are coerced to their types", async () => {
    const u = await createUser({ credits: 100 });
    const form = new FormData();
    form.append("image_url", IMG);
    form.append("output_transparent", "false");
    form.append("background_color", "#112233");
    await expectError(await api("/images/remove-background", { method: "POST", key: u.key, body: form }), "compute_unavailable");
  });

  it("a charset in the JSON Content-Type is fine", async () => {
    const u = await createUser({ credits: 100 });
    const res = await api("/images/face-blur", { method: "POST", key: u.key, body: JSON.stringify({ image_url: IMG }), headers: { "content-type": "application/json; charset=utf-8" } });
    await expectError(res, "compute_unavailable");
  });
});

describe("Idempotency-Key replays the first final answer", () => {
  it("insufficient_credits: the retry gets the same body with Idempotent-Replayed: true and runs nothing", async () => {
    const u = await createUser({ credits: 1 });
    const h = { "idempotency-key": "retry-me-1" };
    const first = await postJson("/images/blur-background", u.key, { image_url: IMG }, h);
    expect(first.status).toBe(402);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const firstBody = await first.text();

    // Credits arrive in between: a replay still answers what the first request got.
    await grantCredits(env.DB, u.account.id, 10, "top-up");
    const retry = await postJson("/images/blur-background", u.key, { image_url: IMG }, h);
    expect(retry.status).toBe(402);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect(retry.headers.get("content-type")).toMatch(/^application\/json/);
    expect(retry.headers.get("x-ratelimit-limit")).toBe("100");
    expect(await retry.text()).toBe(firstBody);
    expect(JSON.parse(firstBody)).toEqual({ error: { code: "insufficient_credits", message: "This request costs 2 credits and the account has 1.", status: 402 } });
    expect(await ledgerKinds(u.account.id)).toEqual(["grant", "grant"]);
  });

  it("media_not_found is replayed too; defaults do not change the fingerprint", async () => {
    const u = await createUser({ credits: 10 });
    const h = { "idempotency-key": "retry-me-2" };
    const url = `${BASE}/media/AAAAAAAAAAAAAAAAAAAAAA`;
    await expectError(await postJson("/images/face-blur", u.key, { image_url: url }, h), "media_not_found");
    // Spelling out the defaults is the same request.
    const retry = await postJson("/images/face-blur", u.key, { image_url: url, blur_strength: 0.7, pixelated: false }, h);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    await expectError(retry, "media_not_found");
  });

  it("concurrent retries with one key: one runs, the others replay it or get 409; never two runs", async () => {
    const u = await createUser({ credits: 1 });
    const h = { "idempotency-key": "burst" };
    const results = await Promise.all(Array.from({ length: 8 }, () => postJson("/images/blur-background", u.key, { image_url: IMG }, h)));
    const bodies = await Promise.all(results.map(async (r) => ({ status: r.status, replayed: r.headers.get("idempotent-replayed"), code: ((await r.json()) as { error: { code: string } }).error.code })));
    expect(bodies.filter((b) => b.code === "insufficient_credits" && b.replayed === null)).toHaveLength(1);
    for (const b of bodies) expect(["insufficient_credits", "idempotency_conflict"]).toContain(b.code);
  });

  it("a multipart file is part of the fingerprint", async () => {
    const u = await createUser({ credits: 0 });
    const h = { "idempotency-key": "file-key" };
    const send = async (bytes: Uint8Array) => {
      const form = new FormData();
      form.append("image", new File([bytes as Uint8Array<ArrayBuffer>], "a.png"));
      return api("/images/face-blur", { method: "POST", key: u.key, body: form, headers: h });
    };
    const png = await makePng();
    await expectError(await send(png), "insufficient_credits");
    const same = await send(png);
    expect(same.headers.get("idempotent-replayed")).toBe("true");
    await same.body?.cancel();
    const different = new Uint8Array([...png, 0]);
    await expectError(await send(different), "idempotency_conflict");
  });
});

describe("uploaded media in a feature request", () => {
  it("the account's own completed upload is accepted (503 here: the media checks passed)", async () => {
    const u = await createUser({ credits: 10 });
    const { url } = await uploadedMedia(u, "image");
    await expectError(await postJson("/images/license-plate-blur", u.key, { image_url: url, pixelated: true }), "compute_unavailable");
  });
});
