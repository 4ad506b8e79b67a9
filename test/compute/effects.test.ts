// Pixel effects on real photos (test/fixtures/photos: skimage's astronaut, face-api group photos,
// with face boxes in faces.json): blurred regions lose most of their detail, everything outside
// stays byte-identical, masks keep the covered area fully covered.
import { describe, expect, it, beforeAll } from "vitest";
import { readFileSync } from "node:fs";
import sharp from "sharp";
import type { Box, Frame, Mask } from "../../compute/types.ts";
import {
  blurSigma, pixelBlockSize, pixelationToStrength, backgroundBlurSigma,
  gaussianBlur, pixelate, blurRegions,
  ellipseMask, rectMask, featherMask, dilateMask, resizeMask, blurMask,
  composite, fillBackground, withAlpha, parseHexColor, growBox,
} from "../../compute/effects/index.ts";
import { gaussianInRect } from "../../compute/effects/region.ts";
import { FACE_SHAPE, hideBoxes, pastTheEdge } from "../../compute/pipelines/hide.ts";
import { coverWithEmoji, drawImage, emojiImage, emojiSize } from "../../compute/effects/overlay.ts";
import { setStageListener } from "../../compute/timing.ts";
import { psnr as framePsnr } from "./photos.ts";
import { ellipseCoverage } from "../fixtures/hidden.ts";

const PHOTOS = new URL("../fixtures/photos/", import.meta.url);
const faces = JSON.parse(readFileSync(new URL("faces.json", PHOTOS), "utf8")) as Record<string, [number, number, number, number][]>;

async function loadFrame(name: string, channels: 3 | 4 = 3): Promise<Frame> {
  const img = sharp(readFileSync(new URL(name, PHOTOS))).toColourspace("srgb");
  const { data, info } = await (channels === 4 ? img.ensureAlpha() : img.removeAlpha()).raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels };
}

const toBox = ([x, y, width, height]: [number, number, number, number]): Box => ({ x, y, width, height });

/** Mean squared Laplacian of the luma inside a box: a sharpness measure. */
function sharpness(f: Frame, b: Box): number {
  const c = f.channels;
  const luma = (x: number, y: number) => {
    const i = (y * f.width + x) * c;
    return 0.299 * f.data[i] + 0.587 * f.data[i + 1] + 0.114 * f.data[i + 2];
  };
  let sum = 0;
  let n = 0;
  for (let y = Math.max(1, Math.floor(b.y)); y < Math.min(f.height - 1, b.y + b.height); y++) {
    for (let x = Math.max(1, Math.floor(b.x)); x < Math.min(f.width - 1, b.x + b.width); x++) {
      const lap = 4 * luma(x, y) - luma(x - 1, y) - luma(x + 1, y) - luma(x, y - 1) - luma(x, y + 1);
      sum += lap * lap;
      n++;
    }
  }
  return sum / n;
}

/** Distinct RGB colours inside a box. */
function colours(f: Frame, b: Box): number {
  const set = new Set<number>();
  for (let y = Math.ceil(b.y); y < b.y + b.height; y++) for (let x = Math.ceil(b.x); x < b.x + b.width; x++) {
    const i = (y * f.width + x) * f.channels;
    set.add((f.data[i] << 16) | (f.data[i + 1] << 8) | f.data[i + 2]);
  }
  return set.size;
}

/** PSNR (dB) over every channel the frames have, alpha too (an effect leaves alpha as it was); Infinity if equal. */
const psnr = (a: Frame, b: Frame, where?: (x: number, y: number) => boolean) => framePsnr(a, b, where, a.channels);

/** The rectangle an effect may touch: the grown box plus its feather (+1 px rounding). */
function touched(b: Box, grow = 0.15, feather = 0.1): Box {
  const g = growBox(b, grow);
  const f = feather * Math.min(g.width, g.height) + 2;
  return { x: g.x - f, y: g.y - f, width: g.width + 2 * f, height: g.height + 2 * f };
}
const inside = (b: Box) => (x: number, y: number) => x >= b.x && x < b.x + b.width && y >= b.y && y < b.y + b.height;
const outsideAll = (bs: Box[]) => (x: number, y: number) => !bs.some((b) => inside(b)(x, y));

