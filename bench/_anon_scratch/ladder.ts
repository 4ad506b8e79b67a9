import { readFileSync } from "node:fs";
import sharp from "sharp";
import { FaceMeter, type FaceMeasure } from "../../compute/anonymize/evaluate.ts";
import { anonymizeFace, DEFAULT_ANONYMIZE_OPTIONS, type AnonymizeOptions } from "../../compute/anonymize/render.ts";
import { syntheticIdentity } from "../../compute/anonymize/identity.ts";
import type { Frame } from "../../compute/types.ts";
const P = "test/fixtures/photos/";
async function load(n: string): Promise<Frame> {
  const { data, info } = await sharp(readFileSync(P + n)).toColourspace("srgb").removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: 3 };
}
const m = new FaceMeter();
const names = (process.env.IMGS ?? "astronaut.png,camera.png,group1.jpg,group2.jpg,group3.jpg,group4.jpg,group5.jpg,group6.jpg").split(",");
const set: Array<{ n: string; f: Frame; faces: FaceMeasure[] }> = [];
for (const n of names) { const f = await load(n); set.push({ n, f, faces: await m.faces(f) }); }
console.log("faces", set.reduce((a, s) => a + s.faces.length, 0));
const T = DEFAULT_ANONYMIZE_OPTIONS.texture as Exclude<AnonymizeOptions["texture"], false>;
const F = { eyes: true, brows: true, lips: true, nose: true };
const variants: Record<string, AnonymizeOptions> = JSON.parse(process.env.VARIANTS ?? "null") ?? {
  warp1: { warp: 1, texture: false, features: false },
  warp2: { warp: 2, texture: false, features: false },
  tex12: { warp: 0, texture: { ...T, procedural: true, tone: true }, features: false },
  tex25: { warp: 0, texture: { ...T, lowSigma: 0.25 }, features: false },
  feat: { warp: 0, texture: false, features: F },
  all: { warp: 1, texture: T, features: F },
  all_w2_s2: { warp: 2, texture: { ...T, lowSigma: 0.2 }, features: F },
};
const median = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
for (const [name, opt] of Object.entries(variants)) {
  const ds: number[] = []; const ss: number[] = [];
  for (const s of set) {
    let out = s.f;
    s.faces.forEach((fc, i) => { out = anonymizeFace(out, { box: fc.box, landmarks: fc.landmarks }, { ...syntheticIdentity(i + 1, s.n.length), ...(opt as any).id }, opt); });
    const cmp = await m.compare(out, s.faces);
    for (const c of cmp) { ds.push(c.distance); ss.push(c.score); }
    if (process.env.SAVE) await sharp(out.data, { raw: { width: out.width, height: out.height, channels: 3 } }).jpeg().toFile(`/tmp/anon/${name}-${s.n}.jpg`);
  }
  console.log(name.padEnd(14), "dist min", Math.min(...ds).toFixed(3), "med", median(ds).toFixed(3), "| score min", Math.min(...ss).toFixed(2), "med", median(ss).toFixed(2), "| n<0.6:", ds.filter((d) => d < 0.6).length, "n score<0.5:", ss.filter((d) => d < 0.5).length);
  if (process.env.VERBOSE) console.log(ds.map((d) => d.toFixed(2)).join(" "), "\n", ss.map((d) => d.toFixed(2)).join(" "));
}
