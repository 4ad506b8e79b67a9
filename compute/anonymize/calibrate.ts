// One synthetic identity per track, and an optional closed-loop choice of it: when a track first
// appears, render seeded candidate identities on a few of its frames and keep the first whose
// face-api descriptor is at least `target` away from the original's on all of them while SSD still
// finds the face (else the farthest one that is still found). Candidates escalate: candidate k
// moves the geometry 1 + escalate * k times as far (within what the fold-free warp allows) and
// widens the texture low-pass 1 + flattenEscalate * k times (less of the input's mid-scale shading
// survives), so a face the first draws leave too close gets progressively more different, and only
// those faces pay for it. A track none of them takes to `target` is then walked further by a
// local search over its identity's parameters (refineIdentity). A face SSD does not find in the
// input (too small for it, or a detector false positive) cannot be held to an SSD score: its
// candidates are measured with the descriptor alone and the farthest is kept. The candidates and
// the walk's steps are ordinary synthetic identities (parameters in their natural ranges, no
// pixel-level adversarial tuning), but the choice IS made with the same descriptor the identity
// figure is measured with: the seed-only figure (bench/anonymization.ts, first block) is the
// unselected one. What a job spends on all this is bounded by its CalibrationBudget: a crowd gets
// fewer candidates and shorter walks, never more than the budget allows.
// Each choice ends with a verdict (`anotherPerson`): whether the chosen replacement is at least
// ANOTHER_PERSON (face-api's own same-person line) from the original on every view measured. The
// pipeline blurs a track whose replacement misses it, so no face it returns is one its own check
// calls the same person.
import type { Box, Frame } from "../types.ts";
import { ANOTHER_PERSON, distance, FaceMeter, STILL_A_FACE } from "./evaluate.ts";
import type { SyntheticIdentity } from "./identity.ts";
import { neighbourIdentity, prng, seedOf, syntheticIdentity } from "./identity.ts";
import type { AnonymizeOptions, FaceInput } from "./render.ts";
import { anonymizeFaces, DEFAULT_ANONYMIZE_OPTIONS } from "./render.ts";
import { yieldToEventLoop } from "../event-loop.ts";

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
export const CALIBRATION = { candidates: 16, target: 0.66, minScore: 0.7, escalate: 0.15, flattenEscalate: 0.08, refine: 40 };

/**
 * Calibration's cost, in face measures: a landmark+descriptor pass on one face is 1 (about 40 ms
 * on this machine), an SSD pass over a frame is SSD_UNITS (0.45-1.35 s on a 720p frame: more
 * for frames with more faces; measured with a scratch script, session 11).
 */
export const SSD_UNITS = 20;

/**
 * The first calibration of three people spends 1645-2211 (`bench/small-faces.ts 1,2,3`) and
 * 1905-2020 (`npm run bench:video -- --only 720p`), so it is not cut. A crowd's is cut at 3000:
 * 164 s for the 22 faces of `bench/small-faces.ts --crowd`, whose 100 frames took 320 s in all.
 */
export const CALIBRATION_BUDGET = { capacity: 3000, perFrame: 20 };

/**
 * What a job may spend on calibration, in face measures (SSD_UNITS): a balance that starts full
 * at `capacity` and refills by `perFrame` for every frame the job renders, up to `capacity`.
 * Without it a crowd costs without bound: each round measures every face still choosing and each
 * track that misses the target walks alone (a 2 s 720p pan over 22 small faces spent 404 s on
 * its first calibration; bench/small-faces.ts --crowd is the same crowd, slower). A
 * calibration always measures every track's first candidate (so the balance can go below zero,
 * and later ones then pay it back), takes a further round of candidates only while the balance
 * covers it, and shares what is left among the tracks that walk. So calibration costs at most
 * about `capacity` at once and `perFrame` per frame on average; a face it could not afford keeps
 * the best candidate measured so far (never left as is; blurred where that is not another person).
 */
export class CalibrationBudget {
  readonly capacity: number;
  readonly perFrame: number;
  private balance: number;

