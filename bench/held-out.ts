// The face anonymizer's identity figure, cross-checked with a HELD-OUT recognizer
// (run: npx node bench/held-out.ts [--verbose]).
//
// calibrate.ts chooses each face's synthetic identity with face-api's 128-d descriptor, and
// bench/anonymization.ts measures identity with that same descriptor. Here the same outputs are
// measured with HSE FaceRes (bench/lib/held-out-recognizer.ts, 1024-d, fed the way Human feeds it), a
// network the choice never sees:
//   - original -> output: distance between the L2-normalised FaceRes embeddings of the original face
//     and of the output, both at the ORIGINAL box (same crop, so only the pixels differ);
//   - "another person" references, over the 24 real faces of the 8 test photos: each face's distance
//     to the NEAREST other face of the set, and the median distance over all pairs of different
//     faces. Caveat: the group photos may show the same woman twice across photos (nobody appears
//     twice within one photo), so the nearest-other reference can be a lower bound; the nearest
//     other face in the SAME photo is printed too, where there is one;
//   - Human's own same-person rule: match.similarity (raw descriptors, default options) > 0.5
//     (src/face/match.ts doc comment, demo/faceid/index.ts `threshold: 0.5`).
// The same references are printed for face-api's descriptor (same person below 0.6), with the
// face-api distance as measurePhoto reports it (output described at the output's detection box).
import type { Frame } from "../compute/types.ts";
import { FaceMeter, distance, type FaceMeasure } from "../compute/anonymize/evaluate.ts";
import { DEFAULT_ANONYMIZE_OPTIONS } from "../compute/anonymize/render.ts";
import { HeldOutRecognizer, HUMAN_SAME_PERSON_SIMILARITY, embeddingDistance, humanSimilarity, l2normalize } from "./lib/held-out-recognizer.ts";
import { TEST_PHOTOS, f3, loadPhoto, measurePhoto, median } from "./anonymization.ts";

/** Spearman rank correlation (no tie correction; the distances are continuous). */
function spearman(a: number[], b: number[]): number {
  const rank = (xs: number[]) => {
    const order = xs.map((x, i) => [x, i] as const).sort((p, q) => p[0] - q[0]);
    const r = new Array<number>(xs.length);
    order.forEach(([, i], k) => (r[i] = k));
    return r;
  };
  const ra = rank(a), rb = rank(b);
  const n = a.length;
  const d2 = ra.reduce((s, r, i) => s + (r - rb[i]) ** 2, 0);
  return 1 - (6 * d2) / (n * (n * n - 1));
}

interface Face {
  label: string;
  photo: number;
  measure: FaceMeasure;
  /** FaceRes: L2-normalised embedding and raw descriptor of the original. */
  emb: Float32Array;
  raw: Float32Array;
}

interface Reference {
  /** Per face: distance to the nearest other face of the set, and which one. */
  nearest: Array<{ d: number; j: number }>;
  /** Per face: distance to the nearest other face of the same photo (undefined when alone). */
  nearestSamePhoto: Array<number | undefined>;
  /** Median over all pairs of different faces. */
  pairMedian: number;
  pairs: number[];
}

function reference(faces: Face[], dist: (a: Face, b: Face) => number): Reference {
  const pairs: number[] = [];
  const nearest = faces.map(() => ({ d: Infinity, j: -1 }));
  const nearestSamePhoto: Array<number | undefined> = faces.map(() => undefined);
  for (let i = 0; i < faces.length; i++) {
    for (let j = 0; j < faces.length; j++) {
      if (i === j) continue;
      const d = dist(faces[i], faces[j]);
      if (i < j) pairs.push(d);
      if (d < nearest[i].d) nearest[i] = { d, j };
      if (faces[i].photo === faces[j].photo) nearestSamePhoto[i] = Math.min(nearestSamePhoto[i] ?? Infinity, d);
    }
  }
  return { nearest, nearestSamePhoto, pairMedian: median(pairs), pairs };
}

function printReference(name: string, ref: Reference, extra = ""): void {
  const nn = ref.nearest.map((n) => n.d);
  const same = ref.nearestSamePhoto.filter((d): d is number => d !== undefined);
  console.log(
    `reference ${name}: nearest OTHER face of the set min ${f3(Math.min(...nn))} median ${f3(median(nn))}; ` +
      `nearest other face in the same photo (${same.length} faces) min ${f3(Math.min(...same))} median ${f3(median(same))}; ` +
      `median over all ${ref.pairs.length} pairs of different faces ${f3(ref.pairMedian)}${extra}`,
  );
}

