// Checks a live answer against the served OpenAPI document: the operation (by method and path),
// the status, the Content-Type, the body (JSON Schema, with Ajv) and the headers. Response
// objects are validated "closed": an object schema that does not say otherwise gets
// additionalProperties: false here, so a field the service sends but the document leaves out
// is a mismatch too. Headers: every required header must be present, every header the service
// owns (rate limit, Retry-After, Allow, Preference-Applied, Idempotent-Replayed) that is present
// must be declared on that response, and each value must match its schema.
import Ajv from "ajv";

type Schema = Record<string, unknown>;
interface HeaderObject { schema?: Schema; required?: boolean }
interface ResponseObject { content?: Record<string, { schema?: Schema }>; headers?: Record<string, HeaderObject | { $ref: string }> }
interface Operation { responses: Record<string, ResponseObject>; requestBody?: { required?: boolean; content: Record<string, { schema: Schema }> } }
export interface OpenApiDoc {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema>; headers?: Record<string, HeaderObject> };
}

/** Headers the service itself sets on API answers; present means they must be declared. */
const OWNED_HEADERS = ["x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset", "retry-after", "allow", "preference-applied", "idempotent-replayed"];

/** A copy of a schema in which every object schema without additionalProperties is closed. */
function closed(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closed);
  if (!schema || typeof schema !== "object") return schema;
  const out: Schema = {};
  for (const [k, v] of Object.entries(schema)) out[k] = k === "enum" || k === "const" || k === "example" || k === "default" ? v : closed(v);
  if (out.type === "object" && out.properties && out.additionalProperties === undefined) out.additionalProperties = false;
  return out;
}

/** Ajv 6 matches patterns without the Unicode flag: leave out the ones that need it (\p{...}, \u{...}). */
function withoutUnicodePatterns(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutUnicodePatterns);
  if (!schema || typeof schema !== "object") return schema;
  const out: Schema = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === "pattern" && typeof v === "string" && /\\[pu]\{/.test(v)) continue;
    out[k] = withoutUnicodePatterns(v);
  }
  return out;
}

function mediaTypeMatches(declared: string, actual: string): boolean {
  if (declared === actual || declared === "*/*") return true;
  return declared.endsWith("/*") && actual.startsWith(declared.slice(0, -1));
}

function headerValueMatches(schema: Schema | undefined, value: string): boolean {
  if (!schema) return true;
  if (schema.type === "integer") {
    if (!/^-?\d+$/.test(value)) return false;
    if (typeof schema.minimum === "number" && Number(value) < schema.minimum) return false;
  }
  if (Array.isArray(schema.enum) && !schema.enum.includes(value)) return false;
  return true;
}

export class Contract {
  readonly doc: OpenApiDoc;
  private readonly ajv = new Ajv({ allErrors: true, unknownFormats: "ignore" });
  private readonly components: unknown;
  private readonly templates: Array<{ path: string; pattern: RegExp }>;

  constructor(doc: OpenApiDoc) {
    this.doc = doc;
    this.components = closed(doc.components);
    this.templates = Object.keys(doc.paths).map((path) => ({ path, pattern: new RegExp(`^${path.replace(/\{[^}]+\}/g, "[^/]+")}$`) }));
  }

  /** The documented path template a URL path falls under, if any. */
  pathOf(pathname: string): string | undefined {
    return this.templates.find((t) => t.pattern.test(pathname))?.path;
  }

  /** Validates data against a schema of the document (refs resolve into its components). */
  validate(schema: Schema, data: unknown, opts: { closed: boolean }): string[] {
    const root = { allOf: [withoutUnicodePatterns(opts.closed ? closed(schema) : schema)], components: withoutUnicodePatterns(opts.closed ? this.components : this.doc.components) };
    const check = this.ajv.compile(root);
    return check(data) ? [] : (check.errors ?? []).map((e) => `${e.dataPath || "(body)"} ${e.message}${e.params && "additionalProperty" in e.params ? ` (${String(e.params.additionalProperty)})` : ""}`);
  }

  /** A header object, through its $ref into components/headers. */
  header(h: HeaderObject | { $ref: string }): HeaderObject {
    if (!("$ref" in h)) return h;
    const found = this.doc.components.headers?.[h.$ref.replace("#/components/headers/", "")];
    if (!found) throw new Error(`unresolved header ${h.$ref}`);
    return found;
  }

  /** The JSON request schema of an operation. */
  requestSchema(method: string, path: string, contentType = "application/json"): Schema {
    const schema = this.doc.paths[path]?.[method.toLowerCase()]?.requestBody?.content[contentType]?.schema;
    if (!schema) throw new Error(`no ${contentType} request body on ${method} ${path}`);
    return schema;
  }

  /** Every way the answer departs from the document (empty when it conforms). */
  async check(method: string, url: string, res: Response): Promise<string[]> {
    const where = `${method} ${new URL(url).pathname} -> ${res.status}`;
    const problems: string[] = [];
    const path = this.pathOf(new URL(url).pathname);
    const contentType = (res.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
    const bodyText = contentType === "application/json" ? await res.clone().text() : "";

    let response: ResponseObject | undefined;
    if (!path) {
      // Outside the document only "no such route" is a legitimate answer.
      if (res.status !== 404) problems.push(`${where}: path not in the document`);
      response = { content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } };
    } else {
      const ops = this.doc.paths[path]!;
      const op = ops[method.toLowerCase()] ?? (method === "HEAD" ? ops.get : undefined);
      if (op) response = op.responses[String(res.status)] ?? op.responses.default;
      // A method the path does not answer: the path's operations declare the 405.
      else if (res.status === 405) response = Object.values(ops).find((o) => o.responses["405"])?.responses["405"];
      if (!op && res.status !== 405) problems.push(`${where}: ${method} is not an operation of ${path}`);
      else if (!response) problems.push(`${where}: status ${res.status} not declared`);
    }
    if (!response) return problems;

    // Content
    const declared = Object.entries(response.content ?? {});
    if (declared.length) {
      const media = declared.find(([type]) => mediaTypeMatches(type, contentType));
      if (!media) problems.push(`${where}: Content-Type ${contentType || "(none)"} not declared (${declared.map(([t]) => t).join(", ")})`);
      else if (contentType === "application/json" && media[1].schema) {
        let body: unknown;
        try {
          body = JSON.parse(bodyText);
        } catch {
          problems.push(`${where}: body is not JSON`);
        }
        if (body !== undefined) problems.push(...this.validate(media[1].schema, body, { closed: true }).map((p) => `${where}: body ${p}`));
        if (!path && body !== undefined && (body as { error?: { code?: string } }).error?.code !== "not_found") problems.push(`${where}: an unknown path must answer not_found`);
      }
    }

    // Headers (an answer outside the document has no declared headers to compare with)
    if (!path) return problems;
    const headers = Object.fromEntries(Object.entries(response.headers ?? {}).map(([name, h]) => [name.toLowerCase(), this.header(h)]));
    for (const [name, h] of Object.entries(headers)) {
      const value = res.headers.get(name);
      if (value === null) {
        if (h.required) problems.push(`${where}: required header ${name} missing`);
      } else if (!headerValueMatches(h.schema, value)) problems.push(`${where}: header ${name}: ${JSON.stringify(value)} does not match ${JSON.stringify(h.schema)}`);
    }
    for (const name of OWNED_HEADERS) {
      if (res.headers.has(name) && !headers[name]) problems.push(`${where}: header ${name} sent but not declared`);
    }
    return problems;
  }
}
