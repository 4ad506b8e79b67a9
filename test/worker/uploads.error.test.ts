// Upload errors: bad, expired and reused upload URLs, sizes, and content checked by magic bytes.
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { signToken } from "../../schema/signing.ts";
import { BASE, api, createUser, expectError, makeMp4Head, makePng, postJson, putBytes, SVG, TEXT, uploadTicket } from "./helpers.ts";

describe("upload_expired (410)", () => {
  it("a tampered token", async () => {
    const u = await createUser();
    const t = await uploadTicket(u, "image");
    const tampered = t.upload_url.replace(/.$/, (ch) => (ch === "0" ? "1" : "0"));
    await expectError(await putBytes(tampered, await makePng()), "upload_expired", "This upload URL is invalid or has expired; request a new one.");
  });

  it("garbage instead of a token", async () => {
    await expectError(await putBytes(`${BASE}/uploads/not-a-token`, await makePng()), "upload_expired", "This upload URL is invalid or has expired; request a new one.");
  });

  it("an expired token (signed correctly, exp in the past)", async () => {
    const u = await createUser();
    const t = await uploadTicket(u, "image");
    const token = await signToken(env.SIGNING_SECRET, "upload", { id: t.upload_id, acct: u.account.id, kind: "image", exp: Date.now() - 1000 });
    await expectError(await putBytes(`${BASE}/uploads/${token}`, await makePng()), "upload_expired", "This upload URL is invalid or has expired; request a new one.");
  });

  it("a token signed for another purpose (an internal media token) is not an upload token", async () => {
    const token = await signToken(env.SIGNING_SECRET, "media", { id: "x", key: "uploads/x", exp: Date.now() + 60_000 });
    await expectError(await putBytes(`${BASE}/uploads/${token}`, await makePng()), "upload_expired");
  });

  it("a reused token: the second PUT is refused and the first file stays", async () => {
    const u = await createUser();
    const t = await uploadTicket(u, "image");
    const png = await makePng();
    expect((await putBytes(t.upload_url, png)).status).toBe(200);
    await expectError(await putBytes(t.upload_url, png), "upload_expired", "This upload URL was already used; request a new one.");
    expect(new Uint8Array(await (await env.MEDIA.get(`uploads/${t.upload_id}`))!.arrayBuffer())).toEqual(png);
  });

  it("two PUTs to one URL at once: exactly one is stored, the other is refused", async () => {
    const u = await createUser();
    const t = await uploadTicket(u, "image");
    const a = await makePng();
    const b = new Uint8Array([...a, 0]); // same image, one trailing byte: tells the two apart
    const answers = await Promise.all([putBytes(t.upload_url, a), putBytes(t.upload_url, b)]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 410]);
    const winner = answers[0].status === 200 ? a : b;
    await Promise.all(answers.map((r) => r.body?.cancel()));
    expect(new Uint8Array(await (await env.MEDIA.get(`uploads/${t.upload_id}`))!.arrayBuffer())).toEqual(winner);
    const row = await env.DB.prepare("SELECT size_bytes FROM uploads WHERE id = ?1").bind(t.upload_id).first<{ size_bytes: number }>();
    expect(row?.size_bytes).toBe(winner.length);
  });

  it("a PUT that fails gives the URL back: the retry with the right bytes succeeds", async () => {
    const u = await createUser();
    const t = await uploadTicket(u, "image");
    await expectError(await putBytes(t.upload_url, TEXT, "image/png"), "unsupported_media_format");
    expect((await putBytes(t.upload_url, await makePng())).status).toBe(200);
  });
});

describe("media_too_large (413)", () => {
  it.each(["image", "video"] as const)("%s: a Content-Length over max_bytes is refused before reading the body", async (kind) => {
    const u = await createUser();
    const t = await uploadTicket(u, kind);
    const res = await SELF.fetch(t.upload_url, { method: "PUT", body: kind === "image" ? await makePng() : makeMp4Head(), headers: { "content-length": String(t.max_bytes + 1) } });
    await expectError(res, "media_too_large", `The ${kind} is ${t.max_bytes + 1} bytes; the limit is ${t.max_bytes} bytes.`);
    expect(await env.MEDIA.head(`uploads/${t.upload_id}`)).toBeNull();
  });
});

