// Request and response examples for every operation, made from the OpenAPI document itself (the
// schemas' example, default, const and enum values, else a value of the right type), so they
// follow the schemas as they change. test/worker/docs.happy.test.ts validates each against its
// schema.
export type Schema = {
  $ref?: string;
  type?: string | string[];
  format?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  additionalProperties?: boolean | Schema;
  example?: unknown;
  default?: unknown;
  const?: unknown;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  description?: string;
};

type Components = { schemas?: Record<string, Schema> };

/** Strings by format: what a reader expects to see there. */
const FORMATTED: Record<string, string> = {
  uri: "https://example.com/file",
  "date-time": "2026-01-01T12:00:00.000Z",
  email: "you@example.com",
};

/**
 * An example value of `schema`. `all` includes optional properties (responses show everything a
 * client may meet); requests show the required fields and those with an example or default.
 */
export function exampleOf(schema: Schema, components: Components, all: boolean, depth = 0): unknown {
  if (schema.$ref) return exampleOf(components.schemas?.[schema.$ref.split("/").at(-1)!] ?? {}, components, all, depth);
  if (schema.example !== undefined) return schema.example;
  if (schema.const !== undefined) return schema.const;
  if (schema.default !== undefined) return schema.default;
  if (schema.enum?.length) return schema.enum[0];
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return exampleOf(alternatives.find((s) => s.type !== "null") ?? alternatives[0]!, components, all, depth);
  if (schema.allOf) return Object.assign({}, ...schema.allOf.map((s) => exampleOf(s, components, all, depth)));
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== "null") : schema.type;
  switch (type ?? (schema.properties ? "object" : undefined)) {
    case "object": {
      if (depth > 4) return {};
      const required = new Set(schema.required ?? []);
      const entries = Object.entries(schema.properties ?? {}).filter(([name, s]) => all || required.has(name) || s.example !== undefined || s.default !== undefined);
      return Object.fromEntries(entries.map(([name, s]) => [name, exampleOf(s, components, all, depth + 1)]));
    }
    case "array":
      return schema.items ? [exampleOf(schema.items, components, all, depth + 1)] : [];
    case "integer":
    case "number":
      return Math.max(schema.minimum ?? 1, Math.min(schema.maximum ?? 1, 1));
    case "boolean":
      return true;
    case "string":
      return (schema.format && FORMATTED[schema.format]) ?? "string";
    default:
      return null;
  }
}
