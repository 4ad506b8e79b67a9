// Upload security: tickets need a key, an upload URL is bound to its account, and media URLs
// of one account are useless to another.
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { signToken } from "../../schema/signing.ts";
import { api, API, BASE, createUser, expectError, makePng, postJson, putBytes, uploadTicket, uploadedMedia } from "./helpers.ts";

describe("upload security", () => {
  it("tickets need a valid key", async () => {
    await expectError(await SELF.fetch(`${API}/uploads/image`, { method: "POST" }), "unauthorized");
    await expectError(await SELF.fetch(`${API}/uploads/video`, { method: "POST", headers: { authorization: "Bearer obs_live_nope" } }), "unauthorized");
  });

  it("an upload token cannot be re-pointed at another upload id (the signature covers the claims)", async () => {
    const a = await createUser();
    const b = await createUser();
    const ta = await uploadTicket(a, "image");
    const tb = await uploadTicket(b, "image");
    // Swap the payload of A's token for one naming B's upload, keeping A's signature.
    const [, sigA] = ta.upload_url.slice(`${BASE}/uploads/`.length).split(".");
    const payload = btoa(JSON.stringify({ id: tb.upload_id, acct: a.account.id, kind: "image", exp: Date.now() + 60_000 })).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
    await expectError(await putBytes(`${BASE}/uploads/${payload}.${sigA}`, await makePng()), "upload_expired");
    expect(await env.MEDIA.head(`uploads/${tb.upload_id}`)).toBeNull();
  });

  it("another account's uploaded media: 404 media_not_found on every endpoint, like a missing upload", async () => {
    const owner = await createUser();
    const thief = await createUser({ credits: 100 });
    const img = await uploadedMedia(owner, "image");
    const vid = await uploadedMedia(owner, "video");
    const missing = `${BASE}/media/AAAAAAAAAAAAAAAAAAAAAA`;
    const m1 = await expectError(await postJson("/images/face-blur", thief.key, { image_url: img.url }), "media_not_found");
    const m2 = await expectError(await postJson("/images/face-blur", thief.key, { image_url: missing }), "media_not_found");
    expect(m1).toBe(m2);
    await expectError(await postJson("/videos/face-blur", thief.key, { video_url: vid.url, duration_seconds: 3 }), "media_not_found");
    await expectError(await postJson("/detect/nsfw", thief.key, { media_url: img.url }), "media_not_found");
  });

  it("uploaded media is readable at its media URL by its owner only", async () => {
    const u = await createUser();
    const { url } = await uploadedMedia(u, "image");
    await expectError(await SELF.fetch(url), "unauthorized");
    await expectError(await api(url, { key: (await createUser()).key }), "media_not_found");
    const own = await api(url, { key: u.key });
    expect([own.status, own.headers.get("content-type")]).toEqual([200, "image/png"]);
    expect(new Uint8Array(await own.arrayBuffer())).toEqual(await makePng());
  });

  it("internal media reads need a valid signed token", async () => {
    const u = await createUser();
    const { ticket } = await uploadedMedia(u, "image");
    await expectError(await SELF.fetch(`${BASE}/internal/media/garbage`), "unauthorized", "Invalid or expired media token.");
    const expired = await signToken(env.SIGNING_SECRET, "media", { key: `uploads/${ticket.upload_id}`, exp: Date.now() - 1 });
    await expectError(await SELF.fetch(`${BASE}/internal/media/${expired}`), "unauthorized");
    const good = await signToken(env.SIGNING_SECRET, "media", { key: `uploads/${ticket.upload_id}`, exp: Date.now() + 60_000 });
    const res = await SELF.fetch(`${BASE}/internal/media/${good}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(await makePng());
  });

  it("internal media reads serve one byte range (compute's probe reads a video's index that way)", async () => {
    const u = await createUser();
    const { ticket } = await uploadedMedia(u, "image");
    const png = await makePng();
    const url = `${BASE}/internal/media/${await signToken(env.SIGNING_SECRET, "media", { key: `uploads/${ticket.upload_id}`, exp: Date.now() + 60_000 })}`;
    const get = (range: string) => SELF.fetch(url, { headers: { range } });
    const part = await get("bytes=8-23");
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 8-23/${png.length}`);
    expect(part.headers.get("content-length")).toBe("16");
    expect(new Uint8Array(await part.arrayBuffer())).toEqual(png.subarray(8, 24));
    // Past the end: clipped to the object; from an offset to the end; the last N bytes.
    const tail = await get(`bytes=${png.length - 4}-${png.length + 100}`);
    expect([tail.status, tail.headers.get("content-range")]).toEqual([206, `bytes ${png.length - 4}-${png.length - 1}/${png.length}`]);
    expect(new Uint8Array(await tail.arrayBuffer())).toEqual(png.subarray(png.length - 4));
    expect(new Uint8Array(await (await get("bytes=10-")).arrayBuffer())).toEqual(png.subarray(10));
    expect(new Uint8Array(await (await get("bytes=-6")).arrayBuffer())).toEqual(png.subarray(png.length - 6));
    // Not one satisfiable range (several, malformed, past the end): the whole object, as without the header.
    for (const range of ["bytes=0-3,8-9", "bytes=9-3", "items=0-3", `bytes=${png.length}-`, "bytes=-0"]) {
      const whole = await get(range);
      expect(whole.status).toBe(200);
      expect(new Uint8Array(await whole.arrayBuffer())).toEqual(png);
    }
  });
});
