// GitHub Actions as seeded world objects: workflows, their runs (one row per run holding its current
// attempt), each attempt's jobs with steps and log text, and artifacts. A re-run makes the next
// attempt at once, its failed jobs concluding as the seed scripts (`rerun_conclusion`); a dispatch
// queues a run that nothing executes (the twin runs no CI).
import type { Db } from "../../types";
import type { CheckConclusion, CheckStatus, SeedStep } from "../seed-ci";
import { nextId, type Store } from "./base";
import { suiteOutcome } from "./checks";

export interface WorkflowRow {
  id: number;
  repo_id: number;
  name: string;
  path: string;
  state: string;
  created_at: string;
  updated_at: string;
}

export interface RunRow {
  id: number;
  repo_id: number;
  workflow_id: number;
  run_number: number;
  display_title: string;
  head_branch: string;
  given_sha: string | null;
  head_sha: string;
  event: string;
  status: CheckStatus;
  conclusion: CheckConclusion | null;
  run_attempt: number;
  rerun_conclusion: CheckConclusion | null;
  actor: string;
  created_at: string;
  updated_at: string;
  run_started_at: string;
  check_suite_id: number;
}

export interface JobRow {
  id: number;
  repo_id: number;
  run_id: number;
  run_attempt: number;
  name: string;
  status: CheckStatus;
  conclusion: CheckConclusion | null;
  steps: string;
  log: string;
  started_at: string;
  completed_at: string | null;
}

export interface ArtifactRow {
  id: number;
  repo_id: number;
  run_id: number;
  name: string;
  size_in_bytes: number;
  created_at: string;
  /** JSON: the text files its zip holds, [{ path, content }]. */
  files: string;
}

export const findArtifact = (db: Db, repoId: number, id: number) =>
  db.one<ArtifactRow>("SELECT * FROM gh_artifacts WHERE repo_id = ? AND id = ?", repoId, id);

export const stepsOf = (j: JobRow) => JSON.parse(j.steps) as SeedStep[];

/** A workflow by its id or its file name (`ci.yml`), as GitHub's `workflow_id` takes either. */
export function findWorkflow(db: Db, repoId: number, idOrFile: string): WorkflowRow | undefined {
  if (/^\d+$/.test(idOrFile))
    return db.one<WorkflowRow>("SELECT * FROM gh_workflows WHERE repo_id = ? AND id = ?", repoId, Number(idOrFile));
  return db.one<WorkflowRow>("SELECT * FROM gh_workflows WHERE repo_id = ? AND path = ?", repoId, `.github/workflows/${idOrFile}`);
}

export const findWorkflowById = (db: Db, id: number) => db.one<WorkflowRow>("SELECT * FROM gh_workflows WHERE id = ?", id);

export function listWorkflows(db: Db, repoId: number, limit: number, offset: number) {
  return {
    rows: db.all<WorkflowRow>("SELECT * FROM gh_workflows WHERE repo_id = ? ORDER BY id LIMIT ? OFFSET ?", repoId, limit, offset),
    total: db.one<{ n: number }>("SELECT count(*) AS n FROM gh_workflows WHERE repo_id = ?", repoId)?.n ?? 0,
  };
}

export interface RunFilter {
  workflow_id?: number;
  branch?: string;
  event?: string;
  /** A status (`completed`, `in_progress`…) or a conclusion (`failure`, `success`…), as GitHub reads it. */
  status?: string;
  head_sha?: string;
  actor?: string;
}

/** Workflow runs of a repository (or one workflow), newest first, filtered as GitHub's list is. */
export function listRuns(db: Db, repoId: number, f: RunFilter, limit: number, offset: number) {
  const where = ["repo_id = ?"];
  const args: (string | number)[] = [repoId];
  const add = (sql: string, v: string | number | undefined) => {
    if (v === undefined) return;
    where.push(sql);
    args.push(v);
  };
  add("workflow_id = ?", f.workflow_id);
  add("head_branch = ?", f.branch);
  add("event = ?", f.event);
  add("head_sha = ?", f.head_sha);
  add("actor = ? COLLATE NOCASE", f.actor);
  if (f.status !== undefined) {
    where.push("(status = ? OR conclusion = ?)");
    args.push(f.status, f.status);
  }
  const clause = where.join(" AND ");
  return {
    rows: db.all<RunRow>(`SELECT * FROM gh_workflow_runs WHERE ${clause} ORDER BY id DESC LIMIT ? OFFSET ?`, ...args, limit, offset),
    total: db.one<{ n: number }>(`SELECT count(*) AS n FROM gh_workflow_runs WHERE ${clause}`, ...args)?.n ?? 0,
  };
}

export const findRun = (db: Db, repoId: number, id: number) =>
  db.one<RunRow>("SELECT * FROM gh_workflow_runs WHERE repo_id = ? AND id = ?", repoId, id);

export const findJob = (db: Db, repoId: number, id: number) =>
  db.one<JobRow>("SELECT * FROM gh_jobs WHERE repo_id = ? AND id = ?", repoId, id);

/** The jobs of one attempt of a run, in the order they were declared. */
export const jobsOfAttempt = (db: Db, runId: number, attempt: number) =>
  db.all<JobRow>("SELECT * FROM gh_jobs WHERE run_id = ? AND run_attempt = ? ORDER BY id LIMIT 1000", runId, attempt);

/** `filter=all`: the jobs of every attempt, newest attempt first. */
export const jobsOfEveryAttempt = (db: Db, runId: number) =>
  db.all<JobRow>("SELECT * FROM gh_jobs WHERE run_id = ? ORDER BY run_attempt DESC, id LIMIT 1000", runId);

