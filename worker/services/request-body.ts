// Reads a POST body as JSON or multipart/form-data (the Content-Type must say which), coerces
// multipart text fields to the schema's types and validates with the feature's zod schema.
// Validation messages name the field and the rule.
import type { z } from "@hono/zod-openapi";
import { ApiError } from "../../schema/errors.ts";
import { MAX_JSON_BODY_BYTES } from "../../schema/limits.ts";

export interface ParsedBody<T> {
  params: T;
  /** The media file part of a multipart request, if it carried one. */
  file?: File;
}

/** The zod type under optional/default/nullable wrappers ("boolean", "number", "string", ...). */
function baseType(schema: z.ZodType): string {
  let def = (schema as unknown as { _zod: { def: { type: string; innerType?: z.ZodType } } })._zod.def;
  while (def.innerType && (def.type === "optional" || def.type === "default" || def.type === "nullable")) {
    def = (def.innerType as unknown as { _zod: { def: { type: string; innerType?: z.ZodType } } })._zod.def;
  }
  return def.type;
}

function coerceField(value: string, type: string): unknown {
  const v = value.trim();
  if (type === "boolean") return v === "true" ? true : v === "false" ? false : value;
  if (type === "number") return v !== "" && Number.isFinite(Number(v)) ? Number(v) : value;
  // Lists (include_regions, exclude_regions) travel as JSON text; what does not parse stays a
  // string and is refused naming the field.
  if (type === "array") {
    try {
      return JSON.parse(v);
    } catch {
      return value;
    }
  }
  return value;
}

export function formatIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => {
      const field = issue.path.join(".");
      if (issue.code === "unrecognized_keys") return `unknown field(s): ${namesForMessage(issue.keys)}`;
      if (issue.code === "invalid_type" && issue.input === undefined) return `${field} is required`;
      return field && !issue.message.startsWith(field) ? `${field}: ${issue.message}` : issue.message;
    })
    .join("; ");
}

/** Field names as a message shows them: at most 5, each cut to 40 characters (input is never echoed whole). */
function namesForMessage(keys: string[]): string {
  const shown = keys.slice(0, 5).map((k) => (k.length > 40 ? `${k.slice(0, 40)}...` : k));
  return shown.join(", ") + (keys.length > 5 ? ` and ${keys.length - 5} more` : "");
}

/** The start of a multipart/form-data body: a boundary line, then a part's Content-Disposition. */
const MULTIPART_BODY = /^(?:\r?\n)*--[^\r\n]{1,70}\r?\n(?:[^\r\n]+\r?\n)*?content-disposition:\s*form-data/i;

/** The body as text, refused (413) past `max` bytes without reading further: declared or streamed. */
async function readBounded(request: Request, max: number): Promise<string> {
  const tooLarge = () => new ApiError("request_too_large", `The JSON body is over ${max / 1024} KiB; send media by URL, upload or file part.`);
  if (Number(request.headers.get("content-length") ?? 0) > max) throw tooLarge();
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

export async function readBody<S extends z.ZodObject>(request: Request, schema: S, filePart?: string, mediaField?: string): Promise<ParsedBody<z.output<S>>> {
  const contentType = (request.headers.get("content-type") ?? "").toLowerCase();
  let raw: Record<string, unknown>;
  let file: File | undefined;
  if (contentType.startsWith("application/json") || /^application\/[a-z.+-]*\+json/.test(contentType)) {
    const text = await readBounded(request, MAX_JSON_BODY_BYTES);
    try {
      raw = text.trim() === "" ? {} : JSON.parse(text);
    } catch (err) {
      // A multipart body under a JSON Content-Type is a mismatch (415), not malformed JSON.
      if (MULTIPART_BODY.test(text)) throw new ApiError("unsupported_media_type", "The body is multipart/form-data but Content-Type says JSON; send Content-Type: multipart/form-data with its boundary.");
      throw new ApiError("invalid_json", `The body is not valid JSON: ${(err as Error).message}`);
    }
    if (raw === null || typeof raw !== "object" || Array.isArray(raw)) throw new ApiError("invalid_json", "The JSON body must be an object.");
  } else if (contentType.startsWith("multipart/form-data")) {
    let form: FormData;
    try {
      form = await request.formData();
    } catch {
      throw new ApiError("unsupported_media_type", "The body does not match Content-Type multipart/form-data (bad boundary or malformed parts).");
    }
    raw = {};
    for (const [name, value] of form.entries()) {
      if (typeof value !== "string") {
        if (name !== filePart) throw new ApiError("invalid_request", `Unexpected file part "${name}"${filePart ? `; the file part of this endpoint is "${filePart}"` : ""}.`);
        file = value as unknown as File;
        continue;
      }
      const field = schema.shape[name] as z.ZodType | undefined;
      raw[name] = field ? coerceField(value, baseType(field)) : value;
    }
  } else if (contentType === "" && (await request.clone().arrayBuffer()).byteLength === 0) {
    raw = {};
  } else {
    throw new ApiError("unsupported_media_type", `Content-Type must be application/json or multipart/form-data${contentType ? `, not ${contentType}` : ""}.`);
  }

  if (file && mediaField) {
    if (raw[mediaField] !== undefined) throw new ApiError("invalid_request", `Send either ${mediaField} or a "${filePart}" file part, not both.`);
    // The file stands in for the URL; the route replaces it with the stored upload's URL.
    raw[mediaField] = "file:";
  }
  // reportInput: zod 4 leaves `input` out of issues by default, and formatIssues needs it to tell
  // a missing field ("is required") from a present one of the wrong type.
  const result = schema.strict().safeParse(raw, { reportInput: true });
  if (!result.success) throw new ApiError("invalid_request", formatIssues(result.error));
  return { params: result.data as z.output<S>, file };
}