describe("strength mapping", () => {
  it("blurSigma is monotonic in strength and region size, and strength 0 still hides (>= 8% of the region)", () => {
    let prev = 0;
    for (let s = 0; s <= 1.0001; s += 0.1) {
      const sigma = blurSigma(s, 100);
      expect(sigma).toBeGreaterThan(prev);
      prev = sigma;
    }
    expect(blurSigma(0, 100)).toBeGreaterThanOrEqual(8);
    expect(blurSigma(0.7, 100)).toBeCloseTo(19.9, 1);
    expect(blurSigma(1, 100)).toBeCloseTo(25, 5);
    expect(blurSigma(0.7, 400)).toBeGreaterThan(blurSigma(0.7, 100));
    expect(blurSigma(0, 5)).toBeGreaterThanOrEqual(1.5); // tiny faces get a floor
    expect(blurSigma(-3, 100)).toBe(blurSigma(0, 100)); // clamped
    expect(blurSigma(Number.NaN, 100)).toBe(blurSigma(0.7, 100)); // default
  });

  it("pixelBlockSize: 6 blocks across at 0, 3 at 1, monotonic; pixelation_strength folds onto 0..1", () => {
    expect(pixelBlockSize(0, 120)).toBe(20);
    expect(pixelBlockSize(1, 120)).toBe(40);
    expect(pixelBlockSize(0.7, 120)).toBeGreaterThan(pixelBlockSize(0.3, 120));
    expect(pixelBlockSize(0.5, 3)).toBe(2);
    expect(pixelationToStrength(20)).toBeCloseTo(0.549, 2);
    expect(pixelationToStrength(180)).toBeCloseTo(0.937, 2);
    expect(pixelationToStrength(1000)).toBe(1);
    expect(pixelationToStrength(0)).toBe(0);
    expect(backgroundBlurSigma(0.7, 1000, 800)).toBeGreaterThan(backgroundBlurSigma(0, 1000, 800));
  });
});

describe("blurRegions on real faces", () => {
  let astro: Frame;
  beforeAll(async () => {
    astro = await loadFrame("astronaut.png");
  });

  it.each([0, 0.7, 1])("gaussian at strength %s: the face loses most of its detail, outside is byte-identical", async (s) => {
    const face = toBox(faces["astronaut.png"][0]);
    const sigma = blurSigma(s, Math.max(face.width, face.height));
    const out = await blurRegions(astro, [face], { sigma, shape: "ellipse", grow: 0.15, feather: 0.1 });
    expect(out.width).toBe(astro.width);
    expect(out.channels).toBe(3);
    // The inner face (eyes, nose, mouth) loses > 85% of its Laplacian energy even at strength 0.
    const core: Box = { x: face.x + face.width * 0.2, y: face.y + face.height * 0.2, width: face.width * 0.6, height: face.height * 0.6 };
    const drop = 1 - sharpness(out, core) / sharpness(astro, core);
    expect(drop).toBeGreaterThan(0.85);
    const t = touched(face);
    expect(psnr(astro, out, (x, y) => !inside(t)(x, y))).toBe(Infinity);
    // And the grown ellipse really is changed everywhere near its centre.
    expect(psnr(astro, out, inside(core))).toBeLessThan(25);
  });

  it("stronger settings blur more (monotonic visible effect)", async () => {
    const face = toBox(faces["astronaut.png"][0]);
    const size = Math.max(face.width, face.height);
    const results = await Promise.all([0, 0.5, 1].map((s) => blurRegions(astro, [face], { sigma: blurSigma(s, size) })));
    // Distance from the original inside the face grows with strength.
    const p = results.map((r) => psnr(astro, r, inside(face)));
    expect(p[0]).toBeGreaterThan(p[1]);
    expect(p[1]).toBeGreaterThan(p[2]);
  });

  it("pixelates faces of a group photo into blocks, leaves the rest untouched", async () => {
    const group = await loadFrame("group1.jpg");
    const boxes = faces["group1.jpg"].map(toBox);
    const t0 = Date.now();
    const out = await blurRegions(group, boxes, { blockSize: pixelBlockSize(0.7, 240), shape: "rect", grow: 0.1, feather: 0.05 });
    const ms = Date.now() - t0;
    for (const b of boxes) {
      // Inside the box the image is made of few flat blocks: far fewer distinct colours.
      const colours = (f: Frame) => {
        const set = new Set<number>();
        for (let y = b.y; y < b.y + b.height; y++) for (let x = b.x; x < b.x + b.width; x++) {
          const i = (y * f.width + x) * 3;
          set.add((f.data[i] << 16) | (f.data[i + 1] << 8) | f.data[i + 2]);
        }
        return set.size;
      };
      expect(colours(out)).toBeLessThan(40);
      expect(colours(group)).toBeGreaterThan(1000);
    }
    expect(psnr(group, out, outsideAll(boxes.map((b) => touched(b, 0.1, 0.05))))).toBe(Infinity);
    expect(ms).toBeLessThan(2000);
  });

  it("works on RGBA frames and on boxes crossing the frame edge", async () => {
    const rgba = await loadFrame("astronaut.png", 4);
    const edgeBox: Box = { x: -30, y: -20, width: 120, height: 100 };
    const out = await blurRegions(rgba, [edgeBox], { sigma: blurSigma(0.7, 120) });
    expect(out.channels).toBe(4);
    expect(out.data.length).toBe(rgba.data.length);
    const visible: Box = { x: 0, y: 0, width: 80, height: 70 };
    expect(1 - sharpness(out, visible) / sharpness(rgba, visible)).toBeGreaterThan(0.8);
    expect(psnr(rgba, out, (x, y) => x > 200 || y > 200)).toBe(Infinity);
  });

  it("refuses an ambiguous effect", async () => {
    await expect(blurRegions(astro, [], {})).rejects.toThrow(/exactly one/);
    await expect(blurRegions(astro, [], { sigma: 3, blockSize: 4 })).rejects.toThrow(/exactly one/);
  });
});