  constructor(capacity = CALIBRATION_BUDGET.capacity, perFrame = CALIBRATION_BUDGET.perFrame) {
    this.capacity = capacity;
    this.perFrame = perFrame;
    this.balance = capacity;
  }

  /** No limit (photos and measurements of the method itself). */
  static unlimited(): CalibrationBudget {
    return new CalibrationBudget(Infinity, 0);
  }

  get left(): number {
    return this.balance;
  }

  /** `frames` more frames rendered. */
  accrue(frames = 1): void {
    this.balance = Math.min(this.capacity, this.balance + frames * this.perFrame);
  }

  spend(units: number): void {
    this.balance -= units;
  }
}

/** The FaceMeter passes calibration makes, each charged to its budget. */
class MeteredPasses {
  private readonly meter: FaceMeter;
  readonly budget: CalibrationBudget;
  /** Face measures spent through this instance (the budget's balance can be unlimited). */
  spent = 0;

  constructor(meter: FaceMeter, budget: CalibrationBudget) {
    this.meter = meter;
    this.budget = budget;
  }

  detect(frame: Frame) {
    this.charge(SSD_UNITS);
    return this.meter.detect(frame, 0.05);
  }

  /**
   * Landmarks and descriptor per box. A face that cannot be described (its box or its landmarks'
   * aligned box has no pixel in the frame: FaceLandmarker.describe throws for the whole batch)
   * gets a NaN descriptor (faceDistance: -Infinity, never "another person", so blurred), and
   * the other faces of the batch are still measured.
   */
  async describe(frame: Frame, boxes: Box[]) {
    this.charge(boxes.length);
    try {
      return await this.meter.landmarker.describe(frame, boxes);
    } catch (err) {
      if (!undescribable(err)) throw err;
      return Promise.all(boxes.map(async (box) => {
        try {
          return (await this.meter.landmarker.describe(frame, [box]))[0];
        } catch (e) {
          if (!undescribable(e)) throw e;
          return { points: [], descriptor: new Float32Array(128).fill(NaN) };
        }
      }));
    }
  }

  /** FaceMeter.compare; where a face cannot be described, all of them count as not found and unmeasured (-Infinity). */
  async compare(output: Frame, originals: Parameters<FaceMeter["compare"]>[1]) {
    this.charge(SSD_UNITS + originals.length);
    try {
      return await this.meter.compare(output, originals);
    } catch (err) {
      if (!undescribable(err)) throw err;
      return originals.map((o) => ({ score: 0, distance: -Infinity, box: o.box }));
    }
  }

  private charge(units: number): void {
    this.spent += units;
    this.budget.spend(units);
  }
}

/**
 * The descriptor distance, with a face that could not be described (NaN) at -Infinity: the
 * closest there is, so it never counts as another person, never beats a measured candidate and
 * keeps the smallest-over-views a minimum (Math.min with NaN would poison every comparison).
 */
function faceDistance(a: Float32Array, b: Float32Array): number {
  const d = distance(a, b);
  return Number.isNaN(d) ? -Infinity : d;
}

/** FaceLandmarker.describe's error for a box (or aligned box) with no pixel inside the frame. */
const undescribable = (err: unknown) => err instanceof Error && err.message.startsWith("No face to describe");

