// The CLI's pure parts, in Node without the stack: the command line, typing parameters against
// the real request schemas (sdk/openapi.json, the served document), output naming, and the exit
// code of every error class. The CLI against the running service is test/e2e/cli.test.ts.
import { afterEach, describe, expect, it, vi } from "vitest";
import snapshot from "../../sdk/openapi.json";
import { ERROR_CODES } from "../../schema/errors.ts";
import { ObscuraError, ObscuraJobError } from "../../sdk/src/index.ts";
import { apiBaseUrl } from "../../sdk/src/node.ts";
import { coerceParams, parseCommandLine, type RequestSchema } from "../../sdk/src/cli/args.ts";
import { batchExitCode, summaryLine } from "../../sdk/src/cli/batch.ts";
import { EXIT, UsageError, describeError, exitCodeOf } from "../../sdk/src/cli/exit-codes.ts";
import { HELP } from "../../sdk/src/cli/help.ts";
import { main } from "../../sdk/src/cli/main.ts";
import { createProgress } from "../../sdk/src/cli/output.ts";
import { errorJson } from "../../sdk/src/cli/commands.ts";
import { assertNotInput, defaultOutput } from "../../sdk/src/cli/run.ts";

/** The JSON request schema of an endpoint, as GET /features hands it out. */
function schemaOf(path: string): RequestSchema {
  const paths = snapshot.paths as unknown as Record<string, { post: { requestBody: { content: Record<string, { schema: RequestSchema }> } } }>;
  return paths[`/api/v2${path}`]!.post.requestBody.content["application/json"]!.schema;
}

/**
 * The rows a terminal shows after `text`: characters, newlines and the few escape codes Node's
 * readline writes for a progress display (cursor up, down, to a column; erase the line, to its
 * end, below the cursor). The TTY test asserts what a user sees, not how a library draws it.
 */
function screen(text: string): string[] {
  const rows: string[] = [];
  let r = 0;
  let c = 0;
  const row = () => rows[r] ?? "";
  for (let i = 0; i < text.length; ) {
    const esc = /^\x1b\[(\??)(\d*)([A-Za-z])/.exec(text.slice(i));
    if (esc) {
      i += esc[0].length;
      const [, mode, arg, code] = esc;
      const n = Number(arg || 0);
      if (mode) continue; // line wrapping, cursor visibility
      if (code === "A") r = Math.max(0, r - (n || 1));
      else if (code === "B") r += n || 1;
      else if (code === "C") c += n || 1;
      else if (code === "D") c = Math.max(0, c - (n || 1));
      else if (code === "G") c = (n || 1) - 1;
      else if (code === "K") rows[r] = n === 2 ? "" : n === 1 ? " ".repeat(c) + row().slice(c) : row().slice(0, c);
      else if (code === "J") rows.splice(r, rows.length, row().slice(0, c));
      else throw new Error(`escape code ${JSON.stringify(esc[0])} not modelled`);
      continue;
    }
    const ch = text[i++]!;
    if (ch === "\n") [r, c] = [r + 1, 0];
    else if (ch === "\r") c = 0;
    else {
      rows[r] = row().padEnd(c).slice(0, c) + ch + row().slice(c + 1);
      c++;
    }
  }
  const shown = Array.from(rows, (s) => (s ?? "").trimEnd());
  while (shown.length && !shown.at(-1)) shown.pop();
  return shown;
}

afterEach(() => {
  vi.useRealTimers();
});

const usage = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    return (err as Error).message;
  }
  throw new Error("expected a usage error");
};

