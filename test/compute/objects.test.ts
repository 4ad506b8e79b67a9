// Finding named objects (compute/pipelines/objects.ts) where a viewer sees them: real objects
// pasted at a twentieth of a frame's width (test/fixtures/object-eval-set.ts, seeds no constant
// was chosen on; and in 4K frames at the same pixel width), which the COCO detector on the
// squashed whole frame misses; and blur-anything hiding one of them, in a photo and in every frame
// of a video, while leaving the rest as it was; in video with the small-object tiles on their
// schedule, and object removal taking one out; and people of 48-300 px in 1080p frames
// (test/fixtures/person-eval-set.ts).
import sharp from "sharp";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { createModels, type Models } from "../../compute/models/index.ts";
import { findObjects, findPeople } from "../../compute/pipelines/objects.ts";
import { IMAGE_PIPELINES } from "../../compute/pipelines/image/index.ts";
import { blurAnythingVideo } from "../../compute/pipelines/video/blur-anything.ts";
import type { FrameCoverage } from "../../compute/video/tracker.ts";
import type { ChunkProcessor } from "../../compute/video/stream.ts";
import { featureById, type FeatureParams } from "../../schema/features.ts";
import type { Frame, Mask } from "../../compute/types.ts";
import { intersection } from "../../compute/models/geometry.ts";
import { objectRemovalVideo } from "../../compute/pipelines/video/object-removal.ts";
import { paste } from "../fixtures/face-eval-set.ts";
import { personCutout } from "../fixtures/make-removal-video.ts";
import { EVAL_OBJECTS, falseBoxes, hidden, objectPan, objectScene } from "../fixtures/object-eval-set.ts";
import { PERSON_HEIGHTS, boxesOnNobody, personScene } from "../fixtures/person-eval-set.ts";
import { loadPhoto, outside, psnr, sharpness } from "./photos.ts";

let models: Models;

/** Every frame a video processor returns for `frames`, handed to it 8 at a time, as a video task does in chunks. */
async function inChunksOf8(processor: ChunkProcessor, frames: Frame[]): Promise<Frame[]> {
  const out: Frame[] = [];
  for (let i = 0; i < frames.length; i += 8) out.push(...(await processor.processChunk(frames.slice(i, i + 8), i)));
  return [...out, ...((await processor.flush?.()) ?? [])];
}

beforeAll(async () => {
  models = createModels();
  await models.objects.load();
});

