// The operator key commands against the running stack, as the README shows them.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { expect, inject, it } from "vitest";
import { api } from "./helpers.ts";

const run = promisify(execFile);
const env = () => ({ ...process.env, OBSCURA_URL: inject("workerUrl"), SIGNING_SECRET: inject("signingSecret") });

it("keys:create prints a working key as the last line, keys:revoke makes it fail with 401", async () => {
  const email = `ops-${Date.now()}@example.com`;
  const created = await run(process.execPath, ["scripts/keys.ts", "create", "--email", email, "--name", "Ops", "--tier", "pro", "--credits", "42"], { env: env() });
  const key = created.stdout.trim().split("\n").at(-1)!;
  expect(key).toMatch(/^obs_live_[A-Za-z0-9_-]{43}$/);

  const me = await api({ key, keyId: "", accountId: "" }, "/me");
  expect(me.status).toBe(200);
  expect(await me.json()).toMatchObject({ email, name: "Ops", tier: "pro", available_credits: 42 });
  expect(me.headers.get("x-ratelimit-limit")).toBe("1000");

  await run(process.execPath, ["scripts/keys.ts", "revoke", "--key", key], { env: env() });
  const after = await api({ key, keyId: "", accountId: "" }, "/me");
  expect(after.status).toBe(401);
  expect(((await after.json()) as { error: { code: string } }).error.code).toBe("unauthorized");
});

it("keys:create without --credits says the key has nothing to run features with", async () => {
  const created = await run(process.execPath, ["scripts/keys.ts", "create", "--email", `zero-${Date.now()}@example.com`], { env: env() });
  expect(created.stdout.trim()).toMatch(/^obs_live_/);
  expect(created.stderr).toContain("note: the account has 0 credits; give some with --credits N");
  const given = await run(process.execPath, ["scripts/keys.ts", "create", "--email", `some-${Date.now()}@example.com`, "--credits", "5"], { env: env() });
  expect(given.stderr).not.toContain("0 credits");
});
