// Error paths of the processing endpoints (six video, six image, NSFW): body format, field
// validation naming field and rule, media URL policy, plan, credits, idempotency, compute down.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { FEATURES } from "../../schema/features.ts";
import { IDEMPOTENCY_LEASE_MS, requestFingerprint } from "../../worker/services/idempotency.ts";
import { BASE, api, balance, createUser, expectError, ledgerKinds, makePng, postJson, uploadTicket, uploadedMedia, type TestUser } from "./helpers.ts";

const IMG = "https://media.example.com/photo.png";
const VID = "https://media.example.com/clip.mp4";
let user: TestUser;
const u = async () => (user ??= await createUser({ tier: "enterprise", dailyLimit: 100_000, credits: 1000 }));

describe("routing", () => {
  it("unknown route: 404 not_found naming the method and path", async () => {
    await expectError(await api("/images/face-blurr", { method: "POST", key: (await u()).key }), "not_found", "No route POST /api/v2/images/face-blurr. See /api/v2/docs.");
    await expectError(await api(`${BASE}/api/v1/me`, { key: (await u()).key }), "not_found", "No route GET /api/v1/me. See /api/v2/docs.");
  });

  it.each(FEATURES.map((f) => f.path))("GET %s: 405 method_not_allowed with Allow: POST", async (path) => {
    const res = await api(path, { key: (await u()).key });
    expect(res.headers.get("allow")).toBe("POST");
    await expectError(res, "method_not_allowed", `GET is not allowed on /api/v2${path}; allowed: POST.`);
  });

  it("405 on the job route names GET", async () => {
    const res = await api("/jobs/job_AAAAAAAAAAAAAAAAAAAAAA", { method: "POST", key: (await u()).key });
    expect(res.headers.get("allow")).toBe("GET");
    await expectError(res, "method_not_allowed");
  });
});

describe("body format", () => {
  it.each([
    ["truncated", '{"image_url": "https://x.com/a.png"'],
    ["not JSON at all", "image_url=x"],
    ["trailing garbage", '{"image_url":"x"} extra'],
  ])("malformed JSON (%s): 400 invalid_json", async (_name, body) => {
    const res = await api("/images/face-blur", { method: "POST", key: (await u()).key, body, headers: { "content-type": "application/json" } });
    await expectError(res, "invalid_json", /^The body is not valid JSON: /);
  });

  it.each([["an array", "[]"], ["a string", '"x"'], ["null", "null"]])("a JSON body that is %s: 400 invalid_json", async (_n, body) => {
    const res = await api("/images/face-blur", { method: "POST", key: (await u()).key, body, headers: { "content-type": "application/json" } });
    await expectError(res, "invalid_json", "The JSON body must be an object.");
  });

  it.each(["text/plain", "application/xml", "application/x-www-form-urlencoded"])("Content-Type %s: 415 unsupported_media_type", async (type) => {
    const res = await api("/images/face-blur", { method: "POST", key: (await u()).key, body: JSON.stringify({ image_url: IMG }), headers: { "content-type": type } });
    await expectError(res, "unsupported_media_type", `Content-Type must be application/json or multipart/form-data, not ${type}.`);
  });

  it("a body without Content-Type: 415", async () => {
    const res = await api("/images/face-blur", { method: "POST", key: (await u()).key, body: new TextEncoder().encode(JSON.stringify({ image_url: IMG })) });
    await expectError(res, "unsupported_media_type", "Content-Type must be application/json or multipart/form-data.");
  });

  it("multipart Content-Type with a JSON body: 415 (Content-Type must match the body)", async () => {
    const res = await api("/images/face-blur", { method: "POST", key: (await u()).key, body: JSON.stringify({ image_url: IMG }), headers: { "content-type": "multipart/form-data; boundary=xyz" } });
    await expectError(res, "unsupported_media_type", /does not match Content-Type multipart\/form-data/);
  });

  it("a multipart body under a JSON Content-Type: 415 (Content-Type must match the body), not invalid_json", async () => {
    const form = new FormData();
    form.append("image_url", IMG);
    const multipart = await new Request("http://localhost/", { method: "POST", body: form }).text();
    const res = await api("/images/face-blur", { method: "POST", key: (await u()).key, body: multipart, headers: { "content-type": "application/json" } });
    await expectError(res, "unsupported_media_type", /^The body is multipart\/form-data but Content-Type says JSON/);
  });

  it("a file part under another name: 400 naming the endpoint's part", async () => {
    const form = new FormData();
    form.append("video", new File([await makePng()], "a.png"));
    const res = await api("/images/face-blur", { method: "POST", key: (await u()).key, body: form });
    await expectError(res, "invalid_request", 'Unexpected file part "video"; the file part of this endpoint is "image".');
  });

  it("both a URL and a file part: 400", async () => {
    const form = new FormData();
    form.append("image_url", IMG);
    form.append("image", new File([await makePng()], "a.png"));
    await expectError(await api("/images/face-blur", { method: "POST", key: (await u()).key, body: form }), "invalid_request", 'Send either image_url or a "image" file part, not both.');
  });
});

