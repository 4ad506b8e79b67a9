// image.face-blur: every face found by the combined detector is hidden under a feathered ellipse
// raised to the hairline and a little larger than the face (hide.ts FACE_SHAPE; feather outside),
// gaussian or mosaic.
import type { DetectionControls } from "../../../schema/api/detections.ts";
import type { Frame } from "../../types.ts";
import type { Models } from "../../models/index.ts";
import { selectDetections } from "../detections.ts";
import { FACE_SHAPE, hideBoxes } from "../hide.ts";
import type { OnHidden } from "./index.ts";

export interface FaceBlurParams extends DetectionControls {
  blur_strength?: number;
  pixelated?: boolean;
}

export async function faceBlur(frame: Frame, params: FaceBlurParams, models: Pick<Models, "faces">, onHidden?: OnHidden): Promise<Frame> {
  const faces = selectDetections(await models.faces.detect(frame), frame, params);
  onHidden?.(faces);
  return hideBoxes(frame, faces, { ...params, ...FACE_SHAPE });
}