describe("hideBoxes: every box on one frame", () => {
  let group: Frame;
  let small: Frame;
  beforeAll(async () => {
    group = await loadFrame("group1.jpg");
    small = await loadFrame("group-collage-small-faces.jpg");
  });
  const coreOf = (b: Box): Box => ({ x: b.x + b.width * 0.2, y: b.y + b.height * 0.2, width: b.width * 0.6, height: b.height * 0.6 });

  it("hides each of 22 small faces with its own strength and leaves everything else byte-identical", async () => {
    const boxes = faces["group-collage-small-faces.jpg"].map(toBox);
    const blurred = await hideBoxes(small, boxes, { shape: "ellipse", grow: 0.2 });
    const mosaic = await hideBoxes(small, boxes, { pixelated: true, shape: "ellipse", grow: 0.2 });
    for (const b of boxes) {
      expect(1 - sharpness(blurred, coreOf(b)) / sharpness(small, coreOf(b))).toBeGreaterThan(0.85);
      // A mosaic's block edges are sharp: count its colours instead (a few flat cells).
      expect(colours(mosaic, coreOf(b))).toBeLessThanOrEqual(16);
      expect(colours(small, coreOf(b))).toBeGreaterThan(300);
    }
    for (const out of [blurred, mosaic]) expect(psnr(small, out, outsideAll(boxes.map((b) => touched(b, 0.2))))).toBe(Infinity);
  });

  it("a face the frame's edge cuts is hidden right up to the edge, a face inside the frame as before", async () => {
    // A face half out of shot on the left: its visible part is the box from x = 0. An ellipse
    // inscribed in that part alone would leave the corners at the edge; the effect extends the box
    // past the edge first, so the strip along the edge is hidden over the face's height.
    const cut: Box = { x: 0, y: 300, width: 80, height: 100 };
    const inside: Box = { x: 600, y: 300, width: 80, height: 100 };
    const out = await hideBoxes(group, [cut, inside], { shape: "ellipse", grow: 0 });
    const changed = (x: number, y: number) => [0, 1, 2].some((c) => out.data[(y * group.width + x) * 3 + c] !== group.data[(y * group.width + x) * 3 + c]);
    const strip = [312, 320, 350, 380, 388].map((y) => changed(1, y));
    expect(strip).toEqual([true, true, true, true, true]);
    // Inside the frame the ellipse keeps to the box: its corners stay untouched.
    expect([changed(inside.x + 1, inside.y + 12), changed(inside.x + 1, inside.y + 88)]).toEqual([false, false]);
  });

  it("FACE_SHAPE hides a face from its hairline: the ellipse reaches above the detector's brow-to-chin box, not below or beside it more", async () => {
    const box: Box = { x: 600, y: 400, width: 80, height: 80 };
    const out = await hideBoxes(group, [box], FACE_SHAPE);
    const changed = (x: number, y: number) => [0, 1, 2].some((c) => out.data[(y * group.width + x) * 3 + c] !== group.data[(y * group.width + x) * 3 + c]);
    const cx = box.x + box.width / 2;
    // Raised by 0.25 of its height (20 px), then grown by 0.2 of that (20 px): hidden up to ~40 px above its top.
    expect([box.y - 10, box.y - 30, box.y - 36].map((y) => changed(cx, y))).toEqual([true, true, true]);
    expect(changed(cx, box.y - 60)).toBe(false);
    // Below and beside, as an ellipse grown by 0.2 alone: 20 px past the chin and the cheeks, no further.
    expect([changed(cx, box.y + box.height + 14), changed(box.x - 14, box.y + 40)]).toEqual([true, true]);
    expect([changed(cx, box.y + box.height + 40), changed(box.x - 40, box.y + 40)]).toEqual([false, false]);
  });

  it("FACE_SHAPE hides a box under 20 px as a 20 px one: a tight 8 px box on a 14 px face leaves none of it showing (0.73 of it hidden as an 8 px one)", async () => {
    // A 14 px face (brow to chin, cheek to cheek) whose detector box took only its right 8 px.
    const face: Box = { x: 600, y: 400, width: 14, height: 16 };
    const tight: Box = { x: 606, y: 403, width: 8, height: 10 };
    // The share of the face's ellipse the effect changed at all.
    const changedIn = (out: Frame) => {
      const changed = Uint8Array.from({ length: group.width * group.height }, (_, p) => +[0, 1, 2].some((ch) => out.data[p * 3 + ch] !== group.data[p * 3 + ch]));
      return ellipseCoverage(changed, group.width, group.height, face)!.covered;
    };
    expect(changedIn(await hideBoxes(group, [tight], { ...FACE_SHAPE, minSide: undefined }))).toBeLessThan(0.9);
    expect(changedIn(await hideBoxes(group, [tight], FACE_SHAPE))).toBe(1);
    // A larger box is hidden as before: its ellipse ends 20 % past its side.
    const out = await hideBoxes(group, [{ x: 600, y: 400, width: 80, height: 80 }], FACE_SHAPE);
    const changed = (x: number, y: number) => [0, 1, 2].some((c) => out.data[(y * group.width + x) * 3 + c] !== group.data[(y * group.width + x) * 3 + c]);
    expect([changed(600 - 14, 440), changed(600 - 40, 440)]).toEqual([true, false]);
  });

  it("a face box the edge cut to a sliver goes on past the edge as a square: the face above it is hidden", async () => {
    // A 40 px face leaving the bottom of the frame, its box clipped to the 6 px left in shot.
    const sliver: Box = { x: 600, y: group.height - 6, width: 40, height: 6 };
    expect(pastTheEdge(sliver, group)).toEqual({ x: 600, y: group.height - 6, width: 40, height: 40 });
    // Cut on one side only, a box already about square grows by half its size there, as before.
    expect(pastTheEdge({ x: 0, y: 300, width: 80, height: 100 }, group)).toEqual({ x: -40, y: 300, width: 120, height: 100 });
    const out = await hideBoxes(group, [sliver], FACE_SHAPE);
    const changed = (x: number, y: number) => [0, 1, 2].some((c) => out.data[(y * group.width + x) * 3 + c] !== group.data[(y * group.width + x) * 3 + c]);
    // The ellipse of the whole face (raised and grown as any face's) reaches 15 px above the sliver.
    expect([1, 8, 15].map((up) => changed(620, group.height - 6 - up))).toEqual([true, true, true]);
  });

  it("overlapping boxes: the same result as hiding them one after the other", async () => {
    const [a] = faces["group1.jpg"].map(toBox);
    const boxes = [a, { x: a.x + 60, y: a.y + 40, width: 120, height: 150 }, { x: a.x - 20, y: a.y + 100, width: 60, height: 60 }];
    for (const pixelated of [false, true]) {
      const opts = { pixelated, blur_strength: 0.4, shape: "ellipse" as const, grow: 0.2 };
      let oneByOne = group;
      for (const b of boxes) oneByOne = await hideBoxes(oneByOne, [b], opts);
      const together = await hideBoxes(group, boxes, opts);
      expect(psnr(together, oneByOne)).toBe(Infinity);
    }
  });

  it("a pixelated box crossing the frame edge keeps its block grid anchored on the grown box", async () => {
    const box: Box = { x: -37, y: -23, width: 150, height: 130 };
    const blockSize = pixelBlockSize(0.7, 150);
    const out = await blurRegions(group, [box], { blockSize, shape: "rect", grow: 0.1, feather: 0 });
    const g = growBox(box, 0.1);
    const ox = ((Math.round(g.x) % blockSize) + blockSize) % blockSize;
    const oy = ((Math.round(g.y) % blockSize) + blockSize) % blockSize;
    // Every full cell of the grid inside the covered rectangle is one flat colour, and the cells
    // differ from each other (real blocks, not one smear).
    const cellColours = new Set<number>();
    for (let cy = oy; cy + blockSize <= g.y + g.height; cy += blockSize) {
      for (let cx = ox; cx + blockSize <= g.x + g.width; cx += blockSize) {
        const first = (cy * group.width + cx) * 3;
        const rgb = (out.data[first] << 16) | (out.data[first + 1] << 8) | out.data[first + 2];
        for (let y = cy; y < cy + blockSize; y++) for (let x = cx; x < cx + blockSize; x++) {
          const i = (y * group.width + x) * 3;
          expect((out.data[i] << 16) | (out.data[i + 1] << 8) | out.data[i + 2]).toBe(rgb);
        }
        cellColours.add(rgb);
      }
    }
    expect(cellColours.size).toBeGreaterThan(3);
    expect(psnr(group, out, (x, y) => x >= g.x + g.width + 2 || y >= g.y + g.height + 2)).toBe(Infinity);
  });

  it("RGBA frames: the colours are those of the RGB frame, opaque alpha stays opaque", async () => {
    const rgba = await loadFrame("group1.jpg", 4);
    const boxes = faces["group1.jpg"].map(toBox);
    for (const pixelated of [false, true]) {
      const opts = { pixelated, shape: "ellipse" as const, grow: 0.2 };
      const [rgbOut, rgbaOut] = await Promise.all([hideBoxes(group, boxes, opts), hideBoxes(rgba, boxes, opts)]);
      expect(rgbaOut.channels).toBe(4);
      for (let p = 0; p < group.width * group.height; p++) {
        if (rgbaOut.data[p * 4 + 3] !== 255) throw new Error(`alpha changed at pixel ${p}`);
        for (let k = 0; k < 3; k++) if (rgbaOut.data[p * 4 + k] !== rgbOut.data[p * 3 + k]) throw new Error(`colour differs at pixel ${p}`);
      }
    }
  });

  it("emoji: every face under its emoji, one box after the other on one copy, the rest byte-identical", async () => {
    const boxes = [...faces["group1.jpg"].map(toBox), { x: -40, y: 1200, width: 120, height: 120 }];
    const out = await coverWithEmoji(group, boxes, "😀");
    let expected = group;
    const squares: Box[] = [];
    for (const b of boxes) {
      const size = emojiSize(b);
      expect(size).toBeGreaterThanOrEqual(Math.max(b.width, b.height) * 1.35);
      const x = Math.round(b.x + b.width / 2 - size / 2);
      const y = Math.round(b.y + b.height / 2 - size / 2);
      expected = drawImage(expected, await emojiImage("😀", size), x, y);
      squares.push({ x, y, width: size, height: size });
    }
    expect(psnr(out, expected)).toBe(Infinity);
    expect(psnr(group, out, outsideAll(squares))).toBe(Infinity);
    for (const b of boxes.slice(0, 3)) expect(psnr(group, out, inside(coreOf(b)))).toBeLessThan(15);
  });

  it("reports its time as the effects stage when a benchmark listens", async () => {
    const stages: string[] = [];
    setStageListener((stage) => stages.push(stage));
    try {
      await hideBoxes(group, faces["group1.jpg"].map(toBox), {});
    } finally {
      setStageListener();
    }
    expect(stages).toEqual(["effects"]);
  });
});

