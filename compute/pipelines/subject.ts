// The subject of a photo as a soft mask, for background blur/removal and the depth effect.
// People come from the person segmenter. When there is no person, the main COCO object (largest
// confident box) stands in: a feathered ellipse over its box. That is coarse next to a real
// salient-object model, but the only general-object models in registry packages are AGPL
// (@imgly IS-Net), which we do not ship by default.
import type { Frame, Mask } from "../types.ts";
import { ellipseMask, featherMask } from "../effects/index.ts";
import type { Models } from "../models/index.ts";

export interface Subject {
  mask: Mask;
  kind: "person" | "object" | "none";
}

/** Fraction of the mask that is (softly) covered. */
export function coverage(mask: Mask): number {
  let s = 0;
  for (const v of mask.data) s += v;
  return s / (255 * mask.data.length);
}

/**
 * Stretches a segmenter's soft output so the subject's interior is fully opaque and the clear
 * background fully transparent, keeping a soft ramp only at the edge (values 0.15..0.85 -> 0..1).
 * Raw sigmoid outputs sit at 0.9-0.97 inside a person, which would let the blurred or removed
 * background bleed into the face.
 */
export function matte(mask: Mask, lo = 0.15, hi = 0.85): Mask {
  const a = lo * 255, span = (hi - lo) * 255;
  const lut = Uint8Array.from({ length: 256 }, (_, v) => Math.max(0, Math.min(255, Math.round(((v - a) / span) * 255))));
  return { ...mask, data: mask.data.map((v) => lut[v]) };
}

export async function findSubject(frame: Frame, models: Pick<Models, "persons" | "objects">): Promise<Subject> {
  const persons = await models.persons.segment(frame);
  if (coverage(persons) > 0.01) return { mask: matte(persons), kind: "person" };
  const objects = (await models.objects.detect(frame)).filter((d) => d.score >= 0.35);
  if (objects.length === 0) return { mask: persons, kind: "none" };
  const main = objects.reduce((a, b) => (a.width * a.height >= b.width * b.height ? a : b));
  const mask = ellipseMask(frame.width, frame.height, [main], { grow: 0.02, feather: 0 });
  return { mask: featherMask(mask, Math.max(2, Math.min(main.width, main.height) * 0.05), { outward: false }), kind: "object" };
}
