// Helpers for end-to-end tests: keys through the operator route, API calls with a key.
import { inject } from "vitest";
import { signRequest } from "../../schema/compute-protocol.ts";
import { sha256Hex } from "../../schema/signing.ts";

export const baseUrl = () => inject("baseUrl");
export const workerUrl = () => inject("workerUrl");

export interface TestAccount {
  key: string;
  keyId: string;
  accountId: string;
}

let counter = 0;

/** The signed operator route behind `npm run keys:create`. */
export async function adminCreateKey(input: Record<string, unknown>): Promise<Response> {
  const body = JSON.stringify(input);
  const path = "/internal/admin/keys";
  const signature = await signRequest(inject("signingSecret"), "POST", path, await sha256Hex(body));
  return fetch(workerUrl() + path, { method: "POST", body, headers: { "content-type": "application/json", ...signature } });
}

/** A fresh account with a key, made through the same signed admin route as `npm run keys:create`. */
export async function createAccount(opts: { credits?: number; tier?: "free" | "pro" | "enterprise"; dailyLimit?: number } = {}): Promise<TestAccount> {
  const res = await adminCreateKey({ email: `e2e-${Date.now()}-${counter++}@example.com`, credits: opts.credits ?? 100, tier: opts.tier, daily_limit: opts.dailyLimit });
  if (res.status !== 201) throw new Error(`admin route: ${res.status} ${await res.text()}`);
  const out = (await res.json()) as { key: string; key_id: string; account_id: string };
  return { key: out.key, keyId: out.key_id, accountId: out.account_id };
}

export function api(account: TestAccount | null, path: string, init: RequestInit & { json?: unknown } = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  if (account) headers.set("authorization", `Bearer ${account.key}`);
  let body = init.body;
  if (init.json !== undefined) {
    headers.set("content-type", "application/json");
    body = JSON.stringify(init.json);
  }
  return fetch(baseUrl() + path, { ...init, headers, body });
}

export async function credits(account: TestAccount) {
  return (await (await api(account, "/me/credits")).json()) as { available_credits: number; total_purchased: number; total_spent: number; reserved_credits: number };
}

/** Polls a job until it is completed or failed. */
export async function waitForJob(account: TestAccount, jobId: string, timeoutMs = 240_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = (await (await api(account, `/jobs/${jobId}`)).json()) as { status: string; result_url?: string; error?: { code: string; message: string }; progress: number; credits_used?: number };
    if (job.status === "completed" || job.status === "failed") return job;
    if (Date.now() > deadline) throw new Error(`job ${jobId} still ${job.status} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 1000));
  }
}

/** Uploads bytes through the upload flow and returns the media URL. */
export async function upload(account: TestAccount, kind: "image" | "video", bytes: Uint8Array): Promise<string> {
  const ticket = (await (await api(account, `/uploads/${kind}`, { method: "POST", json: {} })).json()) as { upload_url: string; image_url?: string; video_url?: string };
  const put = await fetch(ticket.upload_url, { method: "PUT", body: bytes, headers: { "content-length": String(bytes.byteLength) } });
  if (!put.ok) throw new Error(`upload PUT: ${put.status} ${await put.text()}`);
  return (ticket.image_url ?? ticket.video_url)!;
}

// ---- Feature helpers (images, videos, credits suites) ----

/** An account for feature tests: enterprise plan with a daily limit that polling cannot exhaust. */
export function featureAccount(credits: number, tier: "free" | "pro" | "enterprise" = "enterprise"): Promise<TestAccount> {
  return createAccount({ credits, tier, dailyLimit: tier === "enterprise" ? 100_000 : undefined });
}

/** A multipart POST carrying `file` as the part `part`, plus text fields. */
export function multipart(account: TestAccount, path: string, part: string, file: { bytes: Uint8Array; name: string; type?: string }, fields: Record<string, string> = {}, headers: Record<string, string> = {}): Promise<Response> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  form.set(part, new Blob([file.bytes], { type: file.type ?? "application/octet-stream" }), file.name);
  return api(account, path, { method: "POST", body: form, headers });
}

/** Asserts an error envelope with this status and code; returns the message. */
export async function expectError(res: Response, status: number, code: string): Promise<string> {
  const text = await res.text();
  if (res.status !== status) throw new Error(`expected ${status} ${code}, got ${res.status}: ${text}`);
  const body = JSON.parse(text) as { error: { code: string; message: string; status: number } };
  if (body.error?.code !== code || body.error.status !== status) throw new Error(`expected ${status} ${code}, got ${text}`);
  return body.error.message;
}

/** Parses a JSON answer, failing with the body when the status is not the expected one. */
export async function expectJson<T = Record<string, unknown>>(res: Response, status: number): Promise<T> {
  const text = await res.text();
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${text}`);
  return JSON.parse(text) as T;
}

/** Downloads a result URL (no key needed): bytes and Content-Type. */
export async function download(url: string): Promise<{ bytes: Buffer; contentType: string }> {
  const res = await fetch(url);
  if (res.status !== 200) throw new Error(`GET ${url}: ${res.status} ${await res.text()}`);
  return { bytes: Buffer.from(await res.arrayBuffer()), contentType: res.headers.get("content-type") ?? "" };
}

export type Credits = Awaited<ReturnType<typeof credits>>;

/** The change of an account's credit record since `before`. */
export async function creditDelta(account: TestAccount, before: Credits) {
  const after = await credits(account);
  return { spent: after.total_spent - before.total_spent, available: before.available_credits - after.available_credits, reserved: after.reserved_credits, after };
}
