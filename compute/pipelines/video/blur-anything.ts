// video.blur-anything: the prompt's targets (same vocabulary as images) found on detection
// frames, tracked, and hidden. sam3_batch_size = frames per detector call, sam3_chunk_size =
// frames handed to the processor at once (its look-ahead window); see compute/video/tracked.ts.
import type { FeatureParams } from "../../../schema/features.ts";
import type { Detection, Frame } from "../../types.ts";
import type { Models } from "../../models/index.ts";
import { pixelationToStrength } from "../../effects/index.ts";
import { trackedProcessor } from "../../video/tracked.ts";
import type { ChunkProcessor } from "../../video/stream.ts";
import { FACE_SHAPE, hideBoxes } from "../hide.ts";
import { findObjects, type Finders } from "../objects.ts";
import { findPlates } from "../plates.ts";
import { resolvePrompt, type Target } from "../../../schema/vocabulary.ts";
import { DETECT_EVERY, eachFrame, videoFaces, videoObjects, type VideoPipelineHooks } from "./common.ts";

// The people network where given (blur-anything; object removal looks with CenterNet alone).
type TargetModels = Pick<Models, "faces" | "text"> & Finders;

/** How faces and a target's objects are found: in video, on videoFaces' and videoObjects' schedules. */
export interface TargetFinders {
  faces(frame: Frame): Promise<Detection[]>;
  objects(frame: Frame, classes: readonly string[]): Promise<Detection[]>;
}

/**
 * Everything the targets name in one frame, as labelled boxes (people and objects: compute/pipelines/objects.ts).
 * `finders` find faces and objects (each by default with every pass on the frame); they are called
 * before anything is awaited, so calls on frames taken in order stay in order.
 */
export async function findTargets(frame: Frame, targets: Target[], models: TargetModels, finders: Partial<TargetFinders> = {}): Promise<Detection[]> {
  const { faces = (f) => models.faces.detect(f), objects = (f, classes) => findObjects(f, models, classes) } = finders;
  const started = targets.map((t) => (t.kind === "face" ? faces(frame) : t.kind === "object" ? objects(frame, t.classes) : t.kind === "person" ? objects(frame, ["person"]) : null));
  // Not awaited until their turn: a rejection meanwhile is reported there, not as unhandled.
  for (const p of started) p?.catch(() => undefined);
  const found: Detection[] = [];
  for (const [i, t] of targets.entries()) {
    if (t.kind === "plate") found.push(...(await findPlates(frame, models)));
    else if (t.kind === "text") found.push(...(await models.text.detectEverywhere(frame)));
    else found.push(...(await started[i]!));
  }
  return found;
}

export function blurAnythingVideo(params: FeatureParams<"video.blur-anything">, models: TargetModels & Pick<Models, "people">, hooks: VideoPipelineHooks = {}): ChunkProcessor {
  const targets = resolvePrompt(params.prompt); // unsupported_prompt before any frame is decoded
  const pixelated = (params.blur_anything_blur_mode ?? (params.pixelated ? "pixelated" : "gaussian")) === "pixelated";
  // Faces as video face-blur finds them, objects alike: small tiles on every 4th frame, where the picture changed.
  const faces = videoFaces(models.faces, hooks);
  const objects = videoObjects(models);
  return trackedProcessor({
    detectEvery: DETECT_EVERY,
    batchSize: params.sam3_batch_size,
    chunkSize: params.sam3_chunk_size,
    detect: eachFrame((frame, index, context) => findTargets(frame, targets, models, { faces: (f) => faces(f, index, context), objects: (f, classes) => objects(f, index, context, classes) }), params),
    onCoverage: hooks.onCoverage,
    apply: async (frame, coverage) => {
      const opts = { blur_strength: params.blur_strength, pixelated, pixelStrength: pixelationToStrength(params.pixelation_strength) };
      const faces = coverage.boxes.filter((b) => b.label === "face");
      const others = coverage.boxes.filter((b) => b.label !== "face");
      const out = faces.length ? await hideBoxes(frame, faces, { ...opts, ...FACE_SHAPE }) : frame;
      return others.length ? hideBoxes(out, others, { ...opts, shape: "rect", grow: 0.05 }) : out;
    },
  });
}
