// The human-models graphs converted to ONNX (compute/models/convert/tfjs-graph.ts) and run on
// onnxruntime-node, against the same graphs on TF.js (tfjs-wasm) on fixture photos. Both get the
// same input tensor, so they differ only by float32 summation order: the bounds below are ~5-20x
// the largest differences measured on these photos (`npx node bench/onnx-vs-tfjs.ts`), relative to
// outputs whose magnitude is given beside each. Then what a user gets must be the same: the same
// BlazeFace / face-detector anchors over threshold, the same objects, the same person mask, the
// same NSFW probabilities.
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { convertedModelFile } from "../../compute/models/convert/index.ts";
import type { HumanConvertedId } from "../../compute/models/convert/human-models.ts";
import { FaceBoxesModel } from "../../compute/models/face-boxes.ts";
import { FacePresenceModel } from "../../compute/models/face-presence.ts";
import { clipBox, iou } from "../../compute/models/geometry.ts";
import { NsfwClassifier } from "../../compute/models/nsfw-classifier.ts";
import { ObjectDetector } from "../../compute/models/object-detector.ts";
import { decodePeople } from "../../compute/models/people-detector.ts";
import { PersonSegmenter } from "../../compute/models/person-segmenter.ts";
import { halvedPlanes, halvePlanes, resizeToPlanes, type Planes } from "../../compute/models/resize-input.ts";
import { createSession, ort } from "../../compute/models/runtime/onnx.ts";
import type { Detection, Frame } from "../../compute/types.ts";
import { HumanTfjsReference } from "../fixtures/human-tfjs-reference.ts";
import { NsfwjsReference } from "../fixtures/nsfwjs-reference.ts";
import { faceBoxes, loadPhoto } from "./photos.ts";

/** A group photo (faces ~150-300 px, people), a portrait, small faces, a motorbike, a cat, a mug. */
const PHOTOS = ["group1.jpg", "astronaut.png", "group-collage-small-faces.jpg", "motorcycle_left.png", "chelsea.png", "coffee.png"];

/** Input side, value scale/bias (the graph's expected range) and bound on each output. */
const MODELS: Record<HumanConvertedId, { side: number; scale: number; bias: number; bounds: number[] }> = {
  // Score logits and box offsets up to ~300 (input px): measured <= 9e-4.
  "human/blazeface-back": { side: 256, scale: 1 / 127.5, bias: -1, bounds: [1e-2] },
  // Logits and offsets up to ~210: measured <= 1.7e-4.
  "human/facemesh-detection-full": { side: 192, scale: 1 / 127.5, bias: -1, bounds: [2e-3] },
  // Face-presence probabilities of whole photos squeezed to 192 px: measured <= 4e-8.
  "human/facemesh": { side: 192, scale: 1 / 255, bias: 0, bounds: [1e-4] },
  // Heatmap probabilities (measured 1e-6) and box distances up to ~310 px (measured 5.8e-3).
  "human/centernet": { side: 512, scale: 1, bias: 0, bounds: [1e-4, 5e-2] },
  // Mask probabilities: measured <= 9.4e-5.
  "human/selfie": { side: 256, scale: 1 / 255, bias: 0, bounds: [1e-3] },
  // Logits and box codes (a few units).
  "human/faceboxes": { side: 1024, scale: 1 / 255, bias: 0, bounds: [1e-2] },
  // Probabilities, offsets and box sizes in cells up to ~64: measured <= 8e-4 on group1.
  "human/movenet-multipose": { side: 256, scale: 1, bias: 0, bounds: [1e-2] },
};

/** Values of one image's MoveNet output: 56 channels of 64x64. */
const PEOPLE_OUTPUT = 56 * 64 * 64;

const ref = new HumanTfjsReference();
const frames = new Map<string, Frame>();
const maxAbsDiff = (a: Float32Array, b: Float32Array) => a.reduce((m, v, i) => Math.max(m, Math.abs(v - b[i]!)), 0);

beforeAll(async () => {
  for (const name of PHOTOS) frames.set(name, await loadPhoto(name));
});

