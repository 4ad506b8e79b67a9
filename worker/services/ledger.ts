// The credit ledger. Money moves only through the statements below, each a single atomic SQL
// statement (or one D1 batch), so balances stay exact under any number of concurrent requests.
import { randomId } from "../../schema/signing.ts";
import { ApiError } from "../../schema/errors.ts";
import { nowIso } from "./db.ts";

/** Balance effect of each entry kind, as SQL (credits are always stored positive). */
const SIGNED = `CASE kind WHEN 'grant' THEN credits WHEN 'refund' THEN credits WHEN 'reserve' THEN -credits ELSE 0 END`;

export interface CreditSummary {
  available: number;
  purchased: number;
  spent: number;
  reserved: number;
}

export async function creditSummary(d1: D1Database, accountId: string): Promise<CreditSummary> {
  const row = await d1
    .prepare(
      `SELECT COALESCE(SUM(${SIGNED}), 0) AS available,
              COALESCE(SUM(CASE kind WHEN 'grant' THEN credits ELSE 0 END), 0) AS purchased,
              COALESCE(SUM(CASE kind WHEN 'capture' THEN credits ELSE 0 END), 0) AS spent
       FROM ledger_entries WHERE account_id = ?1`,
    )
    .bind(accountId)
    .first<{ available: number; purchased: number; spent: number }>();
  const { available, purchased, spent } = row ?? { available: 0, purchased: 0, spent: 0 };
  return { available, purchased, spent, reserved: purchased - spent - available };
}

export async function grantCredits(d1: D1Database, accountId: string, credits: number, memo: string): Promise<void> {
  if (!Number.isInteger(credits) || credits <= 0) throw new Error("a grant must be a positive whole number of credits");
  await d1
    .prepare(`INSERT INTO ledger_entries (id, account_id, kind, credits, memo, created_at) VALUES (?1, ?2, 'grant', ?3, ?4, ?5)`)
    .bind(`le_${randomId(12)}`, accountId, credits, memo, nowIso())
    .run();
}

export interface Reservation {
  id: string;
  credits: number;
  /** Balance right after the reservation. */
  remaining: number;
}

/**
 * Holds `credits` for a request. The insert only happens when the balance covers it, checked in
 * the same statement, so concurrent reservations can never take the balance below zero.
 */
export async function reserveCredits(d1: D1Database, accountId: string, credits: number, memo: string): Promise<Reservation> {
  const id = `res_${randomId(12)}`;
  const result = await d1
    .prepare(
      `INSERT INTO ledger_entries (id, account_id, kind, credits, memo, created_at)
       SELECT ?1, ?2, 'reserve', ?3, ?4, ?5
       WHERE (SELECT COALESCE(SUM(${SIGNED}), 0) FROM ledger_entries WHERE account_id = ?2) >= ?3`,
    )
    .bind(id, accountId, credits, memo, nowIso())
    .run();
  const { available } = await creditSummary(d1, accountId);
  if (result.meta.changes !== 1) {
    throw new ApiError("insufficient_credits", `This request costs ${credits} credits and the account has ${available}.`);
  }
  return { id, credits, remaining: available };
}

/**
 * Settles a reservation: `spent` credits become spending (capture), the rest goes back (refund).
 * Idempotent: a reservation is settled once; later calls change nothing (unique index on
 * reservation_id + kind, and each insert requires that no settlement exists yet).
 */
export async function settleReservation(d1: D1Database, reservationId: string, spent: number): Promise<void> {
  const now = nowIso();
  const captureId = `le_${randomId(12)}`;
  const unsettled = `NOT EXISTS (SELECT 1 FROM ledger_entries s WHERE s.reservation_id = r.id)`;
  const capture = d1
    .prepare(
      `INSERT OR IGNORE INTO ledger_entries (id, account_id, kind, credits, reservation_id, memo, created_at)
       SELECT ?1, r.account_id, 'capture', MIN(?2, r.credits), r.id, r.memo, ?3
       FROM ledger_entries r WHERE r.id = ?4 AND r.kind = 'reserve' AND ?2 > 0 AND ${unsettled}`,
    )
    .bind(captureId, spent, now, reservationId);
  // The remainder goes back only in the same settlement as this call's own capture (or, for a
  // full refund, when nothing settled the reservation before).
  const refund = d1
    .prepare(
      `INSERT OR IGNORE INTO ledger_entries (id, account_id, kind, credits, reservation_id, memo, created_at)
       SELECT ?1, r.account_id, 'refund', r.credits - MIN(?2, r.credits), r.id, r.memo, ?3
       FROM ledger_entries r WHERE r.id = ?4 AND r.kind = 'reserve' AND r.credits > ?2
         AND ((?2 > 0 AND EXISTS (SELECT 1 FROM ledger_entries c WHERE c.id = ?5)) OR (?2 <= 0 AND ${unsettled}))`,
    )
    .bind(`le_${randomId(12)}`, Math.max(0, spent), now, reservationId, captureId);
  await d1.batch([capture, refund]);
}

/** Gives a whole reservation back (the request failed). */
export function refundReservation(d1: D1Database, reservationId: string): Promise<void> {
  return settleReservation(d1, reservationId, 0);
}

/** Spends a whole reservation (the request succeeded). */
export async function captureReservation(d1: D1Database, reservation: Reservation): Promise<void> {
  await settleReservation(d1, reservation.id, reservation.credits);
}

/**
 * A synchronous request settles its own reservation before it answers; one whose Worker instance
 * died in between (crash, eviction, deploy) would hold the credits forever. Reservations older
 * than STALE_RESERVATION_MS, still unsettled and not owned by a job (jobs settle through their
 * JobObject, which has its own watchdog), are refunded by the scheduled sweep (worker/index.ts).
 * Far longer than a sync request can run; settlement is once-only, so a late capture of a swept
 * reservation changes nothing.
 */
export const STALE_RESERVATION_MS = 30 * 60_000;

export async function refundStaleReservations(d1: D1Database, now = Date.now()): Promise<number> {
  const { results } = await d1
    .prepare(
      `SELECT r.id FROM ledger_entries r
       WHERE r.kind = 'reserve' AND r.created_at < ?1
         AND NOT EXISTS (SELECT 1 FROM ledger_entries s WHERE s.reservation_id = r.id)
         AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.reservation_id = r.id)
       LIMIT 500`,
    )
    .bind(nowIso(now - STALE_RESERVATION_MS))
    .all<{ id: string }>();
  for (const { id } of results) await refundReservation(d1, id);
  return results.length;
}