export interface CalibrationResult {
  identity: SyntheticIdentity;
  /** Salt of the chosen candidate (syntheticIdentity(trackId, salt)), or of the one the local search started from. */
  salt: number;
  /** The smallest descriptor distance and SSD score over the views it was measured on. */
  distance: number;
  score: number;
  /**
   * Whether SSD still found the face on every view measured, at the score asked of that view
   * (`viewMinScores`); true for a face SSD does not find in the input (nothing is asked of it).
   */
  found: boolean;
  /** Per view measured: the box the distance was measured at (where SSD found the output face, else the original box). */
  boxes: Box[];
  tried: number;
  /** Neighbours the local search screened (0 when a seeded candidate reached the target). */
  refined: number;
  /**
   * The verdict: the replacement is another person by face-api's descriptor, at least the
   * `threshold` (ANOTHER_PERSON) from the original on EVERY view, each view measured. False also
   * for a face that could not be described. The pipeline blurs a track for which it is false.
   */
  anotherPerson: boolean;
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
  /** Neighbours the local search may screen when no seeded candidate reached the target. */
  refine?: number;
  /** What the passes may cost (CalibrationBudget); unlimited when not given. */
  budget?: CalibrationBudget;
  /**
   * The distance the verdict (`anotherPerson`) asks on every view; ANOTHER_PERSON when not
   * given. It changes no choice: tests set it out of reach (2) to see a track blurred.
   */
  threshold?: number;
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
 * A candidate passes when on EVERY view SSD still finds the face (at `minScore`, or less where the
 * input itself scores less: `viewMinScores`) and the descriptor is `target` away from the
 * original's; the first that passes is kept, else the one with the largest smallest distance
 * among those found on every view, else the best found. Costs, per
 * candidate and view measured, a landmark+descriptor pass at the original box, then, unless that
 * already shows the candidate beaten, an SSD pass and a second descriptor pass at SSD's box; a
 * candidate stops being measured as soon as it fails a view or can no longer beat the best so far.
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
  const passes = new MeteredPasses(meter, opts.budget ?? CalibrationBudget.unlimited());
  // SSD's score for each view's input face, one detection pass per distinct frame.
  const inputDetections = new Map<Frame, ReturnType<FaceMeter["detect"]>>();
  const inputScore = async (v: CalibrationView) => {
    if (!inputDetections.has(v.frame)) inputDetections.set(v.frame, passes.detect(v.frame));
    return FaceMeter.detectionAt(await inputDetections.get(v.frame)!, v.face.box)?.score ?? 0;
  };
  // A candidate that can neither reach the target nor beat the track's best found candidate.
  const beaten = (res: CalibrationResult, best: CalibrationResult | undefined) => res.distance < target && !!best && best.found && res.distance <= best.distance;
  const states = await Promise.all(tracks.map(async (t) => {
    if (!t.views.length) throw new Error(`calibrateIdentity needs at least one view of track ${t.trackId}`);
    // Measured on the whole frame, as the output will be seen (a crop around the face changes SSD's
    // view of it enough to mis-rank candidates: scores 0.2-0.3 on crops for faces found at 0.95).
    const originals: Float32Array[] = [];
    const inputScores: number[] = [];
    for (const v of t.views) {
      originals.push((await passes.describe(v.frame, [v.face.box]))[0].descriptor);
      inputScores.push(await inputScore(v));
    }
    const needs = viewMinScores(minScore, inputScores); // undefined: SSD does not find this face
    return { ...t, originals, needs, best: undefined as CalibrationResult | undefined, done: false, tried: 0 };
  }));
  for (let k = 0; k < candidates; k++) {
    const round = states.filter((t) => !t.done);
    if (!round.length || (k > 0 && roundCost(round) > passes.budget.left)) break;
    // Let timers run between rounds (job heartbeats, progress): the measuring is CPU-bound.
    await yieldToEventLoop();
    const salt = base + k;
    const trials = round.map((t) => {
      t.tried++;
      const identity = syntheticIdentity(t.trackId, salt, { geometry: 1 + escalate * k, flatten: 1 + flattenEscalate * k });
      return { track: t, res: { identity, salt, distance: Infinity, score: Infinity, found: true, boxes: [], tried: t.tried, refined: 0, anotherPerson: false } as CalibrationResult, measuring: true };
    });
    for (let i = 0; trials.some((x) => x.measuring && i < x.track.views.length); i++) {
      // Scored as the figures are (FaceMeter.compare: SSD at the original position, descriptor
      // there), once per distinct frame among this view of the trials still measuring; the
      // distance is also taken at the original box and the smaller counts (ROBUST_DISTANCE).
      // That one comes first: it bounds the candidate's distance from above, so a candidate it
      // already shows beaten is stopped before the SSD pass, as it would be after it (the same
      // choices, with fewer SSD passes).
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
        const atOriginal = await passes.describe(drawn, group.map((x) => x.track.views[i].face.box));
        const measured = group.filter((x, j) => {
          x.res.distance = Math.min(x.res.distance, faceDistance(atOriginal[j].descriptor, x.track.originals[i]));
          if (!x.track.needs) {
            // SSD does not find this face in the input: the distance at the original box is the whole measure.
            x.res.score = 0;
            x.res.boxes[i] = x.track.views[i].face.box;
          }
          if (beaten(x.res, x.track.best)) x.measuring = false;
          return x.measuring && !!x.track.needs;
        });
        if (!measured.length) continue;
        const scores = await passes.compare(drawn, measured.map((x) => ({ ...x.track.views[i].face, descriptor: x.track.originals[i], score: 1 })));
        for (const [j, x] of measured.entries()) {
          const { res, track } = x;
          res.distance = Math.min(res.distance, scores[j].distance);
          res.score = Math.min(res.score, scores[j].score);
          res.found &&= scores[j].score >= track.needs![i];
          res.boxes[i] = scores[j].box;
          // Stop measuring once this candidate has failed a view (it can still be the fallback on
          // what it was measured on) or cannot beat the best found candidate any more.
          if (!res.found || beaten(res, track.best)) x.measuring = false;
        }
      }
    }
    for (const { track: t, res } of trials) {
      const best = t.best;
      if (!best || (res.found && (!best.found || res.distance > best.distance)) || (!best.found && !res.found && res.score > best.score)) t.best = res;
      if (res.found && res.distance >= target) t.done = true;
    }
  }
  const refine = opts.refine ?? CALIBRATION.refine;
  // Not for a face SSD does not find in the input: the walk's full measure is an SSD pass.
  const walkers = states.filter((t) => !t.done && refine > 0 && t.best?.found && t.needs);
  for (const [n, t] of walkers.entries()) {
    // The other tracks' choices are drawn too, where they share a frame with this one.
    const others = (frame: Frame) => states.filter((u) => u !== t && u.best).flatMap((u) => u.views.filter((v) => v.frame === frame).map((v) => ({ face: { ...v.face, trackId: u.trackId }, identity: u.best!.identity })));
    // An equal share of what is left (a walk that stops early leaves its rest to the next).
    const allowance = passes.budget.left / (walkers.length - n);
    t.best = await refineIdentity(passes, { ...t, needs: t.needs! }, t.best!, others, { steps: refine, reach: 1 + escalate * (candidates - 1), target, options, allowance });
  }
  await measureEveryView(passes, states, options);
  const threshold = opts.threshold ?? ANOTHER_PERSON;
  // A face that could not be described is at -Infinity (faceDistance): never another person.
  return new Map(states.map((t) => [t.trackId, { ...t.best!, tried: t.tried, anotherPerson: t.best!.distance >= threshold }]));
}

