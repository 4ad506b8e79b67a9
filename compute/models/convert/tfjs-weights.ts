// TF.js weight shards (model.json's weightsManifest + .bin files) decoded into named typed arrays,
// the way tfjs itself dequantises them: float16 halves, uint8/uint16 affine (q * scale + min).
import { readFile } from "node:fs/promises";
import path from "node:path";

export interface TfWeight {
  shape: number[];
  dtype: "float32" | "int32" | "bool";
  data: Float32Array | Int32Array;
}

export interface ManifestEntry {
  name: string;
  shape: number[];
  dtype: string;
  quantization?: { dtype: string; scale?: number; min?: number };
}

export interface ManifestGroup {
  paths: string[];
  weights: ManifestEntry[];
}

const STORED_BYTES: Record<string, number> = { float32: 4, int32: 4, bool: 1, float16: 2, uint8: 1, uint16: 2 };

/** IEEE half -> float. */
function halfToFloat(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >> 10) & 0x1f;
  const frac = h & 0x3ff;
  if (exp === 0) return sign * 2 ** -14 * (frac / 1024);
  if (exp === 31) return frac ? NaN : sign * Infinity;
  return sign * 2 ** (exp - 15) * (1 + frac / 1024);
}

function decodeOne(w: ManifestEntry, bytes: Buffer): TfWeight {
  const n = w.shape.reduce((a, b) => a * b, 1);
  const dtype = w.dtype as TfWeight["dtype"];
  if (dtype !== "float32" && dtype !== "int32" && dtype !== "bool") throw new Error(`weight ${w.name}: dtype ${w.dtype} is not decoded`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const data = dtype === "float32" ? new Float32Array(n) : new Int32Array(n);
  const q = w.quantization;
  if (!q) {
    for (let i = 0; i < n; i++) data[i] = dtype === "float32" ? view.getFloat32(i * 4, true) : dtype === "int32" ? view.getInt32(i * 4, true) : view.getUint8(i);
  } else if (q.dtype === "float16") {
    for (let i = 0; i < n; i++) data[i] = halfToFloat(view.getUint16(i * 2, true));
  } else if (q.dtype === "uint8" || q.dtype === "uint16") {
    const wide = q.dtype === "uint16";
    const scale = q.scale ?? 1;
    const min = q.min ?? 0;
    for (let i = 0; i < n; i++) data[i] = (wide ? view.getUint16(i * 2, true) : view.getUint8(i)) * scale + min;
  } else {
    throw new Error(`weight ${w.name}: quantisation ${q.dtype} is not decoded`);
  }
  return { shape: w.shape, dtype, data };
}

/** Reads one weight shard by its manifest path. */
export type ShardReader = (shardPath: string) => Promise<Buffer>;

/** Shards stored as files beside the manifest, in `dir`. */
export const shardFiles = (dir: string): ShardReader => (p) => readFile(path.join(dir, p));

/** Every weight of a manifest whose shard paths are files relative to `dir`, by name. */
export function readTfWeights(dir: string, manifest: ManifestGroup[]): Promise<Map<string, TfWeight>> {
  return decodeTfWeights(manifest, shardFiles(dir));
}

/** Every weight of a manifest, by name, its shards read by `readShard`. */
export async function decodeTfWeights(manifest: ManifestGroup[], readShard: ShardReader): Promise<Map<string, TfWeight>> {
  const out = new Map<string, TfWeight>();
  for (const group of manifest) {
    const bin = Buffer.concat(await Promise.all(group.paths.map(readShard)));
    let offset = 0;
    for (const w of group.weights) {
      const stored = w.quantization?.dtype ?? w.dtype;
      const size = STORED_BYTES[stored];
      if (!size) throw new Error(`weight ${w.name}: stored dtype ${stored} is not decoded`);
      const length = w.shape.reduce((a, b) => a * b, 1) * size;
      out.set(w.name, decodeOne(w, bin.subarray(offset, offset + length)));
      offset += length;
    }
    if (offset !== bin.length) throw new Error(`the manifest describes ${offset} bytes but ${group.paths.join(",")} holds ${bin.length}`);
  }
  return out;
}