describe("whole-frame effects", () => {
  it("the region gaussian (three box blurs, shrunk for large sigmas) matches a true gaussian", async () => {
    const f = await loadFrame("group1.jpg");
    const area = { x0: 700, y0: 380, x1: 1100, y1: 700 };
    for (const sigma of [2, 7, 30]) {
      // libvips' gaussian with its kernel cut at 1/1000 of the peak (3.7 sigma), on the area plus
      // 4 sigma around it (the rest of the photo cannot reach the area).
      const m = Math.ceil(4 * sigma);
      const crop = { left: area.x0 - m, top: area.y0 - m, width: area.x1 - area.x0 + 2 * m, height: area.y1 - area.y0 + 2 * m };
      const data = await sharp(f.data, { raw: { width: f.width, height: f.height, channels: 3 } }).extract(crop).raw().toBuffer()
        .then((cut) => sharp(cut, { raw: { width: crop.width, height: crop.height, channels: 3 } }).blur({ sigma, minAmplitude: 0.001, precision: "float" }).raw().toBuffer());
      const region = gaussianInRect(f, area, sigma);
      const reference = { ...region, data: Buffer.alloc(region.data.length) };
      for (let y = 0; y < region.height; y++) data.copy(reference.data, y * region.width * 3, ((y + m) * crop.width + m) * 3, ((y + m) * crop.width + m + region.width) * 3);
      // Measured 50-51 dB: differences of about one level.
      expect(psnr(region, reference)).toBeGreaterThan(42);
    }
  });


  it("gaussianBlur with a large sigma (shrink-blur-enlarge) matches sharp's direct gaussian closely", async () => {
    const f = await loadFrame("group1.jpg");
    for (const sigma of [6, 64]) {
      const t0 = Date.now();
      const out = await gaussianBlur(f, sigma);
      const ms = Date.now() - t0;
      const { data } = await sharp(f.data, { raw: { width: f.width, height: f.height, channels: 3 } })
        .blur(sigma).raw().toBuffer({ resolveWithObject: true });
      expect(psnr(out, { ...f, data })).toBeGreaterThan(38);
      expect(out.width).toBe(f.width);
      expect(ms).toBeLessThan(3000);
    }
    expect(psnr(await gaussianBlur(f, 0), f)).toBe(Infinity);
  });

  it("pixelate makes uniform blocks holding the block's mean colour", async () => {
    const f = await loadFrame("astronaut.png");
    const out = await pixelate(f, 16);
    for (const [bx, by] of [[0, 0], [160, 96], [496, 496]]) {
      const sum = [0, 0, 0];
      const first = out.data.subarray((by * f.width + bx) * 3, (by * f.width + bx) * 3 + 3);
      for (let y = by; y < by + 16; y++) for (let x = bx; x < bx + 16; x++) {
        const i = (y * f.width + x) * 3;
        for (let k = 0; k < 3; k++) {
          expect(out.data[i + k]).toBe(first[k]);
          sum[k] += f.data[i + k];
        }
      }
      for (let k = 0; k < 3; k++) expect(Math.abs(first[k] - sum[k] / 256)).toBeLessThanOrEqual(0.5);
    }
  });
});