describe("command line", () => {
  it("help: no arguments, help, -h or --help anywhere", () => {
    for (const argv of [[], ["help"], ["-h"], ["image.face-blur", "x.jpg", "--help"]]) expect(parseCommandLine(argv)).toEqual({ name: "help" });
  });

  it("features and credits, with --json", () => {
    expect(parseCommandLine(["features"])).toEqual({ name: "features", json: false });
    expect(parseCommandLine(["credits", "--json"])).toEqual({ name: "credits", json: true });
    expect(usage(() => parseCommandLine(["credits", "extra"]))).toMatch(/unexpected argument "extra"/);
    expect(usage(() => parseCommandLine(["features", "--blur_strength", "1"]))).toMatch(/--blur_strength/);
    expect(usage(() => parseCommandLine(["credits", "-o", "x"]))).toMatch(/only --json/);
  });

  it("a feature run: -o, --json, --concurrency, and every other --name as a parameter (space, =, kebab-case, bare flag)", () => {
    const cmd = parseCommandLine(["image.face-blur", "photo.jpg", "-o", "out.jpg", "--blur-strength", "0.9", "--pixelated", "--json", "--emoji=🙂", "--concurrency", "4"]);
    expect(cmd).toEqual({
      name: "run",
      feature: "image.face-blur",
      input: "photo.jpg",
      output: "out.jpg",
      json: true,
      concurrency: 4,
      params: [
        { name: "blur_strength", flag: "--blur-strength", value: "0.9" },
        { name: "pixelated", flag: "--pixelated" },
        { name: "emoji", flag: "--emoji", value: "🙂" },
      ],
    });
    // Parameters may come before the input when they carry a value; a negative value needs "=".
    expect(parseCommandLine(["image.face-blur", "--blur_strength", "1", "photo.jpg", "--x=-3"])).toMatchObject({ input: "photo.jpg", params: [{ name: "blur_strength", value: "1" }, { name: "x", value: "-3" }] });
    expect(parseCommandLine(["video.face-blur", "https://example.com/a.mp4"])).toMatchObject({ output: undefined, concurrency: 2, json: false });
  });

  it("usage errors name what is wrong", () => {
    expect(usage(() => parseCommandLine(["frobnicate"]))).toMatch(/unknown command or feature id "frobnicate"/);
    expect(usage(() => parseCommandLine(["image.face-blur"]))).toMatch(/needs a file, folder or URL/);
    expect(usage(() => parseCommandLine(["image.face-blur", "a.jpg", "b.jpg"]))).toMatch(/unexpected argument "b.jpg"/);
    expect(usage(() => parseCommandLine(["image.face-blur", "a.jpg", "-x"]))).toMatch(/unknown option -x/);
    expect(usage(() => parseCommandLine(["image.face-blur", "a.jpg", "-o"]))).toMatch(/-o needs a value/);
    expect(usage(() => parseCommandLine(["image.face-blur", "a.jpg", "-o", "--json"]))).toMatch(/-o needs a value/);
    expect(usage(() => parseCommandLine(["image.face-blur", "a.jpg", "--pixelated", "1", "--pixelated", "0"]))).toMatch(/given twice/);
    expect(usage(() => parseCommandLine(["image.face-blur", "a.jpg", "--json=yes"]))).toMatch(/takes no value/);
    for (const n of ["0", "17", "2.5", "many"]) expect(usage(() => parseCommandLine(["image.face-blur", "dir", "--concurrency", n]))).toMatch(/--concurrency must be a whole number from 1 to 16/);
  });
});