/**
 * The verdict needs the chosen identity's distance on every view. A choice can have been measured
 * on fewer: a candidate stops at the first view SSD does not find it on, and when no candidate of
 * a track was found on every view, the best of those is kept as it stopped. Its other views are
 * measured here with the descriptor at the original box (no SSD pass: nothing is chosen any more),
 * drawn with the other tracks' choices where they share the frame, as the output shows them. This
 * is charged to the budget like every pass, even in debt: no track is left without a verdict.
 */
async function measureEveryView(
  passes: MeteredPasses,
  states: Array<CalibrationTrack & { originals: Float32Array[]; best: CalibrationResult | undefined }>,
  options: AnonymizeOptions,
): Promise<void> {
  const missing = states.flatMap((t) => t.views.flatMap((v, i) => (t.best!.boxes[i] ? [] : [{ t, v, i }])));
  for (const frame of new Set(missing.map((m) => m.v.frame))) {
    const here = states.flatMap((t) => t.views.filter((v) => v.frame === frame).map((v) => ({ ...v.face, trackId: t.trackId })));
    const identityOf = new Map(states.map((t): [number | string, SyntheticIdentity] => [t.trackId, t.best!.identity]));
    const drawn = anonymizeFaces(frame, here, (id) => identityOf.get(id)!, options);
    const measured = missing.filter((m) => m.v.frame === frame);
    const described = await passes.describe(drawn, measured.map((m) => m.v.face.box));
    for (const [j, { t, v, i }] of measured.entries()) {
      const best = t.best!;
      best.distance = Math.min(best.distance, faceDistance(described[j].descriptor, t.originals[i]));
      best.boxes[i] = v.face.box;
    }
  }
}