async function main() {
  const verbose = process.argv.includes("--verbose");
  const t0 = performance.now();
  const meter = new FaceMeter();
  const recognizer = new HeldOutRecognizer();
  await Promise.all([meter.load(), recognizer.load()]);

  const photos: Array<{ name: string; frame: Frame; faces: FaceMeasure[] }> = [];
  const faces: Face[] = [];
  for (const [p, name] of TEST_PHOTOS.entries()) {
    const frame = await loadPhoto(name);
    const found = await meter.faces(frame, 0.5);
    photos.push({ name, frame, faces: found });
    const raw = await recognizer.describeAll(frame, found.map((f) => f.box));
    found.forEach((measure, i) => faces.push({ label: `${name}#${i}`, photo: p, measure, emb: l2normalize(raw[i]), raw: raw[i] }));
  }
  console.log(`test set: ${photos.length} photos, ${faces.length} faces (SSD score >= 0.5)\n`);

  const ho = reference(faces, (a, b) => embeddingDistance(a.emb, b.emb));
  const fa = reference(faces, (a, b) => distance(a.measure.descriptor, b.measure.descriptor));
  const pairSims: number[] = [];
  for (let i = 0; i < faces.length; i++) for (let j = i + 1; j < faces.length; j++) pairSims.push(humanSimilarity(faces[i].raw, faces[j].raw));
  const simPass = pairSims.filter((s) => s > HUMAN_SAME_PERSON_SIMILARITY).length;
  printReference("held-out FaceRes (euclidean, unit vectors)", ho, `; pairs of different faces Human calls the same person (similarity > ${HUMAN_SAME_PERSON_SIMILARITY}): ${simPass}/${pairSims.length}`);
  printReference("face-api descriptor", fa, `; pairs of different faces below face-api's 0.6: ${fa.pairs.filter((d) => d < 0.6).length}/${fa.pairs.length}`);

  const variants: Array<[string, boolean]> = [
    ["default, seed only (no calibration)", false],
    ["default + calibration (the pipeline's choice, made with face-api)", true],
  ];
  const perVariant: Array<{ hoD: number[]; faD: number[] }> = [];
  for (const [label, calibrate] of variants) {
    const t = performance.now();
    const hoD: number[] = [];
    const faD: number[] = [];
    const sims: number[] = [];
    const lines: string[] = [];
    let k = 0;
    for (const { name, frame, faces: found } of photos) {
      const { out, results } = await measurePhoto(meter, frame, found, DEFAULT_ANONYMIZE_OPTIONS, calibrate);
      const outRaw = await recognizer.describeAll(out, found.map((f) => f.box));
      for (let i = 0; i < found.length; i++, k++) {
        const f = faces[k];
        if (f.label !== `${name}#${i}`) throw new Error("face order mismatch");
        const d = embeddingDistance(f.emb, l2normalize(outRaw[i]));
        const s = humanSimilarity(f.raw, outRaw[i]);
        hoD.push(d);
        faD.push(results[i].distance);
        sims.push(s);
        const same = ho.nearestSamePhoto[k];
        lines.push(
          `${f.label.padEnd(14)} held-out ${f3(d)} (nearest other ${f3(ho.nearest[k].d)} = ${faces[ho.nearest[k].j].label}${same !== undefined ? `, same photo ${f3(same)}` : ""}) ` +
            `Human similarity ${s.toFixed(2)} | face-api ${f3(results[i].distance)} (nearest other ${f3(fa.nearest[k].d)} = ${faces[fa.nearest[k].j].label}) | SSD ${results[i].score.toFixed(2)}`,
        );
      }
    }
    perVariant.push({ hoD, faD });
    const n = hoD.length;
    const beatsNearest = (ds: number[], ref: Reference) => ds.filter((d, i) => d >= ref.nearest[i].d).length;
    const beatsSame = (ds: number[], ref: Reference) => {
      const idx = ds.map((_, i) => i).filter((i) => ref.nearestSamePhoto[i] !== undefined);
      return `${idx.filter((i) => ds[i] >= ref.nearestSamePhoto[i]!).length}/${idx.length}`;
    };
    console.log(`\n[${label}]  (${((performance.now() - t) / 1000).toFixed(0)} s)`);
    console.log(
      `  held-out FaceRes: original->output min ${f3(Math.min(...hoD))} median ${f3(median(hoD))}; ` +
        `>= own nearest-other-person ${beatsNearest(hoD, ho)}/${n} (same-photo nearest ${beatsSame(hoD, ho)}); ` +
        `>= median different-people distance ${f3(ho.pairMedian)}: ${hoD.filter((d) => d >= ho.pairMedian).length}/${n}`,
    );
    console.log(
      `  Human's rule: output still the same person (similarity > ${HUMAN_SAME_PERSON_SIMILARITY}) ${sims.filter((s) => s > HUMAN_SAME_PERSON_SIMILARITY).length}/${n}; ` +
        `similarity median ${median(sims).toFixed(2)} max ${Math.max(...sims).toFixed(2)}`,
    );
    console.log(
      `  face-api:         original->output min ${f3(Math.min(...faD))} median ${f3(median(faD))}; ` +
        `>= own nearest-other-person ${beatsNearest(faD, fa)}/${n} (same-photo nearest ${beatsSame(faD, fa)}); ` +
        `>= median different-people distance ${f3(fa.pairMedian)}: ${faD.filter((d) => d >= fa.pairMedian).length}/${n}; >= 0.6: ${faD.filter((d) => d >= 0.6).length}/${n}`,
    );
    console.log(`  rank correlation (Spearman) face-api vs held-out distance over the ${n} faces: ${spearman(faD, hoD).toFixed(2)}`);
    if (verbose) console.log("  " + lines.join("\n  "));
  }
  if (perVariant.length === 2) {
    const [seed, cal] = perVariant;
    const dHo = cal.hoD.map((d, i) => d - seed.hoD[i]);
    const dFa = cal.faD.map((d, i) => d - seed.faD[i]);
    console.log(
      `\ncalibration vs seed only, per face: face-api distance rose on ${dFa.filter((d) => d > 0).length}/${dFa.length} (median change ${f3(median(dFa))}), ` +
        `held-out distance rose on ${dHo.filter((d) => d > 0).length}/${dHo.length} (median change ${f3(median(dHo))}); ` +
        `rank correlation of the two changes ${spearman(dFa, dHo).toFixed(2)}`,
    );
  }
  console.log(`\ntotal ${((performance.now() - t0) / 1000).toFixed(0)} s`);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
