// Test helpers for the Worker suite: accounts, keys and credits made directly through the
// services (no admin route, no HTTP), requests through SELF, and small valid media files built
// in code (workerd tests cannot read the file system).
import { env, SELF } from "cloudflare:test";
import type { z } from "@hono/zod-openapi";
import type { UploadTicket } from "../../schema/api/resources.ts";
import { expect } from "vitest";
import { signRequest } from "../../schema/compute-protocol.ts";
import { ERROR_CODES, type ErrorCode } from "../../schema/errors.ts";
import type { FeatureId } from "../../schema/features.ts";
import { randomId, sha256Hex } from "../../schema/signing.ts";
import type { Tier } from "../../schema/tiers.ts";
import type { JobState } from "../../worker/durable/job.ts";
import { ensureAccount, type Account } from "../../worker/services/accounts.ts";
import { createDb } from "../../worker/services/db.ts";
import { jobStub } from "../../worker/services/jobs.ts";
import { createApiKey } from "../../worker/services/keys.ts";
import { creditSummary, grantCredits, reserveCredits, type Reservation } from "../../worker/services/ledger.ts";

export const BASE = "http://localhost";
export const API = `${BASE}/api/v2`;

export const db = () => createDb(env.DB);

export interface TestUser {
  account: Account;
  key: string;
  keyId: string;
  /** Authorization header for this user's key. */
  auth: Record<string, string>;
}

/** A fresh account (unique e-mail) with one key and, optionally, credits. */
export async function createUser(opts: { tier?: Tier; credits?: number; dailyLimit?: number | null; name?: string } = {}): Promise<TestUser> {
  const account = await ensureAccount(db(), { email: `user-${randomId(8)}@example.org`, name: opts.name ?? null, tier: opts.tier ?? "free", dailyLimit: opts.dailyLimit ?? null });
  if (opts.credits) await grantCredits(env.DB, account.id, opts.credits, "test grant");
  const created = await createApiKey(db(), account.id, "test key");
  return { account, key: created.key, keyId: created.id, auth: { authorization: `Bearer ${created.key}` } };
}

export function api(path: string, init: RequestInit & { key?: string } = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  if (init.key) headers.set("authorization", `Bearer ${init.key}`);
  return SELF.fetch(path.startsWith("http") ? path : `${API}${path}`, { ...init, headers });
}

export function postJson(path: string, key: string | undefined, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return api(path, { method: "POST", key, body: JSON.stringify(body), headers: { "content-type": "application/json", ...headers } });
}

/** Asserts the SPEC's error envelope with this code and status; returns the message. */
export async function expectError(res: Response, code: ErrorCode, messageMatch?: RegExp | string): Promise<string> {
  const text = await res.text();
  let body: { error: { code: string; message: string; status: number } };
  try {
    body = JSON.parse(text);
  } catch {
    throw new Error(`expected a JSON error envelope (${code}), got HTTP ${res.status}: ${text.slice(0, 300)}`);
  }
  expect(body, text).toEqual({ error: { code, message: expect.any(String), status: ERROR_CODES[code].status } });
  expect(res.status).toBe(ERROR_CODES[code].status);
  expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  if (messageMatch !== undefined) expect(body.error.message).toMatch(messageMatch);
  return body.error.message;
}

export async function balance(accountId: string) {
  return creditSummary(env.DB, accountId);
}

export async function ledgerKinds(accountId: string): Promise<string[]> {
  const { results } = await env.DB.prepare("SELECT kind FROM ledger_entries WHERE account_id = ?1 ORDER BY created_at, kind").bind(accountId).all<{ kind: string }>();
  return results.map((r) => r.kind);
}

export const rateHeaders = (res: Response) => ({
  limit: Number(res.headers.get("x-ratelimit-limit")),
  remaining: Number(res.headers.get("x-ratelimit-remaining")),
  reset: Number(res.headers.get("x-ratelimit-reset")),
});

/** Next 00:00 UTC as Unix seconds. */
export function nextUtcMidnight(now = Date.now()): number {
  return (Math.floor(now / 86_400_000) + 1) * 86_400;
}

