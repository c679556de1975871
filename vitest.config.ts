// Two projects: `workers` runs inside the real Workers runtime (workerd, real DO/D1/R2 bindings,
// this wrangler.toml and its compatibility date); `node` drives the real dev server (`npm start`'s
// wrangler dev) over HTTP, for the CLI, MCP clients and start-up.
import path from "node:path";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { conformanceService } from "./test/conformance/collector";

export default defineConfig(async () => {
  const migrations = await readD1Migrations(path.join(import.meta.dirname, "d1-migrations"));
  return {
    test: {
      projects: [
        {
          plugins: [
            cloudflareTest({
              wrangler: { configPath: "./wrangler.toml" },
              miniflare: {
                // Node-side schema checks of every twin answer a test gets (test/workers/setup.ts).
                serviceBindings: { CONFORMANCE: conformanceService },
                bindings: {
                  TEST_MIGRATIONS: migrations,
                  ADMIN_SECRET: "test-admin-secret",
                  BENCH_FLOOR_ENABLED: "true",
                  // Many tests share the local team; its quota is tested with a team of its own.
                  DEFAULT_SESSION_QUOTA: "100000",
                  // The load test's size: "quick" in `npm test`, "full" (50 × 200) in `npm run test:load`.
                  LOAD_SCALE: process.env.POME_LOAD_SCALE ?? "quick",
                },
              },
            }),
          ],
          test: {
            name: "workers",
            include: ["test/workers/**/*.test.ts"],
            setupFiles: ["test/workers/setup.ts"],
            testTimeout: 30_000,
            // After each test its sandboxes' tapes are checked against the vendors' schemas
            // (setup.ts): a test that made many sandboxes of a thousand calls takes a while.
            hookTimeout: 60_000,
          },
        },
        {
          test: {
            name: "node",
            include: ["test/node/**/*.test.{ts,mjs}"],
            environment: "node",
            globalSetup: ["test/node/global-setup.ts"],
            testTimeout: 120_000,
            hookTimeout: 120_000,
            fileParallelism: false,
          },
        },
      ],
    },
  };
});
