// Regenerates what the SDK takes from the service: sdk/openapi.json (the document the Worker
// serves) and sdk/src/openapi.d.ts (its types). Runs the Worker in a local workerd through
// wrangler; no compute, no network.
//   npm run sdk:generate
import { writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { unstable_dev } from "wrangler";
import { typesOf } from "./openapi-types.ts";

// Offline: no metrics, and no fetch of Cloudflare's request.cf data.
process.env.WRANGLER_SEND_METRICS ??= "false";
process.env.CLOUDFLARE_CF_FETCH_ENABLED ??= "false";
const root = fileURLToPath(new URL("../../", import.meta.url));
const worker = await unstable_dev(`${root}worker/index.ts`, {
  config: `${root}wrangler.toml`,
  ip: "127.0.0.1",
  logLevel: "warn",
  experimental: { disableExperimentalWarning: true, testScheduled: false },
});
let document: object;
try {
  const res = await worker.fetch("/api/v2/openapi.json");
  if (!res.ok) throw new Error(`GET /api/v2/openapi.json answered ${res.status}`);
  document = (await res.json()) as object;
} finally {
  await worker.stop();
}
for (const [path, text] of [
  ["../openapi.json", `${JSON.stringify(document, null, 2)}\n`],
  ["../src/openapi.d.ts", await typesOf(document)],
] as const) {
  const out = fileURLToPath(new URL(path, import.meta.url));
  await writeFile(out, text);
  console.log(`wrote ${out}`);
}
