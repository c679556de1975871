// Boot and export of a repository's CI part (seed-ci.ts): which column keeps which field, declared
// once per table, as world-tables.ts does for the rest. A workflow run names its workflow by path in
// the seed and by id in its row; a check run's suite is made at boot, one per commit, and is not in
// the seed (it is implied by the check runs on that commit).
import type { Db } from "../types";
import { groupBy } from "../kit/sql";
import { type StoredRow, assembled, col, insertPlaced, objectOf, readRows, tableMap } from "../kit/world-table";
import type { CiSeed, GithubArtifact, GithubCheckRun, GithubHook, GithubJob, GithubWorkflow, GithubWorkflowRun, SeedStep } from "./seed-ci";
import type { CheckConclusion, CheckStatus, SeedAnnotation } from "./seed-ci";
import { SANDBOX_APP } from "./store/checks";

interface InRepo {
  repoId: number;
  created: string;
}

export const workflows = tableMap<GithubWorkflow, unknown, InRepo>()({
  table: "gh_workflows",
  fields: {
    id: col.number("id"),
    name: col.text("name"),
    path: col.text("path"),
    state: col.text<GithubWorkflow["state"]>("state"),
  },
  derived: { repo_id: ({ place }) => place.repoId, created_at: ({ place }) => place.created, updated_at: ({ place }) => place.created },
});

/** Workflow paths by id and ids by path, for a run's `workflow`. */
interface WorkflowNames {
  idOf: Map<string, number>;
  pathOf: Map<number, string>;
}

const nullableStatus = col.nullableText<CheckConclusion>;

export const workflowRuns = tableMap<GithubWorkflowRun, WorkflowNames, InRepo & { sha: string }>()({
  table: "gh_workflow_runs",
  fields: {
    id: col.number("id"),
    workflow: col.custom<string, WorkflowNames>(
      "workflow_id",
      (path, names) => names.idOf.get(path) ?? 0,
      (cell, names) => names.pathOf.get(Number(cell)) ?? "",
    ),
    run_number: col.number("run_number"),
    display_title: col.text("display_title"),
    head_branch: col.text("head_branch"),
    head_sha: col.nullableText("given_sha"),
    event: col.text("event"),
    status: col.text<CheckStatus>("status"),
    conclusion: nullableStatus("conclusion"),
    run_attempt: col.number("run_attempt"),
    rerun_conclusion: nullableStatus("rerun_conclusion"),
    actor: col.text("actor"),
    created_at: col.text("created_at"),
    jobs: assembled,
    artifacts: assembled,
  },
  derived: {
    repo_id: ({ place }) => place.repoId,
    // The commit the run ran on: the one the seed names, or its branch's head at boot.
    head_sha: ({ value, place }) => value.head_sha ?? place.sha,
    updated_at: ({ value }) => value.created_at,
    run_started_at: ({ value }) => value.created_at,
    // Each run is its own check suite (GitHub Actions makes one per run).
    check_suite_id: ({ value }) => value.id,
  },
});

export const jobs = tableMap<GithubJob, unknown, { repoId: number; runId: number }>()({
  table: "gh_jobs",
  fields: {
    id: col.number("id"),
    name: col.text("name"),
    run_attempt: col.number("run_attempt"),
    status: col.text<CheckStatus>("status"),
    conclusion: nullableStatus("conclusion"),
    steps: col.json<SeedStep[]>("steps"),
    log: col.text("log"),
    started_at: col.text("started_at"),
    completed_at: col.nullableText("completed_at"),
  },
  derived: { repo_id: ({ place }) => place.repoId, run_id: ({ place }) => place.runId },
});

export const artifacts = tableMap<GithubArtifact, unknown, { repoId: number; runId: number; created: string }>()({
  table: "gh_artifacts",
  fields: {
    id: col.number("id"),
    name: col.text("name"),
    size_in_bytes: col.number("size_in_bytes"),
    files: col.custom<GithubArtifact["files"]>(
      "files",
      (v) => JSON.stringify(v),
      (cell) => JSON.parse(cell === null ? "[]" : String(cell)) as GithubArtifact["files"],
    ),
  },
  derived: { repo_id: ({ place }) => place.repoId, run_id: ({ place }) => place.runId, created_at: ({ place }) => place.created },
});