describe("unsupported_media_format (422): the bytes decide, not the name or Content-Type", () => {
  it.each([
    ["a text file", TEXT, "Unsupported image format (unknown); supported: PNG, JPEG, WEBP, HEIC."],
    ["an SVG", SVG, "Unsupported image format (SVG/XML); supported: PNG, JPEG, WEBP, HEIC."],
    ["a GIF", new TextEncoder().encode("GIF89a\x01\x00\x01\x00\x00\x00\x00;"), "Unsupported image format (GIF); supported: PNG, JPEG, WEBP, HEIC."],
  ])("%s PUT to an image upload URL (sent as image/png)", async (_name, bytes, message) => {
    const u = await createUser();
    const t = await uploadTicket(u, "image");
    await expectError(await putBytes(t.upload_url, bytes, "image/png"), "unsupported_media_format", message);
    expect(await env.MEDIA.head(`uploads/${t.upload_id}`)).toBeNull();
    expect(await env.DB.prepare("SELECT completed_at FROM uploads WHERE id = ?1").bind(t.upload_id).first()).toEqual({ completed_at: null });
  });

  it("a PNG PUT to a video upload URL", async () => {
    const u = await createUser();
    const t = await uploadTicket(u, "video");
    await expectError(await putBytes(t.upload_url, await makePng(), "video/mp4"), "unsupported_media_format", "Expected a video but got an image (PNG); supported: MP4, MOV.");
  });

  it("an MP4 PUT to an image upload URL", async () => {
    const u = await createUser();
    const t = await uploadTicket(u, "image");
    await expectError(await putBytes(t.upload_url, makeMp4Head()), "unsupported_media_format", "Expected an image but got a video (MP4); supported: PNG, JPEG, WEBP, HEIC.");
  });

  it("after a refused file the same URL still takes a valid one", async () => {
    const u = await createUser();
    const t = await uploadTicket(u, "image");
    await putBytes(t.upload_url, SVG);
    expect((await putBytes(t.upload_url, await makePng())).status).toBe(200);
  });
});

describe("other upload errors", () => {
  it("an empty body: 400", async () => {
    const u = await createUser();
    const t = await uploadTicket(u, "image");
    await expectError(await putBytes(t.upload_url, new Uint8Array()), "invalid_request", "The upload needs a Content-Length header and a non-empty body.");
  });

  it("a body shorter than its Content-Length: 400, nothing stored, the URL stays usable", async () => {
    const u = await createUser();
    const t = await uploadTicket(u, "image");
    const png = await makePng();
    const res = await SELF.fetch(t.upload_url, { method: "PUT", body: png, headers: { "content-length": String(png.length + 100) } });
    await expectError(res, "invalid_request", `The upload body does not match its Content-Length of ${png.length + 100} bytes.`);
    expect(await env.MEDIA.head(`uploads/${t.upload_id}`)).toBeNull();
    expect((await putBytes(t.upload_url, png)).status).toBe(200);
  });

  it("the ticket endpoints validate their body", async () => {
    const u = await createUser();
    await expectError(await postJson("/uploads/image", u.key, { filename: "a.png" }), "invalid_request", "unknown field(s): filename");
    await expectError(await api("/uploads/video", { method: "POST", key: u.key, body: "{", headers: { "content-type": "application/json" } }), "invalid_json");
    await expectError(await api("/uploads/video", { method: "POST", key: u.key, body: "x", headers: { "content-type": "text/plain" } }), "unsupported_media_type");
  });

  it("GET on the ticket endpoint: 405; GET on an upload URL: 405 with Allow: PUT", async () => {
    const u = await createUser();
    const r1 = await api("/uploads/image", { key: u.key });
    expect(r1.headers.get("allow")).toBe("POST");
    await expectError(r1, "method_not_allowed");
    const t = await uploadTicket(u, "image");
    const r2 = await SELF.fetch(t.upload_url);
    expect(r2.headers.get("allow")).toBe("PUT");
    await expectError(r2, "method_not_allowed");
  });
});