describe.each(Object.keys(MODELS) as HumanConvertedId[])("%s on ONNX Runtime", (id) => {
  const { side, scale, bias, bounds } = MODELS[id];
  const batchable = id !== "human/centernet";

  it("gives TF.js's outputs on real photos (largest absolute difference of every output)", async () => {
    const session = await createSession(await convertedModelFile(id), { intraOpThreads: 1, providers: ["cpu"] });
    // Face detectors and Selfie take a batch: two photos in one run must equal each on its own.
    const names = batchable ? [["group1.jpg", "astronaut.png"], ["group-collage-small-faces.jpg", "chelsea.png"]] : [["group1.jpg"], ["motorcycle_left.png"]];
    for (const batch of names) {
      const per = 3 * side * side;
      const input = new Float32Array(batch.length * per);
      batch.forEach((name, i) => resizeToPlanes(frames.get(name)!, side, side, { scale, bias, out: input, offset: i * per }));
      const dims: [number, number, number, number] = [batch.length, 3, side, side];
      const got = await session.run({ image: new ort.Tensor("float32", input, dims) });
      const want = await ref.outputs(id, input, dims);
      session.outputNames.forEach((name, k) => {
        const diff = maxAbsDiff(got[name]!.data as Float32Array, want[k]!);
        expect(diff, `${id} ${name} on ${batch}`).toBeLessThan(bounds[k]!);
      });
      if (id === "human/faceboxes") {
        // Same decisions: the anchors whose face probability (softmax of the two logits) passes 0.5.
        const over = (p: Float32Array) => [...p].flatMap((v, i) => (i % 6 === 1 && v > p[i - 1]! ? [(i - 1) / 6] : []));
        expect(over(got.predictions!.data as Float32Array), `${id} faces on ${batch}`).toEqual(over(want[0]!));
      } else if (id === "human/movenet-multipose") {
        // Same decisions: the same people (decodePeople) in each photo, at the same places.
        batch.forEach((name, i) => {
          const people = (p: Float32Array) => decodePeople(p.subarray(i * PEOPLE_OUTPUT, (i + 1) * PEOPLE_OUTPUT)).map((d) => [d.x, d.y, d.width, d.height].map(Math.round));
          expect(people(got.people!.data as Float32Array), `${id} people on ${name}`).toEqual(people(want[0]!));
        });
      } else if (id === "human/facemesh") {
        // Same decisions: the photos it calls a face (probability >= 0.5).
        expect([...(got.faceflag!.data as Float32Array)].map((p) => p >= 0.5), `${id} on ${batch}`).toEqual([...want[0]!].map((p) => p >= 0.5));
      } else if (id.includes("face")) {
        // Same decisions: the anchors whose score passes BlazeFace's threshold (sigmoid >= 0.6).
        const over = (p: Float32Array) => [...p].flatMap((v, i) => (i % 17 === 0 && 1 / (1 + Math.exp(-v)) >= 0.6 ? [i / 17] : []));
        expect(over(got.predictions!.data as Float32Array), `${id} faces on ${batch}`).toEqual(over(want[0]!));
      }
    }
  });
});

describe("FaceBoxesModel (FaceBoxes on ONNX Runtime, anchors and decoding in JS)", () => {
  const model = new FaceBoxesModel();
  it.each(["group-collage-small-faces.jpg", "group1.jpg"])("finds the faces the whole TF.js graph finds on %s, at the same places", async (name) => {
    // A 1024 px view at scale 1: the converted graph sees exactly the pixels the TF.js graph does.
    const photo = frames.get(name)!;
    const { data } = await sharp(photo.data, { raw: { width: photo.width, height: photo.height, channels: photo.channels } }).resize(1024, 1024, { fit: "fill" }).raw().toBuffer({ resolveWithObject: true });
    const frame: Frame = { data, width: 1024, height: 1024, channels: 3 };
    const clip = (d: Detection) => clipBox(d, 1024, 1024);
    const got = (await model.detect(frame, 1, 0.3)).sort((a, b) => b.score - a.score);
    const want = (await ref.faceBoxes(frame, 0.3)).sort((a, b) => b.score - a.score);
    expect(want.length, "the reference finds faces").toBeGreaterThan(3);
    expect(got.length).toBe(want.length);
    want.forEach((w, i) => {
      expect(iou(clip(got[i]!), clip(w)), `box ${i}`).toBeGreaterThan(0.98);
      expect(Math.abs(got[i]!.score - w.score)).toBeLessThan(1e-3);
    });
  });
});