describe("masks", () => {
  const box: Box = { x: 40, y: 30, width: 40, height: 60 };

  it("ellipseMask: the grown ellipse is fully covered, the feather lies outside it, far away is 0", () => {
    const m = ellipseMask(160, 160, [box], { grow: 0.25, feather: 0.2 });
    const at = (x: number, y: number) => m.data[y * 160 + x];
    expect(at(60, 60)).toBe(255); // centre
    // Grown half-axes: 20 * 1.5 = 30 horizontally, 30 * 1.5 = 45 vertically; the ellipse edge
    // at x = 60 - 30 = 30 is still fully covered; the feather (0.2 * 60 = 12 px) fades after it.
    expect(at(31, 60)).toBe(255);
    expect(at(60, 16)).toBe(255);
    expect(at(24, 60)).toBeGreaterThan(0);
    expect(at(24, 60)).toBeLessThan(255);
    expect(at(17, 60)).toBe(0);
    expect(at(150, 150)).toBe(0);
    // Monotonic fall along a ray.
    for (let x = 30; x > 16; x--) expect(at(x - 1, 60)).toBeLessThanOrEqual(at(x, 60));
  });

  it("rectMask covers the grown rectangle exactly, with rounded feather corners", () => {
    const m = rectMask(100, 100, [{ x: 20, y: 20, width: 20, height: 20 }], { grow: 0, feather: 0.5 });
    expect(m.data[20 * 100 + 20]).toBe(255);
    expect(m.data[39 * 100 + 39]).toBe(255);
    expect(m.data[30 * 100 + 45]).toBeGreaterThan(0);
    expect(m.data[30 * 100 + 52]).toBe(0);
    expect(m.data[0]).toBe(0);
  });

  it("dilate, outward feather and resize", () => {
    const m: Mask = { data: new Uint8Array(50 * 50), width: 50, height: 50 };
    for (let y = 20; y < 30; y++) for (let x = 20; x < 30; x++) m.data[y * 50 + x] = 255;
    const d = dilateMask(m, 3);
    expect(d.data[17 * 50 + 17]).toBe(255);
    expect(d.data[16 * 50 + 25]).toBe(0);
    const f = featherMask(m, 6);
    for (let y = 20; y < 30; y++) for (let x = 20; x < 30; x++) expect(f.data[y * 50 + x]).toBeGreaterThanOrEqual(240);
    expect(f.data[25 * 50 + 33]).toBeGreaterThan(0); // ramp outside
    expect(f.data[0]).toBe(0);
    const centred = featherMask(m, 6, { outward: false });
    expect(centred.data[25 * 50 + 20]).toBeLessThan(f.data[25 * 50 + 20]);
    const b = blurMask(m, 2);
    expect(b.data[25 * 50 + 25]).toBeGreaterThan(230);
    expect(b.data[25 * 50 + 31]).toBeGreaterThan(0);
    const r = resizeMask(m, 100, 100);
    expect(r.width).toBe(100);
    expect(r.data[50 * 100 + 50]).toBe(255);
    expect(r.data[10 * 100 + 10]).toBe(0);
  });
});