export function listArtifacts(db: Db, repoId: number, runId: number | undefined, name: string | undefined, limit: number, offset: number) {
  const clause = `repo_id = ?${runId !== undefined ? " AND run_id = ?" : ""}${name !== undefined ? " AND name = ?" : ""}`;
  const args = [repoId, ...(runId !== undefined ? [runId] : []), ...(name !== undefined ? [name] : [])];
  return {
    rows: db.all<ArtifactRow>(`SELECT * FROM gh_artifacts WHERE ${clause} ORDER BY id DESC LIMIT ? OFFSET ?`, ...args, limit, offset),
    total: db.one<{ n: number }>(`SELECT count(*) AS n FROM gh_artifacts WHERE ${clause}`, ...args)?.n ?? 0,
  };
}

/** `workflow_dispatch`: a queued run on `branch` at `sha`, numbered after the workflow's last run. */
export function dispatchRun(s: Store, wf: WorkflowRow, branch: string, sha: string): RunRow {
  const id = nextId(s.db);
  const last = s.db.one<{ n: number | null }>("SELECT max(run_number) AS n FROM gh_workflow_runs WHERE workflow_id = ?", wf.id)?.n ?? 0;
  s.db.run(
    `INSERT INTO gh_workflow_runs (id, repo_id, workflow_id, run_number, display_title, head_branch, given_sha, head_sha, event,
       status, conclusion, run_attempt, rerun_conclusion, actor, created_at, updated_at, run_started_at, check_suite_id)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'workflow_dispatch', 'queued', NULL, 1, NULL, ?, ?, ?, ?, ?)`,
    id,
    wf.repo_id,
    wf.id,
    last + 1,
    wf.name,
    branch,
    sha,
    sha,
    s.actor,
    s.now,
    s.now,
    s.now,
    id,
  );
  return findRun(s.db, wf.repo_id, id) as RunRow;
}

/** What a re-run makes of a job: a failed one (or every one) runs again and concludes as the seed scripts. */
function rerunJob(job: JobRow, again: boolean, scripted: CheckConclusion | null, attempt: number) {
  if (!again) return { ...job, run_attempt: attempt };
  const conclusion = scripted ?? job.conclusion ?? "success";
  const changed = conclusion !== job.conclusion;
  const steps = stepsOf(job).map((st) =>
    st.conclusion && st.conclusion !== "success" && st.conclusion !== "skipped" ? { ...st, conclusion } : st,
  );
  const log = changed ? `${job.name}: attempt ${attempt} concluded ${conclusion}\n` : job.log;
  return { ...job, run_attempt: attempt, conclusion, steps: JSON.stringify(steps), log };
}

const FAILED: readonly (CheckConclusion | null)[] = ["failure", "cancelled", "timed_out", "action_required"];

/**
 * Re-runs a completed run: the next attempt, with every job (or, for `rerun-failed-jobs`, each
 * failed job) run again and the others carried over as they concluded. The run concludes as its
 * worst job; a run without jobs concludes as `rerun_conclusion` (or as it did).
 */
export function rerunRun(s: Store, run: RunRow, failedOnly: boolean): RunRow {
  const attempt = run.run_attempt + 1;
  const jobs = jobsOfAttempt(s.db, run.id, run.run_attempt).map((j) =>
    rerunJob(j, !failedOnly || FAILED.includes(j.conclusion), run.rerun_conclusion, attempt),
  );
  for (const j of jobs)
    s.db.run(
      `INSERT INTO gh_jobs (id, repo_id, run_id, run_attempt, name, status, conclusion, steps, log, started_at, completed_at)
       VALUES (?, ?, ?, ?, ?, 'completed', ?, ?, ?, ?, ?)`,
      nextId(s.db),
      j.repo_id,
      j.run_id,
      attempt,
      j.name,
      j.conclusion,
      j.steps,
      j.log,
      s.now,
      s.now,
    );
  const conclusion = jobs.length
    ? suiteOutcome(jobs.map((j) => ({ status: "completed" as const, conclusion: j.conclusion }))).conclusion
    : (run.rerun_conclusion ?? run.conclusion);
  s.db.run(
    "UPDATE gh_workflow_runs SET run_attempt = ?, status = 'completed', conclusion = ?, updated_at = ?, run_started_at = ? WHERE id = ?",
    attempt,
    conclusion,
    s.now,
    s.now,
    run.id,
  );
  return findRun(s.db, run.repo_id, run.id) as RunRow;
}

/** Cancels a run that has not completed: it and its unfinished jobs conclude `cancelled`. */
export function cancelRun(s: Store, run: RunRow): void {
  s.db.run("UPDATE gh_workflow_runs SET status = 'completed', conclusion = 'cancelled', updated_at = ? WHERE id = ?", s.now, run.id);
  s.db.run(
    "UPDATE gh_jobs SET status = 'completed', conclusion = 'cancelled', completed_at = ? WHERE run_id = ? AND run_attempt = ? AND status != 'completed'",
    s.now,
    run.id,
    run.run_attempt,
  );
}

export function deleteRun(db: Db, run: RunRow): void {
  db.run("DELETE FROM gh_jobs WHERE run_id = ?", run.id);
  db.run("DELETE FROM gh_artifacts WHERE run_id = ?", run.id);
  db.run("DELETE FROM gh_workflow_runs WHERE id = ?", run.id);
}
