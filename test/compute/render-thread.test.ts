// FaceRenderer (compute/anonymize/render-thread.ts): the video pipeline draws faces on a worker
// thread. Checked on a real face (astronaut.png): the thread draws exactly the pixels
// anonymizeFaces draws on the calling thread, answers in request order, reports a bad request as
// an error naming it (and keeps serving), and refuses work once closed.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FaceMeter, type FaceMeasure } from "../../compute/anonymize/evaluate.ts";
import { syntheticIdentity } from "../../compute/anonymize/identity.ts";
import { FaceRenderer } from "../../compute/anonymize/render-thread.ts";
import { anonymizeFaces } from "../../compute/anonymize/render.ts";
import type { Frame } from "../../compute/types.ts";
import { loadPhoto } from "../../bench/anonymization.ts";

let photo: Frame;
let face: FaceMeasure;
const renderer = new FaceRenderer();

beforeAll(async () => {
  photo = await loadPhoto("astronaut.png");
  [face] = (await new FaceMeter().faces(photo, 0.5)) as [FaceMeasure];
  expect(face).toBeDefined();
});

afterAll(() => renderer.close());

describe("FaceRenderer", () => {
  it("draws the same pixels as anonymizeFaces, in request order, without touching the input", { timeout: 60_000 }, async () => {
    const faces = [{ box: face.box, landmarks: face.landmarks, trackId: 1 }];
    const before = Buffer.from(photo.data);
    const identities = [syntheticIdentity(1, 1), syntheticIdentity(1, 2)];
    const drawn = await Promise.all(identities.map((id) => renderer.render(photo, faces, () => id)));
    for (const [i, id] of identities.entries()) {
      const expected = anonymizeFaces(photo, faces, () => id);
      expect(drawn[i]!.width).toBe(photo.width);
      expect(Buffer.compare(drawn[i]!.data, expected.data)).toBe(0);
    }
    expect(Buffer.compare(drawn[0]!.data, drawn[1]!.data)).not.toBe(0); // two identities, two faces
    expect(Buffer.compare(photo.data, before)).toBe(0);
  });

  it("rejects a bad request with the reason and keeps serving", { timeout: 60_000 }, async () => {
    const broken = [{ box: face.box, landmarks: face.landmarks.slice(0, 67), trackId: 1 }];
    await expect(renderer.render(photo, broken, () => syntheticIdentity(1, 1))).rejects.toThrow(/needs 68 landmarks, got 67/);
    const ok = await renderer.render(photo, [{ box: face.box, landmarks: face.landmarks, trackId: 1 }], () => syntheticIdentity(1, 1));
    expect(Buffer.compare(ok.data, photo.data)).not.toBe(0);
  });

  it("refuses work once closed", { timeout: 60_000 }, async () => {
    const closed = new FaceRenderer();
    await closed.close();
    await expect(closed.render(photo, [{ box: face.box, landmarks: face.landmarks, trackId: 1 }], () => syntheticIdentity(1, 1))).rejects.toThrow(/exited/);
  });
});
