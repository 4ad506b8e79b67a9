// The face detector finds small faces on scenes it was never tuned on: the generated evaluation set
// (test/fixtures/face-eval-set.ts, real faces pasted at 14-64 px onto face-free real scenes) for
// seeds 101-104 (the detector's constants were chosen on other scenes). Measured there: 14 px 12/14,
// 20 px 15/15, 28 px and up 45/45, 3 false boxes of 75; the bounds sit one or two faces under that
// (about 15 faces per bucket) and a box or two over it, and the figures are printed for the record.
// Also: the face blur leaves everything away from the faces untouched (PSNR >= 40 dB).
import { beforeAll, describe, expect, it } from "vitest";
import { sharedModels } from "../../compute/models/index.ts";
import { hideBoxes } from "../../compute/pipelines/hide.ts";
import type { Detection } from "../../compute/types.ts";
import { FACE_WIDTHS, crowdScenes, edgeScenes, evalScene, evalScenes, score, scoreHidden, throughJpeg, type EvalScene } from "../fixtures/face-eval-set.ts";
import { outside, psnr } from "./photos.ts";

const models = sharedModels();
let scenes: EvalScene[];
let found: Detection[][];

beforeAll(async () => {
  scenes = await evalScenes(101, 4);
  found = [];
  for (const s of scenes) found.push(await models.faces.detect(s.frame));
}, 120_000);

/** Prints the table of `of` against what was found in it under `label`, and gives recall over some size buckets and the false-box share. */
function table(label: string, of: EvalScene[], found: Detection[][]) {
  const rep = score(of, found);
  console.log(`${label}, ${rep.total} faces: ${FACE_WIDTHS.map((w) => `${w} px ${rep.bySize.get(w)!.found}/${rep.bySize.get(w)!.total}`).join(", ")}; false boxes ${rep.falseBoxes} of ${rep.detections}`);
  const recall = (ws: number[]) => ws.reduce((a, w) => a + rep.bySize.get(w)!.found, 0) / ws.reduce((a, w) => a + rep.bySize.get(w)!.total, 0);
  return { recall, falseShare: rep.falseBoxes / rep.detections };
}

/** Detects every scene, then `table`. */
async function measure(label: string, of: EvalScene[]) {
  const found = [];
  for (const s of of) found.push(await models.faces.detect(s.frame));
  return table(label, of, found);
}

describe("face detection on small pasted faces (held-out seeds)", () => {
  it("finds most faces of every size and few false boxes", () => {
    const { recall, falseShare } = table("seeds 101-104", scenes, found);
    expect(recall([14])).toBeGreaterThanOrEqual(0.78);
    expect(recall([20])).toBeGreaterThanOrEqual(0.85);
    expect(recall([28, 40, 64])).toBeGreaterThanOrEqual(0.93);
    expect(falseShare).toBeLessThanOrEqual(0.07);
  });

  it("blurs the detected faces and leaves the rest of the scene as it was", async () => {
    for (let i = 0; i < 2; i++) {
      const s = scenes[i]!;
      const out = await hideBoxes(s.frame, found[i]!, {});
      const away = outside([...s.faces.map((f) => f.box), ...found[i]!], 0.5);
      expect(psnr(s.frame, out, away)).toBeGreaterThanOrEqual(40);
      // ...and the faces it found really changed.
      const inside = (x: number, y: number) => found[i]!.some((b) => x >= b.x && x < b.x + b.width && y >= b.y && y < b.y + b.height);
      expect(psnr(s.frame, out, inside)).toBeLessThan(30);
    }
  });
});

describe("face detection on JPEG photos (quality 75, as many cameras and libraries save them)", () => {
  // A 14 px face is two 8x8 JPEG blocks wide, and the quantisation takes what the looks score it
  // on; FaceBoxes' second opinion on candidates the looks nearly confirmed, RetinaFace and the last
  // look win some back (face-detector.ts). Measured on seeds 101-104: 14 px 10/14, 20 px and up
  // 60/60, 4 false boxes of 75 (as generated: 12/14, 60/60, 3). The bounds sit one or two faces under.
  it("finds most small faces and few false boxes", async () => {
    const { recall, falseShare } = await measure("JPEG q75, seeds 101-104", await Promise.all(scenes.map((s) => throughJpeg(s, 75))));
    expect(recall([14])).toBeGreaterThanOrEqual(0.64);
    expect(recall([20, 28, 40, 64])).toBeGreaterThanOrEqual(0.95);
    expect(falseShare).toBeLessThanOrEqual(0.08);
  }, 120_000);
});

