// Exit codes by error class, so a script can tell "fix the command" from "top up" from "retry
// later" without parsing messages. The table is documented in sdk/README.md and `obscura --help`;
// changing a number breaks callers' scripts.
import { ObscuraError, ObscuraJobError } from "../index.ts";

export const EXIT = {
  ok: 0,
  /** Anything not below: internal errors, unknown routes, idempotency conflicts. */
  other: 1,
  /** The command line is wrong: unknown feature id, command, option or parameter; a missing input. */
  usage: 2,
  /** The key is missing, unknown or revoked, or the plan does not allow an option. */
  auth: 3,
  /** The service refused the request or the media: validation, format, size, unreachable URL, prompt. */
  input: 4,
  /** Not enough credits, or the daily request limit is used up. */
  credits: 5,
  /** A job was accepted and then failed (its credits were refunded). */
  jobFailed: 6,
  /** The service could not be reached or has no compute free (network, timeout, 502/503/504, 501). */
  unavailable: 7,
} as const;

/** A mistake in the command line, found before anything is sent. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

/** Error codes of the API's catalog (schema/errors.ts) by class; unknown codes fall back to the status. */
const BY_CODE: Record<string, number> = {
  unauthorized: EXIT.auth,
  forbidden: EXIT.auth,
  plan_restricted: EXIT.auth,
  missing_api_key: EXIT.auth,
  invalid_request: EXIT.input,
  invalid_json: EXIT.input,
  invalid_media_url: EXIT.input,
  media_url_not_allowed: EXIT.input,
  media_not_found: EXIT.input,
  upload_expired: EXIT.input,
  request_too_large: EXIT.input,
  media_too_large: EXIT.input,
  unsupported_media_type: EXIT.input,
  unsupported_media_format: EXIT.input,
  corrupt_media: EXIT.input,
  media_unreachable: EXIT.input,
  unsupported_prompt: EXIT.input,
  insufficient_credits: EXIT.credits,
  rate_limited: EXIT.credits,
  not_implemented: EXIT.unavailable,
  compute_unavailable: EXIT.unavailable,
  timeout: EXIT.unavailable,
  internal_error: EXIT.other,
};

function byStatus(status: number): number {
  if (status === 401 || status === 403) return EXIT.auth;
  if (status === 402 || status === 429) return EXIT.credits;
  if (status === 400 || status === 410 || status === 413 || status === 415 || status === 422) return EXIT.input;
  if (status === 0 || status === 501 || status === 502 || status === 503 || status === 504) return EXIT.unavailable;
  return EXIT.other;
}

/** Node's fetch fails with TypeError("fetch failed") and the socket error as its cause. */
function isNetworkError(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  if (err.name === "AbortError" || err.name === "TimeoutError") return true;
  const cause = (err as { cause?: { code?: unknown } }).cause;
  return err instanceof TypeError && (err.message === "fetch failed" || typeof cause?.code === "string");
}

export function exitCodeOf(err: unknown): number {
  if (err instanceof UsageError) return EXIT.usage;
  // Before ObscuraError: a job error is one, but its code (e.g. corrupt_media) must not decide.
  if (err instanceof ObscuraJobError) return EXIT.jobFailed;
  if (err instanceof ObscuraError) return BY_CODE[err.code] ?? byStatus(err.status);
  if (isNetworkError(err)) return EXIT.unavailable;
  return EXIT.other;
}

/** A code for every failure: the API's own, or usage / network_error / error for the CLI's. */
export function errorCodeOf(err: unknown): string {
  if (err instanceof ObscuraError) return err.code;
  if (err instanceof UsageError) return "usage";
  if (isNetworkError(err)) return "network_error";
  return "error";
}

/** One line for stderr: the API's code first (what scripts and people grep for), then the message. */
export function describeError(err: unknown): string {
  if (err instanceof UsageError) return `usage: ${err.message} (see obscura --help)`;
  if (err instanceof ObscuraJobError) return `job ${err.jobId} failed: ${err.code}: ${err.message}`;
  if (err instanceof ObscuraError) return `${err.code}${err.status ? ` (HTTP ${err.status})` : ""}: ${err.message}`;
  if (isNetworkError(err)) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    return `network_error: ${cause?.code ?? cause?.message ?? (err as Error).message} (is the service running? OBSCURA_BASE_URL)`;
  }
  return `error: ${err instanceof Error ? err.message : String(err)}`;
}
