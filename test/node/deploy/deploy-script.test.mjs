// `npm run deploy -- --env <name>`: remote D1 migrations first, then the Worker; never the
// top-level (development) config, never a database id that is still the placeholder.
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { unstable_readConfig } from "wrangler";
import { afterAll, describe, expect, it } from "vitest";
import { deployPlan } from "../../../scripts/deploy.mjs";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const SCRIPT = path.join(ROOT, "scripts/deploy.mjs");
const REAL_ID = "5b0f2c3e-8d1a-4c6e-9f70-2a4b6c8d0e12";
const envWith = (id) => () => ({ d1_databases: [{ binding: "DB", database_id: id }] });

describe("wrangler.toml's deployment environments", () => {
  const read = (env) => unstable_readConfig({ config: path.join(ROOT, "wrangler.toml"), env }, { hideWarnings: true });

  it("give staging and production Workers, databases, buckets and settings of their own", () => {
    const dev = read(undefined);
    const envs = ["staging", "production"].map((name) => ({ name, config: read(name) }));
    const seen = {
      workers: new Set([dev.name]),
      databases: new Set([dev.d1_databases[0].database_name]),
      buckets: new Set([dev.r2_buckets[0].bucket_name]),
    };
    for (const { name, config } of envs) {
      expect(config.name).toBe(`pome-twins-${name}`);
      expect(config.vars.ENVIRONMENT).toBe(name);
      // Nothing development-only reaches a deployment.
      expect(config.vars.BENCH_FLOOR_ENABLED).toBe("false");
      for (const role of ["PUBLIC_ORIGIN", "API_ORIGIN", "TWINS_ORIGIN", "DASHBOARD_ORIGIN"]) expect(config.vars).toHaveProperty(role);
      expect(config.durable_objects.bindings).toEqual([{ name: "SANDBOX", class_name: "Sandbox" }]);
      expect(config.migrations).toEqual(dev.migrations);
      expect(config.d1_databases).toMatchObject([{ binding: "DB", migrations_dir: "d1-migrations" }]);
      expect(config.r2_buckets).toMatchObject([{ binding: "EVIDENCE" }]);
      expect(config.secrets?.required).toEqual(["TOKEN_SECRET", "ADMIN_SECRET"]);
      seen.workers.add(config.name);
      seen.databases.add(config.d1_databases[0].database_name);
      seen.buckets.add(config.r2_buckets[0].bucket_name);
    }
    expect([seen.workers.size, seen.databases.size, seen.buckets.size]).toEqual([3, 3, 3]);
    expect(dev.vars.ENVIRONMENT).toBe("development");
  });
});

describe("the deploy plan", () => {
  it("applies the environment's migrations remotely, then deploys it, passing options through", () => {
    expect(deployPlan(["--env", "production", "--keep-vars"], envWith(REAL_ID))).toEqual({
      commands: [
        ["d1", "migrations", "apply", "DB", "--remote", "--env", "production"],
        ["deploy", "--env", "production", "--keep-vars"],
      ],
    });
    expect(deployPlan(["--env=staging"], envWith(REAL_ID))).toMatchObject({
      commands: [
        ["d1", "migrations", "apply", "DB", "--remote", "--env", "staging"],
        ["deploy", "--env", "staging"],
      ],
    });
  });

  it("only builds on --dry-run, which needs no account and no database", () => {
    expect(deployPlan(["--env", "production", "--dry-run", "--outdir", "x"], envWith("00000000-0000-0000-0000-000000000002"))).toEqual({
      commands: [["deploy", "--env", "production", "--dry-run", "--outdir", "x"]],
    });
  });

  it("refuses without an environment, with an unknown one, or with the placeholder database id", () => {
    expect(deployPlan([], envWith(REAL_ID))).toMatchObject({ error: expect.stringContaining("--env staging") });
    expect(deployPlan(["--env", "prod"], () => null)).toEqual({ error: "wrangler.toml has no [env.prod]" });
    expect(deployPlan(["--env", "production"], envWith("00000000-0000-0000-0000-000000000002"))).toMatchObject({
      error: expect.stringContaining("wrangler d1 create"),
    });
    expect(deployPlan(["--env", "production"], () => ({ d1_databases: [] }))).toMatchObject({
      error: expect.stringContaining("binds no D1 database"),
    });
  });
});

describe("npm run deploy", () => {
  const out = mkdtempSync(path.join(os.tmpdir(), "pome-deploy-"));
  afterAll(() => rmSync(out, { recursive: true, force: true }));
  const run = (args) =>
    promisify(execFile)(process.execPath, [SCRIPT, ...args], { cwd: ROOT, env: { ...process.env, WRANGLER_SEND_METRICS: "false" } }).then(
      (r) => ({ code: 0, ...r }),
      (err) => ({ code: err.code, stdout: err.stdout, stderr: err.stderr }),
    );

  it("builds the production Worker with --dry-run against this wrangler.toml", async () => {
    const res = await run(["--env", "production", "--dry-run", "--outdir", out]);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain(`deploy: wrangler deploy --env production --dry-run --outdir ${out}`);
    expect(res.stdout).toContain('env.ENVIRONMENT ("production")');
    expect(existsSync(path.join(out, "index.js"))).toBe(true);
  });

  it("refuses to deploy the development config or this repository's placeholder database, before calling wrangler", async () => {
    const none = await run([]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("name the environment");
    const placeholder = await run(["--env", "production"]);
    expect(placeholder.code).toBe(2);
    expect(placeholder.stderr).toContain("placeholder id");
    expect(placeholder.stdout).not.toContain("wrangler d1");
  });
});
