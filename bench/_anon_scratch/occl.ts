import { readFileSync } from "node:fs";
import sharp from "sharp";
import { FaceMeter, distance } from "../../compute/anonymize/evaluate.ts";
import { loadFaceApi } from "../../compute/models/runtime/face-api.ts";
import { frameToTensor, tf } from "../../compute/models/runtime/tfjs.ts";
const m = new FaceMeter();
const faceapi = await loadFaceApi();
const [n, idx] = [process.argv[2], +process.argv[3]];
const { data, info } = await sharp(readFileSync("test/fixtures/photos/" + n)).toColourspace("srgb").removeAlpha().raw().toBuffer({ resolveWithObject: true });
const frame = { data, width: info.width, height: info.height, channels: 3 as const };
const faces = await m.faces(frame);
const f = faces[idx];
// Aligned box as face-api computes it
const pts = f.landmarks.map((p) => new faceapi.Point(p.x / info.width, p.y / info.height));
const lm = new faceapi.FaceLandmarks68(pts, { width: info.width, height: info.height });
const box = lm.align();
console.log("face box", f.box, "aligned box", box.x, box.y, box.width, box.height);
async function desc(fr: typeof frame) {
  const img = frameToTensor(fr);
  const [t] = await faceapi.extractFaceTensors(img, [box]);
  const d = await faceapi.nets.faceRecognitionNet.computeFaceDescriptor(t);
  tf.dispose([img, t]);
  return d as Float32Array;
}
const base = await desc(frame);
const G = 5;
const rows: string[] = [];
for (let gy = 0; gy < G; gy++) {
  const row: string[] = [];
  for (let gx = 0; gx < G; gx++) {
    const d2 = Buffer.from(data);
    const x0 = Math.round(box.x + (gx * box.width) / G), x1 = Math.round(box.x + ((gx + 1) * box.width) / G);
    const y0 = Math.round(box.y + (gy * box.height) / G), y1 = Math.round(box.y + ((gy + 1) * box.height) / G);
    for (let y = Math.max(0, y0); y < Math.min(info.height, y1); y++) for (let x = Math.max(0, x0); x < Math.min(info.width, x1); x++) for (let c = 0; c < 3; c++) d2[(y * info.width + x) * 3 + c] = 128;
    row.push(distance(base, await desc({ ...frame, data: d2 })).toFixed(2));
  }
  rows.push(row.join(" "));
}
console.log(rows.join("\n"));