describe("parameters typed by the feature's schema", () => {
  const raw = (argv: string[]) => (parseCommandLine(["image.face-blur", "a.jpg", ...argv]) as { params: Parameters<typeof coerceParams>[2] }).params;

  it("numbers, booleans and strings as the schema says", () => {
    expect(coerceParams("image.face-blur", schemaOf("/images/face-blur"), raw(["--blur_strength", "0.25", "--pixelated"]))).toEqual({ blur_strength: 0.25, pixelated: true });
    expect(coerceParams("image.face-blur", schemaOf("/images/face-blur"), raw(["--pixelated", "false"]))).toEqual({ pixelated: false });
    expect(coerceParams("image.blur-anything", schemaOf("/images/blur-anything"), raw(["--prompt", "car", "--pixelation_strength", "40"]))).toEqual({ prompt: "car", pixelation_strength: 40 });
    expect(coerceParams("video.blur-anything", schemaOf("/videos/blur-anything"), raw(["--sam3_batch_size", "4"]))).toEqual({ sam3_batch_size: 4 });
    // Ranges are the service's to check (its 400 names the field and the rule).
    expect(coerceParams("image.face-blur", schemaOf("/images/face-blur"), raw(["--blur_strength", "7"]))).toEqual({ blur_strength: 7 });
  });

  it("region lists as JSON; what does not parse is a usage error naming the flag", () => {
    const schema = schemaOf("/images/face-blur");
    expect(coerceParams("image.face-blur", schema, raw(["--exclude_regions", '[{"x":0,"y":0,"w":0.5,"h":1}]', "--return_detections"]))).toEqual({ exclude_regions: [{ x: 0, y: 0, w: 0.5, h: 1 }], return_detections: true });
    expect(usage(() => coerceParams("image.face-blur", schema, raw(["--include_regions", "left half"])))).toBe('--include_regions must be JSON (got "left half")');
  });

  it("an unknown parameter is a usage error naming it and listing the feature's", () => {
    const message = usage(() => coerceParams("image.face-blur", schemaOf("/images/face-blur"), raw(["--frobnicate", "1"])));
    expect(message).toBe(
      "unknown parameter --frobnicate for image.face-blur (its parameters: --blur_strength, --pixelated, --return_detections, --detection_threshold, --min_size_px, --include_regions, --exclude_regions)",
    );
  });

  it("values that do not fit the type are usage errors naming the flag", () => {
    const schema = schemaOf("/images/face-blur");
    expect(usage(() => coerceParams("image.face-blur", schema, raw(["--blur_strength", "strong"])))).toBe('--blur_strength must be a number (got "strong")');
    expect(usage(() => coerceParams("image.face-blur", schema, raw(["--blur-strength"])))).toBe("--blur-strength needs a value");
    expect(usage(() => coerceParams("image.face-blur", schema, raw(["--pixelated", "maybe"])))).toBe('--pixelated must be true or false (got "maybe")');
    expect(usage(() => coerceParams("video.blur-anything", schemaOf("/videos/blur-anything"), raw(["--sam3_batch_size", "2.5"])))).toMatch(/whole number/);
    expect(usage(() => coerceParams("image.face-blur", schema, raw(["--image_url", "https://example.com/a.jpg"])))).toMatch(/give the media as the input argument/);
  });
});

