// image.remove-background: RGBA with the subject mask as a soft alpha (output_transparent, the
// default), or the background filled with background_color (default #00FF00) as RGB.
import type { Frame } from "../../types.ts";
import type { Models } from "../../models/index.ts";
import { ApiError } from "../../../schema/errors.ts";
import { fillBackground, parseHexColor, withAlpha } from "../../effects/index.ts";
import { findSubject } from "../subject.ts";

export interface RemoveBackgroundParams {
  output_transparent?: boolean;
  background_color?: string;
}

export async function removeBackground(frame: Frame, params: RemoveBackgroundParams, models: Pick<Models, "persons" | "objects">): Promise<Frame> {
  const color = parseHexColor(params.background_color ?? "#00FF00");
  if (!color) throw new ApiError("invalid_request", "background_color must be a hex colour like #00FF00");
  const { mask } = await findSubject(frame, models);
  if (params.output_transparent === false) {
    const rgb = frame.channels === 4 ? dropAlpha(frame) : frame;
    return fillBackground(rgb, mask, color);
  }
  return withAlpha(frame, mask);
}

function dropAlpha(frame: Frame): Frame {
  const n = frame.width * frame.height;
  const out = Buffer.allocUnsafe(n * 3);
  for (let p = 0; p < n; p++) frame.data.copy(out, p * 3, p * 4, p * 4 + 3);
  return { data: out, width: frame.width, height: frame.height, channels: 3 };
}