describe("face detection on other people's faces (the held-out pool, never tuned on)", () => {
  // The same scenes with the 104 faces of Human's face-match screenshot instead of the fixtures'
  // (face-eval-set.ts, FacePool). Measured on seeds 101-108: 14 px 25/28, 20 px 25/27, 28 px and up
  // 87/87, 7 false boxes of 145 (the motorcycle's headlight, as with the fixture faces). These are
  // under the issue's targets at 14 and 20 px (README); the bounds sit two faces under what was
  // measured, to catch a change that holds on the fixture faces alone.
  it("finds most faces of every size, with few false boxes", async () => {
    const { recall, falseShare } = await measure("held-out faces, seeds 101-108", await evalScenes(101, 8, undefined, "held-out"));
    expect(recall([14])).toBeGreaterThanOrEqual(0.75);
    expect(recall([20])).toBeGreaterThanOrEqual(0.77);
    expect(recall([28, 40, 64])).toBeGreaterThanOrEqual(0.97);
    expect(falseShare).toBeLessThanOrEqual(0.08);
  }, 120_000);
});

describe("face detection on other people's faces in JPEG photos (quality 75)", () => {
  // Where the BlazeFace pair loses JPEG'd faces of 14-20 px, RetinaFace (trained on WIDER FACE)
  // finds many, confirmed by its own looks, and the last look, weighing ten looks, more
  // (face-detector.ts, face-evidence.ts). Measured on held-out seeds 101-108: 14 px 24/28, 20 px
  // 23/27, 28 px and up 86/87, 7 false boxes of 141. Without the look past the frame's edges
  // (edgeMargin 0) 22/28 and 26/27: the outer small-face tiles moved, three 20 px faces 94-164 px
  // from an edge were lost and two 14 px ones found; over seeds 1-48 it found as many of both
  // (README). Under the issue's 14 and 20 px targets; the bounds sit two faces under.
  it("finds most small faces, with few false boxes", async () => {
    const { recall, falseShare } = await measure("held-out faces, JPEG q75, seeds 101-108", await Promise.all((await evalScenes(101, 8, undefined, "held-out")).map((s) => throughJpeg(s, 75))));
    expect(recall([14])).toBeGreaterThanOrEqual(0.78);
    expect(recall([20])).toBeGreaterThanOrEqual(0.77);
    expect(recall([28, 40, 64])).toBeGreaterThanOrEqual(0.96);
    expect(falseShare).toBeLessThanOrEqual(0.08);
  }, 180_000);
});

describe("faces the frame's edge cuts (a person entering shot, a crowd cropped)", () => {
  // Faces 35-85 % inside the frame across an edge (face-eval-set.ts, edgeScene), hidden when 90 % of
  // what shows of them is under face-blur's blur (hidden.ts). Measured on seeds 101-104: 47/52
  // hidden (25 of the 28 less than 60 % inside), 2 false boxes of 51; without the detector's look
  // past the edges (edgeMargin 0) 36/52 (15 of 28), 4 of 41. The bounds sit two faces under.
  it("hides faces the edge cuts, those mostly out of the frame too", async () => {
    const scenes = await edgeScenes(101, 4);
    const found = [];
    for (const s of scenes) found.push(await models.faces.detect(s.frame));
    const rep = await scoreHidden(scenes, found);
    console.log(`edge-cut faces, seeds 101-104: ${rep.found}/${rep.total} hidden (${[...rep.byInside].map(([k, v]) => `${k} inside ${v.found}/${v.total}`).join(", ")}); false boxes ${rep.falseBoxes} of ${rep.detections}`);
    expect(rep.found).toBeGreaterThanOrEqual(46);
    expect(rep.byInside.get("<60%")!.found).toBeGreaterThanOrEqual(23);
    expect(rep.falseBoxes / rep.detections).toBeLessThanOrEqual(0.1);
  }, 180_000);
});

