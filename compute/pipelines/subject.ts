// The subject of a photo as a soft mask, for background blur/removal and the depth effect.
// People come from the person segmenter. When there is no person, the main COCO object (largest
// confident box) stands in: a feathered ellipse over its box. That is coarse next to a real
// salient-object model, but the only general-object models in registry packages are AGPL
// (@imgly IS-Net), which we do not ship by default.
import type { Detection, Frame, Mask } from "../types.ts";
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
 * A mask's extent as a detection, so the caller's controls and detections list can treat it like
 * a box: the box of its pixels that are at least half covered, scored by their mean value. Null
 * when no pixel is.
 */
export function maskDetection(mask: Mask, label: string): Detection | null {
  let x0 = mask.width, y0 = mask.height, x1 = -1, y1 = -1, sum = 0, n = 0;
  for (let y = 0; y < mask.height; y++) {
    for (let x = 0; x < mask.width; x++) {
      const v = mask.data[y * mask.width + x]!;
      if (v < 128) continue;
      if (x < x0) x0 = x; if (x > x1) x1 = x; if (y < y0) y0 = y; if (y > y1) y1 = y;
      sum += v; n++;
    }
  }
  return n ? { x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1, score: sum / n / 255, label } : null;
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
