// Operator commands against the running service (they use the same code path as the Worker):
//   npm run --silent keys:create -- --email EMAIL [--name NAME] [--tier free|pro|enterprise] [--credits N] [--daily-limit N] [--key-name NAME]
//   npm run --silent keys:revoke -- (--key KEY | --key-id ID)
// keys:create prints the plaintext key as the last line of stdout. It is shown only this once.
import { parseArgs } from "node:util";
import { signRequest } from "../schema/compute-protocol.ts";
import { sha256Hex } from "../schema/signing.ts";
import { readLocalStack, stackFile } from "./local-stack.ts";
import { isRunning } from "../compute/pids.ts";

const [command, ...rest] = process.argv.slice(2);

/** The Worker to ask and the secret to sign with: OBSCURA_URL + SIGNING_SECRET, or the local stack's. */
async function target(): Promise<{ workerUrl: string; secret: string }> {
  if (process.env.OBSCURA_URL && process.env.SIGNING_SECRET) return { workerUrl: process.env.OBSCURA_URL, secret: process.env.SIGNING_SECRET };
  const stack = await readLocalStack();
  // A stack stopped by SIGKILL or a crash leaves its file behind.
  if (stack.pid !== undefined && !isRunning(stack.pid)) throw new Error(`The local service is not running (${stackFile()} is left from a run that stopped). Start it with: npm start`);
  return stack;
}

async function signedPost(path: string, body: unknown): Promise<Record<string, unknown>> {
  const stack = await target();
  const text = JSON.stringify(body);
  const signature = await signRequest(stack.secret, "POST", path, await sha256Hex(text));
  const res = await fetch(stack.workerUrl + path, { method: "POST", body: text, headers: { "content-type": "application/json", ...signature } }).catch((err: Error) => {
    throw new Error(`The service does not answer at ${stack.workerUrl} (${(err.cause as Error | undefined)?.message ?? err.message}). Is it running? Start it with: npm start`);
  });
  const json = (await res.json()) as Record<string, unknown> & { error?: { message: string } };
  if (!res.ok) throw new Error(json.error?.message ?? `HTTP ${res.status}`);
  return json;
}

function intOption(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new Error(`--${name} must be a whole number`);
  return Number(value);
}

try {
  if (command === "create") {
    const { values } = parseArgs({
      args: rest,
      options: { email: { type: "string" }, name: { type: "string" }, tier: { type: "string" }, credits: { type: "string" }, "daily-limit": { type: "string" }, "key-name": { type: "string" } },
    });
    if (!values.email) throw new Error("--email is required");
    const out = await signedPost("/internal/admin/keys", {
      email: values.email,
      name: values.name,
      tier: values.tier,
      credits: intOption(values.credits, "credits"),
      daily_limit: intOption(values["daily-limit"], "daily-limit"),
      key_name: values["key-name"],
    });
    console.error(`account ${out.account_id}, key ${out.key_id}. The key below is shown only once:`);
    // Every feature answers 402 insufficient_credits until the account has credits.
    if (!out.available_credits) console.error("note: the account has 0 credits; give some with --credits N (e.g. --credits 100) to run features.");
    console.log(out.key);
  } else if (command === "revoke") {
    const { values } = parseArgs({ args: rest, options: { key: { type: "string" }, "key-id": { type: "string" } } });
    if (!values.key && !values["key-id"]) throw new Error("--key or --key-id is required");
    const out = await signedPost("/internal/admin/keys/revoke", { key: values.key, key_id: values["key-id"] });
    console.log(`revoked ${out.key_id}`);
  } else {
    throw new Error("usage: keys.ts create|revoke ...");
  }
} catch (err) {
  console.error(`error: ${(err as Error).message}`);
  process.exit(1);
}
