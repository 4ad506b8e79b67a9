// Idempotency-Key: the first answer to a POST is stored and replayed to retries with the same
// key, so a retried request is never charged twice. The claim is a primary-key insert, exact
// under concurrency: of two simultaneous requests with one key, one runs and one gets 409.
// A claim whose request never recorded an answer (the Worker instance died mid-request) would
// otherwise answer "still running" forever; after IDEMPOTENCY_LEASE_MS it is taken over by the
// next request with the same key and body (one conditional UPDATE, so one taker wins).
import { and, eq, isNull, lt } from "drizzle-orm";
import { ApiError } from "../../schema/errors.ts";
import { sha256Hex } from "../../schema/signing.ts";
import { idempotencyRecords } from "../../schema/tables.ts";
import { nowIso, type Db } from "./db.ts";

export const IDEMPOTENCY_HEADER = "Idempotency-Key";
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
/**
 * How long an unanswered claim blocks its key. Far longer than any request can run (the sync
 * compute call is bounded at 120 s per instance tried, async requests answer once the job is
 * queued), so a claim this old belongs to a request that can no longer answer.
 */
export const IDEMPOTENCY_LEASE_MS = 15 * 60_000;

export type IdempotencyClaim = { kind: "new"; key: string } | { kind: "replay"; status: number; body: string };

/** Fingerprint of what a request asks for (path + validated parameters + file digest). */
export async function requestFingerprint(path: string, params: unknown, fileDigest?: string): Promise<string> {
  return sha256Hex(JSON.stringify([path, params, fileDigest ?? null]));
}

export async function claimIdempotencyKey(db: Db, accountId: string, key: string, fingerprint: string): Promise<IdempotencyClaim> {
  if (!KEY_PATTERN.test(key)) throw new ApiError("invalid_request", "Idempotency-Key must be 1 to 255 visible ASCII characters.");
  const inserted = await db
    .insert(idempotencyRecords)
    .values({ accountId, key, requestHash: fingerprint, createdAt: nowIso() })
    .onConflictDoNothing()
    .returning({ key: idempotencyRecords.key });
  if (inserted.length === 1) return { kind: "new", key };
  const existing = await db.query.idempotencyRecords.findFirst({ where: and(eq(idempotencyRecords.accountId, accountId), eq(idempotencyRecords.key, key)) });
  if (!existing) return claimIdempotencyKey(db, accountId, key, fingerprint);
  if (existing.requestHash !== fingerprint) throw new ApiError("idempotency_conflict", "This Idempotency-Key was already used with a different request.");
  if (existing.responseStatus === null || existing.responseBody === null) {
    const cutoff = nowIso(Date.now() - IDEMPOTENCY_LEASE_MS);
    const takenOver = await db
      .update(idempotencyRecords)
      .set({ createdAt: nowIso() })
      .where(and(eq(idempotencyRecords.accountId, accountId), eq(idempotencyRecords.key, key), isNull(idempotencyRecords.responseStatus), lt(idempotencyRecords.createdAt, cutoff)))
      .returning({ key: idempotencyRecords.key });
    if (takenOver.length === 1) return { kind: "new", key };
    throw new ApiError("idempotency_conflict", "A request with this Idempotency-Key is still running; retry in a moment.");
  }
  return { kind: "replay", status: existing.responseStatus, body: existing.responseBody };
}

/**
 * Records the answer. Final answers (success, or a client error that a retry would repeat) are
 * kept; transient failures (5xx, 429) release the key so a retry runs again.
 */
export async function recordIdempotentAnswer(db: Db, accountId: string, key: string, status: number, body: string): Promise<void> {
  const where = and(eq(idempotencyRecords.accountId, accountId), eq(idempotencyRecords.key, key));
  if (status >= 500 || status === 429) await db.delete(idempotencyRecords).where(where);
  else await db.update(idempotencyRecords).set({ responseStatus: status, responseBody: body }).where(where);
}
