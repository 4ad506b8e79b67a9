// Fetching an external media URL with the SSRF guard (part 2; part 1 is the static policy in
// schema/media-url.ts). Order of checks for every hop (the original URL and each redirect):
//   1. the static URL policy (scheme, credentials, localhost names, IP literals, signed URLs);
//   2. DNS: resolve ALL addresses; refuse if ANY is not public (an attacker's name may answer
//      with a public and a private address and let the OS pick);
//   3. connect to the vetted address only: node:http(s) with a `lookup` that returns it, so a
//      second DNS answer (rebinding) can never be used. Host header and TLS SNI/certificate
//      check still use the name, so HTTPS and virtual hosts work as usual;
//   4. at most FETCH_MAX_REDIRECTS redirects, one overall deadline, and a byte limit enforced
//      both on Content-Length (refused before reading) and while streaming (stops at the limit).
// No proxy environment variables are honoured and no compression is negotiated
// (Accept-Encoding: identity), so the byte limit counts exactly what we keep.

import http from "node:http";
import https from "node:https";
import { lookup as dnsLookup } from "node:dns/promises";
import { open, rm } from "node:fs/promises";
import type { LookupFunction } from "node:net";
import { ApiError } from "../../schema/errors.ts";
import { checkMediaUrl, isPublicAddress } from "../../schema/media-url.ts";
import { FETCH_MAX_REDIRECTS, FETCH_TIMEOUT_MS, maxBytesFor } from "../../schema/limits.ts";

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** The guard's decisions, injectable so tests can reach a local server on purpose. */
export interface FetchPolicy {
  /** Static URL check; throws ApiError. Default: checkMediaUrl. */
  checkUrl: (url: string) => URL;
  /** Whether a resolved address may be connected to. Default: isPublicAddress. */
  isAllowedAddress: (ip: string) => boolean;
  /** DNS resolution returning every address. Default: node:dns lookup with all: true. */
  resolve: (hostname: string) => Promise<ResolvedAddress[]>;
}

export interface FetchMediaOptions {
  /** Byte limit; past it: media_too_large. */
  maxBytes: number;
  /** Overall deadline for DNS, connects, redirects and body, in ms. */
  timeoutMs: number;
  /** Most redirects followed. Default FETCH_MAX_REDIRECTS (3). */
  maxRedirects?: number;
  policy?: Partial<FetchPolicy>;
  signal?: AbortSignal;
}

export interface FetchedMedia {
  bytes: Buffer;
  /** The URL the body came from (after redirects). */
  url: string;
  /** The server's Content-Type: informative only, never trusted for the format. */
  contentType: string | null;
  redirects: number;
}

const USER_AGENT = "ObscuraMediaFetcher/1.0 (+media privacy service)";

async function defaultResolve(hostname: string): Promise<ResolvedAddress[]> {
  const all = await dnsLookup(hostname, { all: true, verbatim: true });
  return all.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
}

/** Defaults for a media kind: the limits of schema/limits.ts. */
export function fetchOptionsFor(kind: "image" | "video"): FetchMediaOptions {
  return { maxBytes: maxBytesFor(kind), timeoutMs: FETCH_TIMEOUT_MS[kind] };
}

/** Fetches a media URL into memory with the SSRF guard. Throws ApiError. */
export async function fetchMedia(url: string, opts: FetchMediaOptions): Promise<FetchedMedia> {
  const chunks: Buffer[] = [];
  const r = await guardedFetch(url, opts, async (chunk) => {
    chunks.push(chunk);
  });
  return { bytes: Buffer.concat(chunks), url: r.url, contentType: r.contentType, redirects: r.redirects };
}

/**
 * Fetches bytes start..end (inclusive) of a media URL, with the same guard: the bytes and the whole
 * file's size, or null when the server does not serve ranges (it answered with the whole file,
 * which is then not read). The byte limit applies to the whole file's size.
 */
export async function fetchMediaRange(url: string, start: number, end: number, opts: FetchMediaOptions): Promise<{ bytes: Buffer; total: number } | null> {
  const chunks: Buffer[] = [];
  const r = await guardedFetch(url, opts, async (chunk) => {
    chunks.push(chunk);
  }, { start, end });
  return r.total === undefined ? null : { bytes: Buffer.concat(chunks), total: r.total };
}