describe("the object finder", () => {
  it("finds a motorcycle, a cat, a cup and a wine glass 96 px wide in 720p and 1080p frames, which the whole frame alone misses", async () => {
    let finder = 0, whole = 0, falses = 0;
    for (const seed of [101, 102]) {
      for (const object of EVAL_OBJECTS) {
        const scene = await objectScene(seed, object, 96);
        const found = await findObjects(scene.frame, models, object.classes);
        finder += +hidden(scene.truth, found);
        falses += falseBoxes(scene.truth, found).length;
        whole += +hidden(scene.truth, await models.objects.detect(scene.frame, object.classes));
      }
    }
    // bench/objects.ts, seeds 101-102: the finder 8 of 8, the whole frame 0, no false box.
    expect(finder).toBeGreaterThanOrEqual(7);
    expect(whole).toBeLessThanOrEqual(1);
    expect(falses).toBe(0);
  });

  it("finds them 96 px wide in 4K frames too, where tiles a fixed fraction of the frame would shrink them", async () => {
    let finder = 0, falses = 0;
    for (const seed of [101, 102]) {
      for (const object of EVAL_OBJECTS) {
        const scene = await objectScene(seed, object, 96, { width: 3840, height: 2160 });
        const found = await findObjects(scene.frame, models, object.classes);
        finder += +hidden(scene.truth, found);
        falses += falseBoxes(scene.truth, found).length;
      }
    }
    console.log(`96 px objects in 4K frames: found ${finder} of 8, ${falses} false boxes`);
    // Measured: 8 of 8, one false box; with tiles as fractions of the frame's height (the small-object ones 756 px): 2 of 8.
    expect(finder).toBeGreaterThanOrEqual(7);
    expect(falses).toBeLessThanOrEqual(2);
  }, 120_000);

  it("finds a person 200 px tall in 4K frames, colour or grey", async () => {
    const person = await personCutout(models);
    const h = 200, w = Math.round((person.width * h) / person.height);
    const patch = { data: await sharp(person.data, { raw: { width: person.width, height: person.height, channels: 4 } }).resize(w, h).raw().toBuffer(), width: w, height: h };
    let found = 0, tries = 0;
    for (const [k, background] of ["motorcycle_left.png", "coffee.png"].entries()) {
      for (const grey of [false, true]) {
        const photo = await loadPhoto(background);
        const frame: Frame = { data: await sharp(photo.data, { raw: { width: photo.width, height: photo.height, channels: 3 } }).resize(3840, 2160, { fit: "cover" }).raw().toBuffer(), width: 3840, height: 2160, channels: 3 };
        const pasted = { ...patch, data: Buffer.from(patch.data) };
        if (grey) for (let i = 0; i < pasted.data.length; i += 4) pasted.data[i] = pasted.data[i + 1] = pasted.data[i + 2] = Math.round(0.299 * pasted.data[i]! + 0.587 * pasted.data[i + 1]! + 0.114 * pasted.data[i + 2]!);
        const truth = { x: 900 + 1500 * k, y: 700 + 400 * k, width: w, height: h };
        paste(frame, pasted, truth.x, truth.y);
        found += +hidden(truth, await findPeople(frame, models));
        tries++;
      }
    }
    console.log(`a person 200 px tall in 4K frames: found ${found} of ${tries}`);
    // Measured: 4 of 4 (3 of 4 before people got the small tiles; with tiles as fractions of the 4K
    // frame's height, 1296 and 2160 px: 0 of 4).
    expect(found).toBeGreaterThanOrEqual(3);
  }, 120_000);

  it("finds people 48-300 px tall in 1080p frames, four a scene, colour or grey, some partly out of the frame", async () => {
    await models.persons.load();
    let found = 0, people = 0, nobody = 0;
    for (const seed of [101, 102]) {
      for (let index = 0; index < PERSON_HEIGHTS.length; index++) {
        const scene = await personScene(models, seed, index, { width: 1920, height: 1080 });
        const boxes = await findPeople(scene.frame, models);
        for (const person of scene.people) found += +hidden(person.truth, boxes);
        people += scene.people.length;
        nobody += boxesOnNobody(scene.people, boxes).length;
      }
    }
    console.log(`people 48-300 px tall in 1080p frames: found ${found} of ${people}, ${nobody} boxes on nobody`);
    // bench/people.ts --seeds 101-102 --size 1920x1080: 33 of 48, one box on nobody; CenterNet
    // alone (without the people network, models/people-detector.ts) 26, none on nobody; without
    // the small tiles (0.35 of the height) for people either, 17.
    expect(found).toBeGreaterThanOrEqual(30);
    expect(nobody).toBeLessThanOrEqual(1);
  }, 120_000);

  it("image.blur-anything hides a motorcycle 160 px wide in a 1080p photo and leaves the rest as it was", async () => {
    const scene = await objectScene(101, EVAL_OBJECTS[0]!, 160);
    expect(scene.frame.width).toBe(1920);
    const out = (await IMAGE_PIPELINES["image.blur-anything"](scene.frame, { prompt: "motorbikes", blur_strength: 0.8 }, models)) as Frame;
    expect(sharpness(out, scene.truth)).toBeLessThan(0.3 * sharpness(scene.frame, scene.truth));
    expect(psnr(scene.frame, out, outside([scene.truth], 0.5))).toBeGreaterThan(40);
  });

  it("video blur-anything hides a cat 160 px wide in every frame of a still 720p clip, and nothing far from it", async () => {
    const scene = await objectScene(102, EVAL_OBJECTS[1]!, 160);
    expect(scene.frame.width).toBe(1280);
    // A parked object, filmed still: ten copies of the picture.
    const frames = Array.from({ length: 10 }, () => ({ ...scene.frame, data: Buffer.from(scene.frame.data) }));
    const params = featureById("video.blur-anything")!.params.parse({ video_url: "https://example.com/a.mp4", duration_seconds: 1, prompt: "pets", blur_strength: 0.8 }) as FeatureParams<"video.blur-anything">;
    const coverages: FrameCoverage[] = [];
    const processor = blurAnythingVideo(params, models, { onCoverage: (c) => coverages.push(c) });
    const out = [...(await processor.processChunk(frames, 0)), ...((await processor.flush?.()) ?? [])];
    expect(out).toHaveLength(10);
    expect(coverages.map((c) => hidden(scene.truth, c.boxes))).toEqual(Array(10).fill(true));
    for (const f of out) {
      expect(sharpness(f, scene.truth)).toBeLessThan(0.3 * sharpness(scene.frame, scene.truth));
      expect(psnr(scene.frame, f, outside([scene.truth], 0.5))).toBeGreaterThan(40);
    }
  }, 120_000);

  it("video blur-anything keeps a motorcycle 115 px wide hidden in a panning 720p clip while looking through the small-object tiles only on their schedule", async () => {
    const scene = await objectScene(103, EVAL_OBJECTS[0]!, 96);
    expect(scene.frame.width).toBe(1280);
    const clip = await objectPan(scene, 16);
    const params = featureById("video.blur-anything")!.params.parse({ video_url: "https://example.com/a.mp4", duration_seconds: 1, prompt: "motorcycle" }) as FeatureParams<"video.blur-anything">;
    const coverages: FrameCoverage[] = [];
    const calls = vi.spyOn(models.objects, "detect");
    try {
      const processor = blurAnythingVideo(params, models, { onCoverage: (c) => coverages.push(c) });
      const out = await inChunksOf8(processor, clip.frames);
      expect(out).toHaveLength(16);
      // Hidden from frame 1 on. In frame 0 the detector's box is 89 px wide on the 115 px motorcycle
      // (its first look, every tile run; the same with every tile on every detection frame).
      expect(coverages.map((c, i) => hidden(clip.truths[i]!, c.boxes)).slice(1)).toEqual(Array(15).fill(true));
      // Detection on frames 0, 2, ..., 14 and the last: with every tile each time, 9 runs of 40
      // calls (the frame, 28 small-object tiles, 11 larger), 360. The small-object tiles run on frames
      // 0, 4, 8, 12 and 15 only, on 4, 8 and 12 only where the picture changed once the pan is taken
      // out: 221 calls.
      expect(calls.mock.calls.length).toBeLessThan(0.65 * 9 * 40);
    } finally {
      calls.mockRestore();
    }
  }, 120_000);

  it("video object-removal masks and removes a motorcycle in every frame of a panning 720p clip", async () => {
    const scene = await objectScene(103, EVAL_OBJECTS[0]!, 96);
    const clip = await objectPan(scene, 16);
    const masks = new Map<number, Mask>();
    const processor = objectRemovalVideo({ object_text: "motorbike", video_url: "https://example.com/v.mp4" } as never, models, {}, { onMask: (i, m) => masks.set(i, m) });
    const out = await inChunksOf8(processor, clip.frames);
    expect(out).toHaveLength(16);
    // The mask covers the motorcycle in every frame (in the first, where the detector's box is
    // narrower than the motorcycle, most of it: 0.90 when written).
    const covered = clip.truths.map((t, i) => {
      const m = masks.get(i)!;
      let on = 0, all = 0;
      for (let y = Math.ceil(t.y); y < t.y + t.height; y++) for (let x = Math.ceil(t.x); x < t.x + t.width; x++, all++) on += +(m.data[y * m.width + x]! > 127);
      return on / all;
    });
    expect(Math.min(...covered.slice(1))).toBeGreaterThan(0.95);
    expect(covered[0]).toBeGreaterThan(0.8);
    // What is left where it was is no motorcycle to the finder.
    for (const i of [0, 8, 15]) expect((await findObjects(out[i]!, models, ["motorcycle"])).filter((d) => intersection(d, clip.truths[i]!) > 0)).toEqual([]);
  }, 180_000);
});
