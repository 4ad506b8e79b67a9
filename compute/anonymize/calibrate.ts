// One synthetic identity per track, and an optional closed-loop choice of it: when a track first
// appears, render seeded candidate identities on a few of its frames and keep the first whose
// face-api descriptor is at least `target` away from the original's on all of them while SSD still
// finds the face (else the farthest one that is still found). Candidates escalate: candidate k
// moves the geometry 1 + escalate * k times as far (within what the fold-free warp allows) and
// widens the texture low-pass 1 + flattenEscalate * k times (less of the input's mid-scale shading
// survives), so a face the first draws leave too close gets progressively more different, and only
// those faces pay for it. The candidates are ordinary synthetic identities (no pixel-level adversarial tuning),
// but the choice IS made with the same descriptor the identity figure is measured with: the
// seed-only figure (bench/anonymization.ts, first block) is the unselected one.
import type { Frame } from "../types.ts";
import type { FaceMeter } from "./evaluate.ts";
import type { SyntheticIdentity } from "./identity.ts";
import { syntheticIdentity } from "./identity.ts";
import type { AnonymizeOptions, FaceInput } from "./render.ts";
import { anonymizeFaces, DEFAULT_ANONYMIZE_OPTIONS } from "./render.ts";

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

export interface CalibrationOptions {
  candidates?: number;
  target?: number;
  minScore?: number;
  options?: AnonymizeOptions;
  salt?: number;
  escalate?: number;
  flattenEscalate?: number;
}

/** A track to calibrate: its id and the frames it is measured on. */
export interface CalibrationTrack {
  trackId: number | string;
  views: CalibrationView[];
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
export async function calibrateIdentity(meter: FaceMeter, views: CalibrationView[], trackId: number | string, opts: CalibrationOptions = {}): Promise<CalibrationResult> {
  return (await calibrateIdentities(meter, [{ trackId, views }], opts)).get(trackId)!;
}

/**
 * calibrateIdentity for several tracks at once (the faces that appear together, as at the start of
 * a video). Each track's choice follows the same rule, but their candidates are measured together:
 * in round k every track still choosing draws its candidate k into the same copy of each shared
 * view frame, so one SSD pass serves all of them (SSD is most of the cost: about 0.7 s a pass on a
 * 720p frame). Each face is then measured with the other faces replaced too, as the output shows
 * it. Costs the most rounds any one track needs, instead of their sum.
 */
export async function calibrateIdentities(meter: FaceMeter, tracks: CalibrationTrack[], opts: CalibrationOptions = {}): Promise<Map<number | string, CalibrationResult>> {
  const candidates = opts.candidates ?? CALIBRATION.candidates;
  const target = opts.target ?? CALIBRATION.target;
  const escalate = opts.escalate ?? CALIBRATION.escalate;
  const flattenEscalate = opts.flattenEscalate ?? CALIBRATION.flattenEscalate;
  const base = opts.salt ?? 0;
  const minScore = opts.minScore ?? CALIBRATION.minScore;
  const options = opts.options ?? DEFAULT_ANONYMIZE_OPTIONS;
  const found = (x: CalibrationResult) => x.score >= minScore;
  const states = await Promise.all(tracks.map(async (t) => {
    if (!t.views.length) throw new Error(`calibrateIdentity needs at least one view of track ${t.trackId}`);
    // Measured on the whole frame, as the output will be seen (a crop around the face changes SSD's
    // view of it enough to mis-rank candidates: scores 0.2-0.3 on crops for faces found at 0.95).
    const originals: Float32Array[] = [];
    for (const v of t.views) originals.push((await meter.landmarker.describe(v.frame, [v.face.box]))[0].descriptor);
    return { ...t, originals, best: undefined as CalibrationResult | undefined, done: false, tried: 0 };
  }));
  for (let k = 0; k < candidates; k++) {
    const round = states.filter((t) => !t.done);
    if (!round.length) break;
    // Let timers run between rounds (job heartbeats, progress): the measuring is CPU-bound.
    await new Promise<void>((resolve) => setImmediate(resolve));
    const salt = base + k;
    const trials = round.map((t) => {
      t.tried++;
      const identity = syntheticIdentity(t.trackId, salt, { geometry: 1 + escalate * k, flatten: 1 + flattenEscalate * k });
      return { track: t, res: { identity, salt, distance: Infinity, score: Infinity, tried: t.tried } as CalibrationResult, measuring: true };
    });
    for (let i = 0; trials.some((x) => x.measuring && i < x.track.views.length); i++) {
      // Scored as the figures are (FaceMeter.compare: SSD at the original position, descriptor
      // there), once per distinct frame among this view of the trials still measuring.
      const byFrame = new Map<Frame, typeof trials>();
      for (const x of trials) {
        if (!x.measuring || i >= x.track.views.length) continue;
        const frame = x.track.views[i].frame;
        byFrame.set(frame, [...(byFrame.get(frame) ?? []), x]);
      }
      for (const [frame, group] of byFrame) {
        const faces = group.map((x) => ({ ...x.track.views[i].face, trackId: x.track.trackId }));
        const identityOf = new Map(group.map((x) => [x.track.trackId, x.res.identity]));
        const drawn = anonymizeFaces(frame, faces, (id) => identityOf.get(id)!, options);
        const scores = await meter.compare(drawn, group.map((x) => ({ ...x.track.views[i].face, descriptor: x.track.originals[i], score: 1 })));
        for (const [j, x] of group.entries()) {
          const { res, track } = x;
          res.distance = Math.min(res.distance, scores[j].distance);
          res.score = Math.min(res.score, scores[j].score);
          // Stop measuring once this candidate has failed a view (it can still be the fallback on
          // what it was measured on) or cannot beat the best found candidate any more.
          if (!found(res) || (res.distance < target && track.best && found(track.best) && res.distance <= track.best.distance)) x.measuring = false;
        }
      }
    }
    for (const { track: t, res } of trials) {
      const best = t.best;
      if (!best || (found(res) && (!found(best) || res.distance > best.distance)) || (!found(best) && !found(res) && res.score > best.score)) t.best = res;
      if (found(res) && res.distance >= target) t.done = true;
    }
  }
  return new Map(states.map((t) => [t.trackId, { ...t.best!, tried: t.tried }]));
}
