// The API's request and response types, every one taken from sdk/src/openapi.d.ts (generated from
// the served document by `npm run sdk:generate`): none is declared by hand, so the SDK cannot
// drift from the service.
import type { components, paths } from "./openapi.d.ts";

type Schemas = components["schemas"];
export type Account = Schemas["Account"];
export type Credits = Schemas["Credits"];
export type FeatureCatalog = Schemas["FeatureCatalog"];
export type FeatureEntry = Schemas["FeatureEntry"];
/** GET /jobs/{job_id}. */
export type Job = Schemas["JobRecord"];
/** The 202 of a video endpoint, or of an image endpoint asked to respond async. */
export type AcceptedJob = Schemas["VideoJob"];
export type ImageResult = Schemas["ImageResult"];
export type NsfwResult = Schemas["NsfwResult"];
export type UploadTicket = Schemas["UploadTicket"];
export type UploadDone = Schemas["UploadDone"];
export type MediaKind = FeatureEntry["media"];

/** The feature endpoints: the POSTs under /images, /videos and /detect. */
type FeaturePath = Extract<keyof paths, `/api/v2/${"images" | "videos" | "detect"}/${string}`>;
/** The catalog id of a feature endpoint (the inverse of featurePath in index.ts). */
type IdOf<P> = P extends "/api/v2/detect/nsfw" ? "image.nsfw-detection" : P extends `/api/v2/${infer M extends "image" | "video"}s/${infer N}` ? `${M}.${N}` : never;
/** image.face-blur, video.object-removal, ...: every feature the document has. */
export type FeatureId = IdOf<FeaturePath>;
type PathOf<F extends FeatureId> = { [P in FeaturePath]: IdOf<P> extends F ? P : never }[FeaturePath];
type Operation<F extends FeatureId> = NonNullable<paths[PathOf<F>]["post"]>;

/** The JSON body of a feature: image_url or video_url and the feature's own parameters. */
export type FeatureParams<F extends FeatureId> = Operation<F>["requestBody"]["content"]["application/json"];
type Answers<R> = { [S in keyof R & (200 | 202)]: R[S] extends { content: { "application/json": infer B } } ? B : never }[keyof R & (200 | 202)];
/** What a feature answers: an image result or NSFW verdict (200), or an accepted job (202); per id (distributed over a union of ids). */
export type FeatureAnswer<F extends FeatureId = FeatureId> = F extends FeatureId ? Answers<Operation<F>["responses"]> : never;
