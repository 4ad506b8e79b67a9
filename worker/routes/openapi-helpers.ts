// Shared pieces of route definitions: error responses and security for the OpenAPI document.
import { ERROR_CODES, type ErrorCode } from "../../schema/errors.ts";
import { ErrorBody } from "../../schema/api/resources.ts";

const RATE_HEADERS = {
  "X-RateLimit-Limit": { schema: { type: "integer" as const }, description: "Requests allowed per UTC day." },
  "X-RateLimit-Remaining": { schema: { type: "integer" as const }, description: "Requests left today." },
  "X-RateLimit-Reset": { schema: { type: "integer" as const }, description: "Unix time of the next reset (00:00 UTC)." },
};

export const rateHeaders = RATE_HEADERS;

/** OpenAPI responses for the given error codes, grouped by status. */
export function errorResponses(...codes: ErrorCode[]) {
  const byStatus: Record<number, ErrorCode[]> = {};
  for (const code of codes) (byStatus[ERROR_CODES[code].status] ??= []).push(code);
  return Object.fromEntries(
    Object.entries(byStatus).map(([status, list]) => [
      status,
      {
        description: list.map((c) => `\`${c}\`: ${ERROR_CODES[c].description}`).join("\n\n"),
        content: { "application/json": { schema: ErrorBody } },
        headers: RATE_HEADERS,
      },
    ]),
  );
}

/** Errors every authenticated endpoint can answer. */
export const COMMON_ERRORS: ErrorCode[] = ["unauthorized", "rate_limited", "internal_error"];
export const BEARER = [{ bearerAuth: [] }];
