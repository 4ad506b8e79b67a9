// One synthetic identity per track, and an optional closed-loop choice of it: when a track first
// appears, render seeded candidate identities on that frame and keep the first whose face-api
// descriptor is at least `target` away from the original's while SSD still finds the face (else the
// farthest one that is still found). Candidates escalate: candidate k moves the geometry
// 1 + escalate * k times as far (within what the fold-free warp allows) and widens the texture
// low-pass 1 + flattenEscalate * k times (less of the input's mid-scale shading survives), so a
// face the first draws leave too close gets progressively more different, and only those faces pay
// for it. The candidates are ordinary synthetic identities (no pixel-level adversarial tuning),
// but the choice IS made with the same descriptor the identity figure is measured with: the
// seed-only figure (bench/anonymization.ts, first block) is the unselected one.
import type { Frame } from "../types.ts";
import { iou } from "../models/geometry.ts";
import type { FaceMeter } from "./evaluate.ts";
import { distance } from "./evaluate.ts";
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
  distance: number;
  score: number;
  tried: number;
}

/**
 * Choose the track's identity on one frame where the face is seen (with its landmarks). Costs one
 * SSD pass and one landmark+descriptor pass per candidate tried.
 */
export async function calibrateIdentity(
  meter: FaceMeter,
  frame: Frame,
  face: FaceInput,
  trackId: number | string,
  opts: { candidates?: number; target?: number; minScore?: number; options?: AnonymizeOptions; salt?: number; escalate?: number; flattenEscalate?: number } = {},
): Promise<CalibrationResult> {
  const candidates = opts.candidates ?? CALIBRATION.candidates;
  const target = opts.target ?? CALIBRATION.target;
  const escalate = opts.escalate ?? CALIBRATION.escalate;
  const flattenEscalate = opts.flattenEscalate ?? CALIBRATION.flattenEscalate;
  const base = opts.salt ?? 0;
  const minScore = opts.minScore ?? CALIBRATION.minScore;
  // Measured on the whole frame, as the output will be seen (a crop around the face changes SSD's
  // view of it enough to mis-rank candidates: scores 0.2-0.3 on crops for faces found at 0.95).
  const [orig] = await meter.landmarker.describe(frame, [face.box]);
  let best: CalibrationResult | undefined;
  let tried = 0;
  for (let k = 0; k < candidates; k++) {
    tried++;
    const salt = base + k;
    const identity = syntheticIdentity(trackId, salt, { geometry: 1 + escalate * k, flatten: 1 + flattenEscalate * k });
    const out = anonymizeFace(frame, face, identity, opts.options ?? DEFAULT_ANONYMIZE_OPTIONS);
    const dets = await meter.detect(out, 0.05);
    let hit: (typeof dets)[number] | undefined;
    for (const d of dets) if (iou(d, face.box) >= 0.3 && (!hit || d.score > hit.score)) hit = d;
    const [desc] = await meter.landmarker.describe(out, [hit ?? face.box]);
    const res: CalibrationResult = { identity, salt, distance: distance(desc.descriptor, orig.descriptor), score: hit?.score ?? 0, tried: k + 1 };
    const ok = (x: CalibrationResult) => x.score >= minScore;
    if (!best || (ok(res) && (!ok(best) || res.distance > best.distance)) || (!ok(best) && !ok(res) && res.score > best.score)) best = res;
    if (ok(res) && res.distance >= target) break;
  }
  return { ...best!, tried };
}
