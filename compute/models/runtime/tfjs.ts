// TF.js runtime for weights that exist only as TF.js graphs/layers (human-models, face-api, nsfwjs).
// One wasm backend for the whole process, initialised once; model files are read from disk with a
// tiny tf.io handler so nothing is ever fetched over the network.
import { readFile } from "node:fs/promises";
import path from "node:path";
import * as tf from "@tensorflow/tfjs";
import { setWasmPaths } from "@tensorflow/tfjs-backend-wasm";
import type { Frame } from "../../types.ts";

import { packageFile } from "./package-file.ts";

export { tf, packageFile };

let ready: Promise<void> | undefined;

/** Initialise the wasm backend once (single-flight: concurrent callers share one promise). */
export function initTf(): Promise<void> {
  ready ??= (async () => {
    // setWasmPaths wants a directory prefix; in Node the backend reads the .wasm with fs.
    const wasmDir = packageFile("@tensorflow/tfjs-backend-wasm", "dist");
    setWasmPaths(wasmDir + path.sep);
    // tfjs picks the SIMD single-thread build here: its threaded build needs wasm worker threads
    // that it does not set up in Node. One thread per process; scale out with processes.
    await tf.setBackend("wasm");
    await tf.ready();
    tf.enableProdMode();
  })();
  return ready;
}

/** A tf.io handler that reads model.json and its weight shards from a local folder. */
export function diskHandler(modelJsonPath: string): tf.io.IOHandler {
  return {
    async load() {
      const json = JSON.parse(await readFile(modelJsonPath, "utf8"));
      const dir = path.dirname(modelJsonPath);
      const specs: tf.io.WeightsManifestEntry[] = [];
      const buffers: Buffer[] = [];
      for (const group of json.weightsManifest as tf.io.WeightsManifestConfig) {
        specs.push(...group.weights);
        for (const p of group.paths) buffers.push(await readFile(path.join(dir, p)));
      }
      const all = Buffer.concat(buffers);
      return {
        modelTopology: json.modelTopology,
        format: json.format,
        generatedBy: json.generatedBy,
        convertedBy: json.convertedBy,
        signature: json.signature,
        userDefinedMetadata: json.userDefinedMetadata,
        weightSpecs: specs,
        weightData: all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength),
      };
    },
  };
}

/** Load a TF.js graph model from disk. */
export async function loadGraphModel(modelJsonPath: string): Promise<tf.GraphModel> {
  await initTf();
  return tf.loadGraphModel(diskHandler(modelJsonPath));
}

/** Frame -> int32 RGB tensor [h, w, 3] (alpha dropped). Caller disposes. */
export function frameToTensor(frame: Frame): tf.Tensor3D {
  const { width, height, channels, data } = frame;
  const rgb = new Int32Array(width * height * 3);
  for (let i = 0, j = 0; i < width * height; i++, j += channels) {
    rgb[i * 3] = data[j];
    rgb[i * 3 + 1] = data[j + 1];
    rgb[i * 3 + 2] = data[j + 2];
  }
  return tf.tensor3d(rgb, [height, width, 3], "int32");
}

