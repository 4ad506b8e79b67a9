// image.license-plate-blur: plates from the two-stage search (pipelines/plates.ts), hidden under
// slightly grown rectangles.
import type { Frame } from "../../types.ts";
import type { Models } from "../../models/index.ts";
import { hideBoxes } from "../hide.ts";
import { findPlates } from "../plates.ts";

export interface LicensePlateBlurParams {
  blur_strength?: number;
  pixelated?: boolean;
}

export async function licensePlateBlur(frame: Frame, params: LicensePlateBlurParams, models: Pick<Models, "objects" | "text">): Promise<Frame> {
  const plates = await findPlates(frame, models);
  return hideBoxes(frame, plates, { ...params, shape: "rect", grow: 0.1, feather: 0.15 });
}
