import { readFileSync } from "node:fs";
import sharp from "sharp";
import { FaceMeter, distance } from "../../compute/anonymize/evaluate.ts";
const m = new FaceMeter();
const all: { n: string; d: Float32Array }[] = [];
for (const n of "astronaut.png,camera.png,group1.jpg,group2.jpg,group3.jpg,group4.jpg,group5.jpg,group6.jpg".split(",")) {
  const { data, info } = await sharp(readFileSync("test/fixtures/photos/" + n)).toColourspace("srgb").removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const faces = await m.faces({ data, width: info.width, height: info.height, channels: 3 });
  faces.forEach((f, i) => all.push({ n: `${n}#${i}@${Math.round(f.box.x)}`, d: f.descriptor }));
}
for (const a of all) {
  const ds = all.filter((b) => b !== a).map((b) => distance(a.d, b.d)).sort((x, y) => x - y);
  console.log(a.n.padEnd(22), "nearest other", ds[0].toFixed(3), "median", ds[Math.floor(ds.length / 2)].toFixed(3));
}
