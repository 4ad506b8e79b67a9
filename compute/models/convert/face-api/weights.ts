// face-api ships each network as a TF.js weights manifest (names, shapes, uint8 quantisation)
// plus one .bin; the network itself is defined in face-api's code. This reads the manifest into
// named float32 arrays, dequantised the way tfjs does (q * scale + min), for the graph builders.
import { readFile } from "node:fs/promises";
import path from "node:path";

export interface Weight {
  shape: number[];
  data: Float32Array;
}

interface ManifestEntry {
  name: string;
  shape: number[];
  dtype: string;
  quantization?: { dtype: string; scale: number; min: number };
}

const BYTES: Record<string, number> = { float32: 4, int32: 4, uint8: 1 };

/** The weights of `<dir>/<model>-weights_manifest.json`, by their TF names. */
export async function readWeights(dir: string, model: string): Promise<Map<string, Weight>> {
  const manifest = JSON.parse(await readFile(path.join(dir, `${model}-weights_manifest.json`), "utf8")) as Array<{ paths: string[]; weights: ManifestEntry[] }>;
  const out = new Map<string, Weight>();
  for (const group of manifest) {
    const bin = Buffer.concat(await Promise.all(group.paths.map((p) => readFile(path.join(dir, p)))));
    let offset = 0;
    for (const w of group.weights) {
      const n = w.shape.reduce((a, b) => a * b, 1);
      const stored = w.quantization?.dtype ?? w.dtype;
      const size = BYTES[stored];
      if (!size || (w.dtype !== "float32" && w.dtype !== "int32")) throw new Error(`${model}: weight ${w.name} has dtype ${w.dtype}/${stored}, which this reader does not decode`);
      const data = new Float32Array(n);
      if (w.quantization) {
        if (stored !== "uint8") throw new Error(`${model}: weight ${w.name} is quantised as ${stored}; only uint8 is decoded`);
        const { scale, min } = w.quantization;
        for (let i = 0; i < n; i++) data[i] = bin[offset + i] * scale + min;
      } else if (w.dtype === "float32") {
        data.set(new Float32Array(bin.buffer.slice(bin.byteOffset + offset, bin.byteOffset + offset + 4 * n)));
      } else {
        data.set(new Int32Array(bin.buffer.slice(bin.byteOffset + offset, bin.byteOffset + offset + 4 * n)));
      }
      offset += n * size;
      out.set(w.name, { shape: w.shape, data });
    }
    if (offset !== bin.length) throw new Error(`${model}: the manifest describes ${offset} bytes but ${group.paths.join(",")} holds ${bin.length}`);
  }
  return out;
}

/** One weight, checked to have the shape the network expects (a wrong manifest fails here, not in ORT). */
export function take(weights: Map<string, Weight>, name: string, shape: number[]): Float32Array {
  const w = weights.get(name);
  if (!w) throw new Error(`face-api weight ${name} is missing`);
  if (w.shape.join("x") !== shape.join("x")) throw new Error(`face-api weight ${name} has shape ${w.shape.join("x")}, expected ${shape.join("x")}`);
  return w.data;
}
