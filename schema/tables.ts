// D1 tables (drizzle). Migrations in schema/migrations are generated from this file with
// `npm run db:generate`; never edit the SQL by hand.
import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

export const accounts = sqliteTable("accounts", {
  id: text("id").primaryKey(),
  email: text("email").notNull().unique(),
  name: text("name"),
  tier: text("tier", { enum: ["free", "pro", "enterprise"] }).notNull().default("free"),
  /** Only used for the enterprise tier, whose daily limit is set per account. */
  dailyLimit: integer("daily_limit"),
  isDeveloper: integer("is_developer", { mode: "boolean" }).notNull().default(true),
  /** Dashboard sign-in; null for accounts made only by the admin command. */
  passwordHash: text("password_hash"),
  createdAt: text("created_at").notNull().default(sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`),
});

export const apiKeys = sqliteTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull().references(() => accounts.id),
    name: text("name"),
    /** The first characters of the key, shown in listings so a user can tell keys apart. */
    prefix: text("prefix").notNull(),
    /** SHA-256 of the whole key, hex. The plaintext is never stored. */
    hash: text("hash").notNull(),
    createdAt: text("created_at").notNull(),
    lastUsedAt: text("last_used_at"),
    revokedAt: text("revoked_at"),
  },
  (t) => [uniqueIndex("api_keys_hash").on(t.hash), index("api_keys_account").on(t.accountId)],
);

/**
 * The credit ledger. Every entry carries a positive number of credits; its kind says what it
 * does to the balance: grant (+), reserve (-), refund (+, returns a reservation), capture (0,
 * turns a reservation into spending). Balance, total purchased and total spent are all sums
 * over this table, so they can never disagree.
 */
export const ledgerEntries = sqliteTable(
  "ledger_entries",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull().references(() => accounts.id),
    kind: text("kind", { enum: ["grant", "reserve", "capture", "refund"] }).notNull(),
    credits: integer("credits").notNull(),
    /** For capture and refund: the reservation they settle. */
    reservationId: text("reservation_id"),
    /** What the entry is for: a feature id and job id, or a grant's reason. */
    memo: text("memo"),
    createdAt: text("created_at").notNull(),
  },
  (t) => [
    index("ledger_account").on(t.accountId),
    // A reservation is settled at most once per kind: no double capture, no double refund.
    uniqueIndex("ledger_settlement").on(t.reservationId, t.kind),
  ],
);

/** Index of jobs per account (the job state itself lives in its Durable Object). */
export const jobs = sqliteTable(
  "jobs",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull().references(() => accounts.id),
    feature: text("feature").notNull(),
    creditsReserved: integer("credits_reserved").notNull(),
    /** The ledger reservation the job settles (its JobObject does; the stale-reservation sweep skips it). */
    reservationId: text("reservation_id"),
    createdAt: text("created_at").notNull(),
  },
  (t) => [index("jobs_account").on(t.accountId, t.createdAt), index("jobs_reservation").on(t.reservationId)],
);

/** First answer to a POST carrying an Idempotency-Key, replayed on retries. */
export const idempotencyRecords = sqliteTable(
  "idempotency_records",
  {
    accountId: text("account_id").notNull(),
    key: text("key").notNull(),
    requestHash: text("request_hash").notNull(),
    /** Null while the first request is still running. */
    responseStatus: integer("response_status"),
    responseBody: text("response_body"),
    createdAt: text("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.key] })],
);

/** Media uploaded through an upload URL; the bytes live in R2 under `key`. */
export const uploads = sqliteTable("uploads", {
  id: text("id").primaryKey(),
  accountId: text("account_id").notNull().references(() => accounts.id),
  kind: text("kind", { enum: ["image", "video"] }).notNull(),
  format: text("format"),
  sizeBytes: integer("size_bytes"),
  createdAt: text("created_at").notNull(),
  expiresAt: text("expires_at").notNull(),
  /** Set by the one PUT that claims the upload URL (a conditional UPDATE), before its bytes stream. */
  claimedAt: text("claimed_at"),
  completedAt: text("completed_at"),
});

/**
 * Dashboard sign-in sessions. The cookie carries a random token; only its SHA-256 is stored, so
 * a leaked table cannot be replayed as cookies. `csrfToken` is echoed in every dashboard form.
 */
export const dashboardSessions = sqliteTable(
  "dashboard_sessions",
  {
    /** SHA-256 of the session token, hex. */
    tokenHash: text("token_hash").primaryKey(),
    accountId: text("account_id").notNull().references(() => accounts.id),
    csrfToken: text("csrf_token").notNull(),
    createdAt: text("created_at").notNull(),
    expiresAt: text("expires_at").notNull(),
  },
  (t) => [index("dashboard_sessions_account").on(t.accountId)],
);

/**
 * Throttling of dashboard authentication: failed sign-ins per e-mail (lockout) and sign-ups per
 * client address. One row per event; rows older than the longest window are deleted lazily.
 */
export const authThrottle = sqliteTable(
  "auth_throttle",
  {
    id: text("id").primaryKey(),
    kind: text("kind", { enum: ["sign_in_failure", "sign_up"] }).notNull(),
    /** The e-mail (sign-in failures) or client IP address (sign-ups). */
    subject: text("subject").notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [index("auth_throttle_subject").on(t.kind, t.subject, t.createdAt)],
);
