// The models layer on real photos: every model loads from node_modules, loads once under
// concurrency, and finds what is in the picture. Face recall/precision is measured here against
// the hand-counted faces of test/fixtures/photos/faces.json and printed.
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { createFaceDetector, createModels, type Models } from "../../compute/models/index.ts";
import { loadModelConfig } from "../../compute/config.ts";
import { overlapOfSmaller } from "../../compute/models/geometry.ts";
import { faceBoxes, loadPhoto, matches, zoomedOnFace } from "./photos.ts";

let models: Models;

beforeAll(async () => {
  models = createModels();
});

describe("registry and loading", () => {
  it("loads each model once under concurrent callers and reports it for /healthz", async () => {
    expect(models.registry.status().every((s) => s.state === "idle")).toBe(true);
    const a = models.objects.load();
    const b = models.objects.load();
    expect(a).toBe(b); // single flight: the same promise
    const [ha, hb] = await Promise.all([a, b]);
    expect(ha).toBe(hb);
    await Promise.all([models.registry.warmAll(), models.registry.warmAll()]);
    const status = models.registry.status();
    expect(status.map((s) => s.id).sort()).toEqual(
      ["face-api/face_landmark_68", "face-api/ssd_mobilenetv1", "face-api/ssd_mobilenetv1", "gutenye/ppocr-v4-det", "gutenye/ppocr-v4-rec", "human/blazeface-back", "human/centernet", "human/faceboxes", "human/facemesh", "human/facemesh-detection-full", "human/movenet-multipose", "human/selfie", "nsfwjs/mobilenet_v2_mid", "retinaface/mnet.25"].sort(),
    );
    // On the CPU the detector's SSD is int8, so identity is measured by a float session of its own.
    expect(status.filter((s) => s.id === "face-api/ssd_mobilenetv1").map((s) => s.role).sort()).toEqual(["face-detector", "face-identity"]);
    expect(status.every((s) => s.state === "ready" && typeof s.loadMs === "number")).toBe(true);
  });

  it("takes model choices from the environment and refuses unknown ones", () => {
    expect(loadModelConfig({ OBSCURA_MODEL_PERSON_SEGMENTER: "human/rvm" }).personSegmenter).toBe("human/rvm");
    expect(() => loadModelConfig({ OBSCURA_MODEL_NSFW: "nsfwjs/nope" })).toThrow(/not a known model/);
    // FaceBoxes and RetinaFace by default; an operator who may not ship their weights leaves them out.
    expect(createFaceDetector(loadModelConfig({})).boxes).toBeDefined();
    expect(createFaceDetector(loadModelConfig({})).retina).toBeDefined();
    const without = createFaceDetector(loadModelConfig({ OBSCURA_MODEL_FACE_DETECTORS: "face-api/ssd_mobilenetv1,human/blazeface-back" }));
    expect(without.boxes).toBeUndefined();
    expect(without.retina).toBeUndefined();
  });

  it("feeds the webgpu provider from one inference thread and refuses more", () => {
    expect(loadModelConfig({ OBSCURA_ONNX_PROVIDERS: "webgpu,cpu" })).toMatchObject({ onnxProviders: ["webgpu", "cpu"], inferenceThreads: 1 });
    expect(loadModelConfig({ OBSCURA_ONNX_PROVIDERS: "webgpu", OBSCURA_INFERENCE_THREADS: "1" }).inferenceThreads).toBe(1);
    expect(() => loadModelConfig({ OBSCURA_ONNX_PROVIDERS: "webgpu,cpu", OBSCURA_INFERENCE_THREADS: "2" })).toThrow(/OBSCURA_INFERENCE_THREADS must be 1 with the webgpu provider/);
    expect(loadModelConfig({ OBSCURA_INFERENCE_THREADS: "3" }).inferenceThreads).toBe(3);
    expect(() => loadModelConfig({ OBSCURA_ONNX_PROVIDERS: "metal" })).toThrow(/unknown provider metal; choose from webgpu, cuda, cpu/);
  });
});

