// Face anonymization on real photos (skimage astronaut + camera, face-api demo group photos 1-6)
// and on an in-memory pan/zoom video of astronaut.png, measured with face-api's own models, with
// the per-track identity calibration the video pipeline uses (compute/anonymize/calibrate.ts):
//   - still a face: SSD MobileNetV1 finds a face at the original position with score >= 0.5 for
//     every one of the 24 photo faces (measured min 0.59, on a face SSD scores 0.62 in the input)
//     and every video frame;
//   - identity: the face-api descriptor moves >= 0.6 (face-api's same-person threshold) on every
//     one of the 24 photo faces and every video frame, and the median >= 0.65 (measured min 0.604,
//     a thin margin: 23 of 24 before the calibration measured each view at two boxes, see
//     compute/anonymize/README.md; small video faces do not all reach it, see test/e2e/videos);
//   - stability: flicker ratio (stabilised frame-to-frame change of the output / of the input
//     inside the face region) <= 1.2 with the pipeline's flow-tracked landmarks (measured 1.10;
//     One-Euro-filtered landmarks 2.72);
//   - held out: Human's FaceRes (which the choice never sees) still calls at most 13 of the 24
//     outputs the same person (measured 11: a regression bound that documents the gap);
//   - expression: face-api's expression network reads the same most probable expression on at
//     least 11 of the 24 outputs as on their inputs (a regression bound that documents the gap);
//   - the warp never folds, for every face and every calibration candidate;
//   - a face the frame cuts: the calibration asks the output to be as much a face as the input
//     is (0.9 of the input's SSD score where that is under 0.78, on a track SSD finds in the
//     input), not 0.7 regardless;
//   - joint calibration (the faces that appear together, as the video pipeline calibrates them):
//     at most one SSD pass per round for all of them (group1: 8 passes for 1, 4 and 16 rounds, one of them SSD on the input), each track still
//     stopping at its first passing candidate;
//   - calibration budget (CalibrationBudget): every track gets its first candidate even in debt,
//     further rounds and walks only what the budget covers, and the balance never goes below
//     zero after the first round;
//   - the verdict (CalibrationResult.anotherPerson, which the video pipeline blurs a track on when
//     false): true exactly when the choice is >= ANOTHER_PERSON (0.6) from the original on every
//     view, whatever the budget cut;
//   - local search: a face no seeded candidate takes to the target is walked farther, still found,
//     deterministically, and every step stays in range and fold-free;
//   - identities: same seed -> same identity, different seeds -> different ones.
import { beforeAll, describe, expect, it } from "vitest";
import { ANOTHER_PERSON, distance, FaceMeter, type FaceMeasure } from "../../compute/anonymize/evaluate.ts";
import { DEFAULT_ANONYMIZE_OPTIONS, anonymizeFace, anonymizeFaces, warpFolds, warpTargets } from "../../compute/anonymize/render.ts";
import type { FeatureOptions } from "../../compute/anonymize/features.ts";
import type { Pt } from "../../compute/anonymize/raster.ts";
import { faceFrame, toFace, toImage } from "../../compute/anonymize/geometry.ts";
import { CALIBRATION, CalibrationBudget, IdentityCache, SSD_UNITS, calibrateIdentities, calibrateIdentity, viewMinScores } from "../../compute/anonymize/calibrate.ts";
import { neighbourIdentity, prng, syntheticIdentity } from "../../compute/anonymize/identity.ts";
import { delaunay } from "../../compute/anonymize/warp.ts";
import type { Frame } from "../../compute/types.ts";
import { HeldOutRecognizer, HUMAN_SAME_PERSON_SIMILARITY, humanSimilarity } from "../../bench/lib/held-out-recognizer.ts";
import { ExpressionReader, expressionChange, topExpression } from "../../bench/lib/expression-reader.ts";
import { TEST_PHOTOS, loadPhoto, measurePhoto, panZoomVideo, runVideo, stabilityMetric } from "../../bench/anonymization.ts";

const meter = new FaceMeter();
const photos = new Map<string, { frame: Frame; faces: FaceMeasure[] }>();
const results: Array<{ photo: string; distance: number; score: number }> = [];
/** Human's FaceRes similarity, original -> output, per photo face (the held-out recognizer). */
const heldOut: number[] = [];
const faceres = new HeldOutRecognizer();
/** face-api's expression network, original -> output, per photo face: same most probable expression, and the change. */
const expressionKept: Array<{ same: boolean; change: number }> = [];
const expressions = new ExpressionReader();

