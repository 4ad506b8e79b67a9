// A real local stack for the load and scale-out benches: scripts/start.ts (the path of `npm start`)
// on the bench's own ports and state directory, accounts made through the signed operator route,
// API calls that record every answer, and the audit of the credit ledger read from D1's own file.
import { spawn, type ChildProcess } from "node:child_process";
import { readdirSync } from "node:fs";
import { readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { HEALTH_PATH, signRequest, type ComputeHealth } from "../../schema/compute-protocol.ts";
import { sha256Hex } from "../../schema/signing.ts";
import type { LocalStack } from "../../scripts/local-stack.ts";

export interface BenchStack extends LocalStack {
  stateDir: string;
  process: ChildProcess;
  /** Lines the stack printed (supervisor restarts, compute errors). */
  log: string[];
  stop(): Promise<void>;
}

/** Starts `scripts/start.ts` on a fresh state directory and waits until every model is warm. */
export async function startStack(opts: { workerPort: number; computePort: number; instances: number; stateDir: string }): Promise<BenchStack> {
  await rm(opts.stateDir, { recursive: true, force: true });
  const child = spawn(process.execPath, ["scripts/start.ts"], {
    env: { ...process.env, WORKER_PORT: String(opts.workerPort), COMPUTE_PORT: String(opts.computePort), COMPUTE_INSTANCES: String(opts.instances), OBSCURA_STATE_DIR: opts.stateDir },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const log: string[] = [];
  const keep = (d: Buffer) => log.push(...d.toString().split("\n").filter(Boolean));
  child.stderr!.on("data", keep);
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`stack did not start in 240 s:\n${log.join("\n")}`)), 240_000);
    child.stdout!.on("data", (d: Buffer) => {
      keep(d);
      if (log.some((l) => l.includes("OBSCURA_READY"))) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.on("exit", (code) => reject(new Error(`stack exited with ${code}:\n${log.join("\n")}`)));
  });
  const stack = JSON.parse(await readFile(join(opts.stateDir, "obscura-stack.json"), "utf8")) as LocalStack;
  await Promise.all(stack.computeUrls.map(warm));
  return {
    ...stack,
    stateDir: opts.stateDir,
    process: child,
    log,
    async stop() {
      child.kill("SIGTERM");
      for (let i = 0; i < 50 && child.exitCode === null && child.signalCode === null; i++) await new Promise((r) => setTimeout(r, 200));
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    },
  };
}

/** What the stack logged that looks like trouble (compute task failures, restarts, Worker errors), at most `max` lines. */
export function troubleLines(stack: BenchStack, max = 10): string[] {
  const lines = stack.log.filter((l) => /error|fail|exited|restart|dropped|warn/i.test(l) && !l.includes("ExperimentalWarning"));
  return lines.length > max ? [...lines.slice(0, max), `... ${lines.length - max} more`] : lines;
}

/** Waits until no model of the instance is loading for 3 s (they load one after another at start). */
async function warm(computeUrl: string): Promise<void> {
  for (let quiet = 0; quiet < 3; ) {
    await new Promise((r) => setTimeout(r, 1000));
    const health = (await (await fetch(computeUrl + HEALTH_PATH)).json()) as ComputeHealth;
    const states = Object.values(health.models);
    quiet = states.includes("loading") || states.every((m) => m === "idle") ? 0 : quiet + 1;
  }
}

export async function health(computeUrl: string): Promise<ComputeHealth | null> {
  try {
    return (await (await fetch(computeUrl + HEALTH_PATH, { signal: AbortSignal.timeout(2000) })).json()) as ComputeHealth;
  } catch {
    return null;
  }
}

export interface Account {
  key: string;
  accountId: string;
}

/** An account with a key, through the signed operator route behind `npm run keys:create`. */
export async function createAccount(stack: LocalStack, email: string, credits: number): Promise<Account> {
  const path = "/internal/admin/keys";
  const body = JSON.stringify({ email, credits, tier: "enterprise", daily_limit: 100_000 });
  const signature = await signRequest(stack.secret, "POST", path, await sha256Hex(body));
  const res = await fetch(stack.workerUrl + path, { method: "POST", body, headers: { "content-type": "application/json", ...signature } });
  if (res.status !== 201) throw new Error(`admin route: ${res.status} ${await res.text()}`);
  const out = (await res.json()) as { key: string; account_id: string };
  return { key: out.key, accountId: out.account_id };
}

/** One HTTP answer as the bench saw it. */
export interface Answer {
  kind: string;
  status: number;
  code?: string;
  /** The error message of a 5xx (which path refused it). */
  message?: string;
  retryAfter?: string | null;
  ms: number;
}

/** Makes requests and records every answer (status, error code, Retry-After, latency) under a kind. */
export class Recorder {
  readonly answers: Answer[] = [];
  readonly base: string;

  constructor(workerUrl: string) {
    this.base = `${workerUrl}/api/v2`;
  }