describe("faces in a crowd (rows of faces side by side, small at the back)", () => {
  // Other people's faces packed 1.2-1.7 face widths apart in rows of 14 px at the back to 64 px in
  // front (face-eval-set.ts, crowdScene), through a JPEG of quality 75, hidden when 90 % of each is
  // under face-blur's blur (hidden.ts): neighbours' boxes must neither merge away nor leave a face
  // between them. Measured on seeds 101-102: 14 px 274/290, 20 px 204/211,
  // 28 px and up 257/264, 54 false boxes of 891. The bounds sit five to seven faces under.
  it("hides the faces of a crowd, the 14 px ones at the back too", async () => {
    const scenes = await Promise.all((await crowdScenes(101, 2, "held-out")).map((s) => throughJpeg(s, 75)));
    const found = [];
    for (const s of scenes) found.push(await models.faces.detect(s.frame));
    const rep = await scoreHidden(scenes, found);
    const share = (ws: number[]) => ws.reduce((a, w) => a + rep.byWidth.get(w)!.found, 0) / ws.reduce((a, w) => a + rep.byWidth.get(w)!.total, 0);
    console.log(`crowds, held-out faces, JPEG q75, seeds 101-102: hidden ${FACE_WIDTHS.map((w) => `${w} px ${rep.byWidth.get(w)!.found}/${rep.byWidth.get(w)!.total}`).join(", ")}; false boxes ${rep.falseBoxes} of ${rep.detections}`);
    expect(share([14])).toBeGreaterThanOrEqual(0.92);
    expect(share([20])).toBeGreaterThanOrEqual(0.94);
    expect(share([28, 40, 64])).toBeGreaterThanOrEqual(0.95);
    expect(rep.falseBoxes / rep.detections).toBeLessThanOrEqual(0.08);
  }, 180_000);
});

describe("face detection on 12 MP photos (a phone's 4032x3024, either orientation)", () => {
  // The issue's targets hold at 12 MP too: the small-face tiles stay 192 px up to 600 of them, and
  // the middle tiles come in two levels (face-detector.ts, middleSides). Measured on seeds 201-202:
  // 14 px 57/57, 20 px and up 210/213, no false box (54/57 before the last look ran at 12 MP); with
  // the tiles grown to stay under 120 (and one middle level under 24 tiles) it was 14 px 24/57,
  // 20 px 46/53.
  it("finds 14 px faces (>= 0.85) and faces of 20 px and up (>= 0.95)", async () => {
    const { recall, falseShare } = await measure("12 MP, seeds 201-202", [await evalScene(201, 4032, 3024), await evalScene(202, 3024, 4032)]);
    expect(recall([14])).toBeGreaterThanOrEqual(0.85);
    expect(recall([20, 28, 40, 64])).toBeGreaterThanOrEqual(0.95);
    expect(falseShare).toBeLessThanOrEqual(0.05);
  }, 180_000);

  // A phone's photo as it is shared: JPEG q75, other people's faces. Measured on seeds 201-202:
  // 14 px 51/58, 20 px and up 219/222, no false box of 275 (50/58 and 218/222 before the last look
  // ran at 12 MP; seeds 203-204: 45/55, 216/220). The bounds sit one or two faces under.
  it("finds most small faces of other people in a JPEG'd phone photo", async () => {
    const scenes = [await evalScene(201, 4032, 3024, "held-out"), await evalScene(202, 3024, 4032, "held-out")];
    const { recall, falseShare } = await measure("12 MP, held-out faces, JPEG q75, seeds 201-202", await Promise.all(scenes.map((s) => throughJpeg(s, 75))));
    expect(recall([14])).toBeGreaterThanOrEqual(0.84);
    expect(recall([20, 28, 40, 64])).toBeGreaterThanOrEqual(0.97);
    expect(falseShare).toBeLessThanOrEqual(0.02);
  }, 180_000);
});

