// Detections as data through the Worker, compute faked at the fetch level (fake-compute.ts): the
// controls reach compute with their defaults, an image answers its boxes inline when asked (and
// keeps today's body when not), a job's detections document is stored and served like its result.
import { env, SELF } from "cloudflare:test";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { DetectionsDoc } from "../../schema/api/detections.ts";
import { sha256Hex } from "../../schema/signing.ts";
import { jobStub } from "../../worker/services/jobs.ts";
import { installFakeCompute, type FakeCompute } from "./fake-compute.ts";
import { API, balance, createTestJob, createUser, makeMp4Head, makePng, postJson, signedInternal } from "./helpers.ts";

const IMG = "https://media.example.com/photo.png";
let fake: FakeCompute;
beforeEach(() => {
  fake = installFakeCompute();
});
afterEach(() => vi.restoreAllMocks());

const FACES: DetectionsDoc = {
  media: "image",
  width: 640,
  height: 480,
  frames: [{ index: 0, time_seconds: 0, detections: [{ x: 0.1, y: 0.2, w: 0.05, h: 0.07, score: 0.98, label: "face" }, { x: 0.6, y: 0.25, w: 0.04, h: 0.06, score: 0.81, label: "face" }] }],
};

/** What compute answers a sync image task with return_detections: the image and the document as a form. */
async function imageWithDetections(document: DetectionsDoc): Promise<Response> {
  const form = new FormData();
  form.append("result", new File([await makePng()], "result", { type: "image/png" }));
  form.append("detections", JSON.stringify(document));
  return new Response(form);
}

describe("images", () => {
  it("return_detections: the boxes come back in the body, the image is stored as always, charged once", async () => {
    const u = await createUser({ credits: 10 });
    fake.onTask = () => imageWithDetections(FACES);
    const exclude = [{ x: 0.5, y: 0, w: 0.5, h: 0.5 }];
    const res = await postJson("/images/face-blur", u.key, { image_url: IMG, return_detections: true, detection_threshold: 0.6, min_size_px: 12, exclude_regions: exclude });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { result_url: string; detections: unknown };
    expect(body).toEqual({ success: true, result_url: expect.stringMatching(/\/results\/[A-Za-z0-9_-]{22}\.png$/), detections: FACES.frames[0]!.detections, credits_used: 1, remaining_credits: 9 });
    expect(new Uint8Array(await (await SELF.fetch(body.result_url)).arrayBuffer())).toEqual(await makePng());
    expect(fake.tasks[0]!.task.params).toMatchObject({ return_detections: true, detection_threshold: 0.6, min_size_px: 12, exclude_regions: exclude });
    expect(await balance(u.account.id)).toEqual({ available: 9, purchased: 10, spent: 1, reserved: 0 });
  });

  it("nothing found: an empty list, not a missing field", async () => {
    const u = await createUser({ credits: 10 });
    fake.onTask = () => imageWithDetections({ ...FACES, frames: [{ index: 0, time_seconds: 0, detections: [] }] });
    const body = (await (await postJson("/images/license-plate-blur", u.key, { image_url: IMG, return_detections: true })).json()) as Record<string, unknown>;
    expect(body.detections).toEqual([]);
  });

  it("without the controls the body and the task are today's (compute applies the defaults)", async () => {
    const u = await createUser({ credits: 10 });
    const body = (await (await postJson("/images/blur-anything", u.key, { image_url: IMG, prompt: "faces" })).json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(["credits_used", "remaining_credits", "result_url", "success"]);
    expect(fake.tasks[0]!.task.params).toEqual({ image_url: IMG, prompt: "faces", blur_strength: 0.7, pixelated: false, pixelation_strength: 20 });
  });

  it("multipart: regions as JSON text reach compute as lists", async () => {
    const u = await createUser({ credits: 10 });
    fake.onTask = () => imageWithDetections(FACES);
    const form = new FormData();
    form.append("image_url", IMG);
    form.append("return_detections", "true");
    form.append("include_regions", JSON.stringify([{ x: 0, y: 0, w: 0.5, h: 1 }]));
    const res = await SELF.fetch(`${API}/images/face-blur`, { method: "POST", body: form, headers: { authorization: `Bearer ${u.key}` } });
    expect(res.status).toBe(200);
    expect(fake.tasks[0]!.task.params).toMatchObject({ return_detections: true, include_regions: [{ x: 0, y: 0, w: 0.5, h: 1 }] });
  });
});

describe("jobs", () => {
  const VIDEO_DOC: DetectionsDoc = {
    media: "video",
    width: 320,
    height: 240,
    fps: 25,
    frame_count: 2,
    frames: [
      { index: 0, time_seconds: 0, detections: [{ x: 0.1, y: 0.1, w: 0.2, h: 0.2, score: 0.9, label: "face", track_id: 1, source: "detected" }] },
      { index: 1, time_seconds: 0.04, detections: [{ x: 0.12, y: 0.1, w: 0.2, h: 0.2, score: 0.9, label: "face", track_id: 1, source: "interpolated" }] },
    ],
  };
  const put = async (jobId: string, what: "detections" | "result", bytes: Uint8Array, contentType: string) => {
    const hash = await sha256Hex(bytes);
    return signedInternal("PUT", `/internal/jobs/${jobId}/${what}`, bytes, { "content-type": contentType, "x-obscura-content-sha256": hash }, hash);
  };
  const getJob = async (key: string, jobId: string) => (await (await SELF.fetch(`${API}/jobs/${jobId}`, { headers: { authorization: `Bearer ${key}` } })).json()) as Record<string, unknown>;

  it("the document compute sends before the result is served at detections_url once the job completes, like result_url", async () => {
    const u = await createUser({ credits: 10 });
    const { jobId } = await createTestJob(u, { credits: 2 });
    await jobStub(env, jobId).startAttempt();
    const doc = new TextEncoder().encode(JSON.stringify(VIDEO_DOC));
    expect((await put(jobId, "detections", doc, "application/json")).status).toBe(200);
    // Not before the result: a job shows what it produced only once it is complete.
    expect(await getJob(u.key, jobId)).not.toHaveProperty("detections_url");
    expect((await put(jobId, "result", makeMp4Head(), "video/mp4")).status).toBe(200);
    const job = await getJob(u.key, jobId);
    expect(job).toMatchObject({ status: "completed", detections_url: expect.stringMatching(/^http:\/\/localhost\/results\/[A-Za-z0-9_-]{22}\.json$/) });
    // Served like results: public under an unguessable name, no key.
    const file = await SELF.fetch(job.detections_url as string);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("application/json");
    expect(await file.json()).toEqual(VIDEO_DOC);
  });

  it("a document for a job that is not running is refused, and one with the wrong bytes too", async () => {
    const u = await createUser({ credits: 10 });
    const { jobId } = await createTestJob(u, { credits: 2 });
    await jobStub(env, jobId).startAttempt();
    const doc = new TextEncoder().encode(JSON.stringify(VIDEO_DOC));
    const hash = await sha256Hex(doc);
    const forged = await signedInternal("PUT", `/internal/jobs/${jobId}/detections`, new TextEncoder().encode("{}"), { "content-type": "application/json", "x-obscura-content-sha256": hash }, hash);
    expect(forged.status).toBe(400);
    await jobStub(env, jobId).fail("internal_error", "gone");
    expect((await put(jobId, "detections", doc, "application/json")).status).toBe(404);
    expect(await getJob(u.key, jobId)).not.toHaveProperty("detections_url");
  });
});
