import type { D1Migration } from "@cloudflare/vitest-plugin";
import type { Env } from "../../worker/env.ts";

declare module "cloudflare:test" {
  interface ProvidedEnv extends Env {
    TEST_MIGRATIONS: D1Migration[];
  }
}
