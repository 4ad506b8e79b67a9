// The held-out recognizer (HSE FaceRes fed the way Human feeds it, bench/lib/held-out-recognizer.ts)
// behaves like a face recognizer on real photos: the same face seen again (the photo cropped and
// resized 0.8x, or the face box a little off) lands much closer than two different people of the
// group photos. Boxes are the hand-checked ones of faces.json (SSD detections at full size), so no
// detector runs here. Measured when written: same face rescaled 0.03-0.10, box 5% off 0.23-0.32,
// different people of one photo 0.94-1.19 (euclidean on unit vectors).
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { HeldOutRecognizer, HUMAN_SAME_PERSON_SIMILARITY, embeddingDistance, humanSimilarity } from "../../bench/lib/held-out-recognizer.ts";
import type { Box, Frame } from "../../compute/types.ts";
import { faceBoxes, loadPhoto } from "./photos.ts";

const recognizer = new HeldOutRecognizer();
const boxes = faceBoxes();

/** The frame cut at (left, top) and resized by `scale`, with a box mapped into it. */
async function cropScale(f: Frame, left: number, top: number, scale: number): Promise<{ frame: Frame; map: (b: Box) => Box }> {
  const width = f.width - left, height = f.height - top;
  const { data, info } = await sharp(f.data, { raw: { width: f.width, height: f.height, channels: f.channels } })
    .extract({ left, top, width, height })
    .resize(Math.round(width * scale), Math.round(height * scale))
    .raw()
    .toBuffer({ resolveWithObject: true });
  const sx = info.width / width, sy = info.height / height;
  return {
    frame: { data, width: info.width, height: info.height, channels: 3 },
    map: (b) => ({ x: (b.x - left) * sx, y: (b.y - top) * sy, width: b.width * sx, height: b.height * sy }),
  };
}

beforeAll(async () => {
  await recognizer.load();
});

describe("held-out recognizer (FaceRes)", () => {
  it("returns a unit-length 1024-d embedding, and the same embedding for the same input", async () => {
    const astro = await loadPhoto("astronaut.png");
    const [box] = boxes["astronaut.png"];
    const a = await recognizer.embed(astro, box);
    const b = await recognizer.embed(astro, box);
    expect(a.length).toBe(1024);
    expect(Math.hypot(...a)).toBeCloseTo(1, 4);
    expect(embeddingDistance(a, b)).toBeLessThan(1e-5);
  });

  it("the same face in another crop and scale is much closer than two different people", async () => {
    // Same face: astronaut cut at (23, 11) and resized 0.8x; group faces resized 0.8x.
    const same: number[] = [];
    const sims: number[] = [];
    for (const name of ["astronaut.png", "group4.jpg"]) {
      const f = await loadPhoto(name);
      const { frame, map } = await cropScale(f, name === "astronaut.png" ? 23 : 0, name === "astronaut.png" ? 11 : 0, 0.8);
      const orig = await recognizer.describeAll(f, boxes[name]);
      const again = await recognizer.describeAll(frame, boxes[name].map(map));
      const e0 = await recognizer.embedAll(f, boxes[name]);
      const e1 = await recognizer.embedAll(frame, boxes[name].map(map));
      for (let i = 0; i < e0.length; i++) {
        same.push(embeddingDistance(e0[i], e1[i]));
        sims.push(humanSimilarity(orig[i], again[i]));
      }
    }
    // The face box 5% too wide and shifted: still the same person, if less close.
    const astro = await loadPhoto("astronaut.png");
    const [ab] = boxes["astronaut.png"];
    const off = embeddingDistance(await recognizer.embed(astro, ab), await recognizer.embed(astro, { ...ab, x: ab.x + 0.05 * ab.width, width: ab.width * 1.05 }));

    // Different people: every pair of faces within group1 and within group4 (nobody is in a
    // photo twice): 3 + 6 pairs.
    const different: number[] = [];
    for (const name of ["group1.jpg", "group4.jpg"]) {
      const f = await loadPhoto(name);
      const e = await recognizer.embedAll(f, boxes[name]);
      for (let i = 0; i < e.length; i++) for (let j = i + 1; j < e.length; j++) different.push(embeddingDistance(e[i], e[j]));
    }
    expect(different).toHaveLength(9);

    const maxSame = Math.max(...same);
    const minDifferent = Math.min(...different);
    expect(maxSame).toBeLessThan(0.25);
    expect(off).toBeLessThan(0.5);
    expect(minDifferent).toBeGreaterThan(0.8);
    expect(maxSame * 3).toBeLessThan(minDifferent);
    expect(off).toBeLessThan(minDifferent);
    // Human's own rule calls every rescaled face the same person.
    for (const s of sims) expect(s).toBeGreaterThan(HUMAN_SAME_PERSON_SIMILARITY);
  });
});
