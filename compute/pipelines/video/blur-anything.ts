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
import { findObjects, findPeople } from "../objects.ts";
import { findPlates } from "../plates.ts";
import { resolvePrompt, type Target } from "../../../schema/vocabulary.ts";
import { DETECT_EVERY, eachFrame, videoFaces, type VideoPipelineHooks } from "./common.ts";

type TargetModels = Pick<Models, "faces" | "objects" | "text">;

/**
 * Everything the targets name in one frame, as labelled boxes (people and objects: compute/pipelines/objects.ts).
 * `findFaces` is how faces are found (video: videoFaces' schedule); it is called before anything
 * is awaited, so calls on frames taken in order stay in order.
 */
export async function findTargets(frame: Frame, targets: Target[], models: TargetModels, findFaces = (f: Frame) => models.faces.detect(f)): Promise<Detection[]> {
  const faces = targets.some((t) => t.kind === "face") ? findFaces(frame) : null;
  // Not awaited until its turn: a rejection meanwhile is reported there, not as unhandled.
  faces?.catch(() => undefined);
  const found: Detection[] = [];
  for (const t of targets) {
    if (t.kind === "face") found.push(...(await faces!));
    else if (t.kind === "plate") found.push(...(await findPlates(frame, models)));
    else if (t.kind === "text") found.push(...(await models.text.detect(frame)));
    else if (t.kind === "person") found.push(...(await findPeople(frame, models)));
    else found.push(...(await findObjects(frame, models, t.classes)));
  }
  return found;
}

export function blurAnythingVideo(params: FeatureParams<"video.blur-anything">, models: TargetModels, hooks: VideoPipelineHooks = {}): ChunkProcessor {
  const targets = resolvePrompt(params.prompt); // unsupported_prompt before any frame is decoded
  const pixelated = (params.blur_anything_blur_mode ?? (params.pixelated ? "pixelated" : "gaussian")) === "pixelated";
  // Faces as video face-blur finds them: small-face tiles on every 4th frame, where the picture changed.
  const faces = videoFaces(models.faces, hooks);
  return trackedProcessor({
    detectEvery: DETECT_EVERY,
    batchSize: params.sam3_batch_size,
    chunkSize: params.sam3_chunk_size,
    detect: eachFrame((frame, index, context) => findTargets(frame, targets, models, (f) => faces(f, index, context)), params),
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
