// The one place that talks HTTP: bearer key, base URL, JSON in and out, and every error answer
// turned into an ObscuraError. `fetch` is injectable (tests, proxies, other runtimes).
import { ObscuraError, type RateLimit } from "./errors.ts";

export interface ClientOptions {
  /** An API key (obs_live_...). */
  apiKey: string;
  /** The API root including /api/v2; default http://127.0.0.1:8787/api/v2 (the local stack). */
  baseUrl?: string;
  fetch?: (input: string, init?: RequestInit) => Promise<Response>;
}

export interface RequestOptions {
  json?: unknown;
  body?: BodyInit;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** "half" when `body` is a ReadableStream (Node's fetch refuses a stream body without it). */
  duplex?: "half";
}

export interface Answer<T> {
  data: T;
  status: number;
  headers: Headers;
  rateLimit?: RateLimit;
}

export const DEFAULT_BASE_URL = "http://127.0.0.1:8787/api/v2";

export function rateLimitOf(headers: Headers): RateLimit | undefined {
  const [limit, remaining, reset] = ["limit", "remaining", "reset"].map((n) => headers.get(`x-ratelimit-${n}`));
  if (limit === null || remaining === null || reset === null) return undefined;
  return { limit: Number(limit), remaining: Number(remaining), reset: Number(reset) };
}

/** The error an answer carries: its envelope when it has one, else a generic one for the status. */
export async function errorOf(res: Response): Promise<ObscuraError> {
  const retry = res.headers.get("retry-after");
  const extra = { retryAfter: retry !== null && /^\d+$/.test(retry) ? Number(retry) : undefined, rateLimit: rateLimitOf(res.headers) };
  try {
    const body = (await res.json()) as { error?: { code?: unknown; message?: unknown } };
    if (typeof body.error?.code === "string") return new ObscuraError(body.error.code, res.status, String(body.error.message ?? body.error.code), extra);
  } catch {
    // not an envelope: fall through
  }
  return new ObscuraError("http_error", res.status, `HTTP ${res.status} ${res.statusText}`.trim(), extra);
}

export class Transport {
  readonly baseUrl: string;
  private readonly apiKey: string;
  private readonly fetchImpl: (input: string, init?: RequestInit) => Promise<Response>;

  constructor(opts: ClientOptions) {
    if (!opts.apiKey) throw new TypeError("apiKey is required (set OBSCURA_API_KEY)");
    this.apiKey = opts.apiKey;
    this.baseUrl = (opts.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, "");
    this.fetchImpl = opts.fetch ?? ((input, init) => fetch(input, init));
  }

  /** An absolute URL for an API path ("/me") or a URL the API handed out. */
  url(pathOrUrl: string): string {
    return /^https?:\/\//.test(pathOrUrl) ? pathOrUrl : `${this.baseUrl}${pathOrUrl}`;
  }

  /** A raw answer; `auth: false` for URLs that must not receive the key (signed upload URLs). */
  async raw(method: string, pathOrUrl: string, opts: RequestOptions & { auth?: boolean } = {}): Promise<Response> {
    const headers = new Headers(opts.headers);
    if (opts.auth !== false) headers.set("authorization", `Bearer ${this.apiKey}`);
    let body = opts.body;
    if (opts.json !== undefined) {
      body = JSON.stringify(opts.json);
      headers.set("content-type", "application/json");
    }
    const init: RequestInit & { duplex?: "half" } = { method, headers, body, signal: opts.signal };
    if (opts.duplex) init.duplex = opts.duplex;
    return this.fetchImpl(this.url(pathOrUrl), init);
  }

  /** A JSON answer, or an ObscuraError for any error status. */
  async request<T>(method: string, pathOrUrl: string, opts: RequestOptions & { auth?: boolean } = {}): Promise<Answer<T>> {
    const res = await this.raw(method, pathOrUrl, opts);
    if (!res.ok) throw await errorOf(res);
    return { data: (await res.json()) as T, status: res.status, headers: res.headers, rateLimit: rateLimitOf(res.headers) };
  }
}
