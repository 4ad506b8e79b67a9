// One test per error code of schema/errors.ts that the Worker can produce inside workerd, each
// through a real request and asserting the exact envelope {"error":{"code","message","status"}}.
//
// Codes that need a running compute service are covered by the end-to-end tests (test/e2e/),
// not here (inside workerd COMPUTE_URLS points at a dead port):
//   - corrupt_media       (compute decodes the media and finds it broken)
//   - media_unreachable   (compute fetches the media URL: DNS, timeout, HTTP error, redirects)
//   - not_implemented     (compute is up but does not serve the feature)
// compute.error.test.ts additionally checks, against a fake compute (a fetch mock), that the
// Worker passes compute's codes through unchanged with nothing charged and answers 501 itself.
// The areas' own error files go deeper on each family (validation, media URLs, uploads, ...).
import { env, SELF } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { ERROR_CODES, type ErrorCode } from "../../schema/errors.ts";
import { API, BASE, SVG, api, balance, createUser, expectError, makePng, postJson, putBytes, uploadTicket, uploadedMedia } from "./helpers.ts";

const NEEDS_COMPUTE: ErrorCode[] = ["corrupt_media", "media_unreachable", "not_implemented", "object_not_found"];
const tested = new Set<ErrorCode>();
const code = (c: ErrorCode, fn: () => Promise<void>) => {
  tested.add(c);
  it(c, fn);
};

