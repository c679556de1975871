#!/usr/bin/env node
// `npm run fidelity`: measures every twin against its vendor's published description and writes
// durable-objects/twins/<twin>/FIDELITY.md and fidelity.generated.ts (what GET /v1/twins/:id/fidelity and
// the dashboard serve). Each twin folder's fidelity.ts declares its description, its agent-relevant
// operations and its divergences; this script finds them by folder and names no twin itself.
// The declarations are TypeScript: scripts/fidelity-bundle.mjs bundles them for Node first.
// `--check` writes nothing: it lists the checked-in files that differ and exits 1 if any does.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { loadFidelity } from "./fidelity-bundle.mjs";

const root = path.resolve(import.meta.dirname, "..");

const START = "<!-- fidelity:start (npm run fidelity writes this table) -->";
const END = "<!-- fidelity:end -->";

/** The README's twin table, between its markers: each twin's figures and a link to its FIDELITY.md. */
function withReadmeTable(readme, reports) {
  const from = readme.indexOf(START);
  const to = readme.indexOf(END);
  if (from < 0 || to < from) throw new Error(`README.md lacks the markers ${START} … ${END}`);
  const figure = (c) => `${c.conformant + c.divergent} of ${c.total} (${c.implementedPercent}%)`;
  const rows = reports.map(
    (r) =>
      `| [${r.vendor}](durable-objects/twins/${r.twin}/FIDELITY.md) | ${r.description.name}, ${r.description.version} | ${figure(r.coverage.agentRelevant)} | ${figure(r.coverage.all)} |`,
  );
  const table = [
    "| twin | measured against | agent-relevant operations served | all operations served |",
    "| --- | --- | --- | --- |",
    ...rows,
  ];
  return `${readme.slice(0, from + START.length)}\n${table.join("\n")}\n${readme.slice(to)}`;
}

const { declarations, generateFidelity } = await loadFidelity(root, { generator: true });
const { files, reports } = generateFidelity(root, declarations);
files.push({ path: "README.md", content: withReadmeTable(readFileSync(path.join(root, "README.md"), "utf8"), reports) });
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
