// The `obscura` command: parse, run one command, print any failure as one stderr line led by its
// error code, and answer an exit code by error class (exit-codes.ts). Streams and environment
// are parameters so tests can drive it in-process.
import { obscuraFromEnv } from "../node.ts";
import { parseCommandLine } from "./args.ts";
import { creditsCommand, featuresCommand, runCommand } from "./commands.ts";
import { EXIT, describeError, exitCodeOf } from "./exit-codes.ts";
import { HELP } from "./help.ts";
import { createProgress } from "./output.ts";

interface Streams {
  stdout: { write(s: string): unknown };
  stderr: { write(s: string): unknown; isTTY?: boolean; columns?: number };
}

export async function main(argv: string[], env: Record<string, string | undefined> = process.env, streams: Streams = process): Promise<number> {
  const fail = (err: unknown) => {
    streams.stderr.write(`obscura: ${describeError(err)}\n`);
    return exitCodeOf(err);
  };
  let cmd;
  try {
    cmd = parseCommandLine(argv);
  } catch (err) {
    return fail(err);
  }
  if (cmd.name === "help") {
    streams.stdout.write(HELP);
    return EXIT.ok;
  }
  if (!env.OBSCURA_API_KEY) {
    streams.stderr.write("obscura: missing_api_key: set OBSCURA_API_KEY to an API key (npm run keys:create makes one)\n");
    return EXIT.auth;
  }
  const client = obscuraFromEnv(env);
  const io = { stdout: streams.stdout, progress: createProgress(streams.stderr, { json: cmd.json, env }) };
  try {
    if (cmd.name === "features") return await featuresCommand(client, io, cmd.json);
    if (cmd.name === "credits") return await creditsCommand(client, io, cmd.json);
    return await runCommand(client, io, cmd);
  } catch (err) {
    return fail(err);
  }
}
