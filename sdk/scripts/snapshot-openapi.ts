// Writes the OpenAPI document the Worker serves to sdk/openapi.json (the input of the generated
// types). Runs the Worker in a local workerd through wrangler; no compute, no network.
//   npx node sdk/scripts/snapshot-openapi.ts
import { writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { unstable_dev } from "wrangler";

const root = fileURLToPath(new URL("../../", import.meta.url));
const worker = await unstable_dev(`${root}worker/index.ts`, {
  config: `${root}wrangler.toml`,
  ip: "127.0.0.1",
  logLevel: "warn",
  experimental: { disableExperimentalWarning: true, testScheduled: false },
});
try {
  const res = await worker.fetch("/api/v2/openapi.json");
  if (!res.ok) throw new Error(`GET /api/v2/openapi.json answered ${res.status}`);
  const out = fileURLToPath(new URL("../openapi.json", import.meta.url));
  await writeFile(out, `${JSON.stringify(await res.json(), null, 2)}\n`);
  console.log(`wrote ${out}`);
} finally {
  await worker.stop();
}
