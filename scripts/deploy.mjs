#!/usr/bin/env node
// npm run deploy -- --env <staging|production> [wrangler deploy options]
//
// Deploys the platform to Cloudflare: the environment's D1 migrations are applied to the remote
// database first, so the Worker that starts serving never meets an older schema; then the Worker
// is deployed. `--dry-run` builds the bundle without an account (CI does) and skips the
// migrations. The steps from an empty account are in docs/deploy.md.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
/** The placeholder ids wrangler.toml ships with: they name no real database. */
const PLACEHOLDER_ID = /^00000000-0000-0000-0000-0000000000\d\d$/;

/**
 * What a deploy runs, from its arguments and the environment's config: a list of wrangler
 * commands, or the reason to refuse.
 * @param {string[]} argv the arguments after `--`
 * @param {(env: string) => { d1_databases: { binding: string; database_id?: string }[] } | null} readEnv
 * @returns {{ commands: string[][] } | { error: string }}
 */
export function deployPlan(argv, readEnv) {
  const rest = [...argv];
  let env;
  const at = rest.findIndex((a) => a === "--env" || a === "-e" || a.startsWith("--env="));
  if (at >= 0) {
    const [flag] = rest.splice(at, 1);
    env = flag.startsWith("--env=") ? flag.slice("--env=".length) : rest.splice(at, 1)[0];
  }
  // The top-level config is local development (the local team and key): never deploy it.
  if (!env) return { error: "name the environment: npm run deploy -- --env staging (or production)" };
  const config = readEnv(env);
  if (!config) return { error: `wrangler.toml has no [env.${env}]` };
  const dryRun = rest.includes("--dry-run");
  const db = config.d1_databases.find((d) => d.binding === "DB");
  if (!db) return { error: `[env.${env}] binds no D1 database as DB` };
  if (!dryRun && (!db.database_id || PLACEHOLDER_ID.test(db.database_id))) {
    return {
      error: `[env.${env}]'s DB still has the placeholder id; create the database (npx wrangler d1 create <name>) and put its id in wrangler.toml`,
    };
  }
  const deploy = ["deploy", "--env", env, ...rest];
  return { commands: dryRun ? [deploy] : [["d1", "migrations", "apply", "DB", "--remote", "--env", env], deploy] };
}

async function readEnvConfig(env) {
  const { experimental_readRawConfig } = await import("wrangler");
  const { rawConfig } = experimental_readRawConfig({ config: path.join(ROOT, "wrangler.toml") });
  const section = rawConfig.env?.[env];
  return section ? { d1_databases: section.d1_databases ?? [] } : null;
}

async function main() {
  const argv = process.argv.slice(2);
  const env = (() => {
    const i = argv.findIndex((a) => a === "--env" || a === "-e");
    if (i >= 0) return argv[i + 1];
    return argv.find((a) => a.startsWith("--env="))?.slice("--env=".length);
  })();
  const config = env ? await readEnvConfig(env) : null;
  const plan = deployPlan(argv, () => config);
  if ("error" in plan) {
    console.error(`deploy: ${plan.error}`);
    process.exit(2);
  }
  const wrangler = path.join(ROOT, "node_modules", ".bin", "wrangler");
  for (const args of plan.commands) {
    console.log(`deploy: wrangler ${args.join(" ")}`);
    const result = spawnSync(wrangler, args, { cwd: ROOT, stdio: "inherit" });
    if (result.status !== 0) {
      console.error(`deploy: wrangler ${args[0]} failed (exit ${result.status ?? result.signal}); nothing after it ran`);
      process.exit(result.status ?? 1);
    }
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