describe("exit codes", () => {
  const code = (c: keyof typeof ERROR_CODES) => exitCodeOf(new ObscuraError(c, ERROR_CODES[c].status, "m"));

  it("every code of the API's error catalog has its class", () => {
    const expected: Record<keyof typeof ERROR_CODES, number> = {
      invalid_request: 4, invalid_json: 4, invalid_media_url: 4, media_url_not_allowed: 4, unauthorized: 3, insufficient_credits: 5,
      forbidden: 3, plan_restricted: 3, not_found: 1, job_not_found: 1, media_not_found: 4, method_not_allowed: 1, idempotency_conflict: 1,
      upload_expired: 4, request_too_large: 4, media_too_large: 4, unsupported_media_type: 4, unsupported_media_format: 4, corrupt_media: 4,
      media_unreachable: 4, unsupported_prompt: 4, object_not_found: 4, rate_limited: 5, internal_error: 1, not_implemented: 7, compute_unavailable: 7,
    };
    for (const c of Object.keys(ERROR_CODES) as Array<keyof typeof ERROR_CODES>) expect(code(c), c).toBe(expected[c]);
  });

  it("a failed job is 6 whatever its code; usage 2; network and timeouts 7; codes the CLI does not know go by status", () => {
    expect(exitCodeOf(new ObscuraJobError("job_1", "corrupt_media", "bad"))).toBe(EXIT.jobFailed);
    expect(exitCodeOf(new UsageError("x"))).toBe(EXIT.usage);
    expect(exitCodeOf(Object.assign(new TypeError("fetch failed"), { cause: { code: "ECONNREFUSED" } }))).toBe(EXIT.unavailable);
    expect(exitCodeOf(new ObscuraError("timeout", 0, "slow"))).toBe(EXIT.unavailable);
    expect(exitCodeOf(new ObscuraError("http_error", 502, "bad gateway"))).toBe(EXIT.unavailable);
    expect(exitCodeOf(new ObscuraError("some_new_code", 422, "m"))).toBe(EXIT.input);
    expect(exitCodeOf(new ObscuraError("some_new_code", 402, "m"))).toBe(EXIT.credits);
    expect(exitCodeOf(new Error("boom"))).toBe(EXIT.other);
  });

  it("stderr lines lead with the error code", () => {
    expect(describeError(new ObscuraError("unauthorized", 401, "Invalid API key."))).toBe("unauthorized (HTTP 401): Invalid API key.");
    expect(describeError(new ObscuraJobError("job_1", "corrupt_media", "bad"))).toBe("job job_1 failed: corrupt_media: bad");
    expect(describeError(Object.assign(new TypeError("fetch failed"), { cause: { code: "ECONNREFUSED" } }))).toMatch(/^network_error: ECONNREFUSED/);
  });

  it("--help documents the same table", () => {
    const table = Object.fromEntries([...HELP.matchAll(/^ {2}(\d) {2}(\w+)/gm)].map((m) => [Number(m[1]), m[2]]));
    expect(Object.keys(table).map(Number).sort()).toEqual(Object.values(EXIT).sort());
  });

  it("a folder run: 0 when all succeeded, the failures' shared code, else 1", () => {
    const ok = { input: "a", feature: "image.face-blur", credits_used: 1, remaining_credits: 9 };
    const fail = (exitCode: number) => ({ input: "b", error: new Error(), exitCode });
    expect(batchExitCode({ results: [ok], failures: [], skipped: [] })).toBe(0);
    expect(batchExitCode({ results: [ok], failures: [fail(4), fail(4)], skipped: [] })).toBe(4);
    expect(batchExitCode({ results: [], failures: [fail(4), fail(6)], skipped: [] })).toBe(1);
    expect(summaryLine({ results: [ok, ok], failures: [fail(3)], skipped: ["c"] }, 4)).toBe("2 of 4 done, 1 failed, 1 skipped; 2 credits used");
  });
});

describe("main, in process", () => {
  const streams = () => {
    const out = { stdout: "", stderr: "" };
    return { out, streams: { stdout: { write: (s: string) => (out.stdout += s) }, stderr: { write: (s: string) => (out.stderr += s) } } };
  };

  it("--help prints the usage and exits 0 without a key", async () => {
    const { out, streams: s } = streams();
    expect(await main(["--help"], {}, s)).toBe(0);
    expect(out.stdout).toContain("Exit codes:");
  });

  it("a usage error exits 2 before anything is sent; no key exits 3", async () => {
    const a = streams();
    expect(await main(["image.face-blur", "a.jpg", "-q"], { OBSCURA_API_KEY: "k" }, a.streams)).toBe(2);
    expect(a.out.stderr).toMatch(/^obscura: usage: unknown option -q/);
    const b = streams();
    expect(await main(["credits"], {}, b.streams)).toBe(3);
    expect(b.out.stderr).toContain("missing_api_key");
  });
});

