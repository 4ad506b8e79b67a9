// image.blur-anything: the prompt names what to hide (schema/vocabulary.ts). People and COCO
// objects are found by compute/pipelines/objects.ts (detector on the frame and on tiles: small,
// greyscale, partly cut); people are hidden under their silhouettes (segmenter on each person's
// crop; the whole frame's segmentation only when no person is boxed), everything else under
// boxes: faces (ellipses), plates, text, COCO objects.
// A prompt naming nothing findable throws unsupported_prompt before any model runs. The caller's
// detection controls apply to every box, and to the whole frame's segmentation by its extent.
import type { DetectionControls } from "../../../schema/api/detections.ts";
import type { Detection, Frame, Mask } from "../../types.ts";
import type { Models } from "../../models/index.ts";
import { ApiError } from "../../../schema/errors.ts";
import { DEFAULT_BLUR_STRENGTH, dilateMask, emptyMask, featherMask, pixelationToStrength } from "../../effects/index.ts";
import { addPerson, DEFAULT_REMOVAL_MASK } from "../../removal/mask.ts";
import { findObjects, findPeople } from "../objects.ts";
import { FACE_SHAPE, hideBoxes, hideMask, type HideOptions } from "../hide.ts";
import { findPlates } from "../plates.ts";
import { coverage, maskDetection } from "../subject.ts";
import { resolvePrompt } from "../../../schema/vocabulary.ts";
import { selectDetections } from "../detections.ts";
import type { OnHidden } from "./index.ts";

export interface BlurAnythingParams extends DetectionControls {
  prompt: string;
  blur_strength?: number;
  pixelated?: boolean;
  /** Spec default 20 for images; larger = coarser mosaic. */
  pixelation_strength?: number;
}

export async function blurAnything(frame: Frame, params: BlurAnythingParams, models: Pick<Models, "faces" | "persons" | "objects" | "people" | "text">, onHidden?: OnHidden): Promise<Frame> {
  if (typeof params.prompt !== "string" || params.prompt.trim() === "") {
    throw new ApiError("invalid_request", "prompt is required");
  }
  const targets = resolvePrompt(params.prompt);
  const opts: HideOptions = {
    blur_strength: params.blur_strength ?? DEFAULT_BLUR_STRENGTH,
    pixelated: params.pixelated ?? false,
    pixelStrength: pixelationToStrength(params.pixelation_strength ?? 20),
  };
  const select = (found: Detection[]) => selectDetections(found, frame, params);
  let out = frame;
  const boxes: Detection[] = [];
  const ellipses: Detection[] = [];
  const silhouettes: Detection[] = [];
  for (const t of targets) {
    if (t.kind === "face") ellipses.push(...select(await models.faces.detect(frame)));
    else if (t.kind === "plate") boxes.push(...select(await findPlates(frame, models)));
    else if (t.kind === "text") boxes.push(...select(await models.text.detectEverywhere(frame)));
    else if (t.kind === "object") boxes.push(...select(await findObjects(frame, models, t.classes)));
    else if (t.kind === "person") {
      const found = await findPeople(frame, models);
      const people = select(found);
      let mask: Mask;
      if (people.length) {
        // Each person's silhouette from the segmenter on a crop around their box, or its ellipse
        // whatever its size: a still image's box is a detection, not a track's guess.
        mask = emptyMask(frame.width, frame.height);
        for (const p of people) await addPerson(mask, frame, p, models, { ...DEFAULT_REMOVAL_MASK, maxEllipseShare: 1 });
        silhouettes.push(...people);
      } else if (found.length) {
        continue; // every person boxed was left out by the controls: no fallback may hide them
      } else {
        // A close-up the detector may not box (a face filling the frame): the whole frame's
        // segmentation, if it sees a person.
        mask = await models.persons.segment(frame);
        if (coverage(mask) <= 0.005) continue;
        const person = maskDetection(mask, "person");
        if (person && select([person]).length === 0) continue;
        if (person) silhouettes.push(person);
      }
      // Grow the mask a little so the silhouette's edge is covered too.
      const size = people.length ? Math.max(...people.map((p) => Math.max(p.width, p.height))) : Math.min(frame.width, frame.height) / 2;
      const soft = featherMask(dilateMask(mask, Math.max(2, Math.round(size * 0.02))), Math.max(2, Math.round(size * 0.02)));
      out = await hideMask(out, soft, size / 4, opts);
    }
  }
  onHidden?.([...silhouettes, ...ellipses, ...boxes]);
  if (ellipses.length) out = await hideBoxes(out, ellipses, { ...opts, ...FACE_SHAPE });
  if (boxes.length) out = await hideBoxes(out, boxes, { ...opts, shape: "rect", grow: 0.05 });
  return out;
}