// ---------------------------------------------------------------------------------------------
// Media built in code

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  return (c ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

async function deflate(data: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([data as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new CompressionStream("deflate"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** A real, decodable 2x2 RGB PNG. */
export async function makePng(): Promise<Uint8Array> {
  const ihdr = new Uint8Array(13);
  const v = new DataView(ihdr.buffer);
  v.setUint32(0, 2);
  v.setUint32(4, 2);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit, truecolour, deflate, no filter, no interlace
  const raw = new Uint8Array([0, 255, 0, 0, 0, 255, 0, 0, 0, 0, 255, 255, 255, 255]); // filter byte + 2 px per row
  const parts = [new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), pngChunk("IHDR", ihdr), pngChunk("IDAT", await deflate(raw)), pngChunk("IEND", new Uint8Array())];
  return concat(parts);
}

/** The head of an MP4 file: an ftyp box (isom) and an empty mdat. Enough for magic-byte checks. */
export function makeMp4Head(): Uint8Array {
  const ftyp = [0, 0, 0, 0x20, ...ascii("ftypisom"), 0, 0, 2, 0, ...ascii("isomiso2avc1mp41")];
  const mdat = [0, 0, 0, 8, ...ascii("mdat")];
  return new Uint8Array([...ftyp, ...mdat]);
}

export const SVG = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"><rect width="1" height="1"/></svg>');
export const TEXT = new TextEncoder().encode("just some text, not an image\n");

function ascii(s: string): number[] {
  return [...s].map((ch) => ch.charCodeAt(0));
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Uploads and jobs

/** The body of a 201 upload ticket, as the schema defines it. */
export type UploadTicketBody = z.infer<typeof UploadTicket>;

export async function uploadTicket(user: TestUser, kind: "image" | "video"): Promise<UploadTicketBody> {
  const res = await api(`/uploads/${kind}`, { method: "POST", key: user.key });
  expect(res.status).toBe(201);
  return res.json();
}

export function putBytes(url: string, bytes: Uint8Array, contentType = "application/octet-stream"): Promise<Response> {
  return SELF.fetch(url, { method: "PUT", body: bytes as BodyInit, headers: { "content-type": contentType } });
}

/** A ticket for this kind with a PNG (image) or MP4 head (video) already uploaded. */
export async function uploadedMedia(user: TestUser, kind: "image" | "video"): Promise<{ ticket: UploadTicketBody; url: string }> {
  const ticket = await uploadTicket(user, kind);
  const res = await putBytes(ticket.upload_url, kind === "image" ? await makePng() : makeMp4Head());
  expect(res.status, await res.clone().text()).toBe(200);
  return { ticket, url: (kind === "image" ? ticket.image_url : ticket.video_url)! };
}

/**
 * A job as a video endpoint would create it (reservation held, Durable Object created, index row
 * written) but without a queue message, so no background dispatch races the test.
 */
export async function createTestJob(user: TestUser, opts: { feature?: FeatureId; credits?: number; durationSeconds?: number; webhookUrl?: string } = {}): Promise<{ jobId: string; reservation: Reservation }> {
  const feature = opts.feature ?? "video.face-blur";
  const reservation = await reserveCredits(env.DB, user.account.id, opts.credits ?? 2, feature);
  const now = new Date().toISOString();
  const state: JobState = {
    jobId: `job_${randomId(16)}`,
    accountId: user.account.id,
    feature,
    params: { video_url: "https://media.example.com/clip.mp4", ...(opts.durationSeconds ? { duration_seconds: opts.durationSeconds } : {}) },
    media: { kind: "url", url: "https://media.example.com/clip.mp4" },
    origin: BASE,
    webhookUrl: opts.webhookUrl,
    status: "queued",
    progress: 0,
    createdAt: now,
    updatedAt: now,
    reservationId: reservation.id,
    creditsReserved: reservation.credits,
    attempts: 0,
  };
  await env.DB.prepare("INSERT INTO jobs (id, account_id, feature, credits_reserved, reservation_id, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)")
    .bind(state.jobId, state.accountId, feature, reservation.credits, reservation.id, now)
    .run();
  await jobStub(env, state.jobId).create(state);
  return { jobId: state.jobId, reservation };
}

export async function jobState(jobId: string): Promise<JobState> {
  return (await jobStub(env, jobId).state()) as unknown as JobState;
}

/** Signed request from "compute" to an internal route (the signature covers method, path, body hash). */
export async function signedInternal(method: string, path: string, body: string | Uint8Array, headers: Record<string, string> = {}, bodyHash?: string): Promise<Response> {
  const hash = bodyHash ?? (await sha256Hex(body));
  const signature = await signRequest(env.SIGNING_SECRET, method, path, hash);
  return SELF.fetch(`${BASE}${path}`, { method, body: body as BodyInit, headers: { ...signature, ...headers } });
}
