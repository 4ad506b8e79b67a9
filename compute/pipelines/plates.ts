// Licence plates without a plate model (none ships in a registry package): a two-stage search.
//   1. vehicles (car, truck, bus, motorcycle) from the COCO detector; inside each vehicle the
//      PP-OCR text detector runs on the crop (upscaled, so small plates get enough pixels), and
//      text regions with a plate's shape and size relative to the vehicle are kept;
//   2. the text detector on the whole frame (and on a frame past 1280 px, in full-resolution
//      tiles too), for plates on vehicles the COCO detector missed (close-ups, partial cars, cars
//      too small in a large frame).
// The text detector frames road signs, shop fronts and posters exactly like plates, so every
// candidate line is also read (PP-OCR recogniser) and kept only if it reads like a plate: a short
// run of capitals and digits, where sign text reads as words; the other rows of a two-line plate go
// with a kept line. A line too small to read is kept only on a vehicle, and only while it is small
// (a large region nobody can read is not a plate). Measured by bench/plate-precision.ts.
// Shared with video license-plate blur.
import type { Box, Detection, Frame } from "../types.ts";
import { area, enclosing, overlapOfSmaller } from "../models/geometry.ts";
import type { Models } from "../models/index.ts";
import { joinTextLines } from "../models/text-detector.ts";
import type { Reading } from "../models/text-recognizer.ts";

export const VEHICLE_CLASSES = ["car", "truck", "bus", "motorcycle"] as const;

/** Plate aspect ratios: EU 520x110 (4.7), US 12x6 in (2.0), square-ish motorcycle/two-line plates (~1.3). */
function plateShaped(b: Box, minAspect: number, maxAspect: number): boolean {
  const aspect = b.width / b.height;
  return aspect >= minAspect && aspect <= maxAspect && b.height >= 6;
}

/**
 * Reads like a plate: 4-9 capitals and digits with at least one digit once spaces, dashes and dots
 * are dropped (a Chinese plate's province character may lead). Signs ("SLOW", "ONE WAY"), shop
 * fronts and street names have no digit; posters and captions are longer lines of words; house
 * numbers are fewer than four digits. Each line of a two-line plate ("AB 12" / "C345") passes on
 * its own. One misread character is forgiven (the recogniser reads "M808" as "m808" and "EJ" as
 * "E]" on small plates), but not a run of lower case: "city, 2024" in a caption is words. Plates
 * group their letters in ones to threes ("AB 123 CD", "7ABC123", "B-MX 4271"); a run of four or
 * more is a word, as on signs that also carry digits ("EXIT 24B", "ZONE 30"). An O or I ending a
 * run does not count: the recogniser reads the digits 0 and 1 that way ("0BWR114" as "OBWR114").
 */
export function readsAsPlate(text: string): boolean {
  const c = text.replace(/[\s.\-·:,]/g, "").replace(/^\p{Script=Han}/u, "");
  const plate = c.replace(/[^A-Z0-9]/g, "");
  const alnum = c.toUpperCase().replace(/[^A-Z0-9]/g, "");
  if ((text.match(/[A-Za-z]+/g) ?? []).some((run) => run.replace(/^[OI]|[OI]$/g, "").length >= 4)) return false;
  return c.length - plate.length <= 1 && alnum.length >= 4 && alnum.length <= 9 && /[0-9]/.test(alnum);
}

/**
 * Long side the whole frame is searched at: at the detector's usual 960, a 48 px plate in a 1280 px
 * frame has 7 px characters and is often missed; at 1280 it is found (plate set, tuning seeds 1-24
 * and 101-124 when chosen: 48 px plates 22/28 -> 27/28), for about 1.8x the detector's time.
 * Never an upscale. A larger frame is searched in full-resolution tiles as well (TextDetector's
 * detectEverywhere): searched whole at 1280 px, a 4K street picture's 48 and 72 px plates shrink to
 * 16 and 24 px, and 9 of 60 and 23 of 59 were found (`bench/plate-precision.ts --size 3840x2160`).
 */
const WHOLE_FRAME_SIDE = 1280;

/** Below this mean character probability the recogniser read nothing legible. */
const LEGIBLE = 0.5;
/** Text lines up to this tall (px) may be too small to read; taller ones are read reliably. */
const READABLE_HEIGHT = 20;

/** Keeps a candidate whose reading is a plate; an illegible one only where `illegibleOk`. */
function plateReading(r: Reading, t: Box, illegibleOk: boolean): boolean {
  if (r.confidence >= LEGIBLE) return readsAsPlate(r.text);
  return illegibleOk && t.height <= READABLE_HEIGHT;
}

/**
 * The other rows of a two-line plate: lines right above or below a plate line, about as tall and
 * overlapping it sideways ("AB12" over "CDE" on a UK motorcycle plate, where the row without a
 * digit would not pass on its own and would stay readable).
 */
function stackedRows(row: Box, lines: Box[]): Box[] {
  return lines.filter((l) => {
    if (l === row || l.height < 0.6 * row.height || l.height > 1.6 * row.height) return false;
    const side = Math.min(l.x + l.width, row.x + row.width) - Math.max(l.x, row.x);
    const gap = Math.max(l.y, row.y) - Math.min(l.y + l.height, row.y + row.height);
    return side > 0.5 * Math.min(l.width, row.width) && gap < 0.6 * Math.max(l.height, row.height);
  });
}

/**
 * Union of boxes that overlap (the two stages frame the same plate differently), unless the union
 * would be much larger than either box: chaining unions must never grow a plate into a wall.
 */
function unionOverlapping(dets: Detection[]): Detection[] {
  const out: Detection[] = [];
  for (const d of [...dets].sort((a, b) => b.score - a.score)) {
    const k = out.find((o) => overlapOfSmaller(o, d) > 0.3);
    const u = k && enclosing(k, d);
    if (!k || !u || area(u) > 1.5 * Math.max(area(k), area(d))) out.push({ ...d });
    else Object.assign(k, u);
  }
  return out;
}

export async function findPlates(frame: Frame, models: Pick<Models, "objects" | "text">): Promise<Detection[]> {
  const vehicles = await models.objects.detect(frame, VEHICLE_CLASSES);
  const plates: Detection[] = [];
  for (const v of vehicles) {
    const lines = joinTextLines(await models.text.detect(frame, v));
    for (const t of lines) {
      // A plate is a small but not tiny part of the vehicle (badges and logos are tinier).
      if (!plateShaped(t, 1.2, 7) || t.width > 0.6 * v.width || t.width < 0.08 * v.width || t.height > 0.3 * v.height) continue;
      if (!plateReading(await models.text.read(frame, t), t, true)) continue;
      const score = Math.min(1, t.score * (0.5 + 0.5 * v.score) + 0.2);
      for (const row of [t, ...stackedRows(t, lines)]) plates.push({ ...row, label: "license plate", score });
    }
  }
  const lines = await models.text.detectEverywhere(frame, WHOLE_FRAME_SIDE);
  for (const t of lines) {
    // Shape bounds are loose here (two-line plates read line by line, long EU plates exceed 6:1):
    // the reading is what tells a plate from a sign.
    if (t.score < 0.7 || !plateShaped(t, 1.2, 9)) continue;
    // Long lines of text (captions, signs) are wider than plates relative to the frame.
    if (t.width > 0.5 * frame.width) continue;
    if (!plateReading(await models.text.read(frame, t), t, false)) continue;
    for (const row of [t, ...stackedRows(t, lines)]) plates.push({ ...row, label: "license plate", score: t.score * 0.8 });
  }
  return unionOverlapping(plates);
}
