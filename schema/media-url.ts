// The static media-URL policy (SSRF guard, part 1). Pure TypeScript, no Node or Worker APIs:
// the Worker runs it before accepting a request, the compute service runs it again on the
// original URL and on every redirect, and then checks each DNS answer with isPublicAddress
// (part 2, in compute/media/fetch.ts) because a public-looking name can resolve to 10.0.0.1.
//
// Policy (the spec: "private, signed or localhost media URLs fail"):
//  - only http: and https:, no user:password@ (invalid_media_url);
//  - no localhost or other non-public names: localhost, *.localhost, single-label names
//    ("intranet", "metadata"), and the special-use / private-use suffixes in
//    BLOCKED_NAME_SUFFIXES (.local mDNS, .internal, .home.arpa, .test, ...)
//    (media_url_not_allowed);
//  - IP literals only when public (see isPublicAddress). WHATWG URL parsing (Node and workerd
//    both use it) already turns 2130706433, 0x7f000001, 0177.0.0.1, 127.1 and %31%32%37.0.0.1
//    into 127.0.0.1 and ::ffff:127.0.0.1 into [::ffff:7f00:1]; we check the normalised form,
//    and as defence in depth refuse any name whose last label is numeric, which a conforming
//    parser would have turned into an address;
//  - no signed URLs: query parameters of AWS S3 (SigV2/SigV4), Google Cloud Storage, Azure SAS,
//    CloudFront, Alibaba OSS, Tencent COS, Backblaze B2, Akamai tokens (SIGNED_URL_RULES).

import { ApiError } from "./errors.ts";

/** Longest media URL accepted (characters). */
export const MAX_MEDIA_URL_LENGTH = 4096;

/** Host-name suffixes that never name a public host (RFC 6761/6762/8375, ICANN .internal). */
export const BLOCKED_NAME_SUFFIXES = [
  "localhost", "local", "internal", "intranet", "lan", "home", "corp", "private",
  "home.arpa", "test", "invalid", "example", "onion", "alt",
] as const;

/**
 * Signed-URL markers: each rule names query parameters (case-insensitive) that, present
 * together, mark the URL as signed. One rule matching is enough.
 */
export const SIGNED_URL_RULES: ReadonlyArray<{ provider: string; all: readonly string[] }> = [
  { provider: "AWS S3 SigV4", all: ["x-amz-signature"] },
  { provider: "AWS S3 SigV4", all: ["x-amz-credential"] },
  { provider: "AWS temporary credentials", all: ["x-amz-security-token"] },
  { provider: "AWS S3 SigV2", all: ["awsaccesskeyid"] },
  { provider: "Google Cloud Storage V4", all: ["x-goog-signature"] },
  { provider: "Google Cloud Storage V4", all: ["x-goog-credential"] },
  { provider: "Google Cloud Storage V2", all: ["googleaccessid"] },
  { provider: "CloudFront", all: ["key-pair-id"] },
  // "Signature" alone: S3 SigV2, CloudFront, OSS and many CDNs; a parameter of that name
  // carries a signature whatever the host.
  { provider: "signed URL", all: ["signature"] },
  { provider: "Alibaba OSS", all: ["ossaccesskeyid"] },
  { provider: "Alibaba OSS V4", all: ["x-oss-signature"] },
  { provider: "Tencent COS", all: ["q-signature"] },
  { provider: "Azure SAS", all: ["sig", "sv"] },
  { provider: "Azure SAS", all: ["sig", "se"] },
  { provider: "Azure SAS", all: ["sig", "sp"] },
  { provider: "Backblaze B2", all: ["authorization"] },
  { provider: "Akamai token", all: ["__token__"] },
  { provider: "Akamai token", all: ["hdnts"] },
  { provider: "Akamai token", all: ["hdnea"] },
  { provider: "Bunny CDN token", all: ["token", "expires"] },
];

/**
 * Parses and checks a media URL against the static policy. Returns the parsed URL;
 * throws ApiError `invalid_media_url` (malformed, scheme, credentials) or
 * `media_url_not_allowed` (localhost, private/reserved address, non-public name, signed).
 */