describe("every error code producible in workerd", () => {
  code("invalid_request", async () => {
    const u = await createUser({ credits: 10 });
    const res = await postJson("/videos/object-removal", u.key, { video_url: "https://media.example.com/a.mp4" });
    await expectError(res, "invalid_request", "object_text is required");
  });

  code("invalid_json", async () => {
    const u = await createUser();
    const res = await api("/images/face-blur", { method: "POST", key: u.key, body: '{"image_url":', headers: { "content-type": "application/json" } });
    await expectError(res, "invalid_json", /not valid JSON/);
  });

  code("invalid_media_url", async () => {
    const u = await createUser({ credits: 10 });
    const res = await postJson("/images/face-blur", u.key, { image_url: "ftp://media.example.com/a.png" });
    await expectError(res, "invalid_media_url", 'image_url: The media URL scheme "ftp" is not allowed; use http or https.');
  });

  code("media_url_not_allowed", async () => {
    const u = await createUser({ credits: 10 });
    const res = await postJson("/images/face-blur", u.key, { image_url: "http://169.254.169.254/latest/meta-data" });
    await expectError(res, "media_url_not_allowed", /^image_url: The media URL host 169\.254\.169\.254 is a loopback, private, link-local or reserved IPv4 address/);
  });

  code("unauthorized", async () => {
    const res = await SELF.fetch(`${API}/me`);
    await expectError(res, "unauthorized", "Missing API key: send the header Authorization: Bearer <API_KEY>.");
  });

  code("insufficient_credits", async () => {
    const u = await createUser({ credits: 1 });
    const res = await postJson("/images/blur-background", u.key, { image_url: "https://media.example.com/a.png" });
    await expectError(res, "insufficient_credits", "This request costs 2 credits and the account has 1.");
    expect((await balance(u.account.id)).available).toBe(1);
  });

  code("plan_restricted", async () => {
    const u = await createUser({ credits: 100 });
    const res = await postJson("/videos/background-blur", u.key, { video_url: "https://media.example.com/a.mp4", duration_seconds: 5, is_watermark: false });
    await expectError(res, "plan_restricted", "is_watermark=false needs the pro or enterprise plan; this account is on the free plan.");
  });

  code("forbidden", async () => {
    // The dashboard's JSON endpoint refuses cross-site requests (CSRF) before anything else;
    // dashboard.security.test.ts covers the dashboard in depth.
    const res = await SELF.fetch(`${BASE}/dashboard/api/face-blur`, { method: "POST", body: "{}", headers: { origin: "https://evil.example", "content-type": "application/json" } });
    await expectError(res, "forbidden", /cross-site request refused/);
  });

  code("not_found", async () => {
    const u = await createUser();
    await expectError(await api("/no-such-thing", { key: u.key }), "not_found", "No route GET /api/v2/no-such-thing. See /api/v2/docs.");
  });

  code("job_not_found", async () => {
    const u = await createUser();
    await expectError(await api("/jobs/job_AAAAAAAAAAAAAAAAAAAAAA", { key: u.key }), "job_not_found", "No job job_AAAAAAAAAAAAAAAAAAAAAA belongs to this account.");
  });

  code("media_not_found", async () => {
    const owner = await createUser();
    const other = await createUser({ credits: 10 });
    const { url } = await uploadedMedia(owner, "image");
    const res = await postJson("/images/face-blur", other.key, { image_url: url });
    await expectError(res, "media_not_found", /^image_url: no uploaded media with this URL belongs to this account/);
  });

  code("method_not_allowed", async () => {
    const u = await createUser();
    const res = await api("/me", { method: "DELETE", key: u.key });
    expect(res.headers.get("allow")).toBe("GET");
    await expectError(res, "method_not_allowed", "DELETE is not allowed on /api/v2/me; allowed: GET.");
  });

  code("idempotency_conflict", async () => {
    const u = await createUser();
    const headers = { "idempotency-key": "conflict-1" };
    const first = await postJson("/images/face-blur", u.key, { image_url: `${BASE}/media/AAAAAAAAAAAAAAAAAAAAAA` }, headers);
    await expectError(first, "media_not_found");
    const second = await postJson("/images/face-blur", u.key, { image_url: `${BASE}/media/BBBBBBBBBBBBBBBBBBBBBB` }, headers);
    await expectError(second, "idempotency_conflict", "This Idempotency-Key was already used with a different request.");
  });

  code("upload_expired", async () => {
    const u = await createUser();
    const ticket = await uploadTicket(u, "image");
    expect((await putBytes(ticket.upload_url, await makePng())).status).toBe(200);
    await expectError(await putBytes(ticket.upload_url, await makePng()), "upload_expired", "This upload URL was already used; request a new one.");
  });

  code("request_too_large", async () => {
    const u = await createUser({ credits: 10 });
    // 1 MiB of JSON, streamed without a Content-Length: refused once 64 KiB have been read.
    const big = JSON.stringify({ image_url: "https://media.example.com/a.png", pad: "x".repeat(1 << 20) });
    const stream = new ReadableStream({ start: (c) => (c.enqueue(new TextEncoder().encode(big)), c.close()) });
    const res = await api("/images/face-blur", { method: "POST", key: u.key, body: stream, headers: { "content-type": "application/json" } });
    await expectError(res, "request_too_large", "The JSON body is over 64 KiB; send media by URL, upload or file part.");
    expect(await balance(u.account.id)).toMatchObject({ available: 10, reserved: 0 });
  });

  it("an unknown field's name is not echoed whole: at most 5 names of at most 40 characters", async () => {
    const u = await createUser();
    const fields = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`${i}${"k".repeat(5000)}`, 1]));
    const res = await postJson("/images/face-blur", u.key, { image_url: "https://media.example.com/a.png", ...fields });
    const message = await expectError(res, "invalid_request", /unknown field\(s\): 0k{39}\.\.\., 1k{39}\.\.\., .* and 3 more/);
    expect(message.length).toBeLessThan(400);
  });

  code("media_too_large", async () => {
    const u = await createUser();
    const ticket = await uploadTicket(u, "image");
    const res = await SELF.fetch(ticket.upload_url, { method: "PUT", body: await makePng(), headers: { "content-length": String(ticket.max_bytes + 1) } });
    await expectError(res, "media_too_large", `The image is ${ticket.max_bytes + 1} bytes; the limit is ${ticket.max_bytes} bytes.`);
  });

  code("unsupported_media_type", async () => {
    const u = await createUser();
    const res = await api("/images/face-blur", { method: "POST", key: u.key, body: "image_url=https://x.com/a.png", headers: { "content-type": "application/x-www-form-urlencoded" } });
    await expectError(res, "unsupported_media_type", "Content-Type must be application/json or multipart/form-data, not application/x-www-form-urlencoded.");
  });

  code("unsupported_media_format", async () => {
    const u = await createUser();
    const ticket = await uploadTicket(u, "image");
    await expectError(await putBytes(ticket.upload_url, SVG, "image/png"), "unsupported_media_format", "Unsupported image format (SVG/XML); supported: PNG, JPEG, WEBP, HEIC.");
  });

  code("unsupported_prompt", async () => {
    const u = await createUser({ credits: 10 });
    const res = await postJson("/images/blur-anything", u.key, { image_url: "https://media.example.com/a.png", prompt: "zorblax" });
    await expectError(res, "unsupported_prompt", /^prompt: The prompt "zorblax" names nothing this service can find\. It can find: faces, licence plates, text, people, and these objects: bicycle, car, /);
    expect(await balance(u.account.id)).toEqual({ available: 10, purchased: 10, spent: 0, reserved: 0 });
  });

  code("rate_limited", async () => {
    const u = await createUser({ tier: "enterprise", dailyLimit: 1 });
    expect((await api("/me", { key: u.key })).status).toBe(200);
    const res = await api("/me", { key: u.key });
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    await expectError(res, "rate_limited", /^Daily limit of 1 requests reached; it resets at \d{4}-\d\d-\d\dT00:00:00\.000Z \(00:00 UTC\)\.$/);
  });

  code("internal_error", async () => {
    const u = await createUser();
    // An unexpected failure inside a route (here D1 itself failing) must still be the envelope.
    const spy = vi.spyOn(env.DB, "prepare").mockImplementation(() => {
      throw new Error("D1 is down");
    });
    const quiet = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const res = await api("/me/credits", { key: u.key });
      await expectError(res, "internal_error", "An unexpected error occurred; nothing was charged. Please retry.");
    } finally {
      spy.mockRestore();
      quiet.mockRestore();
    }
  });

  it("internal_error inside a route keeps the rate headers", async () => {
    const u = await createUser();
    const spy = vi.spyOn(env.JOBS, "idFromName").mockImplementation(() => {
      throw new Error("Durable Objects are down");
    });
    const quiet = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const res = await api("/jobs/job_AAAAAAAAAAAAAAAAAAAAAA", { key: u.key });
      expect(res.headers.get("x-ratelimit-limit")).toBe("100");
      expect(res.headers.get("x-ratelimit-remaining")).toBe("99");
      await expectError(res, "internal_error", "An unexpected error occurred; nothing was charged. Please retry.");
    } finally {
      spy.mockRestore();
      quiet.mockRestore();
    }
  });

  code("compute_unavailable", async () => {
    const u = await createUser({ credits: 10 });
    const res = await postJson("/images/face-blur", u.key, { image_url: "https://media.example.com/a.png" });
    await expectError(res, "compute_unavailable", "No compute instance is reachable right now; nothing was charged. Retry later.");
    expect(res.headers.get("retry-after")).toBe("5");
    const after = await balance(u.account.id);
    expect(after).toEqual({ available: 10, purchased: 10, spent: 0, reserved: 0 });
  });

  it("covers every code of the catalog here or names it as end-to-end only", () => {
    expect([...tested, ...NEEDS_COMPUTE].sort()).toEqual(Object.keys(ERROR_CODES).sort());
  });
});