/** The most a round of seeded candidates can cost: both descriptor passes and an SSD pass per view. */
function roundCost(round: Array<{ views: CalibrationView[] }>): number {
  const frames = new Set(round.flatMap((t) => t.views.map((v) => v.frame)));
  return frames.size * SSD_UNITS + round.reduce((a, t) => a + 2 * t.views.length, 0);
}

/**
 * The SSD score a candidate must keep on each view of a track: `minScore`, or less where SSD scores
 * the input face itself lower. A face the frame cuts or turns away scores 0.4-0.6 in the input;
 * asking 0.7 of the output there rejected every candidate of that track (small-face clip, salt 10:
 * the laughing woman at the frame's right edge on her third view), which left her the fallback by
 * score and no local search, and she fell to 0.27 on a frame between the views. The output should
 * be about as much a face as the input is: 0.9 of the input's score.
 * That holds for a track SSD finds in the input (0.5, the "still a face" score) on at least
 * one view. For a track it never finds there (a face too small or turned for SSD, or a detector
 * false positive) the output's SSD score measures nothing: undefined, and the track is chosen by
 * the descriptor alone. Asking it 0.7 left it the first candidate whatever its distance (tiny
 * faces, 23-33 px, in group-collage-tiny-faces.jpg: 5 of 19 at 0.6 with the first candidate, 16
 * with the farthest of 16); asking 0.9 x 0 of it sent it through the SSD passes and the walk for
 * nothing (720p bench clip: two tracks on a shoulder badge, 49 s and 29 s).
 */
export function viewMinScores(minScore: number, inputScores: number[]): number[] | undefined {
  if (!inputScores.some((s) => s >= STILL_A_FACE)) return undefined;
  return inputScores.map((s) => Math.min(minScore, INPUT_SCORE_SHARE * s));
}
const INPUT_SCORE_SHARE = 0.9;

/**
 * How much farther than the current identity a neighbour must screen to be measured in full: the
 * screen and the full measure differ by about 0.02 on average, so smaller gains are mostly noise
 * (and each full measure is an SSD pass per view, about 0.7 s each).
 */
const SCREEN_MARGIN = 0.01;

/**
 * A candidate's distance on a view is the smaller of the descriptor's distance at the box SSD
 * finds and at the original box. On one box the distance moves by up to 0.1 with a few pixels of
 * box (small faces most), so a choice made on one box picks candidates that were lucky there and
 * land lower on the frames it was not measured on; the smaller of two is the figure a choice can
 * count on (bench/anonymization.ts: photos 23 -> 24 of 24 at 0.6; one more describe per view).
 * The seeded rounds take the two apart (the bound at the original box first); the walk takes the
 * one at the original box from its screen and the one at SSD's box from its full measure.
 */
const ROBUST_DISTANCE = (atSsdBox: number, atOriginal: number) => Math.min(atSsdBox, atOriginal);

interface RefineOptions {
  steps: number;
  /** The geometry scale of the last seeded candidate: the walk's geometric changes stay within it. */
  reach: number;
  target: number;
  options: AnonymizeOptions;
  /** What this walk may spend (face measures): it stops before a screen or measure that would exceed it. */
  allowance: number;
}

/**
 * Local search from the best seeded candidate, for a track none of them took to the target: the
 * faces they leave too close sit near the middle of the descriptor's space, where random draws
 * land too (48 draws did no better than 16 on the hardest photo face), while a walk that keeps
 * what moved the descriptor gets there (0.58 -> 0.65 on that face). A neighbour
 * (neighbourIdentity: a few parameters moved by up to a step, within the escalated candidates'
 * ranges) is first screened with the descriptor alone at each view's original box and where SSD
 * found the current best's face (no SSD pass: a neighbour moves that box little, so the screen
 * follows the full measure); only one that screens SCREEN_MARGIN farther than the current
 * identity on every view is measured in full (at most steps / 5 of them): an SSD pass on the
 * same drawings and a descriptor pass at the box SSD finds. It is taken when SSD still finds it
 * on every view (at the score asked of it, `needs`) and it is farther than the best.
 * Deterministic: the walk is seeded from the track id and the starting salt.
 */
