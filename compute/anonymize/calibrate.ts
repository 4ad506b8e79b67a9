// One synthetic identity per track, and an optional closed-loop choice of it: when a track first
// appears, render seeded candidate identities on a few of its frames and keep the first whose
// face-api descriptor is at least `target` away from the original's on all of them while SSD still
// finds the face (else the farthest one that is still found). Candidates escalate: candidate k
// moves the geometry 1 + escalate * k times as far (within what the fold-free warp allows) and
// widens the texture low-pass 1 + flattenEscalate * k times (less of the input's mid-scale shading survives), so a
// face the first draws leave too close gets progressively more different, and only those faces pay
// for it. The candidates are ordinary synthetic identities (no pixel-level adversarial tuning),
// but the choice IS made with the same descriptor the identity figure is measured with: the
// seed-only figure (bench/anonymization.ts, first block) is the unselected one.
import type { Frame } from "../types.ts";
import type { FaceMeter } from "./evaluate.ts";
import type { SyntheticIdentity } from "./identity.ts";
import { syntheticIdentity } from "./identity.ts";
import type { AnonymizeOptions, FaceInput } from "./render.ts";
import { anonymizeFace, DEFAULT_ANONYMIZE_OPTIONS, warpTargets } from "./render.ts";
import type { Pt } from "./raster.ts";
import { signedArea } from "./warp.ts";

export class IdentityCache {
  private readonly ids = new Map<number | string, SyntheticIdentity>();
  readonly salt: number;

  constructor(salt = 0) {
    this.salt = salt;
  }

  /** The track's identity (drawn from its id on first use, or the calibrated one when set). */
  identityFor = (trackId: number | string): SyntheticIdentity => {
    let id = this.ids.get(trackId);
    if (!id) {
      id = syntheticIdentity(trackId, this.salt);
      this.ids.set(trackId, id);
    }
    return id;
  };

  set(trackId: number | string, identity: SyntheticIdentity): void {
    this.ids.set(trackId, identity);
  }

  has(trackId: number | string): boolean {
    return this.ids.has(trackId);
  }
}

/**
 * Whether the warp render.ts applies for this identity folds the face: some mesh triangle flips
 * orientation (the source is sampled mirrored there). warpTargets makes the warp fold-free, so
 * this is the check the tests run on it, and the number of landmarks it had to hold back.
 */
export function warpFolds(landmarks: Pt[], identity: SyntheticIdentity, options: AnonymizeOptions = DEFAULT_ANONYMIZE_OPTIONS): { folds: boolean; minScale: number } {
  const { dst, ring, tris, minScale } = warpTargets(landmarks, identity, options);
  const from = [...landmarks, ...ring];
  const to = [...dst, ...ring];
  return { folds: tris.some((t) => signedArea(from, t) * signedArea(to, t) <= 0), minScale };
}

/** The measured defaults (bench/anonymization.ts). */
export const CALIBRATION = { candidates: 16, target: 0.66, minScore: 0.7, escalate: 0.15, flattenEscalate: 0.08 };

export interface CalibrationResult {
  identity: SyntheticIdentity;
  /** Salt of the chosen candidate (syntheticIdentity(trackId, salt)). */
  salt: number;
  /** The smallest descriptor distance and SSD score over the views it was measured on. */
  distance: number;
  score: number;
  tried: number;
}

/** One frame where the track's face is seen, with its landmarks. */
export interface CalibrationView {
  frame: Frame;
  face: FaceInput;
}

/**
 * Choose the track's identity on one or more views of its face (frames of the same track: a video
 * passes a few spread over the track's first second, so the choice holds across the changes of
 * scale, pose and expression the track goes through, not only on the frame it was made on).
 * A candidate passes when on EVERY view SSD still finds the face at `minScore` and the descriptor
 * is `target` away from the original's; the first that passes is kept, else the one with the
 * largest smallest distance among those found on every view, else the best found. Costs one SSD
 * pass and one landmark+descriptor pass per candidate and view measured; a candidate stops being
 * measured as soon as it fails a view or can no longer beat the best so far.
 */
export async function calibrateIdentity(
  meter: FaceMeter,
  views: CalibrationView[],
  trackId: number | string,
  opts: { candidates?: number; target?: number; minScore?: number; options?: AnonymizeOptions; salt?: number; escalate?: number; flattenEscalate?: number } = {},
): Promise<CalibrationResult> {
  if (!views.length) throw new Error("calibrateIdentity needs at least one view of the face");
  const candidates = opts.candidates ?? CALIBRATION.candidates;
  const target = opts.target ?? CALIBRATION.target;
  const escalate = opts.escalate ?? CALIBRATION.escalate;
  const flattenEscalate = opts.flattenEscalate ?? CALIBRATION.flattenEscalate;
  const base = opts.salt ?? 0;
  const minScore = opts.minScore ?? CALIBRATION.minScore;
  const options = opts.options ?? DEFAULT_ANONYMIZE_OPTIONS;
  // Measured on the whole frame, as the output will be seen (a crop around the face changes SSD's
  // view of it enough to mis-rank candidates: scores 0.2-0.3 on crops for faces found at 0.95).
  const originals = await Promise.all(views.map(async (v) => (await meter.landmarker.describe(v.frame, [v.face.box]))[0].descriptor));
  // Scored as the figures are (FaceMeter.compare: SSD at the original position, descriptor there).
  const measure = async (view: CalibrationView, original: Float32Array, identity: SyntheticIdentity) =>
    (await meter.compare(anonymizeFace(view.frame, view.face, identity, options), [{ ...view.face, descriptor: original, score: 1 }]))[0];
  const found = (x: CalibrationResult) => x.score >= minScore;
  let best: CalibrationResult | undefined;
  let tried = 0;
  for (let k = 0; k < candidates; k++) {
    // Let timers run between candidates (job heartbeats, progress): the measuring is CPU-bound.
    await new Promise<void>((resolve) => setImmediate(resolve));
    tried++;
    const salt = base + k;
    const identity = syntheticIdentity(trackId, salt, { geometry: 1 + escalate * k, flatten: 1 + flattenEscalate * k });
    const res: CalibrationResult = { identity, salt, distance: Infinity, score: Infinity, tried };
    for (const [i, view] of views.entries()) {
      const m = await measure(view, originals[i], identity);
      res.distance = Math.min(res.distance, m.distance);
      res.score = Math.min(res.score, m.score);
      // Stop measuring once this candidate has failed a view (it can still be the fallback on
      // what it was measured on) or cannot beat the best found candidate any more.
      if (!found(res) || (res.distance < target && best && found(best) && res.distance <= best.distance)) break;
    }
    if (!best || (found(res) && (!found(best) || res.distance > best.distance)) || (!found(best) && !found(res) && res.score > best.score)) best = res;
    if (found(res) && res.distance >= target) break;
  }
  return { ...best!, tried };
}
