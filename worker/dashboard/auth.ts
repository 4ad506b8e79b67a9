// Dashboard accounts: password hashing, sessions, sign-in lockout and sign-up throttling.
// Passwords: PBKDF2-SHA256 through WebCrypto (the slow KDF workerd offers; scrypt and Argon2 are
// not in WebCrypto) with a 16-byte random salt per user and 100,000 iterations: the most the
// Cloudflare runtime allows (deriveBits fails above it). Local workerd has no cap since
// workerd#1471, so tests cannot see the limit; going higher would only break once deployed.
import { and, desc, eq, gt, lt } from "drizzle-orm";
import { accounts, authThrottle, dashboardSessions } from "../../schema/tables.ts";
import { constantTimeEqual, randomId, sha256Hex } from "../../schema/signing.ts";
import type { Account } from "../services/accounts.ts";
import { nowIso, type Db } from "../services/db.ts";
import { grantCredits } from "../services/ledger.ts";

export const PBKDF2_ITERATIONS = 100_000;
const SALT_BYTES = 16;
const HASH_BYTES = 32;
export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 256;

/** Free credits every account made through the dashboard starts with. */
export const SIGN_UP_CREDITS = 50;

export const SESSION_TTL_MS = 7 * 24 * 3600_000;

/** Lockout: this many failed sign-ins for one e-mail within the window lock it for LOCK_MS. */
export const MAX_FAILURES = 5;
export const FAILURE_WINDOW_MS = 15 * 60_000;
export const LOCK_MS = 15 * 60_000;
/** Sign-ups per client address per hour (each new account receives free credits). */
export const MAX_SIGN_UPS_PER_HOUR = 20;

const encoder = new TextEncoder();

function b64(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s);
}

function unb64(s: string): Uint8Array {
  return Uint8Array.from(atob(s), (ch) => ch.charCodeAt(0));
}

async function pbkdf2(password: string, salt: Uint8Array, iterations: number): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey("raw", encoder.encode(password), "PBKDF2", false, ["deriveBits"]);
  const bits = await crypto.subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt: salt as BufferSource, iterations }, key, HASH_BYTES * 8);
  return new Uint8Array(bits);
}

/** `pbkdf2-sha256$<iterations>$<salt>$<hash>` (base64): self-describing, so parameters can change later. */
export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(SALT_BYTES));
  return `pbkdf2-sha256$${PBKDF2_ITERATIONS}$${b64(salt)}$${b64(await pbkdf2(password, salt, PBKDF2_ITERATIONS))}`;
}

/** A hash no password matches, verified for unknown e-mails so they take as long as known ones. */
const DUMMY_HASH = `pbkdf2-sha256$${PBKDF2_ITERATIONS}$${b64(new Uint8Array(SALT_BYTES))}$${b64(new Uint8Array(HASH_BYTES))}`;

export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const [scheme, iterations, salt, hash] = (stored ?? DUMMY_HASH).split("$");
  const rounds = Number(iterations);
  // A stored count outside what this code writes is refused before any (possibly huge) work.
  if (scheme !== "pbkdf2-sha256" || !Number.isInteger(rounds) || rounds < 1 || rounds > PBKDF2_ITERATIONS || !salt || !hash) return false;
  const derived = b64(await pbkdf2(password, unb64(salt), rounds));
  return constantTimeEqual(derived, hash) && stored !== null;
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export const EMAIL_PATTERN = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

export type SignUpResult = { ok: true; account: Account } | { ok: false; reason: "exists" | "operator_account" | "throttled" };

/**
 * Creates a free-tier account with a password and SIGN_UP_CREDITS free credits. An e-mail that
 * already has an account is refused, including accounts made by the admin command (no password
 * yet): without e-mail verification, letting anyone set that password would hand them the
 * operator-made account, its keys and its credits.
 */
