// Node-only helpers: local files in and out, and a client configured from the environment
// (OBSCURA_API_KEY, OBSCURA_BASE_URL), as the CLI will use it.
import { readFile, writeFile } from "node:fs/promises";
import { createObscura, mediaKindOf, type Obscura, type MediaKind, type Uploaded, type UploadOptions } from "./index.ts";

export * from "./index.ts";

/**
 * The API root from OBSCURA_BASE_URL, which may name the service (http://127.0.0.1:8787, what
 * `npm start` prints first) or the API root (.../api/v2): both mean the same API.
 */
export function apiBaseUrl(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  const base = raw.replace(/\/+$/, "");
  return /\/api\/v\d+$/.test(base) ? base : `${base}/api/v2`;
}

export function obscuraFromEnv(env: Record<string, string | undefined> = process.env): Obscura {
  return createObscura({ apiKey: env.OBSCURA_API_KEY ?? "", baseUrl: apiBaseUrl(env.OBSCURA_BASE_URL) });
}

/** Uploads a local file (upload ticket + PUT) and returns the media URL to pass to a feature. */
export async function uploadFile(client: Obscura, path: string, opts: UploadOptions & { kind?: MediaKind } = {}): Promise<Uploaded> {
  const bytes = new Uint8Array(await readFile(path));
  return client.uploadBytes(opts.kind ?? mediaKindOf(path, bytes.subarray(0, 16)), bytes, { signal: opts.signal, onProgress: opts.onProgress });
}

/** Downloads a result_url to a local file. */
export async function downloadTo(client: Obscura, url: string, path: string): Promise<void> {
  const { bytes } = await client.download(url);
  await writeFile(path, bytes);
}