/** Fetches a media URL into a file (for videos), with the same guard. Removes the file on failure. */
export async function fetchMediaToFile(
  url: string,
  path: string,
  opts: FetchMediaOptions,
): Promise<{ path: string; size: number; url: string; contentType: string | null; redirects: number }> {
  const fh = await open(path, "w");
  let size = 0;
  try {
    const r = await guardedFetch(url, opts, async (chunk) => {
      await fh.write(chunk);
      size += chunk.length;
    });
    await fh.close();
    return { path, size, ...r };
  } catch (e) {
    await fh.close().catch(() => {});
    await rm(path, { force: true });
    throw e;
  }
}

type Sink = (chunk: Buffer) => Promise<void>;
/** Bytes start..end of the body, inclusive (an HTTP Range). */
type ByteRange = { start: number; end: number };

async function guardedFetch(
  url: string,
  opts: FetchMediaOptions,
  sink: Sink,
  range?: ByteRange,
): Promise<{ url: string; contentType: string | null; redirects: number; total?: number }> {
  const policy: FetchPolicy = {
    checkUrl: opts.policy?.checkUrl ?? checkMediaUrl,
    isAllowedAddress: opts.policy?.isAllowedAddress ?? isPublicAddress,
    resolve: opts.policy?.resolve ?? defaultResolve,
  };
  const maxRedirects = opts.maxRedirects ?? FETCH_MAX_REDIRECTS;
  const deadline = Date.now() + opts.timeoutMs;
  const timeoutError = () => new ApiError("media_unreachable", `Fetching the media URL took longer than ${Math.round(opts.timeoutMs / 1000)} s.`);

  let current = policy.checkUrl(url);
  for (let redirects = 0; ; redirects++) {
    const address = await withDeadline(vetHost(current, policy), deadline, timeoutError);
    const hop = await requestOnce(current, address, deadline, opts, sink, timeoutError, range);
    if (hop.kind === "body") return { url: current.href, contentType: hop.contentType, redirects, total: hop.total };
    if (redirects >= maxRedirects) {
      throw new ApiError("media_unreachable", `The media URL redirected more than ${maxRedirects} times.`);
    }
    let next: string;
    try {
      next = new URL(hop.location, current).href;
    } catch {
      throw new ApiError("media_unreachable", "The media URL redirected to an invalid location.");
    }
    // The redirect target faces the same policy as the original URL (a public URL may
    // redirect to http://169.254.169.254/).
    current = policy.checkUrl(next);
  }
}

/** Resolves the host and returns the one address to connect to, or throws. */
async function vetHost(u: URL, policy: FetchPolicy): Promise<ResolvedAddress> {
  const host = u.hostname.startsWith("[") ? u.hostname.slice(1, -1) : u.hostname;
  let addresses: ResolvedAddress[];
  if (/^[0-9.]+$/.test(host)) addresses = [{ address: host, family: 4 }];
  else if (host.includes(":")) addresses = [{ address: host, family: 6 }];
  else {
    try {
      addresses = await policy.resolve(host);
    } catch (e) {
      throw new ApiError("media_unreachable", `The media URL host "${host}" could not be resolved (${(e as NodeJS.ErrnoException).code ?? "DNS error"}).`);
    }
  }
  if (addresses.length === 0) throw new ApiError("media_unreachable", `The media URL host "${host}" has no address.`);
  const bad = addresses.find((a) => !policy.isAllowedAddress(a.address));
  if (bad) {
    throw new ApiError("media_url_not_allowed", `The media URL host "${host}" resolves to ${bad.address}, a private, loopback, link-local or reserved address; media URLs must be publicly reachable.`);
  }
  return addresses[0];
}

/** `total`: the whole file's size, when a range was asked for and served (206). */
type Hop = { kind: "body"; contentType: string | null; total?: number } | { kind: "redirect"; location: string };