export async function signUp(db: Db, d1: D1Database, email: string, password: string, clientIp: string | null): Promise<SignUpResult> {
  if (clientIp) {
    const since = nowIso(Date.now() - 3600_000);
    const recent = await db.select({ id: authThrottle.id }).from(authThrottle).where(and(eq(authThrottle.kind, "sign_up"), eq(authThrottle.subject, clientIp), gt(authThrottle.createdAt, since)));
    if (recent.length >= MAX_SIGN_UPS_PER_HOUR) return { ok: false, reason: "throttled" };
  }
  const passwordHash = await hashPassword(password);
  const inserted = await db
    .insert(accounts)
    .values({ id: `acct_${randomId(12)}`, email, tier: "free", passwordHash, createdAt: nowIso() })
    .onConflictDoNothing({ target: accounts.email })
    .returning();
  const account = inserted[0];
  if (!account) {
    const existing = await db.query.accounts.findFirst({ where: eq(accounts.email, email) });
    return { ok: false, reason: existing?.passwordHash ? "exists" : "operator_account" };
  }
  await grantCredits(d1, account.id, SIGN_UP_CREDITS, "sign-up grant");
  if (clientIp) await db.insert(authThrottle).values({ id: randomId(12), kind: "sign_up", subject: clientIp, createdAt: nowIso() });
  return { ok: true, account };
}

export type SignInResult = { ok: true; account: Account } | { ok: false; reason: "invalid" } | { ok: false; reason: "locked"; until: number };

/** When the e-mail is locked: the last MAX_FAILURES failures fell within the window, and LOCK_MS has not passed since the last. */
async function lockedUntil(db: Db, email: string, now: number): Promise<number | null> {
  const recent = await db
    .select({ createdAt: authThrottle.createdAt })
    .from(authThrottle)
    .where(and(eq(authThrottle.kind, "sign_in_failure"), eq(authThrottle.subject, email)))
    .orderBy(desc(authThrottle.createdAt))
    .limit(MAX_FAILURES);
  if (recent.length < MAX_FAILURES) return null;
  const last = Date.parse(recent[0]!.createdAt);
  const first = Date.parse(recent[MAX_FAILURES - 1]!.createdAt);
  return last - first <= FAILURE_WINDOW_MS && now < last + LOCK_MS ? last + LOCK_MS : null;
}

/**
 * Checks e-mail and password. Unknown e-mails and wrong passwords give the same answer in the
 * same time, and both count towards the lockout, so neither reveals which e-mails have accounts.
 * While locked, the password is not even checked (and attempts do not extend the lock).
 */
export async function signIn(db: Db, email: string, password: string, now = Date.now()): Promise<SignInResult> {
  const until = await lockedUntil(db, email, now);
  if (until) return { ok: false, reason: "locked", until };
  const account = await db.query.accounts.findFirst({ where: eq(accounts.email, email) });
  if (await verifyPassword(password, account?.passwordHash ?? null)) {
    await db.delete(authThrottle).where(and(eq(authThrottle.kind, "sign_in_failure"), eq(authThrottle.subject, email)));
    return { ok: true, account: account! };
  }
  await db.insert(authThrottle).values({ id: randomId(12), kind: "sign_in_failure", subject: email, createdAt: nowIso(now) });
  // Housekeeping: events older than any window matter no more.
  await db.delete(authThrottle).where(lt(authThrottle.createdAt, nowIso(now - 24 * 3600_000)));
  const lockedNow = await lockedUntil(db, email, now);
  return lockedNow ? { ok: false, reason: "locked", until: lockedNow } : { ok: false, reason: "invalid" };
}

export interface DashboardSession {
  tokenHash: string;
  account: Account;
  csrfToken: string;
}

/** Starts a session: a fresh random token (never reused across sign-ins), stored as its hash. */
export async function createSession(db: Db, accountId: string): Promise<{ token: string; expires: Date }> {
  const token = randomId(32);
  const now = Date.now();
  // Housekeeping: expired sessions are useless; drop them whenever someone signs in.
  await db.delete(dashboardSessions).where(lt(dashboardSessions.expiresAt, nowIso(now)));
  await db.insert(dashboardSessions).values({ tokenHash: await sha256Hex(token), accountId, csrfToken: randomId(24), createdAt: nowIso(now), expiresAt: nowIso(now + SESSION_TTL_MS) });
  return { token, expires: new Date(now + SESSION_TTL_MS) };
}

export async function findSession(db: Db, token: string | undefined): Promise<DashboardSession | null> {
  if (!token || !/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
  const tokenHash = await sha256Hex(token);
  const row = await db.query.dashboardSessions.findFirst({ where: eq(dashboardSessions.tokenHash, tokenHash) });
  if (!row || Date.parse(row.expiresAt) <= Date.now()) return null;
  const account = await db.query.accounts.findFirst({ where: eq(accounts.id, row.accountId) });
  return account ? { tokenHash, account, csrfToken: row.csrfToken } : null;
}

export async function endSession(db: Db, tokenHash: string): Promise<void> {
  await db.delete(dashboardSessions).where(eq(dashboardSessions.tokenHash, tokenHash));
}
