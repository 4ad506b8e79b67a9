// Fits the face detector's last look (compute/models/face-evidence.ts): a logistic regression over
// the ten looks' log-odds and ln(width) of every small box the last look is given, labelled by
// whether it lies on a pasted face. Fitted on the fixture faces (test/fixtures/face-eval-set.ts,
// seeds 1-48, as generated and through a JPEG of quality 75); the held-out faces are left for
// measuring (bench/face-recall.ts --faces held-out). The boxes are taken from 0.2, wider than the
// detector's evidenceScore, so that the model has seen weaker boxes than it is given. Prints the
// EVIDENCE constant to paste.
// Run: npx node bench/fit-face-evidence.ts [--seeds 1-48] [--jpeg 75]
import { parseArgs } from "node:util";
import { FaceDetector, sharedModels } from "../compute/models/index.ts";
import { LOOKS, evidenceFeatures, probabilityOf } from "../compute/models/face-evidence.ts";
import type { LookedCandidate } from "../compute/models/face-detector.ts";
import { evalScenes, throughJpeg } from "../test/fixtures/face-eval-set.ts";
import { matches } from "../test/compute/photos.ts";

const { values: flags } = parseArgs({ options: { seeds: { type: "string", default: "1-48" }, jpeg: { type: "string", default: "75" } } });
const [first, last] = flags.seeds!.split("-").map(Number);
const shared = sharedModels().faces;
const detector = new FaceDetector({ ssd: shared.ssd, blaze: shared.blaze, verifier: shared.verifier, boxes: shared.boxes, retina: shared.retina, presence: shared.presence }, { ...shared.options, evidenceScore: 0.2 });
await detector.load();

const generated = await evalScenes(first!, last! - first! + 1);
const scenes = [...generated, ...(await Promise.all(generated.map((s) => throughJpeg(s, Number(flags.jpeg)))))];
const xs: number[][] = [];
const ys: number[] = [];
for (const s of scenes) {
  let looked: LookedCandidate[] = [];
  await detector.detect(s.frame, { evidence: (l) => (looked = l) });
  for (const c of looked) {
    xs.push(evidenceFeatures(c.looks, c.box.width));
    ys.push(s.faces.some((f) => matches(c.box, f.box)) ? 1 : 0);
  }
}

// Standardised features, L2 of 0.01 on the weights (not the bias), plain gradient descent: the
// problem is small (a few thousand boxes, eleven features) and convex.
const d = xs[0]!.length;
const mean = Array.from({ length: d }, (_, j) => xs.reduce((a, x) => a + x[j]!, 0) / xs.length);
const sd = Array.from({ length: d }, (_, j) => Math.sqrt(xs.reduce((a, x) => a + (x[j]! - mean[j]!) ** 2, 0) / xs.length) + 1e-9);
const z = xs.map((x) => x.map((v, j) => (v - mean[j]!) / sd[j]!));
const w = new Array<number>(d).fill(0);
let b = 0;
for (let it = 0; it < 4000; it++) {
  const g = new Array<number>(d).fill(0);
  let gb = 0;
  z.forEach((x, i) => {
    const p = 1 / (1 + Math.exp(-(b + x.reduce((a, v, j) => a + v * w[j]!, 0))));
    const e = p - ys[i]!;
    x.forEach((v, j) => (g[j]! += e * v));
    gb += e;
  });
  for (let j = 0; j < d; j++) w[j]! -= 0.5 * (g[j]! / z.length + 0.01 * w[j]!);
  b -= (0.5 * gb) / z.length;
}
// Fold the standardisation into the weights.
const weights = w.map((v, j) => v / sd[j]!);
const bias = b - w.reduce((a, v, j) => a + (v * mean[j]!) / sd[j]!, 0);
const round = (v: number) => Number(v.toFixed(4));
const model = { weights: weights.slice(0, LOOKS.length).map(round), widthWeight: round(weights[LOOKS.length]!), bias: round(bias) };

const faces = ys.filter((y) => y === 1).length;
const called = (y: number) => xs.filter((x, i) => ys[i] === y && probabilityOf(x, model) >= 0.5).length;
console.log(`${scenes.length} scenes (fixture faces, seeds ${flags.seeds}, as generated and at JPEG q${flags.jpeg}): ${xs.length} boxes past the first two looks, ${faces} on faces`);
console.log(`in sample, at 0.5: ${called(1)} of ${faces} face boxes called faces, ${called(0)} of ${xs.length - faces} others`);
console.log(`export const EVIDENCE = ${JSON.stringify(model)};`);
process.exit(0);
