// image.nsfw: score = P(Porn) + P(Hentai) from nsfwjs; is_nsfw = score >= threshold (config,
// default 0.5). See models/nsfw-classifier.ts for why "Sexy" is not counted.
import type { Frame, NsfwVerdict } from "../../types.ts";
import type { Models } from "../../models/index.ts";

export type NsfwParams = Record<string, never>;

export function nsfw(frame: Frame, _params: NsfwParams, models: Pick<Models, "nsfw">): Promise<NsfwVerdict> {
  return models.nsfw.classify(frame);
}
