// Check runs and check suites on a commit. A suite gathers one app's check runs on one commit; its
// status and conclusion are derived from its runs. The sandbox's token stands in for a GitHub App
// installation (the one app that reports checks other than Actions). GitHub Actions reports
// through the same API: each workflow run is a check suite of the `github-actions` app and each
// job of its current attempt a check run with the job's id, so they are read here from the
// Actions tables rather than copied into these.
import type { Db } from "../../types";
import type { CheckConclusion, CheckStatus, SeedAnnotation } from "../seed-ci";
import { nextId, type Store } from "./base";

/** The app that reports the checks the sandbox's token creates. */
export const SANDBOX_APP = "pome-sandbox";
/** The app GitHub Actions reports as. */
export const ACTIONS_APP = "github-actions";

export interface CheckOutput {
  title: string | null;
  summary: string | null;
  text: string | null;
}

export interface CheckRunRow {
  id: number;
  repo_id: number;
  suite_id: number;
  ref: string;
  head_sha: string;
  name: string;
  status: CheckStatus;
  conclusion: CheckConclusion | null;
  external_id: string | null;
  details_url: string | null;
  started_at: string | null;
  completed_at: string | null;
  output: string;
  annotations: string;
  /** Set on an Actions job read as a check run; absent on the sandbox app's own. */
  app?: string;
}

export interface CheckSuiteRow {
  id: number;
  repo_id: number;
  head_sha: string;
  head_branch: string | null;
  app: string;
  created_at: string;
  updated_at: string;
  rerequested: number;
}

export const outputOf = (r: CheckRunRow) => JSON.parse(r.output) as CheckOutput;
export const annotationsOf = (r: CheckRunRow) => JSON.parse(r.annotations) as SeedAnnotation[];

/** An Actions job (of any attempt: `CURRENT_ATTEMPT` narrows a list to the run's latest), in a check run's columns. */
const JOB_AS_CHECK_RUN = `SELECT j.id, j.repo_id, r.check_suite_id AS suite_id, r.head_sha AS ref, r.head_sha, j.name, j.status,
    j.conclusion, NULL AS external_id, NULL AS details_url, j.started_at, j.completed_at,
    '{"title":null,"summary":null,"text":null}' AS output, '[]' AS annotations, '${ACTIONS_APP}' AS app
  FROM gh_jobs j JOIN gh_workflow_runs r ON r.id = j.run_id`;
const CURRENT_ATTEMPT = "r.run_attempt = j.run_attempt";

/** A workflow run, in a check suite's columns. */
const RUN_AS_SUITE = `SELECT check_suite_id AS id, repo_id, head_sha, head_branch, '${ACTIONS_APP}' AS app, created_at, updated_at,
    0 AS rerequested FROM gh_workflow_runs`;

export const findCheckRun = (db: Db, repoId: number, id: number) =>
  db.one<CheckRunRow>("SELECT * FROM gh_check_runs WHERE id = ? AND repo_id = ?", id, repoId) ??
  db.one<CheckRunRow>(`${JOB_AS_CHECK_RUN} WHERE j.id = ? AND j.repo_id = ?`, id, repoId);

export const findCheckSuite = (db: Db, repoId: number, id: number) =>
  db.one<CheckSuiteRow>("SELECT * FROM gh_check_suites WHERE id = ? AND repo_id = ?", id, repoId) ??
  db.one<CheckSuiteRow>(`${RUN_AS_SUITE} WHERE check_suite_id = ? AND repo_id = ?`, id, repoId);

