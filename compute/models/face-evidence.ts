// The last word on a small box every other rule turned down: ten looks the detector's models give
// it, weighed together. Each rule before it asks one model (or two) for a high score, and a small
// JPEG'd face, turned or dim, often scores a little in most looks and high in none: 0.5-0.7 in
// BlazeFace's, 0.3-0.6 in the full-range detector's, 0.3-0.9 in RetinaFace's or FaceBoxes'.
// Texture scores high in one look and little in the rest. A logistic regression over the looks'
// log-odds (and the box's width) separates the two better than any one threshold: fitted by
// `npx node bench/fit-face-evidence.ts` on the candidates of the fixture faces (seeds 1-48, as
// generated and through a JPEG of quality 75), and measured on the held-out faces, which it never
// saw (README "Face detection quality"). Eight looks are the detectors' own (a box they find again
// over the candidate on a crop a few times its size); the last two are Face Mesh's face flag
// (face-presence.ts), which is not a detector and errs on other crops than they do.

/** The looks, in the order of EVIDENCE.weights: [model, context] as the detector runs them. */
export const LOOKS = ["blaze3", "blaze2", "verifier3", "verifier5", "ssd2", "boxes3", "retina3", "retina4", "presenceTight", "presenceWide"] as const;
export type Look = (typeof LOOKS)[number];
export type LookScores = Record<Look, number>;

/** The fitted model (standardisation folded in): p = sigmoid(bias + sum(weights[i] * logit(look_i)) + widthWeight * ln(width)), as bench/fit-face-evidence.ts prints it. */
export const EVIDENCE = {
  weights: [0.5616, 0.1373, 0.2052, 0.1454, 0.0768, 0.3314, 0.104, 0.0691, 0.1089, 0.1674] as readonly number[],
  widthWeight: -1.0667,
  bias: 5.3078,
};

/** A score as the model saw it: log-odds, clamped so that a look that found nothing (0) counts as very unlikely, not infinitely. */
export function logOdds(p: number): number {
  const q = Math.min(1 - 1e-3, Math.max(1e-3, p));
  return Math.log(q / (1 - q));
}

/** The features of one candidate: the looks' log-odds, then ln(width). */
export function evidenceFeatures(looks: LookScores, width: number): number[] {
  return [...LOOKS.map((k) => logOdds(looks[k])), Math.log(Math.max(1, width))];
}

/** How likely the candidate is a face, given its looks. */
export function faceProbability(looks: LookScores, width: number): number {
  return probabilityOf(evidenceFeatures(looks, width), EVIDENCE);
}

/** The model on a candidate's features (evidenceFeatures). */
export function probabilityOf(x: readonly number[], model: typeof EVIDENCE): number {
  let z = model.bias + model.widthWeight * x[LOOKS.length]!;
  for (let i = 0; i < LOOKS.length; i++) z += model.weights[i]! * x[i]!;
  return 1 / (1 + Math.exp(-z));
}
