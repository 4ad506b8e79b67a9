// face-api ships its networks as code + weight manifests (not graph models). Its node-wasm build
// requires the same @tensorflow/tfjs instance we initialise, so it shares our wasm backend.
import { createRequire } from "node:module";
import { initTf, packageFile } from "./tfjs.ts";

const require = createRequire(import.meta.url);

// face-api's published types reference DOM types; we only use a narrow part of its API.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type FaceApi = any;

let faceApi: Promise<FaceApi> | undefined;

export function loadFaceApi(): Promise<FaceApi> {
  faceApi ??= initTf().then(() => require("@vladmandic/face-api/dist/face-api.node-wasm.js") as FaceApi);
  return faceApi;
}

export const faceApiModelDir = (): string => packageFile("@vladmandic/face-api", "model");
