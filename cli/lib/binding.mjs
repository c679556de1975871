// Whether a task's [code] criteria bind, before anything runs (issue 38, point 2). Online, the
// server binds them (POST /v1/checks/bind, the grader's own code). Offline, the same binding code
// (workers/grading/binding.ts, loaded through Node's type stripping) runs against the vocabulary
// the CLI last fetched (`pome checks <twin>` caches it) or else the one it ships
// (cli/vocabulary.json, kept equal to the registry by test/workers/tasks/shipped-vocabulary.test.ts).
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { userConfigPath } from "./config.mjs";
import { CliError, EXIT } from "./errors.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const SHIPPED = path.resolve(here, "../vocabulary.json");

/** Where the last fetched vocabulary of each twin is kept, beside the user config. */
export const vocabularyCachePath = (env = process.env) => path.join(path.dirname(userConfigPath(env)), "vocabulary.json");

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return undefined;
  }
}

/** Keeps a twin's fetched vocabulary (GET /v1/checks) for offline binding; a failure to write only loses the cache. */
export function cacheVocabulary(twin, checks, env = process.env) {
  const file = vocabularyCachePath(env);
  const cached = readJson(file) ?? {};
  cached[twin] = checks.map((c) => ({ id: c.id, template: c.template, params: c.params }));
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, `${JSON.stringify(cached)}\n`);
  } catch {
    // A read-only HOME: offline binding falls back to the shipped vocabulary.
  }
}

/** The vocabulary offline binding uses for a twin, and where it came from. */
export function offlineVocabulary(twin, env = process.env) {
  const cached = readJson(vocabularyCachePath(env))?.[twin];
  if (Array.isArray(cached)) return { checks: cached, source: "last fetched" };
  const shipped = readJson(SHIPPED)?.[twin];
  return { checks: Array.isArray(shipped) ? shipped : [], source: "shipped with the CLI" };
}

let bindingModule;
const loadBinding = async () =>
  (bindingModule ??= await import(pathToFileURL(path.resolve(here, "../../workers/grading/binding.ts")).href));
let subjectsModule;
const loadSubjects = async () =>
  (subjectsModule ??= await import(pathToFileURL(path.resolve(here, "../../workers/grading/subjects.ts")).href));

const words = (text) => new Set(text.toLowerCase().match(/[a-z]+/g) ?? []);

/** The templates sharing the most words with a sentence: the checks the author most likely meant. */
function nearest(checks, text, n = 3) {
  const want = words(text);
  return checks
    .map((c) => ({ c, shared: [...words(c.template)].filter((w) => want.has(w)).length }))
    .sort((a, b) => b.shared - a.shared)
    .slice(0, n)
    .map(({ c }) => `${c.id} — ${c.template}`);
}

/** The [code] criteria of a task grouped by twin, each with its position in the task. */
function codeCriteriaByTwin(task) {
  const byTwin = new Map();
  task.criteria.forEach((c, index) => {
    if (c.kind !== "code") return;
    const twin = c.twin ?? task.config.twins[0];
    byTwin.set(twin, [...(byTwin.get(twin) ?? []), { index, text: c.text, alwaysScored: c.alwaysScored === true }]);
  });
  return byTwin;
}

/**
 * Binds every [code] criterion. Returns one row per criterion: { index, twin, text, check_id,
 * nearest }. Offline rows say which vocabulary they used.
 */
export async function bindTask(task, { api, offline = false, env = process.env }) {
  const rows = [];
  for (const [twin, items] of codeCriteriaByTwin(task)) {
    if (offline) {
      const { bindSentence } = await loadBinding();
      const { checks, source } = offlineVocabulary(twin, env);
      for (const item of items) {
        const bound = bindSentence(checks, item.text);
        rows.push({ ...item, twin, check_id: bound?.check.id ?? null, nearest: bound ? [] : nearest(checks, item.text), source });
      }
      continue;
    }
    const answer = await api.post("/v1/checks/bind", { twin, texts: items.map((i) => i.text) });
    answer.results.forEach((result, i) =>
      rows.push({ ...items[i], twin, check_id: result.check_id ?? null, nearest: result.nearest ?? [], source: "server" }),
    );
  }
  return rows;
}

/**
 * Subjects a criterion names that the task's seed lacks and the agent could not create (a
 * repository, a user): such a criterion can only fail, and the grader would blame the task. One
 * warning each, with the nearest subject the seed does have.
 */
export async function subjectWarnings(task, env = process.env) {
  const { bindSentence } = await loadBinding();
  const { absentSubjects } = await loadSubjects();
  const warnings = [];
  for (const [twin, items] of codeCriteriaByTwin(task)) {
    const seed = task.seed?.[twin];
    if (seed === undefined) continue;
    const { checks } = offlineVocabulary(twin, env);
    for (const item of items) {
      const bound = bindSentence(checks, item.text);
      if (!bound) continue;
      for (const absent of absentSubjects(bound.check.params, bound.args, seed))
        warnings.push({ criterion: item.index + 1, ...absent, message: `criterion ${item.index + 1}: ${absent.message}` });
    }
  }
  return warnings;
}

/** One line per unbound criterion, naming the nearest checks. */
export const unboundLines = (file, rows) =>
  rows
    .filter((r) => !r.check_id)
    .map(
      (r) =>
        `${file}: criterion ${r.index + 1} binds no ${r.twin} check: "${r.text}"${r.nearest.map((n) => `\n      nearest: ${n}`).join("")}`,
    );

/**
 * Refuses a task whose [code] criteria do not all bind, before any sandbox exists: such a run could
 * only be incomplete. `allowUnbound` runs it anyway, with a warning.
 */
export async function refuseUnbound(ctx, file, task, allowUnbound) {
  const rows = await bindTask(task, { api: ctx.api });
  const lines = unboundLines(file, rows);
  if (!lines.length) return;
  if (allowUnbound) {
    ctx.out.warn(`running anyway (--allow-unbound); the run will be incomplete, never passed:\n  ${lines.join("\n  ")}`);
    return;
  }
  throw new CliError(
    `${file}: ${lines.length} [code] criteri${lines.length === 1 ? "on binds" : "a bind"} no check, so the run could not be fully graded; fix the sentence (pome validate ${file}) or pass --allow-unbound:\n  ${lines.join("\n  ")}`,
    EXIT.USAGE,
    { unbound: rows.filter((r) => !r.check_id) },
  );
}