async function refineIdentity(
  passes: MeteredPasses,
  track: CalibrationTrack & { originals: Float32Array[]; needs: number[] },
  start: CalibrationResult,
  others: (frame: Frame) => Array<{ face: FaceInput & { trackId: number | string }; identity: SyntheticIdentity }>,
  o: RefineOptions,
): Promise<CalibrationResult> {
  const rand = prng(seedOf(track.trackId, start.salt) ^ 0x5bd1e995);
  // The other tracks' choices are drawn once per view, as the output shows them, and each
  // neighbour is drawn over them once: the screen and the full measure read the same pixels.
  const backgrounds = track.views.map((view) => {
    const rest = others(view.frame);
    if (!rest.length) return view.frame;
    const identityOf = new Map(rest.map((r): [number | string, SyntheticIdentity] => [r.face.trackId, r.identity]));
    return anonymizeFaces(view.frame, rest.map((r) => r.face), (id) => identityOf.get(id)!, o.options);
  });
  const draw = (i: number, identity: SyntheticIdentity) => anonymizeFaces(backgrounds[i], [{ ...track.views[i].face, trackId: track.trackId }], () => identity, o.options);
  // Every view drawn and its distance at the original box, with the smallest distance over the
  // views at the original boxes and at `boxes` (where SSD found the current best's face); or
  // undefined as soon as one view is not beyond `bar`.
  const screen = async (identity: SyntheticIdentity, boxes: Box[], bar: number) => {
    const views: Array<{ drawn: Frame; atOriginal: number }> = [];
    let d = Infinity;
    for (const [i, view] of track.views.entries()) {
      const drawn = draw(i, identity);
      const [atOriginal, atBest] = (await passes.describe(drawn, boxes[i] ? [view.face.box, boxes[i]] : [view.face.box])).map((desc) => faceDistance(desc.descriptor, track.originals[i]));
      d = Math.min(d, atOriginal, atBest ?? Infinity);
      if (d <= bar) return undefined;
      views.push({ drawn, atOriginal });
    }
    return { distance: d, views };
  };
  const views = track.views.length;
  const spentBefore = passes.spent;
  const affords = (units: number) => passes.spent - spentBefore + units <= o.allowance;
  // The least a walk can gain from: the start's screen, a neighbour's, and its full measure.
  if (!affords(4 * views + views * (SSD_UNITS + 1))) return { ...start, refined: 0 };
  let best = start;
  let current = (await screen(start.identity, start.boxes, -Infinity))!.distance;
  let refined = 0;
  let measured = 0;
  while (refined < o.steps && measured < o.steps / 5 && best.distance < o.target && affords(2 * views)) {
    refined++;
    // Let timers run now and then (job heartbeats, progress), as between the rounds above.
    if (refined % 4 === 0) await yieldToEventLoop();
    const identity = neighbourIdentity(best.identity, rand, o.reach);
    const screened = await screen(identity, best.boxes, current + SCREEN_MARGIN);
    if (screened === undefined) continue;
    if (!affords(views * (SSD_UNITS + 1))) break;
    measured++;
    // The full measure: SSD on the screened drawings and the distance at the box it finds.
    const res: CalibrationResult = { ...best, identity, distance: Infinity, score: Infinity, found: true, boxes: [] };
    for (const [i, view] of track.views.entries()) {
      const [m] = await passes.compare(screened.views[i].drawn, [{ ...view.face, descriptor: track.originals[i], score: 1 }]);
      res.distance = Math.min(res.distance, ROBUST_DISTANCE(m.distance, screened.views[i].atOriginal));
      res.score = Math.min(res.score, m.score);
      res.found &&= m.score >= track.needs[i];
      res.boxes[i] = m.box;
      if (!res.found || res.distance <= best.distance) break;
    }
    if (res.found && res.distance > best.distance) {
      best = res;
      current = res.distance; // what the screen gives it at its new boxes
    }
  }
  return { ...best, refined };
}