export function checkMediaUrl(url: string): URL {
  if (typeof url !== "string" || url.trim() === "") {
    throw new ApiError("invalid_media_url", "The media URL is empty.");
  }
  if (url.length > MAX_MEDIA_URL_LENGTH) {
    throw new ApiError("invalid_media_url", `The media URL is longer than ${MAX_MEDIA_URL_LENGTH} characters.`);
  }
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new ApiError("invalid_media_url", "The media URL is not a valid absolute URL.");
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") {
    throw new ApiError("invalid_media_url", `The media URL scheme "${u.protocol.replace(/:$/, "")}" is not allowed; use http or https.`);
  }
  if (u.username !== "" || u.password !== "") {
    throw new ApiError("invalid_media_url", "The media URL must not carry credentials (user:password@).");
  }
  checkHost(u.hostname);
  const signed = signedUrlProvider(u);
  if (signed) {
    throw new ApiError(
      "media_url_not_allowed",
      `Signed media URLs are not accepted (${signed.provider} parameter "${signed.param}"): the media must be publicly readable; use the upload endpoints for private files.`,
    );
  }
  return u;
}

function notAllowed(what: string): never {
  throw new ApiError("media_url_not_allowed", `The media URL host ${what}; media URLs must be publicly reachable.`);
}

function checkHost(hostname: string): void {
  if (hostname === "") throw new ApiError("invalid_media_url", "The media URL has no host.");
  if (hostname.startsWith("[")) {
    const ip = hostname.slice(1, -1);
    if (!isPublicAddress(ip)) notAllowed(`${hostname} is a loopback, private, link-local or reserved IPv6 address`);
    return;
  }
  if (parseIPv4(hostname) !== null) {
    if (!isPublicAddress(hostname)) notAllowed(`${hostname} is a loopback, private, link-local or reserved IPv4 address`);
    return;
  }
  const name = hostname.toLowerCase().replace(/\.+$/, "");
  if (name === "") notAllowed(`"${hostname}" is not a host name`);
  const labels = name.split(".");
  const last = labels[labels.length - 1];
  // A numeric last label means an IPv4 address in some encoding (decimal, hex, octal, short
  // form) that the URL parser did not normalise: never a real domain (no TLD is numeric).
  if (/^(0x[0-9a-f]*|[0-9]+)$/i.test(last)) notAllowed(`"${hostname}" is a numeric address encoding`);
  if (labels.length === 1) {
    if (name === "localhost") notAllowed("is localhost");
    notAllowed(`"${hostname}" is a single-label name, not a public domain`);
  }
  for (const suffix of BLOCKED_NAME_SUFFIXES) {
    if (name === suffix || name.endsWith(`.${suffix}`)) {
      notAllowed(suffix === "localhost" ? `"${hostname}" is localhost` : `"${hostname}" is under the non-public domain .${suffix}`);
    }
  }
}