describe("FaceBoxesModel.rescore (its second look at candidates)", () => {
  const model = new FaceBoxesModel();
  it("scores faces of 18-28 px high again and face-sized patches of faceless photos low", async () => {
    // Measured: the 22 faces 0.80-0.95; 184 patches of a mug, a cat and a motorbike at most 0.18.
    const name = "group-collage-tiny-faces.jpg";
    const faces = await model.rescore(frames.get(name) ?? (await loadPhoto(name)), faceBoxes()[name]!, 3);
    expect(faces.filter((s) => s >= 0.5)).toHaveLength(22);
    for (const photo of ["coffee.png", "chelsea.png", "motorcycle_left.png"]) {
      const frame = frames.get(photo)!;
      const patches = [];
      for (let y = 20; y + 40 < frame.height; y += 60) for (let x = 20; x + 32 < frame.width; x += 60) patches.push({ x, y, width: 32, height: 40 });
      expect(Math.max(...(await model.rescore(frame, patches, 3))), photo).toBeLessThan(0.5);
    }
  });
});

describe("FacePresenceModel (Face Mesh's face flag, a look of the face detector's last look)", () => {
  const model = new FacePresenceModel();
  it("calls the collages' faces of 18-75 px, on crops 1.4x their size, and no face-sized patch of a faceless photo", async () => {
    // Measured: the 22 small faces 0.63-1.00, 19 of the 22 tiny ones 0.64-1.00 (three of 18-20 px
    // turned away or looking down, 0.23-0.36); 184 patches of a mug, a cat and a motorbike at most 0.14.
    const small = await model.rescore(frames.get("group-collage-small-faces.jpg")!, faceBoxes()["group-collage-small-faces.jpg"]!, 1.4);
    expect(small.filter((p) => p >= 0.5)).toHaveLength(22);
    const tiny = await model.rescore(await loadPhoto("group-collage-tiny-faces.jpg"), faceBoxes()["group-collage-tiny-faces.jpg"]!, 1.4);
    expect(tiny).toHaveLength(22);
    expect(tiny.filter((p) => p >= 0.5).length).toBeGreaterThanOrEqual(18);
    for (const photo of ["coffee.png", "chelsea.png", "motorcycle_left.png"]) {
      const frame = frames.get(photo)!;
      const patches = [];
      for (let y = 20; y + 40 < frame.height; y += 60) for (let x = 20; x + 32 < frame.width; x += 60) patches.push({ x, y, width: 32, height: 40 });
      expect(Math.max(...(await model.rescore(frame, patches, 1.4))), photo).toBeLessThan(0.5);
    }
  });
});

describe("ObjectDetector (CenterNet on ONNX Runtime, decoded in JS)", () => {
  const detector = new ObjectDetector({ intraOpThreads: 1, providers: ["cpu"] });
  it.each(["group1.jpg", "motorcycle_left.png", "chelsea.png", "coffee.png", "astronaut.png"])("finds the objects TF.js found on %s", async (name) => {
    const frame = frames.get(name)!;
    const got = await detector.detect(frame);
    const want = await ref.detectObjects(frame);
    expect(want.length, "the reference finds something").toBeGreaterThan(0);
    expect(got.map((d) => d.label).sort()).toEqual(want.map((d) => d.label).sort());
    for (const w of want) {
      const match = got.find((g) => g.label === w.label && iou(g, w) > 0.98);
      expect(match, `${w.label} at ${Math.round(w.x)},${Math.round(w.y)}`).toBeDefined();
      expect(Math.abs(match!.score - w.score)).toBeLessThan(1e-3);
    }
  });
});

