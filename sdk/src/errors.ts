// Typed errors: every failure the API answers becomes an ObscuraError carrying the envelope's
// code, status and message (plus Retry-After and the rate-limit headers when sent); a failed job
// becomes an ObscuraJobError with the job's own error code.

/** The daily request budget, from the X-RateLimit-* headers. */
export interface RateLimit {
  limit: number;
  remaining: number;
  /** Unix time (seconds) of the next reset, 00:00 UTC. */
  reset: number;
}

export class ObscuraError extends Error {
  /** The envelope's machine-readable code, e.g. "insufficient_credits". */
  readonly code: string;
  /** The HTTP status. */
  readonly status: number;
  /** Seconds the service asked to wait (429, 503), if it said. */
  readonly retryAfter?: number;
  readonly rateLimit?: RateLimit;

  constructor(code: string, status: number, message: string, extra: { retryAfter?: number; rateLimit?: RateLimit } = {}) {
    super(message);
    this.name = "ObscuraError";
    this.code = code;
    this.status = status;
    this.retryAfter = extra.retryAfter;
    this.rateLimit = extra.rateLimit;
  }

  /** Whether the same request may succeed later without changes (rate limit, compute busy or down). */
  get retryable(): boolean {
    return this.status === 429 || this.status === 503;
  }
}

/** A job that ended in `failed`: its credits were refunded. */
export class ObscuraJobError extends ObscuraError {
  readonly jobId: string;

  constructor(jobId: string, code: string, message: string) {
    super(code, 200, message);
    this.name = "ObscuraJobError";
    this.jobId = jobId;
  }
}