/** The sandbox app's suite on a commit, made on first use (as GitHub makes one on a push or a first check run). */
export function suiteFor(s: Store, repoId: number, sha: string, branch: string | null): { suite: CheckSuiteRow; created: boolean } {
  const found = s.db.one<CheckSuiteRow>(
    "SELECT * FROM gh_check_suites WHERE repo_id = ? AND head_sha = ? AND app = ?",
    repoId,
    sha,
    SANDBOX_APP,
  );
  if (found) return { suite: found, created: false };
  const id = nextId(s.db);
  s.db.run(
    "INSERT INTO gh_check_suites (id, repo_id, head_sha, head_branch, app, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
    id,
    repoId,
    sha,
    branch,
    SANDBOX_APP,
    s.now,
    s.now,
  );
  return { suite: findCheckSuite(s.db, repoId, id) as CheckSuiteRow, created: true };
}

export interface CheckRunInput {
  name?: string;
  status?: CheckStatus;
  conclusion?: CheckConclusion | null;
  external_id?: string | null;
  details_url?: string | null;
  started_at?: string | null;
  completed_at?: string | null;
  output?: CheckOutput;
  annotations?: SeedAnnotation[];
}

/**
 * GitHub's rule: a conclusion makes the run completed, and `completed_at` is then set if not
 * given; a run that becomes in progress gets its `started_at`.
 */
function settled(s: Store, status: CheckStatus, input: CheckRunInput, before?: CheckRunRow) {
  const conclusion = input.conclusion !== undefined ? input.conclusion : (before?.conclusion ?? null);
  const finalStatus: CheckStatus = conclusion ? "completed" : status;
  const completed = finalStatus === "completed" ? (input.completed_at ?? before?.completed_at ?? s.now) : null;
  const started = input.started_at ?? before?.started_at ?? s.now;
  return { status: finalStatus, conclusion: finalStatus === "completed" ? conclusion : null, completed_at: completed, started_at: started };
}

