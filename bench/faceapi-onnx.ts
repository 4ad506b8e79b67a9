// face-api's networks end to end as the compute service calls them (pixels in, detections /
// landmarks + descriptors / expressions out; bench/onnx-vs-tfjs.ts times the networks alone):
// face-api itself on tfjs-wasm (one thread) vs the ONNX conversions (compute/models/convert/face-api)
// on onnxruntime-node with 1 and 2 intra-op threads, on the fixture photos and their hand-counted
// faces. Prints wall and CPU ms per call or per face, and the largest difference of each result.
//   npx node bench/faceapi-onnx.ts [rounds=3]
import { cpus, loadavg } from "node:os";
import { ExpressionReader, EXPRESSIONS } from "./lib/expression-reader.ts";
import { FaceLandmarker } from "../compute/models/face-landmarks.ts";
import { SsdFaceModel } from "../compute/models/face-ssd.ts";
import { iou } from "../compute/models/geometry.ts";
import type { Box, Frame } from "../compute/types.ts";
import { FaceApiReference } from "../test/fixtures/face-api-reference.ts";
import { faceBoxes, loadPhoto } from "../test/compute/photos.ts";
import { timePerCall } from "./timing.ts";

const ROUNDS = Number(process.argv[2] ?? 3);
const PHOTOS = ["astronaut.png", "group1.jpg", "group2.jpg", "group3.jpg", "group4.jpg", "group5.jpg", "group6.jpg", "group-collage-small-faces.jpg"];
const MIN_SCORE = 0.3;

const frames = await Promise.all(PHOTOS.map(async (name) => ({ name, frame: await loadPhoto(name), boxes: faceBoxes()[name] })));
const faceCount = frames.reduce((n, f) => n + f.boxes.length, 0);
const faceapi = await FaceApiReference.load();

const time = (units: number, fn: () => Promise<unknown>) => timePerCall(units, ROUNDS, fn);

const each = (fn: (f: { frame: Frame; boxes: Box[] }) => Promise<unknown>) => async () => {
  for (const f of frames) await fn(f);
};
const row = (label: string, t: { wall: number; cpu: number }) => console.log(`  ${label.padEnd(24)} ${t.wall.toFixed(1).padStart(7)} ms  ${t.cpu.toFixed(1).padStart(7)} CPU ms`);
const maxAbsDiff = (a: ArrayLike<number>, b: ArrayLike<number>) => Array.from(a).reduce((m, v, i) => Math.max(m, Math.abs(v - b[i])), 0);
const distance = (a: ArrayLike<number>, b: ArrayLike<number>) => Math.sqrt(Array.from(a).reduce((s, v, i) => s + (v - b[i]) ** 2, 0));

console.log(`face-api networks, tfjs-wasm vs onnxruntime-node; ${PHOTOS.length} photos, ${faceCount} hand-counted faces, ${ROUNDS} rounds; ${cpus().length} CPUs, load ${loadavg().map((l) => l.toFixed(2)).join(" ")}`);

// SSD MobileNetV1: whole photo, detections at MIN_SCORE.
const ssd1 = new SsdFaceModel({ intraOpThreads: 1 }), ssd2 = new SsdFaceModel({ intraOpThreads: 2 });
console.log(`\nSSD MobileNetV1, whole photo (per call):`);
row("tfjs-wasm (face-api)", await time(frames.length, each(({ frame }) => faceapi.detect(frame, MIN_SCORE))));
row("ORT, 1 thread", await time(frames.length, each(({ frame }) => ssd1.detect(frame, undefined, MIN_SCORE))));
row("ORT, 2 threads", await time(frames.length, each(({ frame }) => ssd2.detect(frame, undefined, MIN_SCORE))));
{
  let detScore = 0, minIou = 1, faces = 0, sameCount = 0;
  for (const { frame } of frames) {
    const [want, got] = [await faceapi.detect(frame, MIN_SCORE), await ssd1.detect(frame, undefined, MIN_SCORE)];
    if (want.length === got.length) sameCount++;
    for (const w of want) {
      const best = got.reduce((a, b) => (iou(b, w.box) > iou(a, w.box) ? b : a));
      minIou = Math.min(minIou, iou(best, w.box));
      detScore = Math.max(detScore, Math.abs(best.score - w.score));
      faces++;
    }
  }
  console.log(`  detections >= ${MIN_SCORE}: same count on ${sameCount}/${frames.length} photos, ${faces} faces, min IoU ${minIou.toFixed(6)}, max score difference ${detScore.toExponential(1)}`);
}

// Landmarks + descriptor (FaceLandmarker.describe), per face, every hand-counted face.
const lm1 = new FaceLandmarker({ intraOpThreads: 1 }), lm2 = new FaceLandmarker({ intraOpThreads: 2 });
console.log(`\n68 landmarks + 128-d descriptor (per face; ORT batches a photo's faces):`);
row("tfjs-wasm (face-api)", await time(faceCount, each(({ frame, boxes }) => faceapi.describe(frame, boxes))));
row("ORT, 1 thread", await time(faceCount, each(({ frame, boxes }) => lm1.describe(frame, boxes))));
row("ORT, 2 threads", await time(faceCount, each(({ frame, boxes }) => lm2.describe(frame, boxes))));
row("ORT, 1 thread, 1 face/call", await time(faceCount, each(async ({ frame, boxes }) => { for (const b of boxes) await lm1.describe(frame, [b]); })));
{
  let points = 0, dist = 0;
  for (const { frame, boxes } of frames) {
    const [want, got] = [await faceapi.describe(frame, boxes), await lm1.describe(frame, boxes)];
    want.forEach((w, i) => {
      points = Math.max(points, maxAbsDiff(got[i].points.flatMap((p) => [p.x, p.y]), w.points.flatMap((p) => [p.x, p.y])));
      dist = Math.max(dist, distance(got[i].descriptor, w.descriptor));
    });
  }
  console.log(`  max |difference|: landmarks ${points.toExponential(1)} px, descriptor distance ${dist.toExponential(1)}`);
}

// Expression net, per face.
const expressions = new ExpressionReader();
console.log(`\nexpression (per face; ORT 1 thread, batched):`);
row("tfjs-wasm (face-api)", await time(faceCount, each(({ frame, boxes }) => faceapi.expressions(frame, boxes))));
row("ORT, 1 thread", await time(faceCount, each(({ frame, boxes }) => expressions.read(frame, boxes))));
{
  let diff = 0;
  for (const { frame, boxes } of frames) {
    const [want, got] = [await faceapi.expressions(frame, boxes), await expressions.read(frame, boxes)];
    want.forEach((w, i) => (diff = Math.max(diff, maxAbsDiff(EXPRESSIONS.map((e) => got[i][e]), w))));
  }
  console.log(`  max |difference| of the 7 probabilities: ${diff.toExponential(1)}`);
}
console.log(`\nload after: ${loadavg().map((l) => l.toFixed(2)).join(" ")}`);