describe("field validation names the field and the rule", () => {
  const cases: Array<[string, string, Record<string, unknown>, string]> = [
    ["object_text missing", "/videos/object-removal", { video_url: VID }, "object_text is required"],
    ["object_text of 41 characters", "/videos/object-removal", { video_url: VID, object_text: "x".repeat(41) }, "object_text must be at most 40 characters"],
    ["object_text blank", "/videos/object-removal", { video_url: VID, object_text: "   " }, "object_text is required and must not be empty"],
    ["blur_strength 1.5", "/images/face-blur", { image_url: IMG, blur_strength: 1.5 }, "blur_strength must be between 0 and 1"],
    ["blur_strength -0.1", "/videos/face-blur", { video_url: VID, blur_strength: -0.1 }, "blur_strength must be between 0 and 1"],
    ['blur_strength "x"', "/images/blur-background", { image_url: IMG, blur_strength: "x" }, "blur_strength must be a number from 0 to 1"],
    ['background_color "green"', "/images/remove-background", { image_url: IMG, output_transparent: false, background_color: "green" }, "background_color must be a hex color such as #00FF00 or #0F0"],
    ['face_blur_mode "sparkle"', "/videos/face-blur", { video_url: VID, face_blur_mode: "sparkle" }, "face_blur_mode must be one of: gaussian, pixelated, emoji"],
    ["blur_anything_blur_mode emoji", "/videos/blur-anything", { video_url: VID, prompt: "car", blur_anything_blur_mode: "emoji" }, "blur_anything_blur_mode must be one of: gaussian, pixelated"],
    ["sam3_batch_size 0", "/videos/blur-anything", { video_url: VID, prompt: "car", sam3_batch_size: 0 }, "sam3_batch_size must be between 1 and 64"],
    ["sam3_chunk_size 2.5", "/videos/blur-anything", { video_url: VID, prompt: "car", sam3_chunk_size: 2.5 }, "sam3_chunk_size must be an integer"],
    ["prompt missing", "/images/blur-anything", { image_url: IMG }, "prompt is required"],
    ["pixelation_strength 0", "/images/blur-anything", { image_url: IMG, prompt: "car", pixelation_strength: 0 }, "pixelation_strength must be between 1 and 1000"],
    ["pixelated as a string", "/images/face-blur", { image_url: IMG, pixelated: "yes" }, "pixelated must be a boolean"],
    ["is_watermark as a number", "/videos/face-anonymization", { video_url: VID, is_watermark: 0 }, "is_watermark must be a boolean"],
    ["duration_seconds 0", "/videos/face-blur", { video_url: VID, duration_seconds: 0 }, "duration_seconds must be greater than 0"],
    ["duration_seconds over the longest video (nothing priced for it)", "/videos/face-blur", { video_url: VID, duration_seconds: 1e9 }, "duration_seconds must be at most 600 (the longest video accepted)"],
    ["media_type audio", "/detect/nsfw", { media_url: IMG, media_type: "audio" }, "media_type must be one of: image, video"],
    ["image_url missing", "/images/face-blur", {}, "image_url is required"],
    ["video_url missing", "/videos/license-plate-blur", {}, "video_url is required"],
    ["media_url missing", "/detect/nsfw", {}, "media_url is required"],
    ["image_url a number", "/images/portrait-enhance", { image_url: 5 }, "image_url must be a string URL"],
    ["unknown field", "/images/face-blur", { image_url: IMG, strength: 0.5 }, "unknown field(s): strength"],
    ["a video field on an image endpoint", "/images/face-blur", { image_url: IMG, duration_seconds: 3 }, "unknown field(s): duration_seconds"],
  ];

  it.each(cases)("%s: 400 invalid_request", async (_name, path, body, message) => {
    const res = await postJson(path, (await u()).key, body);
    await expectError(res, "invalid_request", message);
  });

  it("several problems are reported together", async () => {
    const msg = await expectError(await postJson("/videos/blur-anything", (await u()).key, { blur_strength: 2, sam3_batch_size: 0 }), "invalid_request");
    expect(msg).toContain("video_url is required");
    expect(msg).toContain("prompt is required");
    expect(msg).toContain("blur_strength must be between 0 and 1");
    expect(msg).toContain("sam3_batch_size must be between 1 and 64");
  });

  it("multipart text fields are validated with the same rules", async () => {
    const form = new FormData();
    form.append("video_url", VID);
    form.append("object_text", "y".repeat(41));
    await expectError(await api("/videos/object-removal", { method: "POST", key: (await u()).key, body: form }), "invalid_request", "object_text must be at most 40 characters");
    const form2 = new FormData();
    form2.append("image_url", IMG);
    form2.append("blur_strength", "1.5");
    await expectError(await api("/images/face-blur", { method: "POST", key: (await u()).key, body: form2 }), "invalid_request", "blur_strength must be between 0 and 1");
  });

  it("a bad Idempotency-Key: 400", async () => {
    await expectError(await postJson("/images/face-blur", (await u()).key, { image_url: IMG }, { "idempotency-key": "x".repeat(256) }), "invalid_request", "Idempotency-Key must be 1 to 255 visible ASCII characters.");
  });

  it("NSFW detection refuses Prefer: respond-async", async () => {
    await expectError(await postJson("/detect/nsfw", (await u()).key, { media_url: IMG }, { prefer: "respond-async" }), "invalid_request", "NSFW detection answers synchronously; drop the Prefer: respond-async header.");
  });

  it("webhook_url follows the media URL policy and must be https", async () => {
    await expectError(await postJson("/videos/face-blur", (await u()).key, { video_url: VID, webhook_url: "http://10.0.0.1/hook" }), "invalid_request", /^webhook_url: The media URL host 10\.0\.0\.1/);
    await expectError(await postJson("/videos/face-blur", (await u()).key, { video_url: VID, webhook_url: "http://hooks.example.com/x" }), "invalid_request", "webhook_url: webhook_url must be an https URL.");
  });
});

