// Signed reports from compute to the Worker about an asynchronous task: progress (also the
// heartbeat the job's watchdog waits for), the result, or the failure.
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { Readable } from "node:stream";
import { CONTENT_SHA256_HEADER, RESULT_DURATION_HEADER, signRequest } from "../schema/compute-protocol.ts";
import { sha256Hex } from "../schema/signing.ts";
import { createHash } from "node:crypto";

/** Progress is sent at most this often, and at least this often as a heartbeat. */
const PROGRESS_MIN_INTERVAL_MS = 2_000;
export const HEARTBEAT_INTERVAL_MS = 20_000;

function signedHeaders(secret: string, method: string, url: string, bodyHash: string): Promise<Record<string, string>> {
  return signRequest(secret, method, new URL(url).pathname, bodyHash);
}

async function postJson(secret: string, url: string, body: unknown): Promise<void> {
  const text = JSON.stringify(body);
  const headers = await signedHeaders(secret, "POST", url, await sha256Hex(text));
  // A few quick retries: a lost report must not lose the job (the watchdog is the last resort).
  for (let attempt = 0; attempt < 4; attempt++) {
    try {
      const res = await fetch(url, { method: "POST", body: text, headers: { ...headers, "content-type": "application/json" }, signal: AbortSignal.timeout(10_000) });
      if (res.ok || (res.status >= 400 && res.status < 500)) return;
    } catch {
      // retry
    }
    await new Promise((r) => setTimeout(r, 500 * 2 ** attempt));
  }
}

export class JobReporter {
  private lastSent = 0;
  private lastValue = -1;
  private heartbeat: NodeJS.Timeout;
  private readonly secret: string;
  private readonly callbackUrl: string;

  constructor(secret: string, callbackUrl: string) {
    this.secret = secret;
    this.callbackUrl = callbackUrl;
    this.heartbeat = setInterval(() => void this.send(Math.max(0, this.lastValue)), HEARTBEAT_INTERVAL_MS);
  }

  progress(percent: number): void {
    const now = Date.now();
    if (now - this.lastSent < PROGRESS_MIN_INTERVAL_MS || Math.round(percent) === this.lastValue) return;
    void this.send(percent);
  }

  private async send(percent: number): Promise<void> {
    this.lastSent = Date.now();
    this.lastValue = Math.round(percent);
    await postJson(this.secret, `${this.callbackUrl}/progress`, { progress: percent });
  }

  async fail(code: string, message: string): Promise<void> {
    clearInterval(this.heartbeat);
    await postJson(this.secret, `${this.callbackUrl}/fail`, { code, message });
  }

  /** Uploads the detections document (before the result, which completes the job). */
  async detections(document: unknown): Promise<void> {
    await this.upload("detections", { body: Buffer.from(JSON.stringify(document)) }, "application/json", {});
  }

  /** Uploads the result, which completes the job. */
  async complete(result: { body: Buffer } | { path: string }, contentType: string, durationSeconds?: number): Promise<void> {
    clearInterval(this.heartbeat);
    await this.upload("result", result, contentType, durationSeconds !== undefined ? { [RESULT_DURATION_HEADER]: String(durationSeconds) } : {});
  }

  /** PUTs bytes to a callback; the signature covers their SHA-256, which R2 verifies on write. */
  private async upload(what: "result" | "detections", result: { body: Buffer } | { path: string }, contentType: string, extra: Record<string, string>): Promise<void> {
    const url = `${this.callbackUrl}/${what}`;
    let hash: string;
    let size: number;
    if ("body" in result) {
      hash = createHash("sha256").update(result.body).digest("hex");
      size = result.body.length;
    } else {
      const h = createHash("sha256");
      for await (const chunk of createReadStream(result.path)) h.update(chunk as Buffer);
      hash = h.digest("hex");
      size = (await stat(result.path)).size;
    }
    const headers = await signedHeaders(this.secret, "PUT", url, hash);
    const body = "body" in result ? result.body : (Readable.toWeb(createReadStream(result.path)) as ReadableStream);
    const res = await fetch(url, {
      method: "PUT",
      body,
      headers: { ...headers, [CONTENT_SHA256_HEADER]: hash, "content-type": contentType, "content-length": String(size), ...extra },
      duplex: "half",
    } as RequestInit);
    if (!res.ok) throw new Error(`${what} upload refused: HTTP ${res.status} ${await res.text()}`);
  }

  stop(): void {
    clearInterval(this.heartbeat);
  }
}