describe("SSD's last look at candidates (SsdFaceModel.rescore, 16 crops to a mosaic)", () => {
  // Measured on these seeds: 60 of the 74 pasted faces score 0.4 or more, none of 64 patches of
  // background; each scene has more boxes than one mosaic holds.
  it("scores most pasted faces as faces and no patch of background, one score per box in order", async () => {
    let faces = 0, faceHits = 0, patches = 0, patchHits = 0;
    for (const s of scenes) {
      const truth = s.faces.map((f) => f.box);
      const clear = (x: number, y: number) => truth.every((f) => Math.abs(f.x + f.width / 2 - x) > 2.5 * f.width + 40 || Math.abs(f.y + f.height / 2 - y) > 2.5 * f.height + 48);
      const background = [];
      for (let y = 40; y < s.frame.height - 80; y += 97)
        for (let x = 40; x < s.frame.width - 80; x += 131) if (clear(x + 20, y + 24)) background.push({ x, y, width: 40, height: 48 });
      const boxes = [...truth, ...background];
      expect(boxes.length).toBeGreaterThan(16);
      const scores = await models.faces.ssd!.rescore(s.frame, boxes, 2);
      expect(scores).toHaveLength(boxes.length);
      faces += truth.length;
      faceHits += scores.slice(0, truth.length).filter((v) => v >= 0.4).length;
      patches += background.length;
      patchHits += scores.slice(truth.length).filter((v) => v >= 0.4).length;
    }
    console.log(`SSD look: ${faceHits}/${faces} pasted faces, ${patchHits}/${patches} background patches score >= 0.4`);
    expect(faceHits / faces).toBeGreaterThanOrEqual(0.7);
    expect(patchHits).toBeLessThanOrEqual(1);
  });
});

describe("RetinaFace's looks at small candidates (RetinaFaceModel.rescore, crops 3x and 4x, 16 to a mosaic)", () => {
  // What confirms its small boxes: on JPEG'd 14-20 px faces the mean of its two looks reaches 0.5
  // far more often than on same-sized patches of background. Measured on these seeds at q75: 17 of 29
  // faces of 14-20 px, none of 204 patches of 16 x 18 px.
  it("scores most small JPEG'd faces as faces and almost no patch of background, one score per box in order", async () => {
    let faces = 0, faceHits = 0, patches = 0, patchHits = 0;
    for (const s of await Promise.all(scenes.map((s) => throughJpeg(s, 75)))) {
      const truth = s.faces.filter((f) => f.width <= 20).map((f) => f.box);
      const all = s.faces.map((f) => f.box);
      const clear = (x: number, y: number) => all.every((f) => Math.abs(f.x + f.width / 2 - x) > 2.5 * f.width + 40 || Math.abs(f.y + f.height / 2 - y) > 2.5 * f.height + 40);
      const background = [];
      for (let y = 40; y < s.frame.height - 60; y += 61)
        for (let x = 40; x < s.frame.width - 60; x += 83) if (clear(x + 8, y + 9)) background.push({ x, y, width: 16, height: 18 });
      const boxes = [...truth, ...background];
      expect(boxes.length).toBeGreaterThan(16);
      const [near, far] = await Promise.all([models.faces.retina!.rescore(s.frame, boxes, 3), models.faces.retina!.rescore(s.frame, boxes, 4)]);
      expect(near).toHaveLength(boxes.length);
      const hit = near.map((v, i) => (v + far[i]!) / 2 >= 0.5);
      faces += truth.length;
      faceHits += hit.slice(0, truth.length).filter(Boolean).length;
      patches += background.length;
      patchHits += hit.slice(truth.length).filter(Boolean).length;
    }
    console.log(`RetinaFace looks: ${faceHits}/${faces} small JPEG'd faces, ${patchHits}/${patches} background patches average >= 0.5`);
    expect(faceHits / faces).toBeGreaterThanOrEqual(0.5);
    expect(patchHits / patches).toBeLessThanOrEqual(0.01);
  });
});
