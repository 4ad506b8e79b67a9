// The contract between the Worker and the compute service. Every request either way is signed
// with the shared SIGNING_SECRET over: timestamp, method, path and the SHA-256 of the body.
import { SIGNATURE_HEADER, TIMESTAMP_HEADER, signParts, verifyParts } from "./signing.ts";

/** Worker -> compute: run one feature on one piece of media. */
export interface TaskRequest {
  task_id: string;
  /** Feature id from the catalog, e.g. "image.face-blur" or "video.nsfw-detection". */
  feature: string;
  params: Record<string, unknown>;
  media: {
    url: string;
    /** true for the Worker's own signed media URLs, which compute fetches without the SSRF guard. */
    internal: boolean;
  };
  /** Async tasks only: compute answers 202 and reports to `${callback_url}/progress|result|fail`. */
  callback_url?: string;
  /** Video: refuse media longer than this (the reservation covers this much). */
  max_duration_seconds?: number;
}

/** Sync answer for media results: the bytes, with these headers. */
export const RESULT_DURATION_HEADER = "x-obscura-duration-seconds";
/**
 * A sync image task with params.return_detections answers multipart/form-data instead: the image
 * as the RESULT_PART file and the DetectionsDocument (schema/api/detections.ts) as the
 * DETECTIONS_PART text. An async task PUTs the document to `${callback_url}/detections` (signed
 * over its SHA-256, like the result) before the result.
 */
export const RESULT_PART = "result";
export const DETECTIONS_PART = "detections";
/** SHA-256 of a streamed result body: the signature covers it, R2 verifies the bytes against it. */
export const CONTENT_SHA256_HEADER = "x-obscura-content-sha256";

/** GET /healthz on compute. */
export interface ComputeHealth {
  ok: boolean;
  features: string[];
  models: Record<string, "loaded" | "loading" | "idle" | "failed">;
  busy: number;
  capacity: number;
  /** The jobs (async tasks) this instance runs now: which instance holds a job. */
  jobs: string[];
  /** Tasks this process has finished (succeeded or failed) since it started: how work spreads over instances. */
  completed: number;
}

/** GET-able with POST /v1/probe: facts the Worker needs for billing. */
export interface ProbeResult {
  kind: "image" | "video";
  format: string;
  duration_seconds?: number;
}

/**
 * How long the Worker waits for compute to accept a job. A job task compute reads later than this
 * after it was signed (the instance was frozen or swamped) is dropped: the Worker has already
 * given up on that dispatch and queued the job again, so running it would run the job twice.
 */
export const JOB_ACCEPT_TIMEOUT_MS = 30_000;

export const TASKS_PATH = "/v1/tasks";
export const PROBE_PATH = "/v1/probe";
export const HEALTH_PATH = "/healthz";

export function signedParts(method: string, path: string, bodySha256: string): string[] {
  return [method.toUpperCase(), path, bodySha256];
}

/** The headers that sign a request (Worker <-> compute, operator commands). */
export async function signRequest(secret: string, method: string, path: string, bodySha256: string): Promise<Record<string, string>> {
  const { timestamp, signature } = await signParts(secret, signedParts(method, path, bodySha256));
  return { [TIMESTAMP_HEADER]: timestamp, [SIGNATURE_HEADER]: signature };
}

/** Whether a request's signature headers are authentic and fresh. */
export function verifyRequest(secret: string, method: string, path: string, bodySha256: string, header: (name: string) => string | undefined): Promise<boolean> {
  return verifyParts(secret, signedParts(method, path, bodySha256), header(TIMESTAMP_HEADER), header(SIGNATURE_HEADER));
}
