// Shared pieces of route definitions for the OpenAPI document: responses with exactly the headers
// the service sends on them, error responses narrowed to the codes an operation can answer, and
// security. test/worker/contract.test.ts replays live answers against what these declare.
import { z } from "@hono/zod-openapi";
import { ERROR_CODES, type ErrorCode } from "../../schema/errors.ts";

type HeaderObject = { schema: { type: "integer" | "string"; minimum?: number; enum?: string[] }; description: string; required?: boolean };
export type Headers = Record<string, HeaderObject | { $ref: string }>;

/** Every header the service sends on API answers, once (components/headers); responses refer to them. */
export const HEADER_COMPONENTS: Record<string, HeaderObject> = {
  "X-RateLimit-Limit": { schema: { type: "integer", minimum: 0 }, required: true, description: "Requests allowed per UTC day." },
  "X-RateLimit-Remaining": { schema: { type: "integer", minimum: 0 }, required: true, description: "Requests left today." },
  "X-RateLimit-Reset": { schema: { type: "integer", minimum: 0 }, required: true, description: "Unix time of the next reset (00:00 UTC)." },
  "Retry-After": { schema: { type: "integer", minimum: 1 }, required: true, description: "Seconds to wait before retrying (429: until the daily limit resets; 503: until compute is expected back)." },
  Allow: { schema: { type: "string" }, required: true, description: "The methods this path answers, comma-separated." },
  "Idempotent-Replayed": { schema: { type: "string", enum: ["true"] }, description: "Present when this is the stored first answer to a request with the same Idempotency-Key (nothing ran or was charged again)." },
  "Preference-Applied": { schema: { type: "string", enum: ["respond-async"] }, required: true, description: "The `Prefer: respond-async` preference was honoured (RFC 7240)." },
};
const ref = (...names: string[]): Headers => Object.fromEntries(names.map((n) => [n, { $ref: `#/components/headers/${n}` }]));

const RATE = ["X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"];
/** Rate-limit headers: on every answer to a request whose key was accepted (errors too), never on a 401. */
const rateHeaders = (required: boolean): Headers =>
  required ? ref(...RATE) : Object.fromEntries(RATE.map((n) => [n, { ...HEADER_COMPONENTS[n]!, required: false }]));
export const PREFERENCE_APPLIED = ref("Preference-Applied");

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
    ...(status === 429 || status === 503 ? ref("Retry-After") : {}),
    ...(status === 405 ? ref("Allow") : {}),
    ...(opts.idempotent && REPLAYED_STATUSES.has(status) ? ref("Idempotent-Replayed") : {}),
  };
}

const pascal = (code: string) => code.replace(/(^|_)(\w)/g, (_, __, ch: string) => ch.toUpperCase());

/** One schema per error code (components/schemas/<Code>Error): `code` and `status` are constants. */
const ERROR_SCHEMAS = Object.fromEntries(
  (Object.keys(ERROR_CODES) as ErrorCode[]).map((code) => [
    code,
    z
      .object({ error: z.object({ code: z.literal(code), message: z.string().openapi({ description: "Human-readable explanation naming the problem." }), status: z.literal(ERROR_CODES[code].status) }) })
      .openapi(`${pascal(code)}Error`, { description: ERROR_CODES[code].description }),
  ]),
) as unknown as Record<ErrorCode, z.ZodType>;

/** The error envelope for the codes of one status: one code's schema, or a union of them. */
function errorSchema(codes: ErrorCode[]): z.ZodType {
  const schemas = codes.map((c) => ERROR_SCHEMAS[c]);
  return schemas.length === 1 ? schemas[0]! : z.union(schemas as [z.ZodType, z.ZodType, ...z.ZodType[]]);
}

/** OpenAPI responses for the given error codes, grouped by status, with the headers each carries. */
export function errorResponses(opts: ResponseOptions, ...codes: ErrorCode[]) {
  const byStatus: Record<number, ErrorCode[]> = {};
  for (const code of new Set([...codes, "method_not_allowed" as const])) (byStatus[ERROR_CODES[code].status] ??= []).push(code);
  return Object.fromEntries(
    Object.entries(byStatus).map(([key, list]) => {
      const status = Number(key);
      const description = list.map((c) => `\`${c}\`: ${c === "method_not_allowed" ? "this path is called with a method it does not answer (`Allow` lists the ones it does)." : ERROR_CODES[c].description}`).join("\n\n");
      return [status, { description, content: { "application/json": { schema: errorSchema(list) } }, ...withHeaders(headersFor(status, opts)) }];
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