describe("compositing", () => {
  const base: Frame = { data: Buffer.alloc(4 * 3, 10), width: 2, height: 2, channels: 3 };
  const over: Frame = { data: Buffer.alloc(4 * 3, 250), width: 2, height: 2, channels: 3 };
  const mask: Mask = { data: Uint8Array.from([0, 255, 128, 64]), width: 2, height: 2 };

  it("composite blends per pixel", () => {
    const out = composite(base, over, mask);
    expect([...out.data.subarray(0, 3)]).toEqual([10, 10, 10]);
    expect([...out.data.subarray(3, 6)]).toEqual([250, 250, 250]);
    expect(out.data[6]).toBe(130);
    expect(out.data[9]).toBe(70);
    expect(() => composite(base, { ...over, width: 1 }, mask)).toThrow(/size/);
  });

  it("fillBackground keeps the foreground and fills the rest; withAlpha makes RGBA", () => {
    const fb = fillBackground(base, mask, parseHexColor("#00FF00")!);
    expect([...fb.data.subarray(0, 3)]).toEqual([0, 255, 0]);
    expect([...fb.data.subarray(3, 6)]).toEqual([10, 10, 10]);
    const wa = withAlpha(base, mask);
    expect(wa.channels).toBe(4);
    expect([...wa.data]).toEqual([10, 10, 10, 0, 10, 10, 10, 255, 10, 10, 10, 128, 10, 10, 10, 64]);
    const wa2 = withAlpha(wa, { ...mask, data: Uint8Array.from([255, 128, 255, 255]) });
    expect(wa2.data[7]).toBe(128);
    expect(parseHexColor("#abc")).toEqual([170, 187, 204]);
    expect(parseHexColor("green")).toBeNull();
  });
});
