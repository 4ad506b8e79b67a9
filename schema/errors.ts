// The complete catalog of error codes the service answers with, and the HTTP status of each.
// One place for the fact: the Worker renders the envelope from it, the compute service throws
// these codes, the OpenAPI document and README list them from here.

export const ERROR_CODES = {
  invalid_request: { status: 400, description: "A field is missing, has the wrong type or breaks a rule; the message names the field and the rule." },
  invalid_json: { status: 400, description: "The body is not valid JSON." },
  invalid_media_url: { status: 400, description: "The media URL is malformed, not http(s), or carries credentials." },
  media_url_not_allowed: { status: 400, description: "The media URL points at localhost, a private, link-local or reserved address, or is a signed URL." },
  unauthorized: { status: 401, description: "The API key is missing, malformed, unknown or revoked." },
  insufficient_credits: { status: 402, description: "The account has fewer credits than the request costs; nothing ran." },
  forbidden: { status: 403, description: "The dashboard refused a request that did not come from its own pages (CSRF check)." },
  plan_restricted: { status: 403, description: "The account's plan does not allow this option (for example is_watermark=false)." },
  not_found: { status: 404, description: "No such route." },
  job_not_found: { status: 404, description: "No job with this id belongs to the caller." },
  media_not_found: { status: 404, description: "The uploaded media does not exist, has expired, or belongs to another account." },
  method_not_allowed: { status: 405, description: "The route exists but not with this HTTP method." },
  idempotency_conflict: { status: 409, description: "The Idempotency-Key was already used with a different request, or that request is still running." },
  upload_expired: { status: 410, description: "The upload URL has expired or was already used." },
  request_too_large: { status: 413, description: "The JSON body is larger than the 64 KiB a request needs (media goes by URL, upload or file part)." },
  media_too_large: { status: 413, description: "The media exceeds the byte, pixel or duration limit." },
  unsupported_media_type: { status: 415, description: "The Content-Type header is not JSON or multipart/form-data, or does not match the body." },
  unsupported_media_format: { status: 422, description: "The media is not one of the supported formats (checked from its bytes, not its name), is an animated image, or uses a video or audio codec that cannot be decoded." },
  corrupt_media: { status: 422, description: "The media has a supported format but cannot be decoded." },
  media_unreachable: { status: 422, description: "The media URL could not be fetched (DNS failure, timeout, HTTP error, too many redirects)." },
  unsupported_prompt: { status: 422, description: "The prompt or object_text names nothing the service can find; the message lists what it can." },
  object_not_found: { status: 422, description: "A video job's object_text names something the service can find, but no frame of the video shows it; the job failed and its credits were refunded." },
  rate_limited: { status: 429, description: "The daily request limit of the account is used up; see Retry-After." },
  internal_error: { status: 500, description: "An unexpected failure; nothing was charged." },
  not_implemented: { status: 501, description: "The feature is not available on this deployment yet; nothing was charged." },
  compute_unavailable: { status: 503, description: "No compute instance could take the request; retry later. Nothing was charged." },
} as const satisfies Record<string, { status: number; description: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** An error that carries one of the catalog's codes. Thrown anywhere, rendered once. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  constructor(code: ErrorCode, message: string) {
    super(message);
    this.name = "ApiError";
    this.code = code;
    this.status = ERROR_CODES[code].status;
  }
}

export interface ErrorEnvelope {
  error: { code: ErrorCode; message: string; status: number };
}

export function errorEnvelope(code: ErrorCode, message: string): ErrorEnvelope {
  return { error: { code, message, status: ERROR_CODES[code].status } };
}
