// The `obscura` CLI end to end: the real bin (sdk/bin/obscura.mjs) run as a child process against
// the started stack, as a user runs it after `npm start`. Judged on what it writes (the result's
// pixels), what it prints (stdout results, stderr progress and errors), its exit codes, and the
// credits it spent.
import { spawn } from "node:child_process";
import { copyFile, mkdir, mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Box, Frame } from "../../compute/types.ts";
import { PHOTOS, faceBoxes, loadPhoto, psnr, sharpness } from "../compute/photos.ts";
import { makePanZoomVideo } from "../fixtures/make-video.ts";
import { api, credits, expectJson, featureAccount, workerUrl, type TestAccount } from "./helpers.ts";

const BIN = path.join(import.meta.dirname, "../../sdk/bin/obscura.mjs");

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI with a key and the service's URL (as npm start prints it, without /api/v2). */
function obscura(args: string[], key: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { ...process.env, OBSCURA_API_KEY: key, OBSCURA_BASE_URL: workerUrl() },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const jsonLines = (stdout: string) => stdout.trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);

async function decode(bytes: Uint8Array): Promise<Frame> {
  const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels as 3 };
}

const inBox = (b: Box) => (x: number, y: number) => x >= b.x && x < b.x + b.width && y >= b.y && y < b.y + b.height;

let account: TestAccount;
let dir: string;
let price: Record<string, number>;

