import { defineConfig } from "vitest/config";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";

// Test files that load onnxruntime-node themselves, before any compute module, would otherwise
// start its telemetry (compute/models/runtime/no-telemetry.ts); the suites' processes inherit this.
process.env.ORT_DISABLE_TELEMETRY ??= "1";

// Five suites: the Worker inside real workerd (Miniflare bindings), the compute service's
// layers in Node on real photos, the SDK's Node-only parts (the CLI), the operator scripts, and
// end-to-end tests against the started local stack.
export default defineConfig({
  test: {
    projects: [
      {
        plugins: [
          cloudflareTest(async () => ({
            wrangler: { configPath: "./wrangler.toml" },
            miniflare: {
              bindings: {
                TEST_MIGRATIONS: await readD1Migrations("schema/migrations"),
                SIGNING_SECRET: "test-only-signing-secret",
                // Nothing listens here: inside workerd tests compute is unreachable on purpose.
                COMPUTE_URLS: "http://127.0.0.1:9",
                // A frozen instance is given up on after 1 s here (30 s by default), so the test of it is quick.
                COMPUTE_HUNG_AFTER_S: "1",
              },
            },
          })),
        ],
        test: {
          name: "worker",
          include: ["test/worker/**/*.test.ts"],
          setupFiles: ["test/worker/setup.ts"],
        },
      },
      {
        test: {
          name: "compute",
          include: ["test/compute/**/*.test.ts"],
          environment: "node",
          testTimeout: 180_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
      {
        // The SDK's Node-only parts (the CLI: node:util parseArgs, files), which workerd lacks.
        test: {
          name: "sdk",
          include: ["test/sdk/**/*.test.ts"],
          environment: "node",
        },
      },
      {
        // The operator scripts (npm start's log, npm stop, the key commands) where they need no stack.
        test: {
          name: "scripts",
          include: ["test/scripts/**/*.test.ts"],
          environment: "node",
        },
      },
      {
        test: {
          name: "e2e",
          include: ["test/e2e/**/*.test.ts"],
          environment: "node",
          globalSetup: ["test/e2e/stack.ts"],
          testTimeout: 300_000,
          hookTimeout: 300_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
