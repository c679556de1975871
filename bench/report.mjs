#!/usr/bin/env node
// `npm run bench:report`: writes the latest results (bench/results.json, which a full
// `npm run bench` writes) into bench/README.md as tables, between the README's results markers.
//
//   npm run bench:report                         rewrite the block from bench/results.json
//   npm run bench:report -- --results <file>     from another results file (a --quick run's, say)
//   npm run bench:report -- --check              exit 1 when the block does not match the results
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { resultsBlock, withResultsBlock } from "./lib/report.mjs";

const here = import.meta.dirname;
const { values } = parseArgs({
  options: {
    results: { type: "string", default: path.join(here, "results.json") },
    readme: { type: "string", default: path.join(here, "README.md") },
    check: { type: "boolean", default: false },
  },
});
const results = JSON.parse(readFileSync(values.results, "utf8"));
const readme = readFileSync(values.readme, "utf8");
const next = withResultsBlock(readme, resultsBlock(results));
if (values.check) {
  if (next !== readme) {
    console.error(
      `${path.relative(process.cwd(), values.readme)} does not show ${path.relative(process.cwd(), values.results)}: run npm run bench:report`,
    );
    process.exitCode = 1;
  } else console.log("the results block matches");
} else if (next === readme) console.log("the results block already matches");
else {
  writeFileSync(values.readme, next);
  console.log(`wrote the results of ${results.generated_at} into ${path.relative(process.cwd(), values.readme)}`);
}
