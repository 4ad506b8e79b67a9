// One synthetic identity per track, and an optional closed-loop choice of it: when a track first
// appears, render a few seeded candidate identities on that frame and keep the first whose face-api
// descriptor is at least `target` away from the original's while SSD still finds the face (else the
// farthest one that is still found). The candidates are ordinary synthetic identities (no pixel-level
// adversarial tuning), so the choice does not overfit the measuring model beyond picking a seed.
import type { Box, Frame } from "../types.ts";
import { iou } from "../models/geometry.ts";
import { clipBox } from "../models/geometry.ts";
import type { FaceMeter } from "./evaluate.ts";
import { distance } from "./evaluate.ts";
import type { SyntheticIdentity } from "./identity.ts";
import { syntheticIdentity } from "./identity.ts";
import type { AnonymizeOptions, FaceInput } from "./render.ts";
import { anonymizeFace, DEFAULT_ANONYMIZE_OPTIONS } from "./render.ts";

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

export interface CalibrationResult {
  identity: SyntheticIdentity;
  /** Salt of the chosen candidate (syntheticIdentity(trackId, salt)). */
  salt: number;
  distance: number;
  score: number;
  tried: number;
}

function cropFrame(frame: Frame, b: Box): Frame {
  const c = frame.channels;
  const out = Buffer.alloc(b.width * b.height * c);
  for (let y = 0; y < b.height; y++) frame.data.copy(out, y * b.width * c, ((b.y + y) * frame.width + b.x) * c, ((b.y + y) * frame.width + b.x + b.width) * c);
  return { data: out, width: b.width, height: b.height, channels: frame.channels };
}

/**
 * Choose the track's identity on one frame where the face is seen (with its landmarks). Costs one
 * SSD pass and one landmark+descriptor pass per candidate, on a crop around the face.
 */
export async function calibrateIdentity(
  meter: FaceMeter,
  frame: Frame,
  face: FaceInput,
  trackId: number | string,
  opts: { candidates?: number; target?: number; minScore?: number; options?: AnonymizeOptions } = {},
): Promise<CalibrationResult> {
  const candidates = opts.candidates ?? 4;
  const target = opts.target ?? 0.7;
  const minScore = opts.minScore ?? 0.5;
  const b = face.box;
  const region = clipBox({ x: Math.round(b.x - b.width), y: Math.round(b.y - b.height), width: Math.round(3 * b.width), height: Math.round(3 * b.height) }, frame.width, frame.height);
  const r = { x: Math.round(region.x), y: Math.round(region.y), width: Math.round(region.width), height: Math.round(region.height) };
  const crop = cropFrame(frame, r);
  const shift = (p: { x: number; y: number }) => ({ x: p.x - r.x, y: p.y - r.y });
  const localFace: FaceInput = { box: { ...b, ...shift(b) }, landmarks: face.landmarks.map(shift) };
  const [orig] = await meter.landmarker.describe(crop, [localFace.box]);
  let best: CalibrationResult | undefined;
  let tried = 0;
  for (let salt = 0; salt < candidates; salt++) {
    tried++;
    const identity = syntheticIdentity(trackId, salt);
    const out = anonymizeFace(crop, localFace, identity, opts.options ?? DEFAULT_ANONYMIZE_OPTIONS);
    const dets = await meter.detect(out, 0.05);
    let hit: (typeof dets)[number] | undefined;
    for (const d of dets) if (iou(d, localFace.box) >= 0.3 && (!hit || d.score > hit.score)) hit = d;
    const [desc] = await meter.landmarker.describe(out, [hit ?? localFace.box]);
    const res: CalibrationResult = { identity, salt, distance: distance(desc.descriptor, orig.descriptor), score: hit?.score ?? 0, tried: salt + 1 };
    const ok = (x: CalibrationResult) => x.score >= minScore;
    if (!best || (ok(res) && (!ok(best) || res.distance > best.distance)) || (!ok(best) && !ok(res) && res.score > best.score)) best = res;
    if (ok(res) && res.distance >= target) break;
  }
  return { ...best!, tried };
}
