#!/usr/bin/env node
// `npm start`: apply the D1 migrations to the local database, then serve the whole platform with
// `wrangler dev` on 127.0.0.1 (port 8787, or $PORT). Local D1, R2 and Durable Objects, no
// account, no prompts, no telemetry. Extra arguments go to wrangler dev.
import { spawn, spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import path from "node:path";
import { pipeRedacted } from "./redacting-output.mjs";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const wrangler = path.join(root, "node_modules", ".bin", "wrangler");
const port = process.env.PORT || "8787";
const persist = process.env.POME_STATE_DIR || path.join(root, ".wrangler", "state");
// No network: no telemetry, no prompts, and no fetch of Cloudflare's `Request.cf` sample object.
const env = {
  ...process.env,
  WRANGLER_SEND_METRICS: "false",
  WRANGLER_NO_SKILLS_UPDATE_PROMPTS: "true",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  // No local observability store: it grows on disk with every request and keeps full URLs,
  // query strings (and any token in them) included.
  X_LOCAL_OBSERVABILITY: "false",
};

const migrate = spawnSync(wrangler, ["d1", "migrations", "apply", "DB", "--local", "--persist-to", persist], {
  cwd: root,
  // Non-interactive: wrangler applies without asking when CI is set.
  env: { ...env, CI: "true" },
  stdio: ["ignore", "inherit", "inherit"],
});
if (migrate.status !== 0) {
  console.error("pome: applying the D1 migrations failed; see above");
  process.exit(migrate.status ?? 1);
}

const dev = spawn(
  wrangler,
  ["dev", "--ip", "127.0.0.1", "--port", port, "--persist-to", persist, "--show-interactive-dev-session=false", ...process.argv.slice(2)],
  { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] },
);
pipeRedacted(dev.stdout, process.stdout);
pipeRedacted(dev.stderr, process.stderr);
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => dev.kill(signal));
dev.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