describe("FaceDetector", () => {
  it("finds the hand-counted faces of the test set (recall >= 0.9, precision >= 0.9)", async () => {
    const truth = faceBoxes();
    let tp = 0, fp = 0, fn = 0;
    const lines: string[] = [];
    for (const [name, boxes] of Object.entries(truth)) {
      const frame = await loadPhoto(name);
      const t0 = performance.now();
      const found = await models.faces.detect(frame);
      const ms = Math.round(performance.now() - t0);
      const used = new Set<number>();
      for (const b of boxes) {
        const i = found.findIndex((d, k) => !used.has(k) && matches(d, b));
        if (i >= 0) used.add(i);
      }
      tp += used.size; fn += boxes.length - used.size; fp += found.length - used.size;
      lines.push(`${name}: ${boxes.length} faces, found ${used.size}, false ${found.length - used.size}, ${ms} ms`);
      expect(found.every((d) => d.label === "face" && d.score > 0 && d.score <= 1)).toBe(true);
    }
    const recall = tp / (tp + fn), precision = tp / (tp + fp);
    console.log(`face detection on ${Object.keys(truth).length} photos: recall ${recall.toFixed(3)} (${tp}/${tp + fn}), precision ${precision.toFixed(3)} (${tp}/${tp + fp})\n  ${lines.join("\n  ")}`);
    expect(recall).toBeGreaterThanOrEqual(0.9);
    expect(precision).toBeGreaterThanOrEqual(0.9);
  }, 900_000);

  it("finds faces zoomed in past the tiles' cap in 1080p frames (recall >= 30 of 32, no false box)", async () => {
    // Each hand-counted face of group1-6 zoomed to 260, 420 or 640 px wide in a 1920x1080 frame
    // (in turn). Faces above 205 px (0.4 of a 512 px tile) were SSD's alone: 24 of 32 found, the
    // misses upscaled, tilted or looking down. Measured with BlazeFace on the whole frame too: 31 of 32.
    const widths = [260, 420, 640];
    let tp = 0, fn = 0, fp = 0, k = 0;
    const lines: string[] = [];
    for (const name of ["group1.jpg", "group2.jpg", "group3.jpg", "group4.jpg", "group5.jpg", "group6.jpg"]) {
      for (const face of faceBoxes()[name]!) {
        const width = widths[k++ % widths.length]!;
        const { frame, whole, cut } = await zoomedOnFace(name, face, width);
        const found = await models.faces.detect(frame);
        const used = new Set<number>();
        for (const b of whole) {
          const i = found.findIndex((d, j) => !used.has(j) && matches(d, b));
          if (i >= 0) used.add(i);
        }
        // A box on a face the frame's edge cuts is neither a hit nor a false box.
        const onCut = found.filter((d, j) => !used.has(j) && cut.some((b) => matches(d, b))).length;
        tp += used.size; fn += whole.length - used.size; fp += found.length - used.size - onCut;
        lines.push(`${name} ${width} px: ${used.size}/${whole.length}`);
      }
    }
    console.log(`zoomed-in faces at 1080p: found ${tp}/${tp + fn}, false ${fp}\n  ${lines.join("\n  ")}`);
    expect(tp + fn).toBe(32);
    expect(tp).toBeGreaterThanOrEqual(30);
    expect(fp).toBe(0);
  }, 900_000);

  it("finds the astronaut's face, at most a patch-sized false box beside it, and no face in the coffee photo", async () => {
    // The flag patch on the suit (25 px) scores like a small grey or blurred face in every look the
    // detector takes (0.48 on the tiles, 0.55 over the four confirming looks); rejecting it would
    // also reject such faces on the evaluation set, and a blurred patch leaks nothing.
    const astro = await models.faces.detect(await loadPhoto("astronaut.png"));
    const truth = faceBoxes()["astronaut.png"][0];
    expect(astro.filter((d) => matches(d, truth))).toHaveLength(1);
    const others = astro.filter((d) => !matches(d, truth));
    expect(others.length).toBeLessThanOrEqual(1);
    for (const d of others) expect(d.width * d.height).toBeLessThan(0.01 * 512 * 512);
    expect(await models.faces.detect(await loadPhoto("coffee.png"))).toHaveLength(0);
  });

  it("finds a face the frame's bottom edge cuts, and takes no frame-sized box on a cat (generated clips)", async () => {
    // scene-cut: after the cut a face shows only its top 40-60 % under the bottom edge (SSD scores
    // it 0.25-0.43; before the edge rule it leaked in all 38 frames of the shot). enter-leave: a cat
    // fills the background, which SSD and whole-frame BlazeFace scored 0.7-0.8 as a face of 500-1000 px.
    const { makeClip } = await import("../fixtures/video-clips.ts");
    const cut = await makeClip("scene-cut");
    for (const i of [60, 70]) {
      const frame = cut.frames[i]!;
      const edgeFace = cut.truth[i]!.find((t) => t.y + t.height > frame.height)!;
      const found = await models.faces.detect(frame);
      expect(found.some((d) => overlapOfSmaller(d, edgeFace) >= 0.5), `frame ${i}`).toBe(true);
    }
    const cat = await makeClip("enter-leave");
    for (const i of [0, 12, 54]) {
      const found = await models.faces.detect(cat.frames[i]!);
      expect(found.filter((d) => d.width > 300), `frame ${i}`).toEqual([]);
    }
  });

  it("answers for a banner, a sliver and a single pixel (4000x40 looped forever: tiles never outgrow the frame's short side)", async () => {
    const astro = await loadPhoto("astronaut.png");
    for (const [width, height] of [[4000, 40], [40, 4000], [1, 1]]) {
      const { data, info } = await sharp(astro.data, { raw: { width: astro.width, height: astro.height, channels: astro.channels } })
        .resize(width, height, { fit: "fill" }).raw().toBuffer({ resolveWithObject: true });
      const found = await models.faces.detect({ data, width: info.width, height: info.height, channels: 3 });
      expect(found.every((d) => d.x >= 0 && d.y >= 0 && d.x + d.width <= width && d.y + d.height <= height), `${width}x${height}`).toBe(true);
    }
  });

  it("keeps its own threshold while the anonymizer's meter scores faces down to 0.05 on the same SSD", async () => {
    // The video face-anonymization pipeline measures candidates with a FaceMeter on the detector's
    // own SSD instance. That meter used to set the SSD's threshold and restore it afterwards; two
    // concurrent passes (a calibration measures several tracks' frames at once) each restored what
    // the other had set, and every later detection ran at 0.05: on a 720p crowd clip the pipeline
    // then tracked 73-135 "faces" per frame where there are 22.
    const { FaceMeter } = await import("../../compute/anonymize/evaluate.ts");
    const meter = new FaceMeter(models.faces.ssd, models.landmarks);
    const coffee = await loadPhoto("coffee.png");
    const astronaut = await loadPhoto("astronaut.png");
    const [low] = await Promise.all([meter.detect(coffee, 0.05), meter.detect(astronaut, 0.05)]);
    expect(low.length).toBeGreaterThan(0); // the meter does see weak candidates
    expect(models.faces.ssd!.minConfidence).toBe(0.6);
    expect(await models.faces.detect(coffee)).toHaveLength(0);
  });
});

