// A fact kept with the kit's perStorage is read once per sandbox and never invalidated, which is
// right only while nothing but boot writes where it comes from. This reads the twins' sources:
// every perStorage use must be listed here with its tables (or meta keys), and those may be
// written only by the twin's boot (world.ts).
import { readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const TWINS_DIR = path.join(ROOT, "durable-objects/twins");

/** Where each fixed fact comes from: a table, or a key of the twin's meta table. */
const FIXED: Record<string, { twin: string; tables?: string[]; metaKeys?: string[] }> = {
  "durable-objects/twins/github/repos.ts": { twin: "github", tables: ["gh_users"] },
  "durable-objects/twins/github/store/base.ts": { twin: "github", metaKeys: ["authenticated_user"] },
  "durable-objects/twins/slack/store/users.ts": { twin: "slack", tables: ["sl_users"] },
  "durable-objects/twins/slack/store/rows.ts": { twin: "slack", metaKeys: ["team", "installation"] },
  "durable-objects/twins/slack/ratelimit.ts": { twin: "slack", metaKeys: ["rate_limits"] },
  "durable-objects/twins/linear/meta.ts": { twin: "linear", metaKeys: ["organization", "viewer_id", "faults", "rate_limits"] },
};

/**
 * Where each twin's seeded faults come from. The platform reads a twin's `faults` once per sandbox
 * and keeps them (durable-objects/timed.ts), so these too may be written only by boot. Keyed by the
 * module that reads them.
 */
const FAULT_SOURCES: Record<string, { twin: string; metaKeys: string[] }> = {
  "durable-objects/twins/gmail/index.ts": { twin: "gmail", metaKeys: ["faults"] },
  "durable-objects/twins/stripe/world.ts": { twin: "stripe", metaKeys: ["faults"] },
  "durable-objects/twins/linear/meta.ts": { twin: "linear", metaKeys: ["faults"] },
};

/** Every source of a fact read once per sandbox: the twins' own, and the faults the platform keeps. */
const ALL_FIXED = { ...FAULT_SOURCES, ...FIXED };

function* codeFiles(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) yield* codeFiles(full);
    else if (name.endsWith(".ts")) yield full;
  }
}

const sources = [...codeFiles(TWINS_DIR)].map((file) => ({ rel: path.relative(ROOT, file), text: readFileSync(file, "utf8") }));

/** The SQL statements written in a source: the text of each string and template literal. */
const statements = (text: string) => [...text.matchAll(/(["`])((?:\\.|(?!\1)[^\\])*)\1/g)].map((m) => m[2]);
const WRITE = /^\s*(INSERT|UPDATE|DELETE|REPLACE)\b/i;

describe("facts read once per sandbox are written only at boot", () => {
  it("lists every perStorage use", () => {
    const users = sources
      .filter((s) => s.rel !== "durable-objects/twins/kit/boot-constants.ts" && /perStorage</.test(s.text))
      .map((s) => s.rel);
    expect(users.sort()).toEqual(Object.keys(FIXED).sort());
  });

  it("finds no write to a fixed table outside the twin's boot", () => {
    const found: string[] = [];
    for (const { twin, tables = [] } of Object.values(FIXED))
      for (const { rel, text } of sources) {
        if (!rel.startsWith(`durable-objects/twins/${twin}/`) || rel === `durable-objects/twins/${twin}/world.ts`) continue;
        for (const sql of statements(text))
          for (const table of tables) if (WRITE.test(sql) && new RegExp(`\\b${table}\\b`).test(sql)) found.push(`${rel}: ${sql}`);
      }
    expect(found).toEqual([]);
  });

  it("finds no write to a fixed meta key outside the twin's boot", () => {
    const readers = new Set(Object.keys(ALL_FIXED));
    const found: string[] = [];
    for (const { twin, metaKeys = [] } of Object.values(ALL_FIXED))
      for (const { rel, text } of sources) {
        if (!rel.startsWith(`durable-objects/twins/${twin}/`) || rel === `durable-objects/twins/${twin}/world.ts`) continue;
        for (const key of metaKeys) {
          const literal = new RegExp(`['"\`]${key}['"\`]`);
          // A statement that writes the key, or (outside the modules that read it) any code that
          // hands the key to the meta table, through a helper like nextCounter.
          for (const sql of statements(text)) if (WRITE.test(sql) && sql.includes(`'${key}'`)) found.push(`${rel}: ${sql}`);
          if (!readers.has(rel) && /_meta\b|\bMETA\b/i.test(text) && literal.test(text)) found.push(`${rel} names "${key}"`);
        }
      }
    expect(found).toEqual([]);
  });
});