  /** `path` under /api/v2, or an absolute URL (upload PUT targets). A network error counts as status 0. */
  async call(kind: string, path: string, init: RequestInit & { key?: string | null; json?: unknown } = {}): Promise<{ status: number; body: Record<string, unknown> }> {
    const headers = new Headers(init.headers);
    if (init.key) headers.set("authorization", `Bearer ${init.key}`);
    let body = init.body;
    if (init.json !== undefined) {
      headers.set("content-type", "application/json");
      body = JSON.stringify(init.json);
    }
    const t0 = performance.now();
    let status = 0;
    let parsed: Record<string, unknown> = {};
    let retryAfter: string | null = null;
    try {
      const res = await fetch(path.startsWith("http") ? path : this.base + path, { ...init, headers, body, signal: AbortSignal.timeout(180_000) });
      status = res.status;
      retryAfter = res.headers.get("retry-after");
      const text = await res.text();
      if ((res.headers.get("content-type") ?? "").includes("json")) parsed = JSON.parse(text) as Record<string, unknown>;
    } catch (err) {
      parsed = { error: { code: `network: ${(err as Error).message}` } };
    }
    const error = parsed.error as { code?: string; message?: string } | undefined;
    this.answers.push({ kind, status, code: error?.code, ...(status >= 500 ? { message: error?.message } : {}), retryAfter, ms: performance.now() - t0 });
    return { status, body: parsed };
  }
}

/** Per kind: answers by status and code, and latency p50/p95. */
export function summarize(answers: Answer[]): string[] {
  const kinds = [...new Set(answers.map((a) => a.kind))].sort();
  const q = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
  const lines = kinds.map((kind) => {
    const of = answers.filter((a) => a.kind === kind);
    const counts = new Map<string, number>();
    for (const a of of) counts.set(`${a.status}${a.code ? ` ${a.code}` : ""}`, (counts.get(`${a.status}${a.code ? ` ${a.code}` : ""}`) ?? 0) + 1);
    const ms = of.map((a) => a.ms).sort((a, b) => a - b);
    const statuses = [...counts].sort().map(([k, n]) => `${k}: ${n}`).join(", ");
    return `  ${kind.padEnd(20)} n=${String(of.length).padStart(4)}  p50 ${q(ms, 0.5).toFixed(0).padStart(6)} ms  p95 ${q(ms, 0.95).toFixed(0).padStart(6)} ms  ${statuses}`;
  });
  return lines;
}

/** Answers that break "no 5xx other than 503 with Retry-After" (network errors included). */
export function badServerAnswers(answers: Answer[]): Answer[] {
  return answers.filter((a) => a.status === 0 || (a.status >= 500 && !(a.status === 503 && a.retryAfter)));
}

interface LedgerRow {
  account_id: string;
  grants: number;
  refunds: number;
  reserves: number;
  captures: number;
  open_reserved: number;
  open_count: number;
  /** Settled reservations whose capture + refund is not exactly the reservation. */
  mismatched: number;
}

/** The D1 database file of a local state directory (miniflare keeps one SQLite file per database). */
function d1File(stateDir: string): string {
  const dir = join(stateDir, "v3/d1/miniflare-D1DatabaseObject");
  const files = readdirSync(dir).filter((f) => f.endsWith(".sqlite") && f !== "metadata.sqlite");
  if (files.length !== 1) throw new Error(`expected one D1 database in ${dir}, found ${files.join(", ") || "none"}`);
  return join(dir, files[0]!);
}

export interface AuditResult {
  ok: boolean;
  lines: string[];
}

/**
 * The ledger audit, from D1 itself: for every account, balance (grants + refunds - reserves) =
 * grants - captures - open reservations, every settled reservation settled exactly (capture +
 * refund = reserved), and the balance /me/credits reports is the ledger's; every job row (not only
 * the jobs the bench saw accepted) is terminal, and its settlement matches its outcome.
 */
