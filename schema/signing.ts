// HMAC-SHA256 signatures shared by the Worker and the compute service (WebCrypto, so the same
// code runs in workerd and Node): dispatches, callbacks, upload tokens and webhooks.

const encoder = new TextEncoder();

async function hmacKey(secret: string): Promise<CryptoKey> {
  return crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
}

export function toHex(bytes: ArrayBuffer | Uint8Array): string {
  return [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

export async function sha256Hex(data: string | ArrayBuffer | Uint8Array): Promise<string> {
  const bytes = typeof data === "string" ? encoder.encode(data) : data;
  return toHex(await crypto.subtle.digest("SHA-256", bytes as BufferSource));
}

export async function hmacHex(secret: string, message: string): Promise<string> {
  return toHex(await crypto.subtle.sign("HMAC", await hmacKey(secret), encoder.encode(message)));
}

/** Compares two strings in time that does not depend on where they differ. */
export function constantTimeEqual(a: string, b: string): boolean {
  const x = encoder.encode(a);
  const y = encoder.encode(b);
  let diff = x.length ^ y.length;
  for (let i = 0; i < Math.max(x.length, y.length); i++) diff |= (x[i % x.length] ?? 0) ^ (y[i % y.length] ?? 0);
  return diff === 0;
}

/** Signed request headers between the Worker and compute: timestamp + HMAC over the parts. */
export const SIGNATURE_HEADER = "x-obscura-signature";
export const TIMESTAMP_HEADER = "x-obscura-timestamp";
/** Signatures older than this are refused, so a captured request cannot be replayed later. */
export const SIGNATURE_MAX_AGE_SECONDS = 300;

export async function signParts(secret: string, parts: string[], now = Date.now()): Promise<{ timestamp: string; signature: string }> {
  const timestamp = String(Math.floor(now / 1000));
  return { timestamp, signature: await hmacHex(secret, [timestamp, ...parts].join("\n")) };
}

export async function verifyParts(secret: string, parts: string[], timestamp: string | null | undefined, signature: string | null | undefined, now = Date.now()): Promise<boolean> {
  if (!timestamp || !signature || !/^\d+$/.test(timestamp)) return false;
  if (Math.abs(now / 1000 - Number(timestamp)) > SIGNATURE_MAX_AGE_SECONDS) return false;
  return constantTimeEqual(await hmacHex(secret, [timestamp, ...parts].join("\n")), signature);
}

function base64url(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

function fromBase64url(s: string): Uint8Array {
  const bin = atob(s.replaceAll("-", "+").replaceAll("_", "/"));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

/** A self-contained signed token (payload.signature) for URLs: uploads, internal media reads. */
export async function signToken(secret: string, purpose: string, payload: Record<string, unknown>): Promise<string> {
  const body = base64url(encoder.encode(JSON.stringify(payload)));
  return `${body}.${await hmacHex(secret, `${purpose}\n${body}`)}`;
}

/** Returns the payload when the token is authentic for this purpose and not expired (`exp`, ms). */
export async function verifyToken<T extends { exp: number }>(secret: string, purpose: string, token: string, now = Date.now()): Promise<T | null> {
  const [body, signature, extra] = token.split(".");
  if (!body || !signature || extra !== undefined) return null;
  if (!constantTimeEqual(await hmacHex(secret, `${purpose}\n${body}`), signature)) return null;
  try {
    const payload = JSON.parse(new TextDecoder().decode(fromBase64url(body))) as T;
    return typeof payload.exp === "number" && payload.exp > now ? payload : null;
  } catch {
    return null;
  }
}

export function randomId(bytes = 16): string {
  return base64url(crypto.getRandomValues(new Uint8Array(bytes)));
}
