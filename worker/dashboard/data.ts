// What the dashboard pages show, read through the same services the API uses, so the numbers
// agree with GET /api/v2/me/credits by construction.
import { and, count, desc, eq, isNull } from "drizzle-orm";
import { apiKeys, jobs, ledgerEntries } from "../../schema/tables.ts";
import { dailyLimitFor } from "../../schema/tiers.ts";
import type { JobView } from "../durable/job.ts";
import type { Env } from "../env.ts";
import { rateLimiterFor } from "../middleware/rate-limit.ts";
import type { Account } from "../services/accounts.ts";
import type { Db } from "../services/db.ts";
import { jobStub } from "../services/jobs.ts";
import { creditSummary, type CreditSummary } from "../services/ledger.ts";

export const RECENT_JOBS = 25;
export const LEDGER_PAGE = 100;

export interface Usage {
  used: number;
  limit: number;
  remaining: number;
  /** Unix seconds of the next reset (00:00 UTC). */
  reset: number;
}

export interface Overview {
  credits: CreditSummary;
  activeKeys: number;
  usage: Usage;
}

export async function usageOf(env: Env, account: Account): Promise<Usage> {
  const d = await rateLimiterFor(env, account.id).peek(dailyLimitFor(account.tier, account.dailyLimit));
  return { used: d.limit - d.remaining, limit: d.limit, remaining: d.remaining, reset: d.reset };
}

/** Active keys counted exactly as GET /me/credits counts them. */
export async function activeKeyCount(db: Db, accountId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(apiKeys).where(and(eq(apiKeys.accountId, accountId), isNull(apiKeys.revokedAt)));
  return row?.n ?? 0;
}

export async function overviewOf(env: Env, db: Db, account: Account): Promise<Overview> {
  const [credits, activeKeys, usage] = await Promise.all([creditSummary(env.DB, account.id), activeKeyCount(db, account.id), usageOf(env, account)]);
  return { credits, activeKeys, usage };
}

export function keysOf(db: Db, accountId: string) {
  return db
    .select({ id: apiKeys.id, name: apiKeys.name, prefix: apiKeys.prefix, createdAt: apiKeys.createdAt, lastUsedAt: apiKeys.lastUsedAt, revokedAt: apiKeys.revokedAt })
    .from(apiKeys)
    .where(eq(apiKeys.accountId, accountId))
    .orderBy(desc(apiKeys.createdAt));
}

export function ledgerOf(db: Db, accountId: string) {
  return db
    .select({ id: ledgerEntries.id, kind: ledgerEntries.kind, credits: ledgerEntries.credits, memo: ledgerEntries.memo, reservationId: ledgerEntries.reservationId, createdAt: ledgerEntries.createdAt })
    .from(ledgerEntries)
    .where(eq(ledgerEntries.accountId, accountId))
    .orderBy(desc(ledgerEntries.createdAt), desc(ledgerEntries.id))
    .limit(LEDGER_PAGE);
}

/** Effect of an entry on the balance (the ledger's sign convention, see schema/tables.ts). */
export function balanceEffect(kind: string, credits: number): number {
  return kind === "grant" || kind === "refund" ? credits : kind === "reserve" ? -credits : 0;
}

/** Recent jobs from the index table, each with its live state from its Durable Object. */
export type JobRow = JobView & { feature_id: string };

export async function recentJobs(env: Env, db: Db, accountId: string): Promise<JobRow[]> {
  const rows = await db.select({ id: jobs.id, feature: jobs.feature }).from(jobs).where(eq(jobs.accountId, accountId)).orderBy(desc(jobs.createdAt)).limit(RECENT_JOBS);
  const views = (await Promise.all(rows.map((r) => jobStub(env, r.id).view(accountId)))) as (JobView | null)[];
  // The view's `feature` drops the media ("face-blur"); the index row keeps the dotted id.
  return views.flatMap((v, i) => (v ? [{ ...v, feature_id: rows[i]!.feature }] : []));
}
