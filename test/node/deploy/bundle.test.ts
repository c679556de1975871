// The bundle `npm run deploy -- --env production` uploads stays well inside Cloudflare's limits,
// and its start-up stays small: built with `wrangler deploy --dry-run`, then evaluated in workerd
// with the inspector attached. The budgets and today's figures are in the README ("Bundle budget").
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { unstable_readConfig } from "wrangler";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildBundle, byPackage, measureStartup, packageOf, type Bundle, type StartupReport } from "./bundle";

const KiB = 1024;
const MiB = 1024 * KiB;

/**
 * Compressed upload. Workers allow 3 MiB on the free plan (10 MiB paid); today's bundle is about
 * 0.4 MiB, and four more twins of the GitHub twin's weight (the Linear one carrying its GraphQL
 * schema) add about 1 MiB.
 */
const GZIP_BUDGET = 1.5 * MiB;
/** Distinct functions of the bundle that run while its modules are evaluated (667 today). */
const STARTUP_FUNCTIONS_BUDGET = 1500;
/** Heap the evaluation leaves behind beyond the bundle's own source text (about 1 MiB today). */
const STARTUP_HEAP_BUDGET = 8 * MiB;
/**
 * Work that must wait for first use: parsing a GraphQL document or building a schema. Importing
 * graphql itself is allowed (its module set-up runs about 70 small functions).
 */
const LAZY_WORK: Record<string, string[]> = {
  graphql: ["parse", "buildSchema", "buildASTSchema", "extendSchema", "extendSchemaImpl", "buildClientSchema", "assertValidSchema"],
};

const lazyWorkRun = (report: StartupReport) =>
  report.functionsRun.filter((fn) => LAZY_WORK[packageOf(fn.module)]?.includes(fn.name)).map((fn) => `${fn.module} ${fn.name}`);

const dir = mkdtempSync(path.join(os.tmpdir(), "pome-deploy-bundle-"));
let bundle: Bundle;
let startup: StartupReport;

beforeAll(async () => {
  const config = unstable_readConfig(
    { config: path.resolve(import.meta.dirname, "../../../wrangler.toml"), env: "production" },
    { hideWarnings: true },
  );
  if (!config.compatibility_date) throw new Error("wrangler.toml names no compatibility_date");
  bundle = await buildBundle(path.join(dir, "production"), { env: "production" });
  startup = await measureStartup(bundle, { compatibilityDate: config.compatibility_date, compatibilityFlags: config.compatibility_flags });
  const top = [...byPackage(startup)]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 6)
    .map(([p, n]) => `${p} ${n}`);
  console.log(
    `production bundle: ${(bundle.bytes / KiB).toFixed(0)} KiB, ${(bundle.gzipBytes / KiB).toFixed(0)} KiB gzip (budget ${GZIP_BUDGET / KiB} KiB); ` +
      `start-up: ${startup.functionsRun.length} functions (budget ${STARTUP_FUNCTIONS_BUDGET}; ${top.join(", ")}), ` +
      `${((startup.retainedHeapBytes - bundle.bytes) / MiB).toFixed(2)} MiB heap beyond the source (budget ${STARTUP_HEAP_BUDGET / MiB} MiB), ~${startup.cpuMs.toFixed(0)} ms CPU`,
  );
}, 180_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the production bundle", () => {
  it("is one module whose compressed size is within the budget", () => {
    expect(bundle.files.map((f) => f.name)).toEqual(["index.js"]);
    expect(bundle.gzipBytes).toBeGreaterThan(100 * KiB);
    expect(bundle.gzipBytes).toBeLessThanOrEqual(GZIP_BUDGET);
  });

  it("does little at global scope: few functions run and little heap is kept", () => {
    // Non-zero figures show the probe saw the bundle's evaluation at all.
    expect(startup.functionsRun.length).toBeGreaterThan(50);
    expect(startup.functionsRun.length).toBeLessThanOrEqual(STARTUP_FUNCTIONS_BUDGET);
    expect(startup.retainedHeapBytes).toBeGreaterThan(0);
    expect(startup.retainedHeapBytes - bundle.bytes).toBeLessThanOrEqual(STARTUP_HEAP_BUDGET);
  });

  it("parses no GraphQL document and builds no schema at import time", () => {
    expect(lazyWorkRun(startup)).toEqual([]);
  });
});

describe("the start-up probe", () => {
  it("attributes start-up work to the modules that do it", () => {
    // Hono's app is built at import time in workers/index.ts: the probe must see it.
    expect(byPackage(startup).size).toBeGreaterThan(3);
    expect(byPackage(startup).get("hono")).toBeGreaterThan(0);
  });

  // Two small Workers that differ only in when they build the same GraphQL schema.
  const fixture = (name: string) => path.resolve(import.meta.dirname, "fixtures", name, "wrangler.toml");
  const probe = async (name: string) => {
    const built = await buildBundle(path.join(dir, name), { config: fixture(name) });
    return { built, report: await measureStartup(built, { compatibilityDate: "2026-11-01", compatibilityFlags: [] }) };
  };

  it("catches a schema built at import time, and passes the same schema built on first use", async () => {
    const eager = await probe("eager-schema");
    const lazy = await probe("lazy-schema");
    expect(lazyWorkRun(eager.report)).toEqual(
      expect.arrayContaining([expect.stringMatching(/ buildSchema$/), expect.stringMatching(/ parse$/)]),
    );
    expect(lazyWorkRun(lazy.report)).toEqual([]);
    // Both import graphql; only the eager one runs its parser and schema builder.
    expect(byPackage(lazy.report).get("graphql")).toBeGreaterThan(0);
    expect(byPackage(eager.report).get("graphql")).toBeGreaterThan(byPackage(lazy.report).get("graphql") ?? 0);
    // The built schema stays on the heap: the eager Worker keeps far more than the lazy one.
    expect(eager.report.retainedHeapBytes - eager.built.bytes).toBeGreaterThan(2 * (lazy.report.retainedHeapBytes - lazy.built.bytes));
  }, 120_000);
});
