// Shared pieces of route definitions for the OpenAPI document: responses with exactly the headers
// the service sends on them, error responses narrowed to the codes an operation can answer, and
// security. test/worker/contract.test.ts replays live answers against what these declare.
import { z } from "@hono/zod-openapi";
import { ERROR_CODES, type ErrorCode } from "../../schema/errors.ts";

type HeaderObject = { schema: { type: "integer" | "string"; minimum?: number; enum?: string[] }; description: string; required?: boolean };
export type Headers = Record<string, HeaderObject>;

/** Rate-limit headers: on every answer to a request whose key was accepted (errors too), never on a 401. */
export function rateHeaders(required = true): Headers {
  return {
    "X-RateLimit-Limit": { schema: { type: "integer", minimum: 0 }, required, description: "Requests allowed per UTC day." },
    "X-RateLimit-Remaining": { schema: { type: "integer", minimum: 0 }, required, description: "Requests left today." },
    "X-RateLimit-Reset": { schema: { type: "integer", minimum: 0 }, required, description: "Unix time of the next reset (00:00 UTC)." },
  };
}

export const RETRY_AFTER: Headers = {
  "Retry-After": { schema: { type: "integer", minimum: 1 }, required: true, description: "Seconds to wait before retrying (429: until the daily limit resets; 503: until compute is expected back)." },
};

export const ALLOW: Headers = {
  Allow: { schema: { type: "string" }, required: true, description: "The methods this path answers, comma-separated." },
};

export const IDEMPOTENT_REPLAYED: Headers = {
  "Idempotent-Replayed": { schema: { type: "string", enum: ["true"] }, description: "Present when this is the stored first answer to a request with the same Idempotency-Key (nothing ran or was charged again)." },
};

export const PREFERENCE_APPLIED: Headers = {
  "Preference-Applied": { schema: { type: "string", enum: ["respond-async"] }, required: true, description: "The `Prefer: respond-async` preference was honoured (RFC 7240)." },
};

/** Statuses whose answer an Idempotency-Key stores and replays (5xx and 429 release the key instead). */
const REPLAYED_STATUSES = new Set([200, 202, 400, 402, 403, 404, 413, 422]);

export interface ResponseOptions {
  /** The operation takes an API key: its answers carry the rate headers, except the 401. */
  authenticated: boolean;
  /** The operation honours Idempotency-Key: its final answers may be replays. */
  idempotent?: boolean;
}

/** The headers an answer with this status carries on an operation. */
export function headersFor(status: number, opts: ResponseOptions): Headers {
  return {
    // A 500 can come from before the request was counted (the key lookup failed): no rate headers then.
    ...(opts.authenticated && status !== 401 ? rateHeaders(status !== 500) : {}),
    ...(status === 429 || status === 503 ? RETRY_AFTER : {}),
    ...(status === 405 ? ALLOW : {}),
    ...(opts.idempotent && REPLAYED_STATUSES.has(status) ? IDEMPOTENT_REPLAYED : {}),
  };
}

/** The error envelope with `code` narrowed to the codes of one status. */
function errorSchema(status: number, codes: ErrorCode[]) {
  return z.object({
    error: z.object({
      code: z.enum(codes as [ErrorCode, ...ErrorCode[]]).openapi({ description: "Machine-readable code; the complete list is in the API description." }),
      message: z.string().openapi({ description: "Human-readable explanation naming the problem." }),
      status: z.literal(status).openapi({ description: "The HTTP status." }),
    }),
  });
}

/** OpenAPI responses for the given error codes, grouped by status, with the headers each carries. */
export function errorResponses(opts: ResponseOptions, ...codes: ErrorCode[]) {
  const byStatus: Record<number, ErrorCode[]> = {};
  for (const code of new Set([...codes, "method_not_allowed" as const])) (byStatus[ERROR_CODES[code].status] ??= []).push(code);
  return Object.fromEntries(
    Object.entries(byStatus).map(([key, list]) => {
      const status = Number(key);
      const description = list.map((c) => `\`${c}\`: ${c === "method_not_allowed" ? "this path is called with a method it does not answer (`Allow` lists the ones it does)." : ERROR_CODES[c].description}`).join("\n\n");
      return [status, { description, content: { "application/json": { schema: errorSchema(status, list) } }, ...withHeaders(headersFor(status, opts)) }];
    }),
  );
}

/** A success response with the headers it carries. */
export function success<S extends number, C extends Record<string, { schema: z.ZodType }>>(status: S, description: string, content: C, opts: ResponseOptions, extra: Headers = {}) {
  return { [status]: { description, content, ...withHeaders({ ...headersFor(status, opts), ...extra }) } } as Record<S, { description: string; content: C; headers?: Headers }>;
}

const withHeaders = (headers: Headers) => (Object.keys(headers).length ? { headers } : {});

/** Errors every authenticated endpoint can answer (405 is added to every operation). */
export const COMMON_ERRORS: ErrorCode[] = ["unauthorized", "rate_limited", "internal_error"];
export const BEARER = [{ bearerAuth: [] }];
export const AUTHENTICATED: ResponseOptions = { authenticated: true };
export const PUBLIC: ResponseOptions = { authenticated: false };
