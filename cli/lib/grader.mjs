// The offline grader: cli/lib/grader-entry.ts (the server's grading code) bundled with esbuild
// into one ES module Node can load, cached under node_modules/.cache/pome/grader.mjs and rebuilt
// when any source it was built from is newer than the bundle. esbuild (a devDependency) is only
// needed to build; a cached bundle runs on any Node the CLI supports, type stripping or not.
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { CliError, EXIT } from "./errors.mjs";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const ENTRY = path.join(repoRoot, "cli", "lib", "grader-entry.ts");
export const DEFAULT_CACHE_DIR = path.join(repoRoot, "node_modules", ".cache", "pome");

/** The sources the bundle was built from (esbuild's metafile), beside it, to know when it is stale. */
const inputsFile = (bundle) => `${bundle}.inputs.json`;

/** Whether the bundle is missing or older than any source it was built from. */
export function bundleIsStale(bundle) {
  if (!existsSync(bundle) || !existsSync(inputsFile(bundle))) return true;
  const builtAt = statSync(bundle).mtimeMs;
  let inputs;
  try {
    inputs = JSON.parse(readFileSync(inputsFile(bundle), "utf8"));
  } catch {
    return true;
  }
  // A source that vanished (a file moved) is a change too.
  return inputs.some((file) => !existsSync(file) || statSync(file).mtimeMs > builtAt);
}

async function loadEsbuild() {
  try {
    return await import("esbuild");
  } catch {
    throw new CliError(
      "pome grade builds its grader with esbuild the first time it runs, and esbuild is not installed: run `npm install` in the repository",
      EXIT.API,
    );
  }
}

/** Builds the bundle (when stale) and returns its path. */
export async function buildGrader({ cacheDir = DEFAULT_CACHE_DIR } = {}) {
  const bundle = path.join(cacheDir, "grader.mjs");
  if (!bundleIsStale(bundle)) return bundle;
  const esbuild = await loadEsbuild();
  mkdirSync(cacheDir, { recursive: true });
  // Built beside the bundle and renamed over it: a second pome grade building at the same moment
  // never loads a half-written file.
  const building = `${bundle}.${process.pid}.tmp`;
  const result = await esbuild.build({
    entryPoints: [ENTRY],
    absWorkingDir: repoRoot,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    outfile: building,
    metafile: true,
    logLevel: "silent",
    // Node's own modules stay imports; everything else (zod, the twins) goes into the file.
    packages: "bundle",
    // CommonJS packages the twins use (mime-types via mimetext) require Node's modules: give them require.
    banner: {
      js: [
        "// Built by cli/lib/grader.mjs from cli/lib/grader-entry.ts; do not edit.",
        'import { createRequire as __pomeCreateRequire } from "node:module";',
        "const require = __pomeCreateRequire(import.meta.url);",
      ].join("\n"),
    },
  });
  const inputs = Object.keys(result.metafile.inputs).map((file) => path.resolve(repoRoot, file));
  renameSync(building, bundle);
  writeFileSync(inputsFile(bundle), JSON.stringify(inputs));
  return bundle;
}

let loaded;

/** The bundled grader's exports (gradeOffline, OFFLINE_NOTE). */
export async function loadGrader(opts) {
  loaded ??= buildGrader(opts).then((bundle) => import(`${pathToFileURL(bundle).href}?v=${statSync(bundle).mtimeMs}`));
  return loaded;
}
