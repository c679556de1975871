// Every twin folder's fidelity.ts, bundled for Node and loaded: `npm run fidelity` writes the tables
// from them and the conformance collector (test/conformance/) measures the tests' answers with them.
// Twins are found by folder (a folder with a fidelity.ts), so neither names a twin. The declarations
// are TypeScript that imports without file extensions, which Node alone cannot load: esbuild bundles
// them into one module first.
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";

/** The twin folders that declare their fidelity, sorted. */
export function fidelityFolders(root) {
  const twinsDir = path.join(root, "durable-objects/twins");
  return readdirSync(twinsDir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(path.join(twinsDir, e.name, "fidelity.ts")))
    .map((e) => e.name)
    .sort();
}

/**
 * `{ declarations, generateFidelity }`: each folder's `fidelity` by folder name and, with
 * `{ generator: true }`, the kit's table writer (which reaches every twin's routes through the registry).
 */
export async function loadFidelity(root, { generator = false } = {}) {
  const twinsDir = path.join(root, "durable-objects/twins");
  const folders = fidelityFolders(root);
  const entry = [
    ...folders.map((name, i) => `import { fidelity as f${i} } from "./${name}/fidelity.ts";`),
    ...(generator ? ['export { generateFidelity } from "./kit/fidelity/generate.ts";'] : []),
    `export const declarations = { ${folders.map((name, i) => `${JSON.stringify(name)}: f${i}`).join(", ")} };`,
  ].join("\n");
  const dir = mkdtempSync(path.join(os.tmpdir(), "pome-fidelity-"));
  try {
    const outfile = path.join(dir, "fidelity.mjs");
    await build({
      stdin: { contents: entry, resolveDir: twinsDir, loader: "ts", sourcefile: "fidelity-entry.ts" },
      bundle: true,
      platform: "node",
      format: "esm",
      outfile,
      external: ["cloudflare:*"],
      logLevel: "warning",
      // Bundled CommonJS dependencies call require() for Node's own modules.
      banner: { js: 'import { createRequire } from "node:module"; const require = createRequire(import.meta.url);' },
    });
    return await import(pathToFileURL(outfile).href);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
