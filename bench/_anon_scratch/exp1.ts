import { readFileSync } from "node:fs";
import sharp from "sharp";
import { FaceMeter } from "/work/main/compute/anonymize/evaluate.ts";
import { anonymizeFace, DEFAULT_ANONYMIZE_OPTIONS } from "/work/main/compute/anonymize/render.ts";
import { syntheticIdentity } from "/work/main/compute/anonymize/identity.ts";
import type { Frame } from "/work/main/compute/types.ts";
const P = "/work/main/test/fixtures/photos/";
async function load(n: string): Promise<Frame> {
  const { data, info } = await sharp(readFileSync(P + n)).toColourspace("srgb").removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: 3 };
}
const m = new FaceMeter();
const t0 = performance.now();
for (const n of ["astronaut.png", "camera.png", "group1.jpg"]) {
  const f = await load(n);
  const faces = await m.faces(f);
  console.log(n, faces.map((x) => [Math.round(x.box.x), Math.round(x.box.y), Math.round(x.box.width), x.score.toFixed(2)]), (performance.now() - t0) | 0);
  let out = f;
  const t1 = performance.now();
  faces.forEach((fc, i) => { out = anonymizeFace(out, { box: fc.box, landmarks: fc.landmarks }, syntheticIdentity(i + 1)); });
  console.log("anon ms", (performance.now() - t1) | 0);
  const cmp = await m.compare(out, faces);
  console.log(cmp.map((c) => `${c.score.toFixed(2)}/${c.distance.toFixed(3)}`).join(" "));
  await sharp(out.data, { raw: { width: out.width, height: out.height, channels: 3 } }).png().toFile(`/tmp/anon/${n}.png`);
}