describe("output naming and progress", () => {
  it("<input-stem>.<feature>.<ext> beside the input, the extension of the result; a URL's in the current folder", () => {
    expect(defaultOutput("photos/group1.jpg", "image.face-blur", "http://h/results/abc.jpg")).toBe("photos/group1.face-blur.jpg");
    expect(defaultOutput("photos/group1.jpg", "image.remove-background", "http://h/results/abc.png", "out")).toBe("out/group1.remove-background.png");
    expect(defaultOutput("https://example.com/a/clip.mov?x=1", "video.face-blur", "http://h/results/abc.mp4")).toBe("clip.face-blur.mp4");
  });

  it("never the input", () => {
    expect(() => assertNotInput("photos/a.jpg", "./photos/a.jpg")).toThrow(UsageError);
    expect(() => assertNotInput("photos/a.jpg", "photos/b.jpg")).not.toThrow();
  });

  it("SDK: OBSCURA_BASE_URL with or without /api/v2", () => {
    expect(apiBaseUrl("http://127.0.0.1:8787")).toBe("http://127.0.0.1:8787/api/v2");
    expect(apiBaseUrl("http://127.0.0.1:8787/api/v2/")).toBe("http://127.0.0.1:8787/api/v2");
    expect(apiBaseUrl(undefined)).toBeUndefined();
  });

  it("plain lines when not a terminal: upload start and end, each job step", () => {
    let text = "";
    const p = createProgress({ write: (s: string) => (text += s), isTTY: false }, { json: false, env: {} });
    p.update("a.jpg", "uploading", 0, "2.0 MiB");
    p.update("a.jpg", "uploading", 0.5, "2.0 MiB");
    p.update("a.jpg", "uploading", 1, "2.0 MiB");
    p.update("a.jpg", "processing", 0.4);
    p.update("a.jpg", "processing", 0.4);
    p.finish("a.jpg", "done");
    expect(text).toBe("a.jpg: uploading 0% 2.0 MiB\na.jpg: uploading 100% 2.0 MiB\na.jpg: processing 40%\ndone\n");
  });

  it("a terminal: one bar per item in flight with its name, phase and percentage; lines that stay go above the bars (80 columns when unknown)", () => {
    vi.useFakeTimers();
    let text = "";
    const p = createProgress({ write: (s: string) => (text += s), isTTY: true, columns: 0 }, { json: false, env: {} });
    p.update("a.jpg", "uploading", 0, "1.0 MiB");
    p.update("b.mp4", "processing");
    p.update("a-photo-with-a-very-long-name.jpg", "uploading", 0, "1.0 MiB");
    expect(screen(text)).toEqual([
      "a.jpg                    uploading   [------------------------]   0% 1.0 MiB",
      "b.mp4                    processing",
      "…th-a-very-long-name.jpg uploading   [------------------------]   0% 1.0 MiB",
    ]);
    // Upload chunks show on the next frame; a new phase at once.
    p.update("a.jpg", "uploading", 0.5, "1.0 MiB");
    vi.advanceTimersByTime(100);
    p.update("b.mp4", "queued", 0, "job job_1");
    expect(screen(text).slice(0, 2)).toEqual([
      "a.jpg                    uploading   [############------------]  50% 1.0 MiB",
      "b.mp4                    queued      [------------------------]   0% job job_1",
    ]);
    // A result on stdout (sharing the terminal) lands whole above the bars, never inside one.
    p.finish("a.jpg");
    p.outside(() => (text += "a.jpg -> a.face-blur.jpg\n"));
    p.update("b.mp4", "processing", 0.4, "job job_1");
    expect(screen(text)).toEqual([
      "a.jpg -> a.face-blur.jpg",
      "b.mp4                    processing  [##########--------------]  40% job job_1",
      "…th-a-very-long-name.jpg uploading   [------------------------]   0% 1.0 MiB",
    ]);
    // A finished item's line stays and its bar goes; with no bar left nothing keeps the CLI running.
    p.finish("b.mp4", "b.mp4: job_failed: no faces");
    p.finish("a-photo-with-a-very-long-name.jpg");
    p.note("1 of 3 done");
    expect(screen(text)).toEqual(["a.jpg -> a.face-blur.jpg", "b.mp4: job_failed: no faces", "1 of 3 done"]);
    expect(vi.getTimerCount()).toBe(0);

    let ci = "";
    const inCi = createProgress({ write: (s: string) => (ci += s), isTTY: true }, { json: false, env: { CI: "true" } });
    inCi.update("a.jpg", "processing");
    expect(ci).toBe("a.jpg: processing\n");
  });

  it("--json errors: the API's code and status; a failed job's code and id", () => {
    expect(errorJson(new ObscuraError("unauthorized", 401, "no"))).toEqual({ code: "unauthorized", status: 401, message: "no" });
    expect(errorJson(new ObscuraJobError("job_1", "object_not_found", "none"))).toEqual({ code: "object_not_found", message: "none", job_id: "job_1" });
    expect(errorJson(new UsageError("bad"))).toEqual({ code: "usage", message: "usage: bad (see obscura --help)" });
  });
});