/** The signed-URL rule a URL matches, with the parameter that matched, or null. */
export function signedUrlProvider(u: URL): { provider: string; param: string } | null {
  const keys = new Map<string, string>();
  for (const key of u.searchParams.keys()) keys.set(key.toLowerCase(), key);
  for (const rule of SIGNED_URL_RULES) {
    if (rule.all.every((k) => keys.has(k))) return { provider: rule.provider, param: keys.get(rule.all[0]) ?? rule.all[0] };
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Addresses

/** Strict dotted-quad IPv4 ("a.b.c.d", decimal, no leading zeros) as an unsigned 32-bit number. */
export function parseIPv4(s: string): number | null {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(s);
  if (!m) return null;
  let n = 0;
  for (let i = 1; i <= 4; i++) {
    const part = m[i];
    if (part.length > 1 && part[0] === "0") return null; // octal-looking: not canonical
    const v = Number(part);
    if (v > 255) return null;
    n = n * 256 + v;
  }
  return n;
}

/** IPv6 text (RFC 4291 forms incl. "::" and a trailing dotted IPv4) as 16 bytes, or null. */
export function parseIPv6(s: string): Uint8Array | null {
  if (s.includes("%")) return null; // zone ids only exist for link-local scopes
  let head = s;
  let v4tail: number | null = null;
  const lastColon = s.lastIndexOf(":");
  if (s.includes(".")) {
    v4tail = parseIPv4(s.slice(lastColon + 1));
    if (v4tail === null) return null;
    head = s.slice(0, lastColon + 1) + "0:0"; // placeholder groups, filled below
  }
  const halves = head.split("::");
  if (halves.length > 2) return null;
  const parseGroups = (part: string): number[] | null => {
    if (part === "") return [];
    const out: number[] = [];
    for (const g of part.split(":")) {
      if (!/^[0-9a-f]{1,4}$/i.test(g)) return null;
      out.push(parseInt(g, 16));
    }
    return out;
  };
  const left = parseGroups(halves[0]);
  const right = halves.length === 2 ? parseGroups(halves[1]) : [];
  if (!left || !right) return null;
  let groups: number[];
  if (halves.length === 2) {
    const missing = 8 - left.length - right.length;
    if (missing < 1) return null;
    groups = [...left, ...new Array<number>(missing).fill(0), ...right];
  } else {
    groups = left;
  }
  if (groups.length !== 8) return null;
  const bytes = new Uint8Array(16);
  groups.forEach((g, i) => {
    bytes[i * 2] = g >> 8;
    bytes[i * 2 + 1] = g & 0xff;
  });
  if (v4tail !== null) {
    bytes[12] = v4tail >>> 24;
    bytes[13] = (v4tail >>> 16) & 0xff;
    bytes[14] = (v4tail >>> 8) & 0xff;
    bytes[15] = v4tail & 0xff;
  }
  return bytes;
}

// [network, prefix length] of every IPv4 block that is not publicly routable unicast.
const IPV4_NON_PUBLIC: ReadonlyArray<[string, number]> = [
  ["0.0.0.0", 8], // "this network", incl. 0.0.0.0
  ["10.0.0.0", 8], // private
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local, incl. cloud metadata 169.254.169.254
  ["172.16.0.0", 12], // private
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // documentation TEST-NET-1
  ["192.88.99.0", 24], // 6to4 relay anycast (deprecated)
  ["192.168.0.0", 16], // private
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // documentation TEST-NET-2
  ["203.0.113.0", 24], // documentation TEST-NET-3
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, incl. broadcast 255.255.255.255
];

const IPV4_BLOCKS = IPV4_NON_PUBLIC.map(([net, len]) => {
  const mask = len === 0 ? 0 : (0xffffffff << (32 - len)) >>> 0;
  return { net: (parseIPv4(net)! & mask) >>> 0, mask };
});

function isPublicV4(n: number): boolean {
  return !IPV4_BLOCKS.some((b) => ((n & b.mask) >>> 0) === b.net);
}

function v4At(b: Uint8Array, i: number): number {
  return ((b[i] << 24) | (b[i + 1] << 16) | (b[i + 2] << 8) | b[i + 3]) >>> 0;
}

function zeros(b: Uint8Array, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (b[i] !== 0) return false;
  return true;
}

function isPublicV6(b: Uint8Array): boolean {
  // Forms that embed an IPv4 address are as public as that address.
  if (zeros(b, 0, 10) && b[10] === 0xff && b[11] === 0xff) return isPublicV4(v4At(b, 12)); // ::ffff:a.b.c.d mapped
  if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && zeros(b, 4, 12)) return isPublicV4(v4At(b, 12)); // 64:ff9b::/96 NAT64
  if (b[0] === 0x20 && b[1] === 0x02) return isPublicV4(v4At(b, 2)); // 2002::/16 6to4
  // Everything else must be global unicast 2000::/3. This excludes ::, ::1, IPv4-compatible
  // ::a.b.c.d (deprecated), ::ffff:0:a.b.c.d (SIIT), 64:ff9b:1::/48 (local NAT64), 100::/64
  // (discard), fc00::/7 (unique local), fe80::/10 (link-local), fec0::/10 (site-local) and
  // ff00::/8 (multicast).
  if ((b[0] & 0xe0) !== 0x20) return false;
  // Non-public blocks inside 2000::/3.
  if (b[0] === 0x20 && b[1] === 0x01 && b[2] === 0x00 && b[3] < 0x02) return false; // 2001::/23 IETF: Teredo, benchmarking, ORCHID
  if (b[0] === 0x20 && b[1] === 0x01 && b[2] === 0x0d && b[3] === 0xb8) return false; // 2001:db8::/32 documentation
  if (b[0] === 0x3f && b[1] === 0xff && b[2] < 0x10) return false; // 3fff::/20 documentation
  return true;
}

/**
 * True when `ip` (an IPv4 dotted quad or IPv6 text, as returned by DNS) is a publicly routable
 * unicast address. Anything unparsable is treated as not public.
 */
export function isPublicAddress(ip: string): boolean {
  if (typeof ip !== "string") return false;
  const s = ip.startsWith("[") && ip.endsWith("]") ? ip.slice(1, -1) : ip;
  const v4 = parseIPv4(s);
  if (v4 !== null) return isPublicV4(v4);
  if (!s.includes(":")) return false;
  const v6 = parseIPv6(s);
  return v6 !== null && isPublicV6(v6);
}