describe("FaceLandmarker", () => {
  it("puts 68 landmarks on the face and gives descriptors that tell people apart", async () => {
    const astro = await loadPhoto("astronaut.png");
    const box = faceBoxes()["astronaut.png"][0];
    const [a] = await models.landmarks.describe(astro, [box]);
    expect(a.points).toHaveLength(68);
    for (const p of a.points) {
      expect(p.x).toBeGreaterThan(box.x - 0.2 * box.width);
      expect(p.x).toBeLessThan(box.x + 1.2 * box.width);
      expect(p.y).toBeGreaterThan(box.y - 0.2 * box.height);
      expect(p.y).toBeLessThan(box.y + 1.2 * box.height);
    }
    // Eyes (36-47) above the mouth (48-67).
    const meanY = (from: number, to: number) => a.points.slice(from, to).reduce((s, p) => s + p.y, 0) / (to - from);
    expect(meanY(36, 48)).toBeLessThan(meanY(48, 68));
    expect(a.descriptor).toHaveLength(128);
    // Same face, box shifted a little: same person. A face from another photo: a different person.
    const [shifted] = await models.landmarks.describe(astro, [{ ...box, x: box.x + 4, y: box.y - 3 }]);
    const group = await loadPhoto("group1.jpg");
    const [other] = await models.landmarks.describe(group, [faceBoxes()["group1.jpg"][0]]);
    const dist = (u: Float32Array, v: Float32Array) => Math.hypot(...Array.from(u, (x, i) => x - v[i]));
    expect(dist(a.descriptor, shifted.descriptor)).toBeLessThan(0.4);
    expect(dist(a.descriptor, other.descriptor)).toBeGreaterThan(0.6);
  });

  it("gives no landmarks, not an error, for a box with no whole pixel inside the frame", async () => {
    // A tracked box sliding off the frame's top edge (seen on a crowd clip: 46.6 x 0.03 px at y = 0)
    // and one wholly left of the frame, beside a real face.
    const astro = await loadPhoto("astronaut.png");
    const box = faceBoxes()["astronaut.png"][0];
    const sliver = { x: 100, y: 0, width: 46.6, height: 0.03 };
    const outside = { x: -80, y: 10, width: 50, height: 50 };
    const [a, b, face] = await models.landmarks.landmarks(astro, [sliver, outside, box]);
    expect(a).toEqual([]);
    expect(b).toEqual([]);
    expect(face).toHaveLength(68);
    await expect(models.landmarks.describe(astro, [sliver])).rejects.toThrow(/no whole pixel inside the image/);
  });
});

