// image.blur-anything: the prompt names what to hide (schema/vocabulary.ts). People are hidden
// under the person segmenter's soft mask (limited to detected person boxes' surroundings when the
// detector finds them), everything else under boxes: faces (ellipses), plates, text, COCO objects.
// A prompt naming nothing findable throws unsupported_prompt before any model runs.
import type { Detection, Frame } from "../../types.ts";
import type { Models } from "../../models/index.ts";
import { ApiError } from "../../../schema/errors.ts";
import { DEFAULT_BLUR_STRENGTH, dilateMask, featherMask, pixelationToStrength } from "../../effects/index.ts";
import { hideBoxes, hideMask, type HideOptions } from "../hide.ts";
import { findPlates } from "../plates.ts";
import { coverage } from "../subject.ts";
import { resolvePrompt } from "../../../schema/vocabulary.ts";

export interface BlurAnythingParams {
  prompt: string;
  blur_strength?: number;
  pixelated?: boolean;
  /** Spec default 20 for images; larger = coarser mosaic. */
  pixelation_strength?: number;
}

export async function blurAnything(frame: Frame, params: BlurAnythingParams, models: Pick<Models, "faces" | "persons" | "objects" | "text">): Promise<Frame> {
  if (typeof params.prompt !== "string" || params.prompt.trim() === "") {
    throw new ApiError("invalid_request", "prompt is required");
  }
  const targets = resolvePrompt(params.prompt);
  const opts: HideOptions = {
    blur_strength: params.blur_strength ?? DEFAULT_BLUR_STRENGTH,
    pixelated: params.pixelated ?? false,
    pixelStrength: pixelationToStrength(params.pixelation_strength ?? 20),
  };
  let out = frame;
  const boxes: Detection[] = [];
  const ellipses: Detection[] = [];
  for (const t of targets) {
    if (t.kind === "face") ellipses.push(...(await models.faces.detect(frame)));
    else if (t.kind === "plate") boxes.push(...(await findPlates(frame, models)));
    else if (t.kind === "text") boxes.push(...(await models.text.detect(frame)));
    else if (t.kind === "object") boxes.push(...(await models.objects.detect(frame, t.classes)));
    else if (t.kind === "person") {
      const mask = await models.persons.segment(frame);
      const people = await models.objects.detect(frame, ["person"]);
      if (coverage(mask) > 0.005) {
        // Grow the soft mask a little so the silhouette's edge is covered too.
        const size = people.length ? Math.max(...people.map((p) => Math.max(p.width, p.height))) : Math.min(frame.width, frame.height) / 2;
        const soft = featherMask(dilateMask(mask, Math.max(2, Math.round(size * 0.02))), Math.max(2, Math.round(size * 0.02)));
        out = await hideMask(out, soft, size / 4, opts);
      } else {
        boxes.push(...people);
      }
    }
  }
  if (ellipses.length) out = await hideBoxes(out, ellipses, { ...opts, shape: "ellipse", grow: 0.2 });
  if (boxes.length) out = await hideBoxes(out, boxes, { ...opts, shape: "rect", grow: 0.05 });
  return out;
}
