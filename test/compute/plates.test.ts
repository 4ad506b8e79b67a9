// Licence plates are hidden and sign text is not, on scenes the plate finder was never tuned on:
// the generated plate set (test/fixtures/plate-eval-set.ts: drawn plates of four styles, 48 px
// wide to close-ups, some turned, among road signs, shop fronts, posters, captions, street-name
// plates and house numbers on real photos) for held-out seeds 201-216. Measured there: 49/50 plates
// covered (all 42 of 72 px and wider; the miss is 48 px wide), 1 of 60 distractors blurred (a sign
// with digits, "OPEN 24 HRS"), 1 box of 69 on no plate, 98.9 % of the blurred area on plates. The
// plate finder of before (geometry only) covered 46 plates and blurred 39 of these 60 signs. The
// bounds leave room for a plate or two and a couple of signs; the figures are printed for the record.
// A 4K street picture (seed 220 at 3840x2160, the same plate and sign widths in pixels): its 48 and
// 72 px plates are found in full-resolution tiles (18 of 18; searched whole at 1280 px, 5 of 18),
// and blur-anything's prompt "text" blurs them too (searched whole at 960 px, it missed most).
// Also: the street picture of issue 22 (the motorcycle with a plate, "SPEED REGULATING STRIPS
// AHEAD", "SLOW" and "STOP" signs) gets its plate blurred and its signs left exactly as they were.
import { beforeAll, describe, expect, it } from "vitest";
import { sharedModels } from "../../compute/models/index.ts";
import { blurAnything } from "../../compute/pipelines/image/blur-anything.ts";
import { licensePlateBlur } from "../../compute/pipelines/image/license-plate-blur.ts";
import { findPlates, readsAsPlate } from "../../compute/pipelines/plates.ts";
import type { Detection } from "../../compute/types.ts";
import { plateScene, plateScenes, type PlateScene } from "../fixtures/plate-eval-set.ts";
import { scorePlates } from "../fixtures/plate-score.ts";
import { psnr, sharpness } from "./photos.ts";

const models = sharedModels();
let scenes: PlateScene[];
let found: Detection[][];

beforeAll(async () => {
  scenes = await plateScenes(201, 16);
  found = [];
  for (const s of scenes) found.push(await findPlates(s.frame, models));
}, 170_000);

describe("plate recall and precision on the generated set (held-out seeds 201-216)", () => {
  it("covers the plates and leaves signs, shop fronts and posters alone", () => {
    const rep = scorePlates(scenes, found);
    const sum = (m: Map<string, { hit: number; total: number }>, keep: (k: string) => boolean) =>
      [...m].filter(([k]) => keep(k)).reduce((a, [, e]) => ({ hit: a.hit + e.hit, total: a.total + e.total }), { hit: 0, total: 0 });
    const large = sum(rep.bySize, (k) => k === "close-up" || parseInt(k) >= 72);
    const signs = sum(rep.byKind, () => true);
    const onPlates = 1 - rep.offPlatePx / rep.blurredPx;
    console.log(`seeds 201-216: plates ${rep.covered}/${rep.plates} (${[...rep.bySize].map(([k, e]) => `${k} ${e.hit}/${e.total}`).join(", ")}); ` +
      `distractors blurred ${signs.hit}/${signs.total} (${[...rep.byKind].filter(([, e]) => e.hit).map(([k, e]) => `${k} ${e.hit}`).join(", ") || "none"}); ` +
      `boxes on no plate ${rep.falseBoxes}/${rep.boxes}; blurred area on plates ${onPlates.toFixed(3)}`);
    expect(rep.covered / rep.plates).toBeGreaterThanOrEqual(0.9);
    expect(large.total - large.hit).toBeLessThanOrEqual(1);
    // Both rows of two-line plates, including UK motorcycle ones whose lower row has no digit.
    const twoLine = rep.byStyle.get("two-line")!;
    expect(twoLine.total - twoLine.hit).toBeLessThanOrEqual(1);
    expect(signs.hit).toBeLessThanOrEqual(3);
    expect(1 - rep.falseBoxes / rep.boxes).toBeGreaterThanOrEqual(0.93);
    expect(onPlates).toBeGreaterThanOrEqual(0.93);
  });
});

describe("text in a 4K street picture (held-out seed 220 at 3840x2160)", () => {
  let scene: PlateScene;
  beforeAll(async () => {
    scene = await plateScene(220, undefined, { width: 3840, height: 2160 });
  });

  it("covers the small plates a search of the shrunken frame cannot read", async () => {
    const rep = scorePlates([scene], [await findPlates(scene.frame, models)]);
    const small = ["48 px", "72 px"].map((k) => rep.bySize.get(k)!).reduce((a, e) => ({ hit: a.hit + e.hit, total: a.total + e.total }));
    const signs = [...rep.byKind.values()].reduce((a, e) => a + e.hit, 0);
    console.log(`4K seed 220: plates ${rep.covered}/${rep.plates}, 48-72 px ${small.hit}/${small.total}, signs blurred ${signs}, boxes on no plate ${rep.falseBoxes}/${rep.boxes}`);
    expect(rep.covered / rep.plates).toBeGreaterThanOrEqual(0.95);
    expect(small.hit / small.total).toBeGreaterThanOrEqual(0.85);
    expect(signs).toBeLessThanOrEqual(4);
    expect(1 - rep.falseBoxes / rep.boxes).toBeGreaterThanOrEqual(0.9);
  }, 60_000);

  it("blur-anything's prompt \"text\" blurs the small plates' characters too", async () => {
    const out = await blurAnything(scene.frame, { prompt: "text" }, models);
    const small = scene.plates.filter((p) => p.width <= 72);
    const blurred = small.filter((p) => p.chars.every((line) => sharpness(out, line) < 0.2 * sharpness(scene.frame, line)));
    console.log(`4K seed 220, prompt "text": ${blurred.length}/${small.length} plates of 48-72 px blurred`);
    expect(blurred.length / small.length).toBeGreaterThanOrEqual(0.85);
  }, 60_000);
});

describe("image.license-plate-blur on a street picture with road signs", () => {
  it("blurs the plate and leaves the signs' text untouched", async () => {
    const scene = await plateScene(901, ["sign-speed", "sign-slow", "sign-stop"]);
    const out = await licensePlateBlur(scene.frame, {}, models);
    const [plate] = scene.plates;
    for (const line of plate!.chars) expect(sharpness(out, line)).toBeLessThan(0.2 * sharpness(scene.frame, line));
    for (const sign of scene.distractors) {
      const inside = (x: number, y: number) => x >= sign.box.x && x < sign.box.x + sign.box.width && y >= sign.box.y && y < sign.box.y + sign.box.height;
      expect(psnr(scene.frame, out, inside), sign.text).toBe(Infinity);
    }
  });
});

describe("readsAsPlate", () => {
  it("takes plate readings, misread ones included, and refuses words", () => {
    for (const t of ["NH 059 AS", "8HLG278", "M-PY 1165", "AR 10", "W444", "m808", "GH 062 E]", "OBWR114", "京A12345"]) expect(readsAsPlate(t), t).toBe(true);
    for (const t of ["SLOW", "SPEED REGULATING", "STRIPS AHEAD", "ONE WAY", "PHARMACY", "RUE DE LA PAIX", "194", "city:2024", "Saturday 14 June from 7 pm", "EXIT 24B", "ZONE 30", ""]) expect(readsAsPlate(t), t).toBe(false);
  });
});
