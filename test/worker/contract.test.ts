// The contract says what the service does: live answers (successes and errors, headers included)
// replayed against the served /api/v2/openapi.json, operation by operation; and the request
// schemas refuse what the server refuses. Compute is faked at the fetch level where a success
// needs it (fake-compute.ts); everything else is the real Worker with real bindings.
import { SELF } from "cloudflare:test";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { MAX_VIDEO_SECONDS } from "../../schema/limits.ts";
import { FEATURES } from "../../schema/features.ts";
import { Contract, type OpenApiDoc } from "./contract.ts";
import { installFakeCompute } from "./fake-compute.ts";
import { API, BASE, createTestJob, createUser, makePng, TEXT, uploadedMedia, uploadTicket, type TestUser } from "./helpers.ts";

let contract: Contract;
/** "METHOD /path/template" of every operation an answer was replayed for. */
const replayed = new Set<string>();
let answers = 0;

beforeAll(async () => {
  contract = new Contract((await (await SELF.fetch(`${API}/openapi.json`)).json()) as OpenApiDoc);
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** Sends a request and checks the answer against the document; returns the answer. */
async function send(method: string, pathOrUrl: string, init: { user?: TestUser; key?: string; json?: unknown; body?: BodyInit; headers?: Record<string, string> } = {}): Promise<Response> {
  const url = pathOrUrl.startsWith("http") ? pathOrUrl : `${pathOrUrl.startsWith("/api/") ? BASE : API}${pathOrUrl}`;
  const headers = new Headers(init.headers);
  const key = init.key ?? init.user?.key;
  if (key) headers.set("authorization", `Bearer ${key}`);
  let body = init.body;
  if (init.json !== undefined) {
    body = JSON.stringify(init.json);
    if (!headers.has("content-type")) headers.set("content-type", "application/json");
  }
  const res = await SELF.fetch(url, { method, headers, body });
  expect(await contract.check(method, url, res), `${method} ${url}`).toEqual([]);
  const path = contract.pathOf(new URL(url).pathname);
  if (path && contract.doc.paths[path]![method.toLowerCase()]) replayed.add(`${method} ${path}`);
  answers++;
  return res;
}

const IMG = "https://media.example.com/photo.png";
const VID = "https://media.example.com/clip.mp4";

describe("answers replayed against the served document", () => {
  it("reference pages: public, no rate headers", async () => {
    expect((await send("GET", "/openapi.json")).status).toBe(200);
    expect((await send("GET", "/docs")).status).toBe(200);
    expect((await send("POST", "/openapi.json")).status).toBe(405);
  });

  it("account endpoints: successes, 401 without rate headers, 405 with them, unknown routes", async () => {
    const u = await createUser({ credits: 3 });
    for (const path of ["/me", "/me/credits", "/me/webhook-secret", "/features"]) expect((await send("GET", path, { user: u })).status).toBe(200);
    const noKey = await send("GET", "/me");
    expect(noKey.status).toBe(401);
    expect(noKey.headers.get("x-ratelimit-limit")).toBeNull();
    expect((await send("GET", "/me", { key: "obs_live_not-a-real-key" })).status).toBe(401);
    const wrongMethod = await send("DELETE", "/me", { user: u });
    expect([wrongMethod.status, wrongMethod.headers.get("allow")]).toEqual([405, "GET"]);
    expect(wrongMethod.headers.get("x-ratelimit-limit")).not.toBeNull();
    expect((await send("GET", "/no-such-thing", { user: u })).status).toBe(404);
  });

  it("over the daily limit: 429 with Retry-After and the rate headers", async () => {
    const u = await createUser({ tier: "enterprise", dailyLimit: 1 });
    expect((await send("GET", "/me", { user: u })).status).toBe(200);
    const res = await send("GET", "/me/credits", { user: u });
    expect(res.status).toBe(429);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("uploads: tickets, the PUT target and the uploaded media URL", async () => {
    const u = await createUser();
    const other = await createUser();
    expect((await send("POST", "/uploads/video", { user: u })).status).toBe(201);
    expect((await send("POST", "/uploads/image", { user: u, json: { content_type: "image/png" } })).status).toBe(201);
    expect((await send("POST", "/uploads/image", { user: u, json: { contnet_type: "image/png" } })).status).toBe(400);
    expect((await send("POST", "/uploads/image", { user: u, body: "{", headers: { "content-type": "application/json" } })).status).toBe(400);
    expect((await send("POST", "/uploads/image", { user: u, body: "x", headers: { "content-type": "text/plain" } })).status).toBe(415);

    const ticket = await uploadTicket(u, "image");
    expect((await send("GET", ticket.upload_url)).status).toBe(405);
    expect((await send("PUT", ticket.upload_url, { body: TEXT })).status).toBe(422);
    const put = await send("PUT", ticket.upload_url, { body: (await makePng()) as BodyInit, headers: { "content-type": "image/png" } });
    expect(put.status).toBe(200);
    expect(put.headers.get("x-ratelimit-limit")).toBeNull();
    expect((await send("PUT", ticket.upload_url, { body: (await makePng()) as BodyInit })).status).toBe(410);
    expect((await send("PUT", `${BASE}/uploads/forged.token`, { body: (await makePng()) as BodyInit })).status).toBe(410);

    // The image_url the ticket handed out serves the file to its owner, and to no one else.
    const media = await send("GET", ticket.image_url!, { user: u });
    expect([media.status, media.headers.get("content-type")]).toEqual([200, "image/png"]);
    expect(new Uint8Array(await media.arrayBuffer())).toEqual(await makePng());
    // By range too (a player seeking in an uploaded video); past the end, the whole file.
    const png = await makePng();
    const part = await send("GET", ticket.image_url!, { user: u, headers: { range: "bytes=4-11" } });
    expect([part.status, part.headers.get("content-range"), part.headers.get("content-type")]).toEqual([206, `bytes 4-11/${png.length}`, "image/png"]);
    expect(new Uint8Array(await part.arrayBuffer())).toEqual(png.subarray(4, 12));
    expect((await send("GET", ticket.image_url!, { user: u, headers: { range: `bytes=${png.length}-` } })).status).toBe(200);
    expect((await send("GET", ticket.image_url!, { user: other })).status).toBe(404);
    expect((await send("GET", ticket.image_url!)).status).toBe(401);
  });

  it("feature errors: each status with its code and headers", async () => {
    const u = await createUser({ credits: 5 });
    const broke = await createUser();
    const video = await uploadedMedia(u, "video");
    const cases: Array<[number, string, { user: TestUser; json?: unknown; body?: BodyInit; headers?: Record<string, string> }]> = [
      [400, "/images/face-blur", { user: u, json: { image_url: IMG, blur_strenght: 0.5 } }],
      [400, "/images/face-blur", { user: u, body: '{"image_url":', headers: { "content-type": "application/json" } }],
      [400, "/images/face-blur", { user: u, json: { image_url: "ftp://media.example.com/a.png" } }],
      [400, "/images/face-blur", { user: u, json: { image_url: "http://127.0.0.1/a.png" } }],
      [400, "/videos/face-blur", { user: u, json: { video_url: VID, duration_seconds: 1e9 } }],
      [402, "/images/face-blur", { user: broke, json: { image_url: IMG } }],
      [403, "/videos/background-blur", { user: u, json: { video_url: VID, duration_seconds: 5, is_watermark: false } }],
      [404, "/images/face-blur", { user: u, json: { image_url: `${BASE}/media/AAAAAAAAAAAAAAAAAAAAAA` } }],
      [413, "/images/face-blur", { user: u, json: { image_url: IMG, prompt_bg: "x".repeat(70_000) } }],
      [415, "/images/face-blur", { user: u, body: "image_url=x", headers: { "content-type": "application/x-www-form-urlencoded" } }],
      [422, "/images/face-blur", { user: u, json: { image_url: video.url } }],
      [422, "/images/blur-anything", { user: u, json: { image_url: IMG, prompt: "the vibes" } }],
    ];
    for (const [status, path, init] of cases) expect((await send("POST", path, init)).status, `${path} ${JSON.stringify(init.json)}`).toBe(status);
    for (const f of FEATURES) {
      expect((await send("POST", `/api/v2${f.path}`, { json: { [f.mediaField]: IMG } })).status, f.id).toBe(401);
      expect((await send("POST", `/api/v2${f.path}`, { user: u, json: { [f.mediaField]: IMG, colour: "red" } })).status, f.id).toBe(400);
    }

    // A multipart body under a JSON Content-Type: the mismatch is 415, as the README says.
    const form = new Request("http://x", { method: "POST", body: (() => { const f = new FormData(); f.append("image_url", IMG); return f; })() });
    const multipart = await form.text();
    expect((await send("POST", "/images/face-blur", { user: u, body: multipart, headers: { "content-type": "application/json" } })).status).toBe(415);

    // Idempotency-Key: a final answer is replayed (and says so); the key with another body is 409.
    const key = { "idempotency-key": `k-${crypto.randomUUID()}` };
    expect((await send("POST", "/images/face-blur", { user: u, json: { image_url: "ftp://x.example.com/a.png" }, headers: key })).status).toBe(400);
    const again = await send("POST", "/images/face-blur", { user: u, json: { image_url: "ftp://x.example.com/a.png" }, headers: key });
    expect([again.status, again.headers.get("idempotent-replayed")]).toEqual([400, "true"]);
    expect((await send("POST", "/images/face-blur", { user: u, json: { image_url: IMG }, headers: key })).status).toBe(409);
  });

  it("feature successes (compute faked): 200, 202 with Preference-Applied, replays, jobs and results", async () => {
    const fake = installFakeCompute();
    // Past the Worker's cached view of compute (an earlier probe found it down), so the fake is seen.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 60_000 });
    const u = await createUser({ credits: 100 });
    const ok = await send("POST", "/images/face-blur", { user: u, json: { image_url: IMG } });
    expect(ok.status).toBe(200);
    const { result_url } = (await ok.json()) as { result_url: string };
    const file = await send("GET", result_url);
    expect([file.status, file.headers.get("content-type"), file.headers.get("accept-ranges")]).toEqual([200, "image/png", "bytes"]);
    const whole = new Uint8Array(await file.arrayBuffer());
    // The last bytes, as a player asks for an MP4's index; Safari plays no video served without ranges.
    const tail = await send("GET", result_url, { headers: { range: "bytes=-10" } });
    expect([tail.status, tail.headers.get("content-range"), tail.headers.get("cache-control")]).toEqual([206, `bytes ${whole.length - 10}-${whole.length - 1}/${whole.length}`, "private, max-age=3600"]);
    expect(new Uint8Array(await tail.arrayBuffer())).toEqual(whole.subarray(whole.length - 10));
    expect((await send("GET", `${BASE}/results/AAAAAAAAAAAAAAAAAAAAAA.png`, { headers: { range: "bytes=0-9" } })).status).toBe(404);
    expect((await send("GET", `${BASE}/results/AAAAAAAAAAAAAAAAAAAAAA.png`)).status).toBe(404);
    expect((await send("POST", result_url)).status).toBe(405);

    for (const feature of FEATURES.filter((f) => f.media === "image" && f.id !== "image.nsfw-detection")) {
      const body = { image_url: IMG, ...(feature.id.endsWith("blur-anything") ? { prompt: "car" } : {}) };
      expect((await send("POST", `/api/v2${feature.path}`, { user: u, json: body })).status, feature.id).toBe(200);
    }
    fake.onTask = () => Response.json({ is_nsfw: false, score: 0.02 });
    expect((await send("POST", "/detect/nsfw", { user: u, json: { media_url: IMG } })).status).toBe(200);

    const prefer = { prefer: "respond-async", "idempotency-key": `k-${crypto.randomUUID()}` };
    const accepted = await send("POST", "/images/blur-background", { user: u, json: { image_url: IMG }, headers: prefer });
    expect([accepted.status, accepted.headers.get("preference-applied")]).toEqual([202, "respond-async"]);
    const replay = await send("POST", "/images/blur-background", { user: u, json: { image_url: IMG }, headers: prefer });
    expect([replay.status, replay.headers.get("idempotent-replayed"), replay.headers.get("preference-applied")]).toEqual([202, "true", "respond-async"]);
    const { job_id } = (await accepted.json()) as { job_id: string };
    expect((await send("GET", `/jobs/${job_id}`, { user: u })).status).toBe(200);

    for (const feature of FEATURES.filter((f) => f.media === "video")) {
      const body: Record<string, unknown> = { video_url: VID, duration_seconds: 5 };
      if (feature.id === "video.blur-anything") body.prompt = "car";
      if (feature.id === "video.object-removal") body.object_text = "car";
      const res = await send("POST", `/api/v2${feature.path}`, { user: u, json: body });
      expect(res.status, feature.id).toBe(202);
      expect(res.headers.get("preference-applied")).toBeNull();
    }
  });

  it("jobs: the owner's job, someone else's, a malformed id", async () => {
    const u = await createUser({ credits: 10 });
    const { jobId } = await createTestJob(u);
    expect((await send("GET", `/jobs/${jobId}`, { user: u })).status).toBe(200);
    expect((await send("GET", `/jobs/${jobId}`, { user: await createUser() })).status).toBe(404);
    expect((await send("GET", "/jobs/nope", { user: u })).status).toBe(404);
    expect((await send("POST", `/jobs/${jobId}`, { user: u })).status).toBe(405);
  });

  it("compute down: 503 with Retry-After", async () => {
    const u = await createUser({ credits: 5 });
    const image = await uploadedMedia(u, "image");
    const res = await send("POST", "/images/face-blur", { user: u, json: { image_url: image.url } });
    expect([res.status, res.headers.get("retry-after")]).toEqual([503, "5"]);
  });

  it("declared headers are required (so checked on every answer), except those absent by design", () => {
    // Idempotent-Replayed marks replays only; a 500 can come before the request was counted.
    const optional = (name: string, status: string) => name === "Idempotent-Replayed" || (status === "500" && name.startsWith("X-RateLimit-"));
    const loose = Object.entries(contract.doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops).flatMap(([method, op]) =>
        Object.entries(op.responses).flatMap(([status, r]) => Object.entries(r.headers ?? {}).filter(([name, h]) => !contract.header(h).required && !optional(name, status)).map(([name]) => `${method} ${path} ${status} ${name}`)),
      ),
    );
    expect(loose).toEqual([]);
  });

  it("every operation of the document was replayed", () => {
    const operations = Object.entries(contract.doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`));
    expect(operations.filter((op) => !replayed.has(op))).toEqual([]);
    expect(answers).toBeGreaterThan(90);
  });
});

describe("the checker itself", () => {
  it("reports an undeclared field, a missing required header, an undeclared header and an undeclared status", async () => {
    const body = { success: true, id: "acc_1", name: null, email: "a@example.org", is_developer: false, available_credits: 1, tier: "free", plan: "gold" };
    const res = Response.json(body, { headers: { "retry-after": "3" } });
    const problems = await contract.check("GET", `${API}/me`, res);
    expect(problems).toEqual(expect.arrayContaining([
      expect.stringContaining("(plan)"),
      expect.stringContaining("required header x-ratelimit-limit missing"),
      expect.stringContaining("header retry-after sent but not declared"),
    ]));
    expect(await contract.check("GET", `${API}/me`, Response.json({}, { status: 418 }))).toEqual([expect.stringContaining("status 418 not declared")]);
    expect(await contract.check("GET", `${API}/me`, Response.json({ error: { code: "job_not_found", message: "x", status: 404 } }, { status: 404 }))).not.toEqual([]);
    // A code the operation does not declare for that status, with the headers right.
    const rate = { "x-ratelimit-limit": "100", "x-ratelimit-remaining": "99", "x-ratelimit-reset": "1800000000" };
    const wrongCode = Response.json({ error: { code: "job_not_found", message: "x", status: 404 } }, { status: 404, headers: rate });
    expect(await contract.check("POST", `${API}/images/face-blur`, wrongCode)).not.toEqual([]);
    const rightCode = Response.json({ error: { code: "media_not_found", message: "x", status: 404 } }, { status: 404, headers: rate });
    expect(await contract.check("POST", `${API}/images/face-blur`, rightCode)).toEqual([]);
  });
});

describe("request schemas refuse what the server refuses", () => {
  const decide = (path: string, body: unknown) => contract.validate(contract.requestSchema("POST", path), body, { closed: false }).length === 0;

  it("GET /features lists each feature's parameters as the document's request schema", async () => {
    const u = await createUser();
    const { features } = (await (await send("GET", "/features", { user: u })).json()) as { features: Array<{ path: string; parameters: unknown }> };
    for (const f of features) expect(f.parameters, f.path).toEqual(contract.requestSchema("POST", f.path));
  });

  it("every feature POST requires a body and closes it (additionalProperties: false), in JSON and multipart", () => {
    for (const f of FEATURES) {
      const op = contract.doc.paths[`/api/v2${f.path}`]!.post!;
      expect(op.requestBody?.required, f.id).toBe(true);
      for (const type of ["application/json", "multipart/form-data"]) expect(contract.requestSchema("POST", `/api/v2${f.path}`, type).additionalProperties, `${f.id} ${type}`).toBe(false);
    }
    expect(contract.requestSchema("POST", "/api/v2/uploads/image").additionalProperties ?? contract.doc.components.schemas.UploadRequest!.additionalProperties).toBe(false);
  });

  it.each([
    ["an unknown field", { video_url: VID, duration_seconds: 5, blur_strenght: 1 }, false],
    ["duration_seconds over the longest video", { video_url: VID, duration_seconds: MAX_VIDEO_SECONDS + 0.5 }, false],
    ["duration_seconds at the longest video", { video_url: VID, duration_seconds: MAX_VIDEO_SECONDS }, true],
    ["an ftp URL", { video_url: "ftp://media.example.com/clip.mp4" }, false],
    ["credentials in the URL", { video_url: "https://user:pw@media.example.com/clip.mp4" }, false],
    ["an http webhook", { video_url: VID, duration_seconds: 5, webhook_url: "http://hooks.example.com/x" }, false],
    ["an https webhook", { video_url: VID, duration_seconds: 5, webhook_url: "https://hooks.example.com/x" }, true],
  ])("%s: the document and the server agree", async (_name, body, accepted) => {
    expect(decide("/api/v2/videos/face-blur", body)).toBe(accepted);
    installFakeCompute();
    const u = await createUser({ credits: 1000 });
    const res = await send("POST", "/videos/face-blur", { user: u, json: body });
    // Accepted bodies get past validation (202, or 503 while the Worker still believes compute down).
    if (accepted) expect([202, 503]).toContain(res.status);
    else expect(res.status).toBe(400);
  });
});