beforeAll(async () => {
  await meter.load();
  for (const name of TEST_PHOTOS) {
    const frame = await loadPhoto(name);
    photos.set(name, { frame, faces: await meter.faces(frame, 0.5) });
  }
});

describe("synthetic identities", () => {
  it("same seed gives the same identity, different seeds differ", () => {
    expect(syntheticIdentity(7)).toEqual(syntheticIdentity(7));
    expect(syntheticIdentity("track-7")).toEqual(syntheticIdentity("track-7"));
    const a = syntheticIdentity(7);
    const b = syntheticIdentity(8);
    expect(a.seed).not.toBe(b.seed);
    const keys = ["eyeSpacing", "eyeScaleX", "noseWidth", "mouthWidth", "jawWidth", "chinLength"] as const;
    expect(keys.filter((k) => a[k] !== b[k]).length).toBe(keys.length);
    // Every geometric change has a guaranteed minimum size (never ~ the original proportions).
    for (let t = 0; t < 200; t++) {
      const id = syntheticIdentity(t);
      expect(Math.abs(id.eyeSpacing)).toBeGreaterThanOrEqual(0.05);
      expect(Math.abs(id.noseWidth - 1)).toBeGreaterThanOrEqual(0.1);
      expect(Math.abs(id.mouthWidth - 1)).toBeGreaterThanOrEqual(0.08);
    }
  });

  it("renders deterministically: same track, same pixels; other track, other pixels", async () => {
    const { frame, faces } = photos.get("astronaut.png")!;
    const face = { box: faces[0].box, landmarks: faces[0].landmarks };
    const ids = new IdentityCache();
    const a = anonymizeFaces(frame, [{ ...face, trackId: 1 }], ids.identityFor);
    const b = anonymizeFaces(frame, [{ ...face, trackId: 1 }], ids.identityFor);
    const c = anonymizeFaces(frame, [{ ...face, trackId: 2 }], ids.identityFor);
    expect(a.data.equals(b.data)).toBe(true);
    expect(a.data.equals(c.data)).toBe(false);
    // Pixels far from the face are untouched.
    const k = (5 * frame.width + 5) * 3;
    expect(a.data.subarray(k, k + 3)).toEqual(frame.data.subarray(k, k + 3));
    expect(anonymizeFace(frame, face, syntheticIdentity(1)).data.equals(frame.data)).toBe(false);
  });

  it("draws a lit nose where the texture replacement removed the input's; on a small face only the nostrils", () => {
    const { frame, faces } = photos.get("astronaut.png")!;
    const id = syntheticIdentity(1);
    const noseOff = { ...DEFAULT_ANONYMIZE_OPTIONS, features: { ...(DEFAULT_ANONYMIZE_OPTIONS.features as FeatureOptions), nose: false } };
    const lum = (f: Frame, p: Pt) => {
      const k = (Math.round(p.y) * f.width + Math.round(p.x)) * 3;
      return 0.299 * f.data[k] + 0.587 * f.data[k + 1] + 0.114 * f.data[k + 2];
    };
    // The same face drawn with and without the nose, and the pixels the nose changed.
    const drawn = (f: Frame, landmarks: Pt[]) => {
      const face = { box: faces[0].box, landmarks };
      const withNose = anonymizeFace(f, face, id);
      const without = anonymizeFace(f, face, id, noseOff);
      const changed: Pt[] = [];
      for (let p = 0; p < f.width * f.height; p++) {
        const k = p * 3;
        if (withNose.data[k] !== without.data[k] || withNose.data[k + 1] !== without.data[k + 1] || withNose.data[k + 2] !== without.data[k + 2]) changed.push({ x: (p % f.width) + 0.5, y: Math.floor(p / f.width) + 0.5 });
      }
      const dst = warpTargets(landmarks, id).dst;
      return { withNose, changed, dst, ff: faceFrame(dst) };
    };
    const big = drawn(frame, faces[0].landmarks);
    expect(big.ff.iod).toBeGreaterThan(30); // the relief is drawn at >= 1/2 strength from 30 px
    // A nose-sized area changes, and nothing outside the nose (face coordinates, units of IOD).
    expect(big.changed.length).toBeGreaterThan(0.15 * big.ff.iod ** 2); // two nostril dots alone cover about 0.01
    const nose = big.dst.slice(27, 36).map((p) => toFace(big.ff, p));
    const box = { x0: Math.min(...nose.map((p) => p.x)) - 0.35, x1: Math.max(...nose.map((p) => p.x)) + 0.35, y0: Math.min(...nose.map((p) => p.y)) - 0.2, y1: Math.max(...nose.map((p) => p.y)) + 0.2 };
    expect(big.changed.map((p) => toFace(big.ff, p)).filter((q) => q.x < box.x0 || q.x > box.x1 || q.y < box.y0 || q.y > box.y1)).toEqual([]);
    // Relief: the bridge (between landmarks 28 and 29) is lit above the darker of its side walls.
    const bridge = toFace(big.ff, { x: (big.dst[28].x + big.dst[29].x) / 2, y: (big.dst[28].y + big.dst[29].y) / 2 });
    const at = (dx: number) => lum(big.withNose, toImage(big.ff, { x: bridge.x + dx, y: bridge.y }));
    expect(at(0)).toBeGreaterThan(Math.min(at(-0.17), at(0.17)) + 4);
    // A small face (IOD under 20 px): the relief is faded out; only the nostrils.
    const q = 4;
    const w = Math.floor(frame.width / q), h = Math.floor(frame.height / q);
    const small: Frame = { width: w, height: h, channels: 3, data: Buffer.alloc(w * h * 3) };
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) frame.data.copy(small.data, (y * w + x) * 3, (y * q * frame.width + x * q) * 3, (y * q * frame.width + x * q) * 3 + 3);
    const tiny = drawn(small, faces[0].landmarks.map((p) => ({ x: p.x / q, y: p.y / q })));
    expect(tiny.ff.iod).toBeLessThan(20);
    expect(tiny.changed.length).toBeGreaterThan(0);
    const nostrils = tiny.dst.slice(31, 36);
    expect(tiny.changed.filter((p) => Math.min(...nostrils.map((n) => Math.hypot(n.x - p.x, n.y - p.y))) > 4)).toEqual([]);
  });

  it("the warp never folds: no mesh triangle flips, for every test face and every calibration candidate", () => {
    let held = 0;
    let total = 0;
    for (const { faces } of photos.values()) {
      for (const [i, f] of faces.entries()) {
        for (let k = 0; k < CALIBRATION.candidates; k++) {
          const id = syntheticIdentity(i + 1, k, { geometry: 1 + CALIBRATION.escalate * k });
          const { folds, minScale } = warpFolds(f.landmarks, id);
          expect(folds).toBe(false);
          total++;
          if (minScale < 1) held++;
        }
      }
    }
    // Sanity: the check has something to do (strong candidates would fold without it).
    expect(held).toBeGreaterThan(0);
    expect(total).toBe(24 * CALIBRATION.candidates);
  });

  it("the calibration's local search stays in range and never folds the warp", () => {
    const rand = prng(11);
    for (const { faces } of photos.values()) {
      for (const [i, f] of faces.entries()) {
        const k = CALIBRATION.candidates - 1;
        const reach = 1 + CALIBRATION.escalate * k;
        let id = syntheticIdentity(i + 1, k, { geometry: reach, flatten: 1 + CALIBRATION.flattenEscalate * k });
        for (let step = 0; step < CALIBRATION.refine; step++) {
          id = neighbourIdentity(id, rand, reach);
          expect(warpFolds(f.landmarks, id).folds).toBe(false);
          const tone = (id.skinTint[0] + id.skinTint[1] + id.skinTint[2]) / 3;
          expect(tone).toBeGreaterThanOrEqual(0.85 - 1e-9);
          expect(tone).toBeLessThanOrEqual(1.15 + 1e-9);
          // Within the escalated candidates' reach (jaw: at most 0.1 x reach either way).
          expect(Math.abs(id.jawWidth - 1)).toBeLessThanOrEqual(0.1 * reach + 1e-9);
          expect(Math.abs(id.eyeSpacing)).toBeLessThanOrEqual(0.09 * reach + 1e-9);
        }
      }
    }
  });

  it("triangulates landmark sets into a valid Delaunay mesh", () => {
    const pts = Array.from({ length: 40 }, (_, i) => ({ x: (i * 37) % 101, y: (i * 53) % 89 }));
    const tris = delaunay(pts);
    // Euler for a triangulated point set: T = 2n - 2 - h (h = hull points), so 2n-2-n <= T <= 2n-5.
    expect(tris.length).toBeGreaterThan(pts.length - 2);
    expect(tris.length).toBeLessThanOrEqual(2 * pts.length - 5);
  });
});

