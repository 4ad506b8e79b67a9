// Converts every model that exists only as TF.js weights to ONNX, into the model cache
// (OBSCURA_MODEL_CACHE, default .cache/models): `npm run models:convert [-- id ...]`.
// The compute service does the same on first load; this fills the cache ahead of time (e.g. while
// building a container image) and prints what it wrote.
import { stat } from "node:fs/promises";
import { CONVERSIONS, convertedModelFile } from "../compute/models/convert/index.ts";

const ids = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(CONVERSIONS);
for (const id of ids) {
  const started = performance.now();
  const file = await convertedModelFile(id);
  const { size } = await stat(file);
  console.log(`${id}\t${(size / 1e6).toFixed(2)} MB\t${Math.round(performance.now() - started)} ms\t${file}`);
}
