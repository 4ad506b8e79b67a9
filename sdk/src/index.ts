// Obscura SDK: one client object over the REST API. Works wherever fetch does (Node 22, workers,
// browsers); sdk/src/node.ts adds local files. Requests and responses are typed by the types
// generated from the served OpenAPI document (types.ts).
import { ObscuraError } from "./errors.ts";
import { Transport, type Answer, type ClientOptions } from "./http.ts";
import { waitForJob, type WaitOptions } from "./jobs.ts";
import type { Account, Credits, FeatureAnswer, FeatureCatalog, FeatureEntry, FeatureId, FeatureParams, Job, MediaKind } from "./types.ts";
import { uploadBytes, type Uploaded, type UploadOptions } from "./uploads.ts";

export { mediaKindOf } from "./uploads.ts";
export { budgetWait } from "./jobs.ts";

export { ObscuraError, ObscuraJobError, type RateLimit } from "./errors.ts";
export { DEFAULT_BASE_URL, type ClientOptions } from "./http.ts";
export type { WaitOptions } from "./jobs.ts";
export type { Uploaded, UploadOptions } from "./uploads.ts";
export type * from "./types.ts";

export interface RunOptions {
  /** Makes retries safe: the same key and request return the first answer, charged once. */
  idempotencyKey?: string;
  /** Image features: run as a job (202) instead of answering with the result. */
  async?: boolean;
  signal?: AbortSignal;
}

/** The endpoint of a catalog id: image.face-blur -> /images/face-blur, image.nsfw-detection -> /detect/nsfw. */
export function featurePath(featureId: string): string {
  if (featureId === "image.nsfw-detection") return "/detect/nsfw";
  const match = /^(image|video)\.([a-z][a-z-]*)$/.exec(featureId);
  if (!match) throw new TypeError(`Unknown feature id "${featureId}" (expected e.g. image.face-blur or video.face-blur)`);
  return `/${match[1]}s/${match[2]}`;
}

export function createObscura(options: ClientOptions) {
  const transport = new Transport(options);
  const get = async <T>(path: string) => (await transport.request<T>("GET", path)).data;
  return {
    transport,
    me: () => get<Account>("/me"),
    credits: () => get<Credits>("/me/credits"),
    features: async (): Promise<FeatureEntry[]> => (await get<FeatureCatalog>("/features")).features,
    job: (jobId: string) => get<Job>(`/jobs/${encodeURIComponent(jobId)}`),

    /**
     * Runs a feature by its catalog id with the endpoint's parameters (JSON). A literal id types
     * the parameters and the answer (`run("image.face-blur", { image_url, blur_strength })`); an id
     * only known at run time (the CLI's) takes any object, which the service validates.
     */
    run: async <F extends string>(
      featureId: F,
      params: F extends FeatureId ? FeatureParams<F> : Record<string, unknown>,
      opts: RunOptions = {},
    ): Promise<Answer<F extends FeatureId ? FeatureAnswer<F> : FeatureAnswer>> => {
      const headers: Record<string, string> = {};
      if (opts.idempotencyKey) headers["idempotency-key"] = opts.idempotencyKey;
      if (opts.async) headers.prefer = "respond-async";
      return transport.request("POST", featurePath(featureId), { json: params, headers, signal: opts.signal });
    },

    uploadBytes: (kind: MediaKind, bytes: Uint8Array, opts?: UploadOptions): Promise<Uploaded> => uploadBytes(transport, kind, bytes, opts),
    waitForJob: (jobId: string, opts?: WaitOptions) => waitForJob(transport, jobId, opts),

    /** The bytes of a result_url (public, fetched without the key). */
    download: async (url: string, opts: { signal?: AbortSignal } = {}): Promise<{ bytes: Uint8Array; contentType: string }> => {
      const res = await transport.raw("GET", url, { auth: false, signal: opts.signal });
      if (!res.ok) throw new ObscuraError(res.status === 404 ? "not_found" : "http_error", res.status, `GET ${url} answered ${res.status}`);
      return { bytes: new Uint8Array(await res.arrayBuffer()), contentType: res.headers.get("content-type") ?? "application/octet-stream" };
    },
  };
}

export type Obscura = ReturnType<typeof createObscura>;