describe("anonymized photos, measured with face-api", () => {
  for (const name of TEST_PHOTOS) {
    it(`${name}: faces still detected and moved away from their identity`, { timeout: 600_000 }, async () => {
      const { frame, faces } = photos.get(name)!;
      expect(faces.length).toBeGreaterThan(0);
      const { out, results: r } = await measurePhoto(meter, frame, faces, DEFAULT_ANONYMIZE_OPTIONS, true);
      const boxes = faces.map((f) => f.box);
      const [before, after] = [await faceres.describeAll(frame, boxes), await faceres.describeAll(out, boxes)];
      heldOut.push(...before.map((b, i) => humanSimilarity(b, after[i]!)));
      const [was, is] = [await expressions.read(frame, boxes), await expressions.read(out, boxes)];
      expressionKept.push(...was.map((e, i) => ({ same: topExpression(e) === topExpression(is[i]!), change: expressionChange(e, is[i]!) })));
      for (const x of r) {
        results.push({ photo: name, ...x });
        expect(x.score).toBeGreaterThanOrEqual(0.5);
        expect(x.distance).toBeGreaterThanOrEqual(0.6);
      }
    });
  }

  it("all 24 faces detected at >= 0.5 and at identity distance >= 0.6; median >= 0.65", () => {
    expect(results.length).toBe(24);
    expect(results.filter((r) => r.score >= 0.5).length).toBe(24);
    const d = results.map((r) => r.distance).sort((a, b) => a - b);
    console.log(`identity distance original -> output: min ${d[0].toFixed(3)}, median ${((d[11] + d[12]) / 2).toFixed(3)}; SSD score min ${Math.min(...results.map((r) => r.score)).toFixed(2)}`);
    expect(d.filter((x) => x >= 0.6).length).toBe(24);
    expect((d[11] + d[12]) / 2).toBeGreaterThanOrEqual(0.65);
  });

  it("held-out recognizer (Human's FaceRes, never used to choose identities): a regression bound, not the bar", () => {
    // Measured 11 of 24 outputs still "the same person" by Human's own rule (similarity > 0.5,
    // loose: it also matches 17 of 276 pairs of different real people here): the choice made with
    // face-api generalises only partly (compute/anonymize/README.md, bench/held-out.ts).
    expect(heldOut.length).toBe(24);
    const same = heldOut.filter((x) => x > HUMAN_SAME_PERSON_SIMILARITY).length;
    console.log(`FaceRes similarity original -> output: ${heldOut.map((x) => x.toFixed(2)).join(" ")}; same person by Human's rule: ${same}/24`);
    expect(same).toBeLessThanOrEqual(13);
  });

  it("expression (face-api's expression network): a regression bound on how many faces keep theirs, not the bar", () => {
    // The issue asks for a replacement that follows the original's expression. Measured 12 of 24
    // outputs with the same most probable expression as the input (mean change 0.49; 13 and 0.45
    // before session 9, when group3 #2, a face SSD scores 0.62 in the input, was still asked 0.7
    // and took a later candidate); most losses are smiles read as neutral, sad or surprised. The
    // warp's mouth-width, eye-shape and brow-tilt changes and the texture replacement lose it
    // (compute/anonymize/README.md). A regression bound that documents the gap.
    expect(expressionKept.length).toBe(24);
    const kept = expressionKept.filter((x) => x.same).length;
    const change = expressionKept.reduce((a, x) => a + x.change, 0) / 24;
    console.log(`expression kept: ${kept}/24, mean change (total variation) ${change.toFixed(3)}`);
    expect(kept).toBeGreaterThanOrEqual(11);
  });
});

