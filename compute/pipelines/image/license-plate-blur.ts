// image.license-plate-blur: plates from the two-stage search (pipelines/plates.ts), hidden under
// slightly grown rectangles.
import type { DetectionControls } from "../../../schema/api/detections.ts";
import type { Frame } from "../../types.ts";
import type { Models } from "../../models/index.ts";
import { selectDetections } from "../detections.ts";
import { hideBoxes } from "../hide.ts";
import { findPlates } from "../plates.ts";
import type { OnHidden } from "./index.ts";

export interface LicensePlateBlurParams extends DetectionControls {
  blur_strength?: number;
  pixelated?: boolean;
}

export async function licensePlateBlur(frame: Frame, params: LicensePlateBlurParams, models: Pick<Models, "objects" | "text">, onHidden?: OnHidden): Promise<Frame> {
  const plates = selectDetections(await findPlates(frame, models), frame, params);
  onHidden?.(plates);
  return hideBoxes(frame, plates, { ...params, shape: "rect", grow: 0.1, feather: 0.15 });
}
