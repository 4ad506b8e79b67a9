// face-api ships each network as a TF.js weights manifest (names, shapes, uint8 quantisation)
// plus one .bin; the network itself is defined in face-api's code. This reads a manifest into
// named weights (decoded by ../tfjs-weights.ts, as tfjs does) for the graph builders.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { readTfWeights, type ManifestGroup, type TfWeight } from "../tfjs-weights.ts";

export type Weight = TfWeight;

/** The weights of `<dir>/<model>-weights_manifest.json`, by their TF names. */
export async function readWeights(dir: string, model: string): Promise<Map<string, Weight>> {
  const manifest = JSON.parse(await readFile(path.join(dir, `${model}-weights_manifest.json`), "utf8")) as ManifestGroup[];
  return readTfWeights(dir, manifest);
}

/** One float weight, checked to have the shape the network expects (a wrong manifest fails here, not in ORT). */
export function take(weights: Map<string, Weight>, name: string, shape: number[]): Float32Array {
  const w = weights.get(name);
  if (!w) throw new Error(`face-api weight ${name} is missing`);
  if (w.shape.join("x") !== shape.join("x")) throw new Error(`face-api weight ${name} has shape ${w.shape.join("x")}, expected ${shape.join("x")}`);
  if (!(w.data instanceof Float32Array)) throw new Error(`face-api weight ${name} is ${w.dtype}, expected float32`);
  return w.data;
}
