// nsfwjs's classifiers as ONNX. nsfwjs ships each TF.js graph model as JS modules: model.min.js
// exports the model.json object and each group1-shardNofM.min.js a base64 string of that shard.
//
// Only MobileNetV2Mid (the default) is a graph model; nsfwjs's MobileNetV2 and InceptionV3 are Keras
// layers models, which this converter does not read, so they stay on TF.js (nsfw-classifier.ts).
//
// nsfwjs/mobilenet_v2_mid:
//   input  "image"          [N, 3, 224, 224], RGB scaled to [0, 1]
//   output "probabilities"  [N, 5]: softmax over Drawing, Hentai, Neutral, Porn, Sexy (nsfwjs's order)
import { createRequire } from "node:module";
import { packageFile } from "../runtime/package-file.ts";
import type { OnnxGraph } from "./onnx-writer.ts";
import { TfjsGraphConverter, type TfjsGraphModel } from "./tfjs-graph.ts";

const require = createRequire(import.meta.url);

export const NSFWJS_DIRS = {
  "nsfwjs/mobilenet_v2_mid": "dist/models/mobilenet_v2_mid",
} as const;

export type NsfwConvertedId = keyof typeof NSFWJS_DIRS;

/** The files a conversion reads: the model module and its shard modules. */
export function nsfwjsFiles(id: NsfwConvertedId): { model: string; shards: (p: string) => string } {
  const dir = packageFile("nsfwjs", NSFWJS_DIRS[id]);
  return { model: `${dir}/model.min.js`, shards: (p) => `${dir}/${p}.min.js` };
}

export function nsfwjsModel(id: NsfwConvertedId): TfjsGraphModel {
  return require(nsfwjsFiles(id).model) as TfjsGraphModel;
}

export async function convertNsfwjs(id: NsfwConvertedId): Promise<OnnxGraph> {
  const files = nsfwjsFiles(id);
  return TfjsGraphConverter.convertModel(nsfwjsModel(id), async (p) => Buffer.from(require(files.shards(p)) as string, "base64"), {
    name: id.replace("/", "-"),
    inputs: { input: "image" },
    dynamicBatch: true,
    outputs: (g, t) => g.output(t("Identity").name, "probabilities", ["N", 5]),
  });
}