describe("joint calibration of tracks that start together", () => {
  it("costs at most one SSD pass per round for all of them, and each track's choice follows the single-track rule", { timeout: 600_000 }, async () => {
    const { frame, faces } = photos.get("group1.jpg")!;
    expect(faces.length).toBeGreaterThanOrEqual(3);
    let passes = 0;
    const counting = new FaceMeter(meter.ssd, meter.landmarker);
    const detect = counting.detect.bind(counting);
    counting.detect = (f, min) => (passes++, detect(f, min));
    const tracks = faces.map((face, i) => ({ trackId: i + 1, views: [{ frame, face: { box: face.box, landmarks: face.landmarks } }] }));
    // Without the local search (refine: 0), whose passes are per track (the next test).
    const chosen = await calibrateIdentities(counting, tracks, { salt: 3, refine: 0 });
    const tried = tracks.map((t) => chosen.get(t.trackId)!.tried);
    console.log(`joint calibration of ${faces.length} faces: rounds per track ${tried.join(", ")}, SSD passes ${passes} (separately: ${tried.reduce((a, b) => a + b, 0)})`);
    // One view: every round is at most one SSD pass over the frame with every still-choosing face
    // drawn (none when the descriptor at the original box already shows every candidate beaten).
    expect(passes).toBeLessThanOrEqual(Math.max(...tried));
    for (const t of tracks) {
      const c = chosen.get(t.trackId)!;
      // A track stops at its first candidate that passes; one that never passes tried them all.
      if (c.tried < CALIBRATION.candidates) expect(c.distance >= CALIBRATION.target && c.found).toBe(true);
      expect(c.salt).toBeGreaterThanOrEqual(3);
    }
  });
});