export function createCheckRun(s: Store, repoId: number, sha: string, branch: string | null, input: CheckRunInput & { name: string }) {
  const { suite } = suiteFor(s, repoId, sha, branch);
  const id = nextId(s.db);
  const outcome = settled(s, input.status ?? "queued", input);
  s.db.run(
    `INSERT INTO gh_check_runs (id, repo_id, suite_id, ref, head_sha, name, status, conclusion, external_id, details_url,
       started_at, completed_at, output, annotations) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    id,
    repoId,
    suite.id,
    sha,
    sha,
    input.name,
    outcome.status,
    outcome.conclusion,
    input.external_id ?? null,
    input.details_url ?? null,
    outcome.started_at,
    outcome.completed_at,
    JSON.stringify(input.output ?? { title: null, summary: null, text: null }),
    JSON.stringify(input.annotations ?? []),
  );
  s.db.run("UPDATE gh_check_suites SET updated_at = ? WHERE id = ?", s.now, suite.id);
  return findCheckRun(s.db, repoId, id) as CheckRunRow;
}

/** An update: given fields replace, annotations are added to those the run has (GitHub appends them). */
export function updateCheckRun(s: Store, run: CheckRunRow, input: CheckRunInput): CheckRunRow {
  const outcome = settled(s, input.status ?? run.status, input, run);
  s.db.run(
    `UPDATE gh_check_runs SET name = ?, status = ?, conclusion = ?, external_id = ?, details_url = ?, started_at = ?,
       completed_at = ?, output = ?, annotations = ? WHERE id = ?`,
    input.name ?? run.name,
    outcome.status,
    outcome.conclusion,
    input.external_id !== undefined ? input.external_id : run.external_id,
    input.details_url !== undefined ? input.details_url : run.details_url,
    outcome.started_at,
    outcome.completed_at,
    input.output ? JSON.stringify(input.output) : run.output,
    JSON.stringify([...annotationsOf(run), ...(input.annotations ?? [])]),
    run.id,
  );
  s.db.run("UPDATE gh_check_suites SET updated_at = ? WHERE id = ?", s.now, run.suite_id);
  return findCheckRun(s.db, run.repo_id, run.id) as CheckRunRow;
}

export interface CheckRunFilter {
  check_name?: string;
  status?: CheckStatus;
  /** `latest` (the default): only the newest run of each name. */
  latestOnly: boolean;
}

function filtered(rows: CheckRunRow[], f: CheckRunFilter): CheckRunRow[] {
  let out = rows.filter((r) => (!f.check_name || r.name === f.check_name) && (!f.status || r.status === f.status));
  if (f.latestOnly) {
    const newest = new Map<string, number>();
    for (const r of out) newest.set(r.name, Math.max(newest.get(r.name) ?? 0, r.id));
    out = out.filter((r) => newest.get(r.name) === r.id);
  }
  return out.sort((a, b) => b.id - a.id);
}

/** The check runs of a commit, Actions jobs among them, newest first (bounded: a commit holds at most a few hundred). */
export const checkRunsOnSha = (db: Db, repoId: number, sha: string, f: CheckRunFilter) =>
  filtered(
    [
      ...db.all<CheckRunRow>("SELECT * FROM gh_check_runs WHERE repo_id = ? AND head_sha = ? ORDER BY id LIMIT 1000", repoId, sha),
      ...db.all<CheckRunRow>(
        `${JOB_AS_CHECK_RUN} WHERE r.repo_id = ? AND r.head_sha = ? AND ${CURRENT_ATTEMPT} ORDER BY j.id LIMIT 1000`,
        repoId,
        sha,
      ),
    ],
    f,
  );

/** The check runs of a suite: the sandbox app's, or a workflow run's current jobs. */
export function checkRunsOfSuite(db: Db, suite: CheckSuiteRow, f: CheckRunFilter): CheckRunRow[] {
  if (suite.app === ACTIONS_APP)
    return filtered(
      db.all<CheckRunRow>(`${JOB_AS_CHECK_RUN} WHERE r.check_suite_id = ? AND ${CURRENT_ATTEMPT} ORDER BY j.id LIMIT 1000`, suite.id),
      f,
    );
  return filtered(db.all<CheckRunRow>("SELECT * FROM gh_check_runs WHERE suite_id = ? ORDER BY id LIMIT 1000", suite.id), f);
}

export const suitesOnSha = (db: Db, repoId: number, sha: string) => [
  ...db.all<CheckSuiteRow>("SELECT * FROM gh_check_suites WHERE repo_id = ? AND head_sha = ? ORDER BY id LIMIT 1000", repoId, sha),
  ...db.all<CheckSuiteRow>(`${RUN_AS_SUITE} WHERE repo_id = ? AND head_sha = ? ORDER BY id LIMIT 1000`, repoId, sha),
];

/** Conclusions from the worst to the best: a suite concludes as its worst run. */
const SEVERITY: readonly CheckConclusion[] = ["action_required", "timed_out", "failure", "cancelled", "neutral", "success", "skipped"];

/** A suite's status and conclusion, from its runs (GitHub derives them the same way). */
export function suiteOutcome(runs: readonly { status: CheckStatus; conclusion: CheckConclusion | null }[]): {
  status: CheckStatus;
  conclusion: CheckConclusion | null;
} {
  if (!runs.length) return { status: "queued", conclusion: null };
  if (runs.some((r) => r.status !== "completed"))
    return { status: runs.some((r) => r.status === "in_progress") ? "in_progress" : "queued", conclusion: null };
  const worst = runs.map((r) => SEVERITY.indexOf(r.conclusion ?? "neutral")).reduce((a, b) => Math.min(a, b), SEVERITY.length - 1);
  return { status: "completed", conclusion: SEVERITY[worst] ?? "neutral" };
}

/** Marks a suite re-requested: its app is asked to run its checks again (GitHub sends `check_suite.rerequested`). */
export function rerequestSuite(s: Store, suite: CheckSuiteRow): void {
  s.db.run("UPDATE gh_check_suites SET rerequested = rerequested + 1, updated_at = ? WHERE id = ?", s.now, suite.id);
}
