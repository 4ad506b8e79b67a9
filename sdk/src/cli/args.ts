// The command line: the CLI's own options through node:util parseArgs, and every other `--name`
// kept as a feature parameter. Feature parameters are only known once GET /features answered, so
// they are collected here as strings and typed later by coerceParams against the feature's schema.
import { parseArgs } from "node:util";
import { UsageError } from "./exit-codes.ts";

/** A `--name [value]` the CLI does not own: a feature parameter, typed once the schema is known. */
export interface RawParam {
  /** The request field: `--blur-strength` and `--blur_strength` both name `blur_strength`. */
  name: string;
  /** As typed, for messages. */
  flag: string;
  /** Absent for a bare `--flag` (true for a boolean parameter). */
  value?: string;
}

export type Command =
  | { name: "help" }
  | { name: "features"; json: boolean }
  | { name: "credits"; json: boolean }
  | { name: "run"; feature: string; input: string; output?: string; params: RawParam[]; json: boolean; concurrency: number };

export const DEFAULT_CONCURRENCY = 2;
export const MAX_CONCURRENCY = 16;

const OPTIONS = {
  output: { type: "string", short: "o" },
  json: { type: "boolean" },
  concurrency: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

/** A dotted catalog id as GET /features lists them (image.face-blur, video.object-removal). */
export const FEATURE_ID = /^(image|video)\.[a-z][a-z0-9-]*$/;

export function parseCommandLine(argv: string[]): Command {
  // strict: false keeps unknown options as tokens instead of throwing; tokens keep their order,
  // so the value of a feature parameter is the positional right after it.
  const { tokens } = parseArgs({ args: argv, options: OPTIONS, strict: false, allowPositionals: true, tokens: true });
  const positionals: string[] = [];
  const params: RawParam[] = [];
  let output: string | undefined;
  let json = false;
  let help = false;
  let concurrency: string | undefined;
  const consumed = new Set<number>();

  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token.kind === "option-terminator") continue;
    if (token.kind === "positional") {
      if (!consumed.has(token.index)) positionals.push(token.value);
      continue;
    }
    const known = token.name in OPTIONS ? (token.name as keyof typeof OPTIONS) : undefined;
    if (known === "help") help = true;
    else if (known === "json") {
      if (token.inlineValue) throw new UsageError(`${token.rawName} takes no value`);
      json = true;
    } else if (known === "output" || known === "concurrency") {
      // `-o --json` would take "--json" as the path: a value starting with "-" must be inline (-o=-x).
      const missing = token.value === undefined || token.value === "" || (!token.inlineValue && token.value.startsWith("-"));
      if (missing) throw new UsageError(`${token.rawName} needs a value`);
      if (known === "output") output = token.value;
      else concurrency = token.value;
    } else {
      if (!token.rawName.startsWith("--")) throw new UsageError(`unknown option ${token.rawName}`);
      const name = token.name.replaceAll("-", "_");
      if (params.some((p) => p.name === name)) throw new UsageError(`${token.rawName} is given twice`);
      let value = token.inlineValue ? token.value : undefined;
      const next = tokens[i + 1];
      if (value === undefined && next?.kind === "positional" && next.index === token.index + 1) {
        value = next.value;
        consumed.add(next.index);
      }
      params.push({ name, flag: token.rawName, value });
    }
  }

  if (help || positionals.length === 0 || positionals[0] === "help") return { name: "help" };
  const [first, ...rest] = positionals as [string, ...string[]];

  if (first === "features" || first === "credits") {
    if (rest.length) throw new UsageError(`unexpected argument "${rest[0]}" after ${first}`);
    if (params.length) throw new UsageError(`${first} takes no ${params[0]!.flag}`);
    if (output !== undefined || concurrency !== undefined) throw new UsageError(`${first} takes only --json`);
    return { name: first, json };
  }

  if (!FEATURE_ID.test(first)) throw new UsageError(`unknown command or feature id "${first}" (try: obscura features)`);
  if (rest.length === 0) throw new UsageError(`${first} needs a file, folder or URL to process`);
  if (rest.length > 1) throw new UsageError(`unexpected argument "${rest[1]}" (one input per run; give a folder for many files)`);
  return { name: "run", feature: first, input: rest[0]!, output, params, json, concurrency: parseConcurrency(concurrency) };
}

function parseConcurrency(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_CONCURRENCY;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > MAX_CONCURRENCY) throw new UsageError(`--concurrency must be a whole number from 1 to ${MAX_CONCURRENCY} (got "${raw}")`);
  return n;
}

/** The part of a JSON schema the CLI reads to type a parameter. */
export interface ParamSchema {
  type?: string | string[];
  anyOf?: ParamSchema[];
  enum?: unknown[];
}

export interface RequestSchema {
  properties?: Record<string, ParamSchema>;
}

/** The media fields a feature takes its input in; the input argument fills it, never a --flag. */
export const MEDIA_FIELDS = ["image_url", "video_url", "media_url"] as const;

function typeOf(schema: ParamSchema): string | undefined {
  const t = Array.isArray(schema.type) ? schema.type.find((x) => x !== "null") : schema.type;
  if (t) return t;
  for (const alt of schema.anyOf ?? []) {
    const inner = typeOf(alt);
    if (inner && inner !== "null") return inner;
  }
  return undefined;
}

/**
 * Types each raw parameter by the feature's request schema (numbers, integers, booleans, lists as
 * JSON; strings as given). Ranges, patterns and enums are left to the service, whose 400 names the field and rule.
 */
export function coerceParams(featureId: string, schema: RequestSchema, raw: RawParam[]): Record<string, unknown> {
  const properties = schema.properties ?? {};
  const allowed = Object.keys(properties).filter((k) => !(MEDIA_FIELDS as readonly string[]).includes(k));
  const out: Record<string, unknown> = {};
  for (const param of raw) {
    if ((MEDIA_FIELDS as readonly string[]).includes(param.name)) throw new UsageError(`${param.flag}: give the media as the input argument (a file, folder or URL)`);
    const prop = properties[param.name];
    if (!prop) {
      const list = allowed.length ? allowed.map((k) => `--${k}`).join(", ") : "none";
      throw new UsageError(`unknown parameter ${param.flag} for ${featureId} (its parameters: ${list})`);
    }
    out[param.name] = coerceValue(param, typeOf(prop));
  }
  return out;
}

function coerceValue(param: RawParam, type: string | undefined): unknown {
  const { flag, value } = param;
  if (type === "boolean") {
    if (value === undefined) return true;
    if (/^(true|1|yes|on)$/i.test(value)) return true;
    if (/^(false|0|no|off)$/i.test(value)) return false;
    throw new UsageError(`${flag} must be true or false (got "${value}")`);
  }
  if (value === undefined) throw new UsageError(`${flag} needs a value`);
  if (type === "number" || type === "integer") {
    const n = value.trim() === "" ? NaN : Number(value);
    if (!Number.isFinite(n)) throw new UsageError(`${flag} must be a number (got "${value}")`);
    if (type === "integer" && !Number.isInteger(n)) throw new UsageError(`${flag} must be a whole number (got "${value}")`);
    return n;
  }
  // Lists (include_regions, exclude_regions) are given as JSON: --exclude_regions '[{"x":0,"y":0,"w":0.5,"h":1}]'.
  if (type === "array" || type === "object") {
    try {
      return JSON.parse(value);
    } catch {
      throw new UsageError(`${flag} must be JSON (got "${value}")`);
    }
  }
  return value;
}