export const checkRuns = tableMap<GithubCheckRun, unknown, { repoId: number; sha: string; suiteId: number }>()({
  table: "gh_check_runs",
  fields: {
    id: col.number("id"),
    name: col.text("name"),
    ref: col.text("ref"),
    status: col.text<CheckStatus>("status"),
    conclusion: nullableStatus("conclusion"),
    external_id: col.nullableText("external_id"),
    details_url: col.nullableText("details_url"),
    output: col.json<GithubCheckRun["output"]>("output"),
    annotations: col.json<SeedAnnotation[]>("annotations"),
    started_at: col.text("started_at"),
    completed_at: col.nullableText("completed_at"),
  },
  derived: { repo_id: ({ place }) => place.repoId, head_sha: ({ place }) => place.sha, suite_id: ({ place }) => place.suiteId },
});

export const hooks = tableMap<GithubHook, unknown, InRepo>()({
  table: "gh_hooks",
  fields: {
    id: col.number("id"),
    url: col.text("url"),
    content_type: col.text<GithubHook["content_type"]>("content_type"),
    secret: col.nullableText("secret"),
    events: col.json<string[]>("events"),
    active: col.flag("active"),
  },
  derived: {
    repo_id: ({ place }) => place.repoId,
    insecure_ssl: () => "0",
    created_at: ({ place }) => place.created,
    updated_at: ({ place }) => place.created,
  },
});

/** Boot: a repository's CI part, each ref resolved through `heads` (branch name → head sha). */
export function bootCi(db: Db, repo: { id: number; created_at: string } & CiSeed, heads: Map<string, string>): void {
  const inRepo = { repoId: repo.id, created: repo.created_at };
  insertPlaced(
    db,
    workflows,
    repo.workflows.map((value) => ({ value, place: inRepo })),
    undefined,
  );
  const names: WorkflowNames = { idOf: new Map(repo.workflows.map((w) => [w.path, w.id])), pathOf: new Map() };
  const runs = repo.workflow_runs.map((value) => ({ value, place: { ...inRepo, sha: heads.get(value.head_branch) ?? "" } }));
  insertPlaced(db, workflowRuns, runs, names);
  for (const run of repo.workflow_runs) {
    insertPlaced(
      db,
      jobs,
      run.jobs.map((value) => ({ value, place: { repoId: repo.id, runId: run.id } })),
      undefined,
    );
    const place = { repoId: repo.id, runId: run.id, created: run.created_at };
    insertPlaced(
      db,
      artifacts,
      run.artifacts.map((value) => ({ value, place })),
      undefined,
    );
  }
  // One suite per commit the seeded check runs sit on, numbered as its first check run.
  const suites = new Map<string, number>();
  const placed = repo.check_runs.map((value) => {
    const sha = /^[0-9a-f]{40}$/.test(value.ref) ? value.ref : (heads.get(value.ref) ?? value.ref);
    const branch = heads.has(value.ref) ? value.ref : null;
    let suiteId = suites.get(sha);
    if (suiteId === undefined) {
      suiteId = value.id;
      suites.set(sha, suiteId);
      db.run(
        "INSERT INTO gh_check_suites (id, repo_id, head_sha, head_branch, app, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
        suiteId,
        repo.id,
        sha,
        branch,
        SANDBOX_APP,
        value.started_at,
        value.started_at,
      );
    }
    return { value, place: { repoId: repo.id, sha, suiteId } };
  });
  insertPlaced(db, checkRuns, placed, undefined);
  insertPlaced(
    db,
    hooks,
    repo.hooks.map((value) => ({ value, place: inRepo })),
    undefined,
  );
}

/** Export: a repository's CI part in the seed's shape. */
export function exportCi(db: Db, repoId: number): CiSeed {
  const inRepo = (table: string) => readRows(db, table, "WHERE repo_id = ? ORDER BY id", repoId);
  const wfRows = inRepo(workflows.table);
  const names: WorkflowNames = { idOf: new Map(), pathOf: new Map(wfRows.map((w) => [Number(w.id), String(w.path)])) };
  const jobsOf = groupBy(inRepo(jobs.table), (r: StoredRow) => r.run_id);
  const artifactsOf = groupBy(inRepo(artifacts.table), (r: StoredRow) => r.run_id);
  return {
    workflows: wfRows.map((w) => objectOf(workflows, w, undefined)),
    workflow_runs: inRepo(workflowRuns.table).map((r) =>
      objectOf(workflowRuns, r, names, {
        jobs: (jobsOf.get(r.id) ?? []).map((j) => objectOf(jobs, j, undefined)),
        artifacts: (artifactsOf.get(r.id) ?? []).map((a) => objectOf(artifacts, a, undefined)),
      }),
    ),
    check_runs: inRepo(checkRuns.table).map((c) => objectOf(checkRuns, c, undefined)),
    hooks: inRepo(hooks.table).map((h) => objectOf(hooks, h, undefined)),
  };
}
