// The tests, `npm run dev` and `npm start` run one Workers runtime: package.json's `overrides`
// give wrangler and the vitest pool the project's own Miniflare and workerd. A dependency update
// that brings a second copy back (a test pool or a dev server on another runtime than the one
// users get) fails here, read from the lockfile.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");

interface LockEntry {
  version?: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

const { packages } = JSON.parse(readFileSync(path.join(root, "package-lock.json"), "utf8")) as { packages: Record<string, LockEntry> };

/** Where and at which version the lockfile installs every package whose name matches. */
const installed = (name: RegExp) =>
  Object.entries(packages)
    .filter(([where]) => name.test(where.slice(where.lastIndexOf("node_modules/") + "node_modules/".length)))
    .map(([where, entry]) => `${where}@${entry.version}`);

describe("one Workers runtime", () => {
  const miniflare = packages[""]?.devDependencies?.miniflare;
  const workerd = packages["node_modules/miniflare"]?.dependencies?.workerd;

  it("installs the project's Miniflare once", () => {
    expect(installed(/^miniflare$/)).toEqual([`node_modules/miniflare@${miniflare}`]);
  });

  it("installs that Miniflare's workerd once, with its binaries at the same version", () => {
    expect(workerd).toMatch(/^\d+\.\d+\.\d+$/);
    expect(installed(/^workerd$/)).toEqual([`node_modules/workerd@${workerd}`]);
    const binaries = installed(/^@cloudflare\/workerd-/);
    expect(binaries).toContain(`node_modules/@cloudflare/workerd-linux-64@${workerd}`);
    expect(binaries.filter((b) => !b.endsWith(`@${workerd}`))).toEqual([]);
  });
});
