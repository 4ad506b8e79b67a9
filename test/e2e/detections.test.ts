// Detections as data end to end, through the Worker and the real compute service: an image
// answers its boxes inline (and an excluded face is left sharp and unreported), an image job and
// a video job carry a detections_url served like their result, priced as without them.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DetectionBox, DetectionsDoc, TrackedDetectionBox } from "../../schema/api/detections.ts";
import type { Box, Frame } from "../../compute/types.ts";
import { PHOTOS, faceBoxes, loadPhoto, matches, psnr, sharpness } from "../compute/photos.ts";
import { makePanZoomVideo } from "../fixtures/make-video.ts";
import { api, creditDelta, credits, download, expectJson, featureAccount, multipart, upload, waitForJob, type TestAccount } from "./helpers.ts";

let account: TestAccount;
let dir: string;
beforeAll(async () => {
  account = await featureAccount(1000);
  dir = await mkdtemp(path.join(tmpdir(), "obscura-e2e-detections-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const pixels = (d: DetectionBox, size: { width: number; height: number }): Box => ({ x: d.x * size.width, y: d.y * size.height, width: d.w * size.width, height: d.h * size.height });
const inner = (b: Box): Box => ({ x: b.x + 0.25 * b.width, y: b.y + 0.25 * b.height, width: 0.5 * b.width, height: 0.5 * b.height });

async function decode(bytes: Uint8Array): Promise<Frame> {
  const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: 3 };
}

describe("images", () => {
  it("multipart with an exclude region (JSON text): boxes for the blurred faces only, the excluded face sharp, charged the usual price", async () => {
    const frame = await loadPhoto("group5.jpg");
    const png = await sharp(frame.data, { raw: { width: frame.width, height: frame.height, channels: 3 } }).png().toBuffer();
    const [kept, ...others] = faceBoxes()["group5.jpg"]!;
    const region = { x: (kept!.x - 10) / frame.width, y: (kept!.y - 10) / frame.height, w: (kept!.width + 20) / frame.width, h: (kept!.height + 20) / frame.height };
    const before = await credits(account);
    const res = await multipart(account, "/images/face-blur", "image", { bytes: png, name: "group5.png" }, { return_detections: "true", exclude_regions: JSON.stringify([region]) });
    const body = await expectJson<{ result_url: string; detections: DetectionBox[]; credits_used: number }>(res, 200);
    expect(body.credits_used).toBe(1);
    expect((await creditDelta(account, before)).spent).toBe(1);
    for (const f of others) expect(body.detections.some((d) => matches(pixels(d, frame), f))).toBe(true);
    expect(body.detections.some((d) => matches(pixels(d, frame), kept!))).toBe(false);
    const out = await decode((await download(body.result_url)).bytes);
    const k = inner(kept!);
    expect(psnr(frame, out, (x, y) => x >= k.x && x < k.x + k.width && y >= k.y && y < k.y + k.height)).toBe(Infinity);
    for (const f of others) expect(sharpness(out, f)).toBeLessThan(0.15 * sharpness(frame, f));
  });

  it("Prefer: respond-async: the job's detections_url serves the image's document", async () => {
    const image_url = await upload(account, "image", await readFile(path.join(PHOTOS, "astronaut.png")));
    const res = await api(account, "/images/face-blur", { method: "POST", json: { image_url, return_detections: true }, headers: { prefer: "respond-async" } });
    const job = await expectJson<{ job_id: string }>(res, 202);
    const done = (await waitForJob(account, job.job_id, 120_000)) as { status: string; detections_url?: string };
    expect(done.status).toBe("completed");
    const { bytes, contentType } = await download(done.detections_url!);
    expect(contentType).toBe("application/json");
    const doc = JSON.parse(bytes.toString("utf8")) as DetectionsDoc;
    expect(doc).toMatchObject({ media: "image", width: 512, height: 512 });
    expect(doc.frames[0]!.detections.some((d) => matches(pixels(d, doc), faceBoxes()["astronaut.png"]![0]!))).toBe(true);
  });
});

describe("videos", () => {
  it("a face-blur job with return_detections: one entry per frame, the moving face under one track id", async () => {
    const clip = await makePanZoomVideo({ outPath: path.join(dir, "astronaut.mp4"), photo: path.join(PHOTOS, "astronaut.png"), width: 320, height: 240, fps: 25, seconds: 1, audio: false });
    const video_url = await upload(account, "video", await readFile(clip));
    const res = await api(account, "/videos/face-blur", { method: "POST", json: { video_url, return_detections: true, detection_threshold: 0.8 } });
    const job = await expectJson<{ job_id: string; credits_used: number }>(res, 202);
    expect(job.credits_used).toBe(2);
    const done = (await waitForJob(account, job.job_id)) as { status: string; result_url?: string; detections_url?: string };
    expect(done.status).toBe("completed");
    expect(done.detections_url).toMatch(/\/results\/[A-Za-z0-9_-]{20,}\.json$/);
    const doc = JSON.parse((await download(done.detections_url!)).bytes.toString("utf8")) as DetectionsDoc;
    expect(doc).toMatchObject({ media: "video", width: 320, height: 240, fps: 25, frame_count: 25 });
    expect(doc.frames.map((f) => f.index)).toEqual(Array.from({ length: 25 }, (_, i) => i));
    const ids = new Set(doc.frames.flatMap((f) => (f.detections as TrackedDetectionBox[]).map((d) => d.track_id)));
    expect(ids.size).toBe(1);
    expect(doc.frames.every((f) => f.detections.length === 1)).toBe(true);
  });
});