describe("media URL policy: refused before any work", () => {
  const notAllowed: Array<[string, RegExp]> = [
    ["http://localhost/a.png", /^image_url: The media URL host "localhost" is a single-label name|is localhost/],
    ["http://127.0.0.1/a.png", /127\.0\.0\.1 is a loopback, private, link-local or reserved IPv4 address/],
    ["http://[::1]/a.png", /\[::1\] is a loopback, private, link-local or reserved IPv6 address/],
    ["http://[::ffff:127.0.0.1]/a.png", /\[::ffff:7f00:1\] is a loopback, private, link-local or reserved IPv6 address/],
    ["http://2130706433/a.png", /127\.0\.0\.1 is a loopback/],
    ["http://0x7f.1/a.png", /127\.0\.0\.1 is a loopback/],
    ["http://10.0.0.1/a.png", /10\.0\.0\.1 is a loopback, private/],
    ["http://169.254.169.254/latest/meta-data/", /169\.254\.169\.254 is a loopback, private, link-local/],
    ["http://192.168.1.20/a.png", /192\.168\.1\.20/],
    ["http://[fd00::1]/a.png", /\[fd00::1\]/],
    ["http://api.localhost/a.png", /is localhost/],
    ["http://printer.local/a.png", /non-public domain \.local/],
    ["http://intranet/a.png", /single-label name/],
    ["https://bucket.s3.amazonaws.com/a.png?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIA%2F20260101&X-Amz-Signature=abcdef", /^image_url: Signed media URLs are not accepted \(AWS S3 SigV4 parameter "X-Amz-Signature"\)/],
    ["https://storage.googleapis.com/b/a.png?X-Goog-Signature=abc", /Signed media URLs are not accepted \(Google Cloud Storage V4/],
    ["https://acct.blob.core.windows.net/c/a.png?sv=2022-11-02&sig=abc", /Signed media URLs are not accepted \(Azure SAS/],
  ];
  it.each(notAllowed)("%s: 400 media_url_not_allowed", async (url, message) => {
    const res = await postJson("/images/face-blur", (await u()).key, { image_url: url });
    await expectError(res, "media_url_not_allowed", message);
  });

  const invalid: Array<[string, string]> = [
    ["ftp://media.example.com/a.png", 'image_url: The media URL scheme "ftp" is not allowed; use http or https.'],
    ["file:///etc/passwd", 'image_url: The media URL scheme "file" is not allowed; use http or https.'],
    ["data:image/png;base64,AAAA", 'image_url: The media URL scheme "data" is not allowed; use http or https.'],
    ["https://user:pass@media.example.com/a.png", "image_url: The media URL must not carry credentials (user:password@)."],
    ["not a url", "image_url: The media URL is not a valid absolute URL."],
    ["/relative/a.png", "image_url: The media URL is not a valid absolute URL."],
    [`https://media.example.com/${"a".repeat(4100)}`, "image_url: The media URL is longer than 4096 characters."],
  ];
  it.each(invalid)("%s: 400 invalid_media_url", async (url, message) => {
    await expectError(await postJson("/images/face-blur", (await u()).key, { image_url: url }), "invalid_media_url", message);
  });

  it("applies to every endpoint's media field, and nothing is charged", async () => {
    const v = await createUser({ credits: 50 });
    for (const f of FEATURES) {
      const body: Record<string, unknown> = { [f.mediaField]: "http://127.0.0.1:8788/healthz" };
      if (f.id.endsWith("blur-anything")) body.prompt = "car";
      if (f.id === "video.object-removal") body.object_text = "car";
      await expectError(await postJson(f.path, v.key, body), "media_url_not_allowed", new RegExp(`^${f.mediaField}: `));
    }
    expect(await ledgerKinds(v.account.id)).toEqual(["grant"]);
  });
});

describe("uploaded media passed to features", () => {
  it("an upload URL that was never uploaded to: 404 media_not_found", async () => {
    const v = await createUser({ credits: 10 });
    const ticket = await uploadTicket(v, "image");
    await expectError(await postJson("/images/face-blur", v.key, { image_url: ticket.image_url }), "media_not_found");
  });

  it("an image upload sent to a video endpoint: 422 unsupported_media_format", async () => {
    const v = await createUser({ credits: 10 });
    const { url } = await uploadedMedia(v, "image");
    await expectError(await postJson("/videos/face-blur", v.key, { video_url: url, duration_seconds: 3 }), "unsupported_media_format", "video_url: the uploaded file is a image, this endpoint takes a video.");
  });

  it("a multipart file part that is not an image: 422, nothing stored", async () => {
    const v = await createUser({ credits: 10 });
    const form = new FormData();
    form.append("image", new File(["<svg xmlns='http://www.w3.org/2000/svg'/>"], "photo.png", { type: "image/png" }));
    await expectError(await api("/images/face-blur", { method: "POST", key: v.key, body: form }), "unsupported_media_format", "Unsupported image format (SVG/XML); supported: PNG, JPEG, WEBP, HEIC.");
    expect(await env.DB.prepare("SELECT * FROM uploads WHERE account_id = ?1").bind(v.account.id).first()).toBeNull();
  });
});

describe("prompts naming nothing findable: 422 unsupported_prompt before anything is reserved", () => {
  it.each([
    ["/images/blur-anything", { image_url: IMG, prompt: "zorblax" }, /^prompt: The prompt "zorblax" names nothing this service can find\. It can find: faces, licence plates, text, people/],
    ["/videos/blur-anything", { video_url: VID, duration_seconds: 5, prompt: "the vibes" }, /^prompt: The prompt "the vibes" names nothing/],
    ["/videos/object-removal", { video_url: VID, duration_seconds: 5, object_text: "sadness" }, /^object_text: The prompt "sadness" names nothing/],
  ])("%s", async (path, body, message) => {
    const v = await createUser({ credits: 100 });
    await expectError(await postJson(path, v.key, body), "unsupported_prompt", message);
    expect(await ledgerKinds(v.account.id)).toEqual(["grant"]);
  });
});

describe("plan, credits and compute", () => {
  it("is_watermark=false on the free plan: 403 plan_restricted (video background blur and face anonymization)", async () => {
    const v = await createUser({ credits: 100 });
    for (const path of ["/videos/background-blur", "/videos/face-anonymization"]) {
      await expectError(await postJson(path, v.key, { video_url: VID, duration_seconds: 5, is_watermark: false }), "plan_restricted", "is_watermark=false needs the pro or enterprise plan; this account is on the free plan.");
    }
  });

  it("is_watermark=false is allowed on pro: it gets as far as compute (503 here), nothing charged", async () => {
    const v = await createUser({ tier: "pro", credits: 100 });
    const res = await postJson("/videos/background-blur", v.key, { video_url: VID, duration_seconds: 5, is_watermark: false });
    await expectError(res, "compute_unavailable");
    expect(await balance(v.account.id)).toEqual({ available: 100, purchased: 100, spent: 0, reserved: 0 });
  });

  it.each([
    ["an image feature (2 credits)", "/images/blur-background", { image_url: IMG }, 1, "This request costs 2 credits and the account has 1."],
    ["a video priced from duration_seconds (2 x 3 units)", "/videos/face-blur", { video_url: VID, duration_seconds: 25 }, 5, "This request costs 6 credits and the account has 5."],
    ["NSFW detection of a video (flat 2)", "/detect/nsfw", { media_url: VID, media_type: "video" }, 1, "This request costs 2 credits and the account has 1."],
    ["an account with no credits", "/images/face-blur", { image_url: IMG }, 0, "This request costs 1 credits and the account has 0."],
  ])("%s: 402 insufficient_credits, nothing runs or is recorded", async (_n, path, body, credits, message) => {
    const v = await createUser({ credits });
    await expectError(await postJson(path, v.key, body), "insufficient_credits", message);
    expect(await ledgerKinds(v.account.id)).toEqual(credits ? ["grant"] : []);
  });

  it.each(FEATURES.map((f) => [f.id, f] as const))("%s with compute down: 503 compute_unavailable, nothing charged", async (_id, f) => {
    const v = await createUser({ credits: 100 });
    const body: Record<string, unknown> = { [f.mediaField]: f.media === "video" ? VID : IMG };
    if (f.media === "video") body.duration_seconds = 12;
    if (f.id.endsWith("blur-anything")) body.prompt = "car";
    if (f.id === "video.object-removal") body.object_text = "car";
    const res = await postJson(f.path, v.key, body);
    await expectError(res, "compute_unavailable", /nothing was charged/);
    expect(await ledgerKinds(v.account.id)).toEqual(["grant"]);
    expect(await balance(v.account.id)).toEqual({ available: 100, purchased: 100, spent: 0, reserved: 0 });
  });

  it("a video without duration_seconds needs a probe: 503 with compute down, nothing charged", async () => {
    const v = await createUser({ credits: 100 });
    await expectError(await postJson("/videos/face-blur", v.key, { video_url: VID }), "compute_unavailable");
    expect(await ledgerKinds(v.account.id)).toEqual(["grant"]);
  });
});

describe("Idempotency-Key", () => {
  it("the same key with a different body: 409 idempotency_conflict", async () => {
    const v = await createUser({ credits: 1 });
    const h = { "idempotency-key": "order-42" };
    await expectError(await postJson("/images/blur-background", v.key, { image_url: IMG }, h), "insufficient_credits");
    await expectError(await postJson("/images/blur-background", v.key, { image_url: IMG, blur_strength: 0.2 }, h), "idempotency_conflict", "This Idempotency-Key was already used with a different request.");
    // Another endpoint with the same key and body is a different request too.
    await expectError(await postJson("/images/face-blur", v.key, { image_url: IMG }, h), "idempotency_conflict");
    // The sync and async forms of one image request are different requests.
    await expectError(await postJson("/images/blur-background", v.key, { image_url: IMG }, { ...h, prefer: "respond-async" }), "idempotency_conflict");
  });

  it("a key whose first request is still running: 409", async () => {
    const v = await createUser({ credits: 10 });
    await env.DB.prepare("INSERT INTO idempotency_records (account_id, key, request_hash, created_at) VALUES (?1, 'running', ?2, ?3)")
      .bind(v.account.id, await requestFingerprint("/images/face-blur", { image_url: IMG, blur_strength: 0.7, pixelated: false }), new Date().toISOString())
      .run();
    await expectError(await postJson("/images/face-blur", v.key, { image_url: IMG }, { "idempotency-key": "running" }), "idempotency_conflict", "A request with this Idempotency-Key is still running; retry in a moment.");
  });

  it("an abandoned claim (its request died before answering) is taken over after the lease, by one request", async () => {
    const v = await createUser({ credits: 10 });
    const fingerprint = await requestFingerprint("/images/face-blur", { image_url: IMG, blur_strength: 0.7, pixelated: false });
    const insert = (key: string, ageMs: number) =>
      env.DB.prepare("INSERT INTO idempotency_records (account_id, key, request_hash, created_at) VALUES (?1, ?2, ?3, ?4)")
        .bind(v.account.id, key, fingerprint, new Date(Date.now() - ageMs).toISOString())
        .run();
    await insert("abandoned", IDEMPOTENCY_LEASE_MS + 60_000);
    await insert("young", IDEMPOTENCY_LEASE_MS - 60_000);
    // Two retries at once: one takes the key over and runs (no compute here: 503, which releases
    // the key again), the other still sees a running request.
    const h = { "idempotency-key": "abandoned" };
    const both = await Promise.all([postJson("/images/face-blur", v.key, { image_url: IMG }, h), postJson("/images/face-blur", v.key, { image_url: IMG }, h)]);
    const codes = await Promise.all(both.map(async (r) => ((await r.json()) as { error: { code: string } }).error.code));
    expect(codes.sort()).toEqual(["compute_unavailable", "idempotency_conflict"]);
    // A claim younger than the lease still blocks.
    await expectError(await postJson("/images/face-blur", v.key, { image_url: IMG }, { "idempotency-key": "young" }), "idempotency_conflict", "A request with this Idempotency-Key is still running; retry in a moment.");
    // A different body never takes a key over, however old the claim.
    await insert("abandoned-other", IDEMPOTENCY_LEASE_MS + 60_000);
    await expectError(await postJson("/images/face-blur", v.key, { image_url: IMG, blur_strength: 0.2 }, { "idempotency-key": "abandoned-other" }), "idempotency_conflict", "This Idempotency-Key was already used with a different request.");
    expect(await balance(v.account.id)).toMatchObject({ available: 10, reserved: 0, spent: 0 });
  });

  it("a 503 releases the key: the retry runs again instead of replaying the outage", async () => {
    const v = await createUser({ credits: 10 });
    const h = { "idempotency-key": "retry-after-outage" };
    const first = await postJson("/images/face-blur", v.key, { image_url: IMG }, h);
    await expectError(first, "compute_unavailable");
    expect(await env.DB.prepare("SELECT * FROM idempotency_records WHERE account_id = ?1").bind(v.account.id).first()).toBeNull();
    const second = await postJson("/images/face-blur", v.key, { image_url: IMG }, h);
    expect(second.headers.get("idempotent-replayed")).toBeNull();
    await expectError(second, "compute_unavailable");
  });

  it("keys are per account: another account's key value is independent", async () => {
    const a = await createUser({ credits: 0 });
    const b = await createUser({ credits: 0 });
    const h = { "idempotency-key": "shared-value" };
    await expectError(await postJson("/images/face-blur", a.key, { image_url: IMG }, h), "insufficient_credits");
    const res = await postJson("/images/blur-background", b.key, { image_url: IMG }, h);
    expect(res.headers.get("idempotent-replayed")).toBeNull();
    await expectError(res, "insufficient_credits", "This request costs 2 credits and the account has 0.");
  });
});