describe("calibration budget", () => {
  it("refills per frame up to its capacity and may go below zero", () => {
    const budget = new CalibrationBudget(100, 10);
    budget.spend(150);
    expect(budget.left).toBe(-50);
    budget.accrue(3);
    expect(budget.left).toBe(-20);
    budget.accrue(100);
    expect(budget.left).toBe(100);
    expect(CalibrationBudget.unlimited().left).toBe(Infinity);
  });

  it("every track gets its first candidate; further rounds and the walk only what the budget covers", { timeout: 600_000 }, async () => {
    const { frame, faces } = photos.get("group1.jpg")!;
    const tracks = faces.map((face, i) => ({ trackId: i + 1, views: [{ frame, face: { box: face.box, landmarks: face.landmarks } }] }));
    // Exactly the setup (a descriptor per view, SSD on the input): round 0 still runs, in debt.
    const empty = new CalibrationBudget(faces.length + SSD_UNITS, 0);
    const first = await calibrateIdentities(meter, tracks, { salt: 3, budget: empty });
    for (const t of tracks) expect(first.get(t.trackId)).toMatchObject({ tried: 1, refined: 0, salt: 3 });
    expect(empty.left).toBeLessThan(0);
    // A budget for a few rounds: the rounds and walks it affords, never more.
    const small = new CalibrationBudget(150, 0);
    const some = await calibrateIdentities(meter, tracks, { salt: 3, budget: small });
    const unlimited = await calibrateIdentities(meter, tracks, { salt: 3 });
    const tried = (m: typeof some) => tracks.map((t) => m.get(t.trackId)!.tried);
    const show = (m: typeof some) => tracks.map((t) => m.get(t.trackId)!).map((c) => `${c.tried} rounds, ${c.refined} steps, ${c.distance.toFixed(3)}${c.found ? "" : " not found"}`).join("; ");
    console.log(`budget 150: ${show(some)}, left ${small.left}\n  unlimited: ${show(unlimited)}`);
    expect(small.left).toBeGreaterThanOrEqual(0);
    // Without a budget nothing is cut: the track no candidate takes to the target is walked.
    expect(Math.max(...tracks.map((t) => unlimited.get(t.trackId)!.refined))).toBeGreaterThan(0);
    expect(Math.max(...tried(some))).toBeLessThan(Math.max(...tried(unlimited)));
    // A track's choice is the same rule on fewer candidates: one that stopped early passed.
    for (const t of tracks) {
      const c = some.get(t.trackId)!;
      if (c.tried < Math.max(...tried(some))) expect(c.distance >= CALIBRATION.target && c.found).toBe(true);
    }
    // The verdict follows the choice's smallest distance over its views, however it was cut: a
    // first candidate still under 0.6 is not another person (the pipeline blurs that track).
    const verdicts = (m: typeof some) => tracks.map((t) => m.get(t.trackId)!).map((c) => `${c.distance.toFixed(3)} ${c.anotherPerson ? "another person" : "blurred"}`).join("; ");
    console.log(`verdicts, first candidate only: ${verdicts(first)}\n  budget 150: ${verdicts(some)}\n  unlimited: ${verdicts(unlimited)}`);
    for (const m of [first, some, unlimited]) for (const c of m.values()) expect(c.anotherPerson).toBe(c.distance >= ANOTHER_PERSON);
    // Measured: first candidates 0.667, 0.461, 0.429 (one drawn, two blurred); budget 150: the
    // third at 0.489; unlimited: 0.667, 0.683 and, after the walk, 0.585 (still blurred: from
    // salt 3 and jointly; the photo test's calibration, from salt 0, one face at a time, passes 0.6).
    expect([...first.values()].filter((c) => !c.anotherPerson).length).toBeGreaterThan(0);
  });
});

