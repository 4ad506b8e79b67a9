// Obscura SDK: one client object over the REST API. Works wherever fetch does (Node 22, workers,
// browsers); sdk/src/node.ts adds local files. Responses are typed by hand here until the types
// generated from sdk/openapi.json (openapi-typescript) replace them; see sdk/README.md.
import { ObscuraError } from "./errors.ts";
import { Transport, type Answer, type ClientOptions } from "./http.ts";
import { waitForJob, type Job, type WaitOptions } from "./jobs.ts";
import { uploadBytes, type MediaKind, type Uploaded, type UploadOptions } from "./uploads.ts";

export { mediaKindOf } from "./uploads.ts";
export { budgetWait } from "./jobs.ts";

export { ObscuraError, ObscuraJobError, type RateLimit } from "./errors.ts";
export { DEFAULT_BASE_URL, type ClientOptions } from "./http.ts";
export type { Job, WaitOptions } from "./jobs.ts";
export type { MediaKind, Uploaded, UploadOptions } from "./uploads.ts";

/** What a feature answers: an image result, an NSFW verdict, or an accepted job. */
export type FeatureAnswer =
  | { success: true; result_url: string; credits_used: number; remaining_credits: number }
  | { success: true; is_nsfw: boolean; score: number | null; credits_used: number; remaining_credits: number }
  | { success: true; job_id: string; status: Job["status"]; feature: string; credits_used: number; remaining_credits: number };

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
    me: () => get<{ id: string; email: string; name: string | null; tier: string; available_credits: number }>("/me"),
    credits: () => get<{ available_credits: number; total_purchased: number; total_spent: number; reserved_credits: number; active_api_keys: number }>("/me/credits"),
    features: async () => (await get<{ features: Array<{ id: string; name: string; media: MediaKind; path: string; credits: number; unit: string; available: boolean; parameters: Record<string, unknown> }> }>("/features")).features,
    job: (jobId: string) => get<Job>(`/jobs/${encodeURIComponent(jobId)}`),

    /** Runs a feature by its catalog id with the endpoint's parameters (JSON). */
    run: async (featureId: string, params: Record<string, unknown>, opts: RunOptions = {}): Promise<Answer<FeatureAnswer>> => {
      const headers: Record<string, string> = {};
      if (opts.idempotencyKey) headers["idempotency-key"] = opts.idempotencyKey;
      if (opts.async) headers.prefer = "respond-async";
      return transport.request<FeatureAnswer>("POST", featurePath(featureId), { json: params, headers, signal: opts.signal });
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
