// Renders every failure as the SPEC's envelope {"error":{"code","message","status"}}.
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { ApiError, errorEnvelope, type ErrorCode } from "../schema/errors.ts";
import { COMPUTE_RETRY_AFTER_S } from "./services/compute.ts";

export function errorResponse(code: ErrorCode, message: string, headers?: HeadersInit): Response {
  const body = errorEnvelope(code, message);
  const res = Response.json(body, { status: body.error.status, headers });
  return res;
}

export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof HTTPException) {
    if (err.status === 415) return new ApiError("unsupported_media_type", "Content-Type must be application/json or multipart/form-data.");
    if (err.status === 400 && /json/i.test(err.message)) return new ApiError("invalid_json", "The body is not valid JSON.");
    if (err.status === 400) return new ApiError("invalid_request", err.message || "Bad request.");
    if (err.status === 401) return new ApiError("unauthorized", err.message || "Unauthorized.");
    if (err.status === 404) return new ApiError("not_found", err.message || "Not found.");
  }
  return new ApiError("internal_error", "An unexpected error occurred; nothing was charged. Please retry.");
}

export function onError(err: Error, c: Context): Response {
  const apiError = toApiError(err);
  // Log the cause of internal errors for operators; never log request bodies or headers (keys).
  if (apiError.code === "internal_error") console.error("internal error:", err.stack ?? err.message);
  const res = errorResponse(apiError.code, apiError.message);
  // Compute is restarted or freed within seconds: say when to come back.
  if (apiError.code === "compute_unavailable") res.headers.set("Retry-After", String(COMPUTE_RETRY_AFTER_S));
  for (const [name, value] of c.res?.headers ?? []) {
    if (name.toLowerCase().startsWith("x-ratelimit") || name.toLowerCase() === "retry-after") res.headers.set(name, value);
  }
  return res;
}