function requestOnce(
  u: URL,
  address: ResolvedAddress,
  deadline: number,
  opts: FetchMediaOptions,
  sink: Sink,
  timeoutError: () => ApiError,
  range?: ByteRange,
): Promise<Hop> {
  return new Promise<Hop>((resolve, reject) => {
    const remaining = deadline - Date.now();
    if (remaining <= 0) return reject(timeoutError());
    // Before a request exists: destroyed before its error listener is on, it would throw "socket hang up" out of the process.
    if (opts.signal?.aborted) return reject(cancelled());
    let settled = false;
    const fail = (e: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      opts.signal?.removeEventListener("abort", onAbort);
      req.destroy();
      reject(e);
    };
    const done = (h: Hop) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      opts.signal?.removeEventListener("abort", onAbort);
      resolve(h);
    };
    // The pinned lookup: whatever name Node asks for, it gets the vetted address.
    const pinned: LookupFunction = (_hostname, options, callback) => {
      const cb = callback as (...args: unknown[]) => void;
      if (typeof options === "object" && options?.all) cb(null, [{ address: address.address, family: address.family }]);
      else cb(null, address.address, address.family);
    };
    const lib = u.protocol === "https:" ? https : http;
    const host = u.hostname.startsWith("[") ? u.hostname.slice(1, -1) : u.hostname;
    const req = lib.request({
      protocol: u.protocol,
      host,
      port: u.port || (u.protocol === "https:" ? 443 : 80),
      path: `${u.pathname}${u.search}`,
      method: "GET",
      agent: false, // one fresh connection per hop: no pooled socket to another address
      lookup: pinned,
      headers: {
        "user-agent": USER_AGENT,
        accept: "image/*, video/*;q=0.9, */*;q=0.5",
        "accept-encoding": "identity",
        ...(range ? { range: `bytes=${range.start}-${range.end}` } : {}),
      },
    });
    const timer = setTimeout(() => fail(timeoutError()), remaining);
    const onAbort = () => fail(cancelled());
    opts.signal?.addEventListener("abort", onAbort, { once: true });

    req.on("error", (e: NodeJS.ErrnoException) => {
      if (e instanceof ApiError) return fail(e);
      fail(new ApiError("media_unreachable", `The media URL could not be fetched (${e.code ?? e.message}).`));
    });
    req.on("response", (res) => {
      const status = res.statusCode ?? 0;
      if ([301, 302, 303, 307, 308].includes(status)) {
        const location = res.headers.location;
        res.resume();
        if (!location) return fail(new ApiError("media_unreachable", `The media URL answered HTTP ${status} without a Location.`));
        return done({ kind: "redirect", location });
      }
      if (status < 200 || status > 299) {
        res.resume();
        return fail(new ApiError("media_unreachable", `The media URL answered HTTP ${status}.`));
      }
      const contentType = res.headers["content-type"] ?? null;
      let total: number | undefined;
      let keep = opts.maxBytes;
      if (range) {
        // A server that ignores the Range header sends the whole file: not read, the caller falls back.
        if (status !== 206) {
          res.destroy();
          return done({ kind: "body", contentType });
        }
        const served = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(String(res.headers["content-range"] ?? ""));
        if (!served || Number(served[1]) !== range.start || Number(served[2]) > range.end) {
          return fail(new ApiError("media_unreachable", `The media URL answered a range request with another range (${res.headers["content-range"] ?? "none"}).`));
        }
        total = Number(served[3]);
        if (total > opts.maxBytes) return fail(tooLarge(opts.maxBytes, total));
        keep = Number(served[2]) - range.start + 1;
      } else {
        const declared = Number(res.headers["content-length"]);
        if (Number.isFinite(declared) && declared > opts.maxBytes) {
          return fail(tooLarge(opts.maxBytes, declared));
        }
      }
      void (async () => {
        let received = 0;
        try {
          for await (const chunk of res as AsyncIterable<Buffer>) {
            if (settled) return;
            received += chunk.length;
            if (received > keep) return fail(range ? new ApiError("media_unreachable", "The media URL sent more than the range asked for.") : tooLarge(opts.maxBytes));
            await sink(chunk);
          }
          if (!res.complete) return fail(new ApiError("media_unreachable", "The media URL connection closed before the whole body arrived."));
          done({ kind: "body", contentType, total });
        } catch (e) {
          fail(e instanceof ApiError ? e : new ApiError("media_unreachable", `Reading the media URL failed (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}).`));
        }
      })();
    });
    req.end();
  });
}

const cancelled = () => new ApiError("media_unreachable", "Fetching the media URL was cancelled.");

function tooLarge(max: number, declared?: number): ApiError {
  const mb = (n: number) => `${(n / (1024 * 1024)).toFixed(1)} MiB`;
  return new ApiError("media_too_large", declared !== undefined
    ? `The media is ${mb(declared)}, over the limit of ${mb(max)}.`
    : `The media is larger than the limit of ${mb(max)}.`);
}

async function withDeadline<T>(p: Promise<T>, deadline: number, err: () => Error): Promise<T> {
  let t: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    t = setTimeout(() => reject(err()), Math.max(0, deadline - Date.now()));
  });
  try {
    return await Promise.race([p, timeout]);
  } finally {
    clearTimeout(t);
  }
}
