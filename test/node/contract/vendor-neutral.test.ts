// "A new twin is one folder and one registry line" holds only while the platform's own files know
// no vendor. This reads them and fails on any twin's id outside its folder and the registry.
import { readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const TWINS_DIR = path.join(ROOT, "durable-objects/twins");
const NOT_A_TWIN = new Set(["kit"]);

const twinIds = readdirSync(TWINS_DIR).filter((name) => statSync(path.join(TWINS_DIR, name)).isDirectory() && !NOT_A_TWIN.has(name));

/** The platform's code: the router, the Durable Object, the kit, the CLI and the scripts. */
const PLATFORM = ["workers", "durable-objects", "cli", "scripts"];
/** The one list of twins, and their own folders. */
const allowed = (rel: string) =>
  rel === "durable-objects/twins/registry.ts" || twinIds.some((id) => rel.startsWith(`durable-objects/twins/${id}/`));

function* codeFiles(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) yield* codeFiles(full);
    else if (/\.(ts|tsx|mjs|js)$/.test(name)) yield full;
  }
}

describe("the platform's files name no vendor", () => {
  it("finds the twins it checks for", () => {
    expect(twinIds.length).toBeGreaterThanOrEqual(5);
  });

  it("has no twin id outside the twin's folder and the registry", () => {
    const word = new RegExp(`\\b(${twinIds.join("|")})\\b`, "i");
    const found: string[] = [];
    for (const top of PLATFORM)
      for (const file of codeFiles(path.join(ROOT, top))) {
        const rel = path.relative(ROOT, file);
        if (allowed(rel)) continue;
        readFileSync(file, "utf8")
          .split("\n")
          .forEach((line, i) => {
            if (word.test(line)) found.push(`${rel}:${i + 1}: ${line.trim().slice(0, 120)}`);
          });
      }
    expect(found).toEqual([]);
  });
});