describe("PersonSegmenter", () => {
  it("gives a soft mask the size of the frame covering the astronaut, not the background", async () => {
    const frame = await loadPhoto("astronaut.png");
    const mask = await models.persons.segment(frame);
    expect([mask.width, mask.height, mask.data.length]).toEqual([512, 512, 512 * 512]);
    const at = (x: number, y: number) => mask.data[y * 512 + x];
    expect(at(222, 125)).toBeGreaterThan(200); // face
    expect(at(200, 350)).toBeGreaterThan(200); // suit
    expect(at(480, 40)).toBeLessThan(40); // background wall top-right
    const soft = mask.data.filter((v) => v > 10 && v < 245).length;
    expect(soft).toBeGreaterThan(100); // soft edges, not a hard cut-out
  });
});

describe("ObjectDetector", () => {
  it("names COCO objects in real photos", async () => {
    const moto = await models.objects.detect(await loadPhoto("motorcycle_left.png"));
    expect(moto.map((d) => d.label)).toContain("motorcycle");
    const m = moto.find((d) => d.label === "motorcycle")!;
    expect(m.width).toBeGreaterThan(300); // the bike fills most of the 741 px frame
    const coffee = await models.objects.detect(await loadPhoto("coffee.png"));
    expect(coffee.map((d) => d.label)).toContain("cup");
    const astro = await models.objects.detect(await loadPhoto("astronaut.png"));
    expect(astro.map((d) => d.label)).toContain("person");
    const onlyCars = await models.objects.detect(await loadPhoto("motorcycle_left.png"), ["car"]);
    expect(onlyCars.every((d) => d.label === "car")).toBe(true);
  });
});

describe("TextDetector", () => {
  it("finds the plate text composited onto the motorcycle and nothing in a text-free photo", async () => {
    const frame = await loadPhoto("motorcycle-with-plate-composite.png");
    const boxes = await models.text.detect(frame);
    const plate = { x: 70, y: 222, width: 96, height: 26 }; // where the composite put it
    expect(boxes.some((b) => matches(b, plate))).toBe(true);
    expect(boxes.every((b) => b.label === "text")).toBe(true);
    expect(await models.text.detect(await loadPhoto("chelsea.png"))).toHaveLength(0);
  });
});

describe("NsfwClassifier", () => {
  it("scores safe photos (including party photos) well below the threshold", async () => {
    for (const name of ["astronaut.png", "coffee.png", "group2.jpg", "group3.jpg", "group6.jpg"]) {
      const p = await models.nsfw.probabilities(await loadPhoto(name));
      const sum = p.Drawing + p.Hentai + p.Neutral + p.Porn + p.Sexy;
      expect(sum).toBeCloseTo(1, 2);
      const v = await models.nsfw.classify(await loadPhoto(name));
      expect(v.score).toBeCloseTo(p.Porn + p.Hentai, 5);
      expect(v.is_nsfw).toBe(false);
      expect(v.score).toBeLessThan(0.35);
    }
  });
});