beforeAll(async () => {
  account = await featureAccount(100);
  dir = await mkdtemp(path.join(tmpdir(), "obscura-cli-"));
  const catalog = await expectJson<{ features: Array<{ id: string; credits: number }> }>(await api(account, "/features"), 200);
  price = Object.fromEntries(catalog.features.map((f) => [f.id, f.credits]));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("obscura CLI against the stack", () => {
  it("image.face-blur on a photo: a JPEG beside it, same size, faces blurred, input untouched; credits --json shows the price spent", async () => {
    const input = path.join(dir, "group5.jpg");
    await copyFile(path.join(PHOTOS, "group5.jpg"), input);
    const inputBytes = await readFile(input);

    const before = await obscura(["credits", "--json"], account.key);
    expect(before.code, before.stderr).toBe(0);
    const balance = (JSON.parse(before.stdout) as { available_credits: number }).available_credits;

    const run = await obscura(["image.face-blur", input, "--json"], account.key);
    expect(run.code, run.stderr).toBe(0);
    const [result] = jsonLines(run.stdout);
    const output = path.join(dir, "group5.face-blur.jpg");
    expect(result).toMatchObject({ ok: true, input, output, feature: "image.face-blur", credits_used: price["image.face-blur"] });

    const outBytes = await readFile(output);
    expect((await sharp(outBytes).metadata()).format).toBe("jpeg");
    const original = await loadPhoto("group5.jpg");
    const out = await decode(outBytes);
    expect([out.width, out.height]).toEqual([original.width, original.height]);
    for (const face of faceBoxes()["group5.jpg"]!) {
      expect(psnr(original, out, inBox(face))).toBeLessThan(30);
      expect(sharpness(out, face)).toBeLessThan(0.15 * sharpness(original, face));
    }
    expect(Buffer.compare(await readFile(input), inputBytes)).toBe(0);

    const after = await obscura(["credits", "--json"], account.key);
    expect(after.code, after.stderr).toBe(0);
    expect(balance - (JSON.parse(after.stdout) as { available_credits: number }).available_credits).toBe(price["image.face-blur"]);
  });

  it("a bad API key exits 3 with the error code on stderr", async () => {
    const input = path.join(dir, "astronaut.png");
    await copyFile(path.join(PHOTOS, "astronaut.png"), input);
    for (const args of [["image.face-blur", input], ["credits"]]) {
      const run = await obscura(args, "obs_live_thiskeydoesnotexist000000000000");
      expect(run.code).toBe(3);
      expect(run.stderr).toMatch(/^obscura: unauthorized \(HTTP 401\): /);
      expect(run.stdout).toBe("");
    }
  });

  it("an unknown feature id or parameter exits 2 naming it; a refused media URL exits 4 with its code; nothing is charged", async () => {
    const input = path.join(dir, "astronaut.png");
    await copyFile(path.join(PHOTOS, "astronaut.png"), input);
    const before = await credits(account);

    const unknown = await obscura(["image.no-such-feature", input], account.key);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown feature id "image\.no-such-feature"; known: .*image\.face-blur/);

    const param = await obscura(["image.face-blur", input, "--frobnicate", "1"], account.key);
    expect(param.code).toBe(2);
    expect(param.stderr).toContain("unknown parameter --frobnicate for image.face-blur (its parameters: --blur_strength, --pixelated, --return_detections,");

    const local = await obscura(["image.face-blur", `${workerUrl()}/photo.jpg`, "--json"], account.key);
    expect(local.code).toBe(4);
    expect(local.stderr).toMatch(/^obscura: media_url_not_allowed \(HTTP 400\)/);
    expect(jsonLines(local.stdout)[0]).toMatchObject({ ok: false, exit_code: 4, error: { code: "media_url_not_allowed", status: 400 } });

    expect((await credits(account)).available_credits).toBe(before.available_credits);
  });

  it("a folder with --concurrency 2: a line per result, plain progress lines, a summary, exit 4 when one item's media is refused", async () => {
    const folder = path.join(dir, "photos");
    const out = path.join(dir, "out");
    await mkdir(folder, { recursive: true });
    await copyFile(path.join(PHOTOS, "group5.jpg"), path.join(folder, "group5.jpg"));
    await copyFile(path.join(PHOTOS, "astronaut.png"), path.join(folder, "astronaut.png"));
    await writeFile(path.join(folder, "broken.jpg"), Buffer.from("this is not a JPEG at all, only text bytes"));
    await writeFile(path.join(folder, "notes.txt"), "not an image: skipped");
    const before = await credits(account);

    const run = await obscura(["image.face-blur", folder, "-o", out, "--concurrency", "2"], account.key);
    expect(run.code, run.stderr).toBe(4);
    const lines = run.stdout.trim().split("\n").sort();
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(new RegExp(`^${literal(path.join(folder, "astronaut.png"))} -> ${literal(path.join(out, "astronaut.face-blur.png"))} \\(${price["image.face-blur"]} credits?, \\d+ left\\)$`));
    expect(lines[1]).toMatch(new RegExp(`^${literal(path.join(folder, "group5.jpg"))} -> ${literal(path.join(out, "group5.face-blur.jpg"))} \\(`));
    expect(run.stderr).toContain("astronaut.png: uploading 100%");
    expect(run.stderr).toMatch(/broken\.jpg: unsupported_media_format \(HTTP 422\)/);
    expect(run.stderr.trim().split("\n").at(-1)).toBe(`2 of 3 done, 1 failed; ${2 * price["image.face-blur"]!} credits used`);
    expect((await readdir(out)).sort()).toEqual(["astronaut.face-blur.png", "group5.face-blur.jpg"]);
    expect(before.available_credits - (await credits(account)).available_credits).toBe(2 * price["image.face-blur"]!);
  });

  it("video.face-blur: uploads, waits for the job with progress lines, downloads the MP4 to -o", async () => {
    const clip = await makePanZoomVideo({ outPath: path.join(dir, "clip.mp4"), width: 320, height: 180, fps: 10, seconds: 2 });
    const output = path.join(dir, "clip-blurred.mp4");
    const run = await obscura(["video.face-blur", clip, "-o", output, "--blur_strength", "0.8"], account.key);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`^${literal(clip)} -> ${literal(output)} \\(${price["video.face-blur"]} credits?, \\d+ left\\)\n$`));
    expect(run.stderr).toContain("clip.mp4: uploading 100%");
    expect(run.stderr).toMatch(/clip\.mp4: (queued|processing) \d+% job /);
    const head = (await readFile(output)).subarray(4, 8).toString("latin1");
    expect(head).toBe("ftyp");
  });
});
