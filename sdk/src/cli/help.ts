// `obscura --help`. The exit-code table here, in exit-codes.ts and in sdk/README.md must agree.
import { DEFAULT_CONCURRENCY, MAX_CONCURRENCY } from "./args.ts";

export const DEFAULT_SERVICE_URL = "http://127.0.0.1:8787";

export const HELP = `obscura: the Obscura media privacy API from the command line

Usage:
  obscura <feature-id> <file|url> [-o OUT] [--<param> VALUE ...] [--json]
  obscura <feature-id> <folder> [-o OUT_DIR] [--concurrency N] [--<param> VALUE ...] [--json]
  obscura features [--json]      the catalog: ids, prices, parameters
  obscura credits [--json]       the account's balance

  <feature-id>  a catalog id: image.face-blur, video.face-blur, ... (see obscura features)
  <file|url>    a local file is uploaded first; an http(s) URL is passed to the service as is
  <folder>      every image (or video) file in it, not recursive; results named as below
  -o OUT        where the result goes (a file, or an existing folder / a path ending in /);
                default <input-stem>.<feature>.<ext> beside the input (the current folder for a
                URL). The input is never overwritten.
  --<param>     a request field of the feature (obscura features lists them): --blur_strength 0.9
                or --blur-strength=0.9; a boolean alone means true (--pixelated); a value that
                starts with "-" needs the --name=value form
  --concurrency items in flight for a folder, 1-${MAX_CONCURRENCY} (default ${DEFAULT_CONCURRENCY})
  --json        one JSON object per result on stdout ({"ok":true,...} or {"ok":false,"error":...})
  -h, --help    this text

Environment:
  OBSCURA_API_KEY   the API key (obs_live_...); required
  OBSCURA_BASE_URL  the service (default ${DEFAULT_SERVICE_URL}, what npm start serves; /api/v2 is added
                    when missing)

Progress and errors go to stderr: bars on a terminal, plain lines otherwise. Videos are
waited for (polling politely) and downloaded when done.

Exit codes:
  0  ok
  1  other error (internal error, unexpected answer)
  2  usage: unknown command, feature id, option or parameter; missing or unreadable input
  3  auth: missing, unknown or revoked key; the plan does not allow an option
  4  bad input: validation, unsupported or corrupt media, too large, unreachable URL, prompt
  5  insufficient credits or daily rate limit reached
  6  a job failed (its credits were refunded)
  7  service unavailable: network error, timeout, no compute free, feature not deployed
A folder run exits 0 when every item succeeded, else with the failures' code when they share
one, else 1; after a 3 or 5 it starts no further items.
`;