export async function auditLedger(stack: BenchStack, accounts: Account[], opts: { expectNoOpenReservations: boolean }): Promise<AuditResult> {
  const db = new DatabaseSync(d1File(stack.stateDir), { readOnly: true });
  const lines: string[] = [];
  let ok = true;
  const fail = (line: string) => {
    ok = false;
    lines.push(`FAIL ${line}`);
  };
  const rows = db
    .prepare(
      `SELECT a.id AS account_id,
         COALESCE(SUM(CASE l.kind WHEN 'grant' THEN l.credits END), 0) AS grants,
         COALESCE(SUM(CASE l.kind WHEN 'refund' THEN l.credits END), 0) AS refunds,
         COALESCE(SUM(CASE l.kind WHEN 'reserve' THEN l.credits END), 0) AS reserves,
         COALESCE(SUM(CASE l.kind WHEN 'capture' THEN l.credits END), 0) AS captures,
         COALESCE(SUM(CASE WHEN l.kind = 'reserve' AND NOT EXISTS (SELECT 1 FROM ledger_entries s WHERE s.reservation_id = l.id) THEN l.credits END), 0) AS open_reserved,
         COALESCE(SUM(CASE WHEN l.kind = 'reserve' AND NOT EXISTS (SELECT 1 FROM ledger_entries s WHERE s.reservation_id = l.id) THEN 1 END), 0) AS open_count,
         COALESCE(SUM(CASE WHEN l.kind = 'reserve' AND EXISTS (SELECT 1 FROM ledger_entries s WHERE s.reservation_id = l.id)
           AND (SELECT SUM(s.credits) FROM ledger_entries s WHERE s.reservation_id = l.id) != l.credits THEN 1 END), 0) AS mismatched
       FROM accounts a LEFT JOIN ledger_entries l ON l.account_id = a.id GROUP BY a.id`,
    )
    .all() as unknown as LedgerRow[];
  const keys = new Map(accounts.map((a) => [a.accountId, a.key]));
  let reservations = 0;
  for (const r of rows) {
    const balance = r.grants + r.refunds - r.reserves;
    const expected = r.grants - r.captures - r.open_reserved;
    reservations += (db.prepare(`SELECT COUNT(*) AS n FROM ledger_entries WHERE account_id = ? AND kind = 'reserve'`).get(r.account_id) as { n: number }).n;
    if (balance !== expected) fail(`${r.account_id}: balance ${balance} != grants ${r.grants} - captures ${r.captures} - open ${r.open_reserved}`);
    if (r.mismatched) fail(`${r.account_id}: ${r.mismatched} reservations settled for another amount than reserved`);
    if (opts.expectNoOpenReservations && r.open_count) fail(`${r.account_id}: ${r.open_count} reservations still open (${r.open_reserved} credits) after every request and job ended`);
    const key = keys.get(r.account_id);
    if (key) {
      const api = (await (await fetch(`${stack.workerUrl}/api/v2/me/credits`, { headers: { authorization: `Bearer ${key}` } })).json()) as { available_credits: number; reserved_credits: number; total_spent: number };
      if (api.available_credits !== balance || api.total_spent !== r.captures || api.reserved_credits !== r.open_reserved) {
        fail(`${r.account_id}: /me/credits says available ${api.available_credits}, spent ${api.total_spent}, reserved ${api.reserved_credits}; ledger ${balance}, ${r.captures}, ${r.open_reserved}`);
      }
    }
  }
  const jobRows = db.prepare(`SELECT id, account_id, reservation_id, credits_reserved FROM jobs`).all() as Array<{ id: string; account_id: string; reservation_id: string; credits_reserved: number }>;
  const byStatus = new Map<string, number>();
  for (const j of jobRows) {
    const key = keys.get(j.account_id);
    if (!key) continue;
    const job = (await (await fetch(`${stack.workerUrl}/api/v2/jobs/${j.id}`, { headers: { authorization: `Bearer ${key}` } })).json()) as { status: string; credits_used?: number };
    byStatus.set(job.status, (byStatus.get(job.status) ?? 0) + 1);
    const settled = db.prepare(`SELECT kind, credits FROM ledger_entries WHERE reservation_id = ?`).all(j.reservation_id) as Array<{ kind: string; credits: number }>;
    const captured = settled.filter((s) => s.kind === "capture").reduce((n, s) => n + s.credits, 0);
    if (job.status !== "completed" && job.status !== "failed") fail(`job ${j.id} is ${job.status}`);
    else if (job.status === "completed" && captured !== job.credits_used) fail(`job ${j.id} completed with credits_used ${job.credits_used}, captured ${captured}`);
    else if (job.status === "failed" && captured !== 0) fail(`job ${j.id} failed but ${captured} credits were captured`);
  }
  db.close();
  const total = rows.reduce((t, r) => ({ grants: t.grants + r.grants, captures: t.captures + r.captures, open: t.open + r.open_reserved }), { grants: 0, captures: 0, open: 0 });
  lines.unshift(
    `audit: ${rows.length} accounts, ${reservations} reservations; grants ${total.grants} - captures ${total.captures} - open ${total.open} = ${total.grants - total.captures - total.open} = sum of balances`,
    `audit: ${jobRows.length} jobs in D1: ${[...byStatus].map(([s, n]) => `${s} ${n}`).join(", ") || "none"}`,
  );
  lines.push(ok ? "audit: PASS" : "audit: FAIL");
  return { ok, lines };
}

/** Polls jobs until every one is completed or failed (or the deadline passes). */
export async function waitForJobs(rec: Recorder, jobs: Array<{ id: string; key: string }>, timeoutMs: number): Promise<Map<string, { status: string; error?: { code: string } }>> {
  const done = new Map<string, { status: string; error?: { code: string } }>();
  const deadline = Date.now() + timeoutMs;
  while (done.size < jobs.length && Date.now() < deadline) {
    for (const job of jobs.filter((j) => !done.has(j.id))) {
      const { body } = await rec.call("poll job", `/jobs/${job.id}`, { key: job.key });
      if (body.status === "completed" || body.status === "failed") done.set(job.id, body as { status: string; error?: { code: string } });
    }
    if (done.size < jobs.length) await new Promise((r) => setTimeout(r, 1000));
  }
  return done;
}
