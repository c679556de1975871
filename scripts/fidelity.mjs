#!/usr/bin/env node
// `npm run fidelity`: measures every twin against its vendor's published description and writes
// durable-objects/twins/<twin>/FIDELITY.md and fidelity.generated.ts (what GET /v1/twins/:id/fidelity and
// the dashboard serve). The measuring code is TypeScript: esbuild bundles it for Node first.
// `--check` writes nothing: it lists the checked-in files that differ and exits 1 if any does.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";

const root = path.resolve(import.meta.dirname, "..");
const dir = mkdtempSync(path.join(os.tmpdir(), "pome-fidelity-"));
try {
  const outfile = path.join(dir, "generate.mjs");
  await build({
    entryPoints: [path.join(root, "durable-objects/twins/kit/fidelity/generate.ts")],
    bundle: true,
    platform: "node",
    format: "esm",
    outfile,
    external: ["cloudflare:*"],
    logLevel: "warning",
    // Bundled CommonJS dependencies call require() for Node's own modules.
    banner: { js: 'import { createRequire } from "node:module"; const require = createRequire(import.meta.url);' },
  });
  const { generateFidelity } = await import(pathToFileURL(outfile).href);
  const { files, reports } = generateFidelity(root);
  if (process.argv.includes("--check")) {
    const stale = files.filter((f) => {
      const file = path.join(root, f.path);
      return !existsSync(file) || readFileSync(file, "utf8") !== f.content;
    });
    for (const f of stale) console.error(`stale: ${f.path} (run npm run fidelity)`);
    process.exitCode = stale.length ? 1 : 0;
  } else for (const f of files) writeFileSync(path.join(root, f.path), f.content);
  for (const r of reports) {
    const a = r.coverage.all;
    const g = r.coverage.agentRelevant;
    console.log(
      `${r.twin}: ${a.conformant + a.divergent}/${a.total} operations (${a.implementedPercent}%; ${a.conformant} conformant, ${a.divergent} divergent, ${a.notImplemented} 501); agent-relevant ${g.conformant + g.divergent}/${g.total} (${g.implementedPercent}%)`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
