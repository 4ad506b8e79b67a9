// The docs page's quick-start samples run as a reader would run them: each is read out of the
// served page (so what is tested is what is shown), saved, and run in a folder holding photo.jpg
// with OBSCURA_API_KEY set, against the started stack. curl samples run in bash (-e -o pipefail,
// so a failed request fails the sample), the SDK ones as .mts with @obscura/sdk resolved to
// sdk/src, the fetch ones as .mjs.
import { execFile } from "node:child_process";
import { copyFile, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAccount, workerUrl, type TestAccount } from "./helpers.ts";

const PHOTO = path.join(import.meta.dirname, "../fixtures/photos/group1.jpg");
const SDK = path.join(import.meta.dirname, "../../sdk/src");
/** The package's entry points as sdk/package.json exports them. */
const SDK_IMPORTS: Array<[string, string]> = [
  ['"@obscura/sdk/node"', JSON.stringify(pathToFileURL(path.join(SDK, "node.ts")).href)],
  ['"@obscura/sdk"', JSON.stringify(pathToFileURL(path.join(SDK, "index.ts")).href)],
];

const unescapeHtml = (s: string) => s.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");

let account: TestAccount;
let samples: Map<string, string>;
const folders: string[] = [];

beforeAll(async () => {
  account = await createAccount({ credits: 50 });
  const html = await (await fetch(`${workerUrl()}/api/v2/docs`)).text();
  samples = new Map([...html.matchAll(/<pre data-sample="([^"]+)"><code>([\s\S]*?)<\/code><\/pre>/g)].map((m) => [m[1]!, unescapeHtml(m[2]!)]));
});
afterAll(async () => {
  await Promise.all(folders.map((f) => rm(f, { recursive: true, force: true })));
});

/** Runs one sample as shown, in a fresh folder with photo.jpg; the folder and what it printed. */
async function run(id: string): Promise<{ dir: string; stdout: string; stderr: string }> {
  const code = samples.get(id);
  if (code === undefined) throw new Error(`no sample ${id} on the docs page (it has: ${[...samples.keys()].join(", ")})`);
  const dir = await mkdtemp(path.join(tmpdir(), "obscura-sample-"));
  folders.push(dir);
  await copyFile(PHOTO, path.join(dir, "photo.jpg"));
  const language = id.split("/")[1];
  let command: [string, string[]];
  if (language === "curl") command = ["bash", ["-e", "-o", "pipefail", "-c", code]];
  else {
    const file = path.join(dir, language === "sdk" ? "sample.mts" : "sample.mjs");
    await writeFile(file, language === "sdk" ? SDK_IMPORTS.reduce((text, [name, url]) => text.replaceAll(name, url), code) : code);
    command = [process.execPath, [file]];
  }
  const env = { ...process.env, OBSCURA_API_KEY: account.key };
  try {
    const { stdout, stderr } = await promisify(execFile)(command[0], command[1], { cwd: dir, env, timeout: 120_000 });
    return { dir, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    throw new Error(`sample ${id} failed (exit ${e.code}):\n${code}\n--- stdout\n${e.stdout}\n--- stderr\n${e.stderr}`);
  }
}

const LANGUAGES = ["curl", "sdk", "fetch"];

describe("docs quick-start samples, run against the stack", () => {
  it("the page shows the three tasks in each language", () => {
    expect([...samples.keys()]).toEqual(["account", "blur-a-photo", "wait-for-a-job"].flatMap((task) => LANGUAGES.map((language) => `${task}/${language}`)));
  });

  it.each(LANGUAGES)("account/%s answers with the key's account", async (language) => {
    const { stdout } = await run(`account/${language}`);
    if (language === "sdk") expect(stdout).toMatch(/^e2e-\S+@example\.com free \d+\n$/);
    else expect(stdout).toContain(account.accountId);
  });

  it.each(LANGUAGES)("blur-a-photo/%s writes the blurred photo", async (language) => {
    const { dir } = await run(`blur-a-photo/${language}`);
    const [original, blurred] = await Promise.all([readFile(path.join(dir, "photo.jpg")), readFile(path.join(dir, "photo.face-blur.jpg"))]);
    expect([...blurred.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    expect(blurred.equals(original)).toBe(false);
  });

  it.each(LANGUAGES)("wait-for-a-job/%s polls until the job completes", async (language) => {
    const { stdout } = await run(`wait-for-a-job/${language}`);
    expect(stdout).toMatch(/completed/);
    expect(stdout).not.toMatch(/failed/);
  });
});