describe("a face the frame cuts", () => {
  it("asks the output to stay as much a face as the input is, not more", { timeout: 600_000 }, async () => {
    // group3 #0 with the frame ending 0.7 of the way into its face, as a person at the edge of a
    // pan: SSD scores the input face itself about 0.6 there. Asking 0.7 of every candidate (the
    // rule before) can reject them all, which left such a track the fallback by score and no
    // local search (small-face clip, salt 10: SSD 0.27 on a frame between the views).
    const { frame, faces } = photos.get("group3.jpg")!;
    const right = Math.round(faces[0].box.x + faces[0].box.width * 0.7);
    const cut: Frame = { width: right, height: frame.height, channels: 3, data: Buffer.alloc(right * frame.height * 3) };
    for (let y = 0; y < frame.height; y++) frame.data.copy(cut.data, y * right * 3, y * frame.width * 3, (y * frame.width + right) * 3);
    const [face] = (await meter.faces(cut, 0.5)).filter((f) => f.box.x + f.box.width > right - 0.5 * faces[0].box.width);
    expect(face).toBeDefined();
    const [asked] = viewMinScores(CALIBRATION.minScore, [face.score])!;
    expect(asked).toBeLessThan(CALIBRATION.minScore); // the input asks less here
    // One view SSD finds is enough for the track's other views to ask 0.9 of their own score.
    expect(viewMinScores(CALIBRATION.minScore, [0.9, 0.3])![1]).toBeCloseTo(0.27);
    const chosen = await calibrateIdentity(meter, [{ frame: cut, face: { box: face.box, landmarks: face.landmarks } }], 2, { refine: 0 });
    console.log(`cut face: input SSD ${face.score.toFixed(2)}, asked ${asked.toFixed(2)}; chosen: score ${chosen.score.toFixed(2)}, distance ${chosen.distance.toFixed(3)} after ${chosen.tried} candidates`);
    expect(chosen.found).toBe(true);
    expect(chosen.distance).toBeGreaterThanOrEqual(CALIBRATION.target);
    expect(chosen.score).toBeGreaterThanOrEqual(asked);
    expect(chosen.score).toBeGreaterThanOrEqual(0.5); // still a face by the measure
    expect(chosen.anotherPerson).toBe(true); // drawn, not blurred
  });
});

describe("faces SSD does not find in the input", () => {
  // The tiny faces (23-33 px) of group-collage-tiny-faces.jpg, as the pipeline's detector finds
  // them: SSD finds none of them at 0.5 (0.00-0.28), so no candidate can be held to an SSD score.
  // They are chosen by the descriptor alone (the farthest of the seeded candidates, no walk),
  // measured with all of them replaced; the first candidate alone leaves most of them within 0.6.
  it("are chosen by the descriptor alone: most of them end >= 0.6 from the original", { timeout: 300_000 }, async () => {
    const { createModels } = await import("../../compute/models/index.ts");
    const models = createModels();
    const frame = await loadPhoto("group-collage-tiny-faces.jpg");
    const boxes = await models.faces.detect(frame);
    const points = await models.landmarks.landmarks(frame, boxes);
    const faces = boxes.map((box, i) => ({ box, landmarks: points[i]!, trackId: i + 1 }));
    const inputScores = await meter.detect(frame, 0.05);
    for (const f of faces) expect(viewMinScores(CALIBRATION.minScore, [FaceMeter.detectionAt(inputScores, f.box)?.score ?? 0])).toBeUndefined();
    const salt = 5;
    const chosen = await calibrateIdentities(meter, faces.map((f) => ({ trackId: f.trackId, views: [{ frame, face: f }] })), { salt });
    const originals = await meter.landmarker.describe(frame, boxes);
    const distancesWith = async (identityOf: (id: number | string) => ReturnType<typeof syntheticIdentity>) => {
      const out = anonymizeFaces(frame, faces, identityOf);
      return (await meter.landmarker.describe(out, boxes)).map((d, i) => distance(d.descriptor, originals[i]!.descriptor));
    };
    const first = await distancesWith((id) => syntheticIdentity(id, salt));
    const calibrated = await distancesWith((id) => chosen.get(id)!.identity);
    const at = (ds: number[]) => ds.filter((d) => d >= 0.6).length;
    console.log(`tiny faces (SSD finds none): >= 0.6 with the first candidate ${at(first)}/${faces.length}, chosen by the descriptor ${at(calibrated)}/${faces.length}; candidates tried ${[...chosen.values()].map((c) => c.tried).join(" ")}`);
    for (const c of chosen.values()) {
      expect(c.found).toBe(true); // nothing is asked of SSD...
      expect(c.refined).toBe(0); // ...and the walk, which needs it, is not taken
    }
    expect(at(calibrated)).toBeGreaterThanOrEqual(at(first) + 6);
  });
});

