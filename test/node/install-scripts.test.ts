// Every installed dependency with an install script is named in package.json's `allowScripts`:
// npm 12 runs only the scripts approved there, and the project cannot start without some of them
// (the `node` package's fetches the pinned Node 22 that every npm script runs on). A dependency
// update that brings a new one fails here, on the machine that made it, not on the next clean
// install.
import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const INSTALL_SCRIPTS = ["preinstall", "install", "postinstall"] as const;

/** The package folders under a node_modules folder, nested ones included (scoped names too). */
function packageFolders(modules: string): string[] {
  if (!existsSync(modules)) return [];
  const out: string[] = [];
  for (const entry of readdirSync(modules, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name.startsWith(".")) continue;
    const folder = path.join(modules, entry.name);
    const folders = entry.name.startsWith("@")
      ? readdirSync(folder, { withFileTypes: true })
          .filter((e) => e.isDirectory())
          .map((e) => path.join(folder, e.name))
      : [folder];
    for (const pkg of folders) out.push(pkg, ...packageFolders(path.join(pkg, "node_modules")));
  }
  return out;
}

/** The installed packages that declare an install script, as `name@version (script)`. */
function withInstallScripts(): { name: string; label: string }[] {
  const found = new Map<string, { name: string; label: string }>();
  for (const folder of packageFolders(path.join(root, "node_modules"))) {
    const file = path.join(folder, "package.json");
    if (!existsSync(file)) continue;
    const pkg = JSON.parse(readFileSync(file, "utf8")) as { name?: string; version?: string; scripts?: Record<string, string> };
    const scripts = INSTALL_SCRIPTS.filter((s) => pkg.scripts?.[s]);
    if (!pkg.name || scripts.length === 0) continue;
    const label = `${pkg.name}@${pkg.version} (${scripts.join(", ")})`;
    found.set(label, { name: pkg.name, label });
  }
  return [...found.values()];
}

describe("allowScripts in package.json", () => {
  const manifest = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { allowScripts?: Record<string, boolean> };
  const allow = manifest.allowScripts ?? {};
  const found = withInstallScripts();

  it("decides on every installed dependency's install script", () => {
    // The pinned Node 22 and the runtime are among them, so the walk did find node_modules.
    expect(found.map((p) => p.name)).toEqual(expect.arrayContaining(["node", "workerd"]));
    const undecided = found.filter((p) => !(p.name in allow)).map((p) => p.label);
    expect(undecided, "add each to allowScripts: true if the project needs it, false if not").toEqual([]);
  });

  it("approves the scripts the project cannot run without", () => {
    expect(allow).toMatchObject({ node: true, workerd: true, esbuild: true });
  });

  it("names no package that is not installed", () => {
    const installed = new Set(found.map((p) => p.name));
    expect(Object.keys(allow).filter((name) => !installed.has(name))).toEqual([]);
  });
});