describe("PersonSegmenter (Selfie on ONNX Runtime)", () => {
  const segmenter = new PersonSegmenter("human/selfie", { intraOpThreads: 1, providers: ["cpu"] });
  // Against the TF.js network with the same upscale to the frame (see HumanTfjsReference.segmentPerson).
  it.each(["group1.jpg", "astronaut.png", "chelsea.png"])("masks the same pixels as TF.js on %s", async (name) => {
    const frame = frames.get(name)!;
    const got = await segmenter.segment(frame);
    const want = await ref.segmentPerson(frame);
    expect([got.width, got.height]).toEqual([want.width, want.height]);
    let differ = 0, sum = 0, covered = 0;
    for (let i = 0; i < got.data.length; i++) {
      if (got.data[i]! >= 128 !== want.data[i]! >= 128) differ++;
      if (want.data[i]! >= 128) covered++;
      sum += Math.abs(got.data[i]! - want.data[i]!);
    }
    expect(differ / got.data.length, "pixels on the other side of 50%").toBeLessThan(0.001);
    expect(sum / got.data.length, "mean difference (0..255)").toBeLessThan(0.5);
    if (name !== "chelsea.png") expect(covered, "a person is masked").toBeGreaterThan(got.data.length * 0.05);
  });
});

describe("NsfwClassifier (nsfwjs MobileNetV2Mid on ONNX Runtime)", () => {
  const nsfwjs = new NsfwjsReference();
  const classifier = new NsfwClassifier("nsfwjs/mobilenet_v2_mid", 0.5, { intraOpThreads: 1, providers: ["cpu"] });

  it("gives TF.js's class probabilities for the same input batch (measured <= 8e-7)", async () => {
    const session = await createSession(await convertedModelFile("nsfwjs/mobilenet_v2_mid"), { intraOpThreads: 1, providers: ["cpu"] });
    const batch = ["group1.jpg", "astronaut.png", "chelsea.png"];
    const per = 3 * 224 * 224;
    const input = new Float32Array(batch.length * per);
    batch.forEach((name, i) => resizeToPlanes(frames.get(name)!, 224, 224, { scale: 1 / 255, alignCorners: true, out: input, offset: i * per }));
    const got = (await session.run({ image: new ort.Tensor("float32", input, [batch.length, 3, 224, 224]) })).probabilities!.data as Float32Array;
    expect(maxAbsDiff(got, await nsfwjs.outputs(input, batch.length))).toBeLessThan(1e-5);
  });

  it("halves a photo from its bytes to exactly the numbers of its float planes halved (no full-size float copy)", () => {
    const frame = frames.get("group1.jpg")!;
    let want: Planes = { data: resizeToPlanes(frame, frame.width, frame.height), width: frame.width, height: frame.height };
    for (let k = 1; k <= 2; k++) {
      want = halvePlanes(want);
      const got = halvedPlanes(frame, k);
      expect([got.width, got.height]).toEqual([want.width, want.height]);
      expect(got.data).toEqual(want.data);
    }
  });

  it.each(["group1.jpg", "astronaut.png", "coffee.png", "chelsea.png"])("classifies %s as nsfwjs did on TF.js", async (name) => {
    const frame = frames.get(name)!;
    const got = await classifier.probabilities(frame);
    const want = await nsfwjs.probabilities(frame);
    for (const c of Object.keys(want) as (keyof typeof want)[]) expect(Math.abs(got[c] - want[c]), c).toBeLessThan(1e-3);
    expect((await classifier.classify(frame)).is_nsfw).toBe(want.Porn + want.Hentai >= 0.5);
  });
});

describe("ONNX Runtime execution providers", () => {
  it("runs a model configured for cuda,cpu on the CPU where the CUDA provider is not installed", async () => {
    const session = await createSession(await convertedModelFile("human/selfie"), { intraOpThreads: 1, providers: ["cuda", "cpu"] });
    const out = await session.run({ image: new ort.Tensor("float32", new Float32Array(3 * 256 * 256), [1, 3, 256, 256]) });
    expect(out.mask!.dims).toEqual([1, 1, 256, 256]);
    expect(session.provider).toBe("cpu"); // what the models size their runs by (face-blaze.ts)
  });
});