describe("local search after the seeded candidates", () => {
  it("walks a face no candidate took to the target farther, still found, deterministically", { timeout: 600_000 }, async () => {
    // group1 #2 is one of the faces the seeded candidates leave closest to the original.
    const { frame, faces } = photos.get("group1.jpg")!;
    const views = [{ frame, face: { box: faces[2].box, landmarks: faces[2].landmarks } }];
    const opts = { candidates: 2, salt: 0 };
    const seeded = (await calibrateIdentities(meter, [{ trackId: 3, views }], { ...opts, refine: 0 })).get(3)!;
    expect(seeded.distance).toBeLessThan(CALIBRATION.target);
    const walked = (await calibrateIdentities(meter, [{ trackId: 3, views }], { ...opts, refine: 12 })).get(3)!;
    const again = (await calibrateIdentities(meter, [{ trackId: 3, views }], { ...opts, refine: 12 })).get(3)!;
    console.log(`local search on group1 #2: seeded ${seeded.distance.toFixed(3)} -> walked ${walked.distance.toFixed(3)} (score ${walked.score.toFixed(2)}, ${walked.refined} neighbours screened)`);
    expect(walked.refined).toBeGreaterThan(0);
    expect(walked.distance).toBeGreaterThan(seeded.distance);
    expect(walked.found).toBe(true);
    expect(walked.score).toBeGreaterThanOrEqual(CALIBRATION.minScore);
    expect(again.identity).toEqual(walked.identity);
    // What is reported is what is drawn: re-measured on the rendered output, the smaller of the
    // distances at SSD's box and at the original box, so never above the figure at SSD's box alone.
    const output = anonymizeFace(frame, views[0].face, walked.identity);
    const [m] = await meter.compare(output, [faces[2]], { atOriginal: true });
    expect(m.distance).toBeCloseTo(walked.distance, 5);
    const [atDetection] = await meter.compare(output, [faces[2]]);
    expect(atDetection.distance).toBeGreaterThanOrEqual(walked.distance - 1e-9);
  });
});

describe("pan/zoom video", () => {
  it("stays a face, stays another person, and does not flicker", { timeout: 600_000 }, async () => {
    const { frame, faces } = photos.get("astronaut.png")!;
    const shots = await panZoomVideo(frame, 36);
    const fb = faces[0].box;
    const region = { x: Math.round(fb.x + fb.width * 0.05), y: Math.round(fb.y + fb.height * 0.05), width: Math.round(fb.width * 0.9), height: Math.round(fb.height * 0.9) };
    const { outputs, perFrame } = await runVideo(meter, shots, DEFAULT_ANONYMIZE_OPTIONS, "flow");
    for (const p of perFrame) {
      expect(p.score).toBeGreaterThanOrEqual(0.5);
      expect(p.distance).toBeGreaterThanOrEqual(0.6);
    }
    const st = stabilityMetric(shots, outputs, region);
    // Measured 0.96 (the photo's exact landmarks moved by the camera path give 0.78; One-Euro
    // filtered detections 2.29): the replacement changes about as much as the input does.
    expect(st.ratio).toBeLessThanOrEqual(1.2);
  });
});
