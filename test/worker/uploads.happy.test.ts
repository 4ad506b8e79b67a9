// Uploads: a ticket, a PUT of real bytes into R2, then the media URL works as a feature input.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { MAX_IMAGE_BYTES, MAX_VIDEO_BYTES } from "../../schema/limits.ts";
import { BASE, api, createUser, expectError, makeMp4Head, makePng, postJson, putBytes, uploadTicket } from "./helpers.ts";

describe("POST /api/v2/uploads/{image,video}", () => {
  it.each([
    ["image", MAX_IMAGE_BYTES, ["PNG", "JPEG", "WEBP", "HEIC"]],
    ["video", MAX_VIDEO_BYTES, ["MP4", "MOV"]],
  ] as const)("%s: 201 with upload_url, the media URL, expiry and max_bytes", async (kind, maxBytes, formats) => {
    const u = await createUser();
    const before = Date.now();
    const res = await api(`/uploads/${kind}`, { method: "POST", key: u.key });
    expect(res.status).toBe(201);
    const t = (await res.json()) as Record<string, unknown>;
    expect(t).toEqual({
      success: true,
      upload_id: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
      upload_url: expect.stringMatching(new RegExp(`^${BASE}/uploads/[A-Za-z0-9_-]+\\.[0-9a-f]{64}$`)),
      method: "PUT",
      [`${kind}_url`]: `${BASE}/media/${t.upload_id}`,
      expires_at: expect.any(String),
      max_bytes: maxBytes,
      accepted_formats: formats,
    });
    const expires = Date.parse(t.expires_at as string);
    expect(expires).toBeGreaterThanOrEqual(before + 59 * 60_000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 60 * 60_000);
    const row = await env.DB.prepare("SELECT account_id, kind, completed_at FROM uploads WHERE id = ?1").bind(t.upload_id).first();
    expect(row).toEqual({ account_id: u.account.id, kind, completed_at: null });
  });

  it("accepts a JSON body with the informational content_type", async () => {
    const u = await createUser();
    const res = await postJson("/uploads/image", u.key, { content_type: "image/png" });
    expect(res.status).toBe(201);
  });
});

describe("PUT upload_url", () => {
  it("stores a real PNG in R2 under its sniffed type and marks the upload complete", async () => {
    const u = await createUser();
    const t = await uploadTicket(u, "image");
    const png = await makePng();
    // The declared Content-Type is ignored: the bytes decide.
    const res = await putBytes(t.upload_url, png, "application/octet-stream");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: true, upload_id: t.upload_id, format: "png", size_bytes: png.length, media_url: t.image_url });

    const object = await env.MEDIA.get(`uploads/${t.upload_id}`);
    expect(object).not.toBeNull();
    expect(object!.httpMetadata?.contentType).toBe("image/png");
    expect(new Uint8Array(await object!.arrayBuffer())).toEqual(png);

    const row = await env.DB.prepare("SELECT format, size_bytes, completed_at, expires_at FROM uploads WHERE id = ?1").bind(t.upload_id).first<Record<string, string | number>>();
    expect(row).toMatchObject({ format: "png", size_bytes: png.length });
    expect(row!.completed_at).toEqual(expect.any(String));
    // The media URL stays usable for 24 hours after the upload.
    expect(Date.parse(row!.expires_at as string)).toBeGreaterThan(Date.now() + 23 * 3600_000);
  });

  it("stores an MP4 to a video upload URL", async () => {
    const u = await createUser();
    const t = await uploadTicket(u, "video");
    const mp4 = makeMp4Head();
    const res = await putBytes(t.upload_url, mp4);
    expect(await res.json()).toMatchObject({ success: true, format: "mp4", size_bytes: mp4.length, media_url: t.video_url });
    expect((await env.MEDIA.head(`uploads/${t.upload_id}`))!.httpMetadata?.contentType).toBe("video/mp4");
  });

  it("the PUT needs no API key (the signed URL authorizes it) and is not rate limited", async () => {
    const u = await createUser({ tier: "enterprise", dailyLimit: 1 });
    const t = await uploadTicket(u, "image");
    const res = await putBytes(t.upload_url, await makePng());
    expect(res.status).toBe(200);
    expect(res.headers.get("x-ratelimit-limit")).toBeNull();
  });

  it("the uploaded media URL is accepted by a feature: it passes media checks and reaches compute (503 here)", async () => {
    const u = await createUser({ credits: 10 });
    const t = await uploadTicket(u, "image");
    await putBytes(t.upload_url, await makePng());
    await expectError(await postJson("/images/face-blur", u.key, { image_url: t.image_url }), "compute_unavailable");
    const v = await uploadTicket(u, "video");
    await putBytes(v.upload_url, makeMp4Head());
    await expectError(await postJson("/videos/face-blur", u.key, { video_url: v.video_url, duration_seconds: 4 }), "compute_unavailable");
    await expectError(await postJson("/detect/nsfw", u.key, { media_url: v.video_url, media_type: "video" }), "compute_unavailable");
  });
});

describe("multipart file parts on feature endpoints", () => {
  it("an `image` file part is stored like an upload (R2 + upload row), then the request goes on to compute", async () => {
    const u = await createUser({ credits: 10 });
    const png = await makePng();
    const form = new FormData();
    form.append("image", new File([png as Uint8Array<ArrayBuffer>], "holiday.jpg", { type: "image/jpeg" }));
    form.append("blur_strength", "0.4");
    form.append("pixelated", "true");
    const res = await api("/images/face-blur", { method: "POST", key: u.key, body: form });
    await expectError(res, "compute_unavailable");
    const row = await env.DB.prepare("SELECT id, kind, format, size_bytes, completed_at FROM uploads WHERE account_id = ?1").bind(u.account.id).first<Record<string, unknown>>();
    expect(row).toMatchObject({ kind: "image", format: "png", size_bytes: png.length, completed_at: expect.any(String) });
    const stored = await env.MEDIA.get(`uploads/${row!.id}`);
    expect(new Uint8Array(await stored!.arrayBuffer())).toEqual(png);
  });

  it("a `video` part on a video endpoint and a `media` part on NSFW detection", async () => {
    const u = await createUser({ credits: 10 });
    const video = new FormData();
    video.append("video", new File([makeMp4Head() as Uint8Array<ArrayBuffer>], "clip.mp4"));
    video.append("duration_seconds", "8");
    await expectError(await api("/videos/license-plate-blur", { method: "POST", key: u.key, body: video }), "compute_unavailable");
    const media = new FormData();
    media.append("media", new File([(await makePng()) as Uint8Array<ArrayBuffer>], "x.png"));
    await expectError(await api("/detect/nsfw", { method: "POST", key: u.key, body: media }), "compute_unavailable");
    const { results } = await env.DB.prepare("SELECT kind FROM uploads WHERE account_id = ?1 ORDER BY kind").bind(u.account.id).all();
    expect(results).toEqual([{ kind: "image" }, { kind: "video" }]);
  });
});
