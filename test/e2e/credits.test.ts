// Credits with the real compute: exact under concurrency (the atomic reservation, not a fake
// compute, decides who runs), and Idempotency-Key retries answered from the first result.
import path from "node:path";
import sharp from "sharp";
import { expect, it } from "vitest";
import { PHOTOS, faceBoxes } from "../compute/photos.ts";
import { api, credits, download, expectError, expectJson, featureAccount, upload, waitForJob } from "./helpers.ts";

/** A ~128 px crop around the astronaut's face: real face-blur work that takes a fraction of a second. */
async function tinyFacePhoto(): Promise<Buffer> {
  const [face] = faceBoxes()["astronaut.png"];
  const side = 128;
  const left = Math.max(0, Math.round(face.x + face.width / 2 - side / 2));
  const top = Math.max(0, Math.round(face.y + face.height / 2 - side / 2));
  return sharp(path.join(PHOTOS, "astronaut.png")).extract({ left, top, width: side, height: side }).png().toBuffer();
}

it("credits for exactly 20 face-blurs, 50 concurrent requests: exactly 20 succeed, 30 get 402, balance 0", async () => {
  const account = await featureAccount(20);
  const image_url = await upload(account, "image", await tinyFacePhoto());
  const responses = await Promise.all(
    Array.from({ length: 50 }, () => api(account, "/images/face-blur", { method: "POST", json: { image_url } })),
  );
  const bodies = await Promise.all(responses.map(async (r) => ({ status: r.status, body: (await r.json()) as { result_url?: string; remaining_credits?: number; error?: { code: string } } })));
  const ok = bodies.filter((b) => b.status === 200);
  const refused = bodies.filter((b) => b.status === 402);
  expect(ok.length).toBe(20);
  expect(refused.length).toBe(30);
  for (const r of refused) expect(r.body.error?.code).toBe("insufficient_credits");
  // Every success is a distinct real result; remaining_credits never goes below 0.
  expect(new Set(ok.map((b) => b.body.result_url)).size).toBe(20);
  for (const b of ok) expect(b.body.remaining_credits).toBeGreaterThanOrEqual(0);
  const sample = await download(ok[0]!.body.result_url!);
  expect(sample.contentType).toBe("image/png");
  expect((await sharp(sample.bytes).metadata()).width).toBe(128);

  expect(await credits(account)).toMatchObject({ available_credits: 0, total_purchased: 20, total_spent: 20, reserved_credits: 0 });
  // And one more is refused, with nothing run.
  await expectError(await api(account, "/images/face-blur", { method: "POST", json: { image_url } }), 402, "insufficient_credits");
  expect((await credits(account)).available_credits).toBe(0);
});

it("Idempotency-Key: a retry returns the identical first answer (same result_url), charged once; same key, other body -> 409", async () => {
  const account = await featureAccount(10);
  const image_url = await upload(account, "image", await tinyFacePhoto());
  const send = (key: string, blur_strength = 0.7) =>
    api(account, "/images/face-blur", { method: "POST", json: { image_url, blur_strength }, headers: { "idempotency-key": key } });

  const first = await send("retry-1");
  if (first.status !== 200) throw new Error(`first: ${first.status} ${await first.text()}`);
  expect(first.headers.get("idempotent-replayed")).toBeNull();
  const firstBody = await first.text();
  const parsed = JSON.parse(firstBody) as { result_url: string; credits_used: number; remaining_credits: number };
  expect(parsed).toMatchObject({ credits_used: 1, remaining_credits: 9 });

  const again = await send("retry-1");
  expect(again.status).toBe(200);
  expect(again.headers.get("idempotent-replayed")).toBe("true");
  expect(await again.text()).toBe(firstBody);
  expect(await credits(account)).toMatchObject({ available_credits: 9, total_spent: 1, reserved_credits: 0 });
  expect((await download(parsed.result_url)).contentType).toBe("image/png");

  await expectError(await send("retry-1", 0.2), 409, "idempotency_conflict");
  expect(await credits(account)).toMatchObject({ available_credits: 9, total_spent: 1, reserved_credits: 0 });

  // A different key is a different request, charged again.
  const other = await expectJson<{ result_url: string; remaining_credits: number }>(await send("retry-2"), 200);
  expect(other.result_url).not.toBe(parsed.result_url);
  expect(other.remaining_credits).toBe(8);
  expect(await credits(account)).toMatchObject({ available_credits: 8, total_spent: 2 });
});

it("Idempotency-Key on a video job: the retry returns the same job, reserved once", async () => {
  const account = await featureAccount(10);
  const { makePanZoomVideo } = await import("../fixtures/make-video.ts");
  const { mkdtemp, readFile, rm } = await import("node:fs/promises");
  const { tmpdir } = await import("node:os");
  const dir = await mkdtemp(path.join(tmpdir(), "obscura-e2e-idem-"));
  try {
    const clip = await readFile(await makePanZoomVideo({ outPath: path.join(dir, "tiny.mp4"), width: 160, height: 90, fps: 5, seconds: 1 }));
    const video_url = await upload(account, "video", clip);
    const send = () => api(account, "/videos/license-plate-blur", { method: "POST", json: { video_url, duration_seconds: 1 }, headers: { "idempotency-key": "job-1" } });
    const a = await expectJson<{ job_id: string; credits_used: number }>(await send(), 202);
    const bRes = await send();
    expect(bRes.headers.get("idempotent-replayed")).toBe("true");
    const b = await expectJson<{ job_id: string }>(bRes, 202);
    expect(b.job_id).toBe(a.job_id);
    const c = await credits(account);
    expect(c.available_credits + c.reserved_credits + c.total_spent).toBe(10);
    expect(c.available_credits).toBe(10 - a.credits_used);
    const done = await waitForJob(account, a.job_id, 120_000);
    expect(done.status).toBe("completed");
    expect(await credits(account)).toMatchObject({ available_credits: 10 - a.credits_used, total_spent: a.credits_used, reserved_credits: 0 });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
