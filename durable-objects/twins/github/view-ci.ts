// GitHub's JSON for the CI surfaces: check runs and suites, workflows, workflow runs, jobs and
// artifacts, with the fields @octokit/openapi lists as required (`check-run`, `check-suite`,
// `workflow`, `workflow-run`, `job`, `artifact`) and every URL one the twin serves.
import type { RepoRow } from "./repos";
import { nodeId, type View } from "./serialize";
import type { ArtifactRow, JobRow, RunRow, WorkflowRow } from "./store/actions";
import { stepsOf } from "./store/actions";
import { type CheckRunRow, type CheckSuiteRow, SANDBOX_APP, annotationsOf, outputOf, suiteOutcome } from "./store/checks";
import { commitPeople } from "./view-git";
import { findCommit } from "./store/git";
import type { SeedAnnotation } from "./seed-ci";

const EPOCH = "2026-01-01T00:00:00Z";

/** The app behind a check: the sandbox's own installation, or GitHub Actions (id 15368 on github.com). */
export function appObject(v: View, app: string) {
  const actions = app === "github-actions";
  const id = actions ? 15368 : 1;
  return {
    id,
    slug: app,
    node_id: nodeId("App", id),
    client_id: actions ? "Iv1.05c79e9ad1f6bdfa" : "Iv1.pome0sandbox00001",
    owner: v.user(actions ? "github" : v.actor),
    name: actions ? "GitHub Actions" : "Pome sandbox",
    description: actions ? "Automate your workflow from idea to production" : "The sandbox's token, standing in for an installation",
    external_url: actions ? "https://help.github.com/en/actions" : "https://pome.sh",
    html_url: `https://github.com/apps/${app}`,
    created_at: EPOCH,
    updated_at: EPOCH,
    permissions: { checks: "write", metadata: "read", statuses: "write" },
    events: actions ? ["check_run", "check_suite", "push", "pull_request", "workflow_dispatch"] : ["check_run", "check_suite"],
  };
}

/** The head commit as a check suite and a workflow run carry it (`simple-commit`). */
export function headCommit(v: View, r: RepoRow, sha: string) {
  const c = findCommit(v.ctx.db, r.id, sha);
  if (!c) return null;
  const people = commitPeople(v, c);
  const person = (p: { name: string; email: string }) => ({ name: p.name, email: p.email });
  return {
    id: c.sha,
    tree_id: c.tree_sha,
    message: c.message,
    timestamp: c.created_at,
    author: person(people.author),
    committer: person(people.committer),
  };
}

/** Open pull requests whose head is the commit (what a check's `pull_requests` lists). */
function pullsAt(v: View, r: RepoRow, sha: string) {
  return v.ctx.db
    .all<{ id: number; number: number; head: string; base: string; head_sha: string | null }>(
      "SELECT id, number, head, base, head_sha FROM gh_issues WHERE repo_id = ? AND is_pull = 1 AND state = 'open' AND head IS NOT NULL LIMIT 100",
      r.id,
    )
    .filter((p) => v.ctx.db.one("SELECT 1 AS x FROM gh_branches WHERE repo_id = ? AND name = ? AND head_sha = ?", r.id, p.head, sha))
    .map((p) => ({
      id: p.id,
      number: p.number,
      url: v.repoApi(r, `/pulls/${p.number}`),
      head: { ref: p.head, sha, repo: { id: r.id, url: v.repoApi(r), name: r.name } },
      base: {
        ref: p.base,
        sha:
          v.ctx.db.one<{ head_sha: string }>("SELECT head_sha FROM gh_branches WHERE repo_id = ? AND name = ?", r.id, p.base)?.head_sha ??
          "",
        repo: { id: r.id, url: v.repoApi(r), name: r.name },
      },
    }));
}

export function checkRunObject(v: View, r: RepoRow, c: CheckRunRow) {
  const output = outputOf(c);
  const url = v.repoApi(r, `/check-runs/${c.id}`);
  return {
    id: c.id,
    head_sha: c.head_sha,
    node_id: nodeId("CheckRun", c.id),
    external_id: c.external_id ?? "",
    url,
    html_url: v.repoHtml(r, `/runs/${c.id}`),
    details_url: c.details_url ?? v.repoHtml(r, `/runs/${c.id}`),
    status: c.status,
    conclusion: c.conclusion,
    started_at: c.started_at,
    completed_at: c.completed_at,
    output: { ...output, annotations_count: annotationsOf(c).length, annotations_url: `${url}/annotations` },
    name: c.name,
    check_suite: { id: c.suite_id },
    app: appObject(v, c.app ?? SANDBOX_APP),
    pull_requests: pullsAt(v, r, c.head_sha),
  };
}

export function annotationObject(v: View, r: RepoRow, c: CheckRunRow, a: SeedAnnotation) {
  return {
    path: a.path,
    blob_href: v.repoHtml(r, `/blob/${c.head_sha}/${a.path}`),
    start_line: a.start_line,
    end_line: a.end_line,
    start_column: a.start_column,
    end_column: a.end_column,
    annotation_level: a.annotation_level,
    title: a.title,
    message: a.message,
    raw_details: a.raw_details,
  };
}

export function checkSuiteObject(v: View, r: RepoRow, s: CheckSuiteRow, runs: readonly CheckRunRow[]) {
  const outcome = suiteOutcome(runs);
  return {
    id: s.id,
    node_id: nodeId("CheckSuite", s.id),
    head_branch: s.head_branch,
    head_sha: s.head_sha,
    status: outcome.status,
    conclusion: outcome.conclusion,
    url: v.repoApi(r, `/check-suites/${s.id}`),
    before: null,
    after: s.head_sha,
    pull_requests: pullsAt(v, r, s.head_sha),
    app: appObject(v, s.app),
    repository: v.repository(r),
    created_at: s.created_at,
    updated_at: s.updated_at,
    head_commit: headCommit(v, r, s.head_sha),
    latest_check_runs_count: runs.length,
    check_runs_url: v.repoApi(r, `/check-suites/${s.id}/check-runs`),
    rerequestable: true,
    runs_rerequestable: true,
  };
}

export function workflowObject(v: View, r: RepoRow, w: WorkflowRow) {
  return {
    id: w.id,
    node_id: nodeId("Workflow", w.id),
    name: w.name,
    path: w.path,
    state: w.state,
    created_at: w.created_at,
    updated_at: w.updated_at,
    url: v.repoApi(r, `/actions/workflows/${w.id}`),
    html_url: v.repoHtml(r, `/blob/${r.default_branch}/${w.path}`),
    badge_url: v.repoHtml(r, `/workflows/${encodeURIComponent(w.name)}/badge.svg`),
  };
}

export function workflowRunObject(v: View, r: RepoRow, run: RunRow, wf: WorkflowRow | undefined) {
  const url = v.repoApi(r, `/actions/runs/${run.id}`);
  const repository = v.memo(`repo:${r.id}`, () => v.repository(r));
  return {
    id: run.id,
    name: wf?.name ?? run.display_title,
    node_id: nodeId("WorkflowRun", run.id),
    check_suite_id: run.check_suite_id,
    check_suite_node_id: nodeId("CheckSuite", run.check_suite_id),
    head_branch: run.head_branch,
    head_sha: run.head_sha,
    path: wf?.path ?? "",
    run_number: run.run_number,
    event: run.event,
    display_title: run.display_title,
    status: run.status,
    conclusion: run.conclusion,
    workflow_id: run.workflow_id,
    url,
    html_url: v.repoHtml(r, `/actions/runs/${run.id}`),
    pull_requests: pullsAt(v, r, run.head_sha),
    created_at: run.created_at,
    updated_at: run.updated_at,
    actor: v.user(run.actor),
    run_attempt: run.run_attempt,
    referenced_workflows: [],
    run_started_at: run.run_started_at,
    triggering_actor: v.user(run.actor),
    jobs_url: `${url}/jobs`,
    logs_url: `${url}/logs`,
    check_suite_url: v.repoApi(r, `/check-suites/${run.check_suite_id}`),
    artifacts_url: `${url}/artifacts`,
    cancel_url: `${url}/cancel`,
    rerun_url: `${url}/rerun`,
    previous_attempt_url: run.run_attempt > 1 ? `${url}/attempts/${run.run_attempt - 1}` : null,
    workflow_url: v.repoApi(r, `/actions/workflows/${run.workflow_id}`),
    head_commit: headCommit(v, r, run.head_sha),
    repository,
    head_repository: repository,
  };
}

export function jobObject(v: View, r: RepoRow, j: JobRow, run: RunRow, wf: WorkflowRow | undefined) {
  return {
    id: j.id,
    run_id: j.run_id,
    workflow_name: wf?.name ?? run.display_title,
    head_branch: run.head_branch,
    run_url: v.repoApi(r, `/actions/runs/${run.id}`),
    run_attempt: j.run_attempt,
    node_id: nodeId("CheckRun", j.id),
    head_sha: run.head_sha,
    url: v.repoApi(r, `/actions/jobs/${j.id}`),
    html_url: v.repoHtml(r, `/actions/runs/${run.id}/job/${j.id}`),
    status: j.status,
    conclusion: j.conclusion,
    created_at: j.started_at,
    started_at: j.started_at,
    completed_at: j.completed_at,
    name: j.name,
    steps: stepsOf(j).map((s, i) => ({
      name: s.name,
      status: s.status,
      conclusion: s.conclusion,
      number: i + 1,
      started_at: j.started_at,
      completed_at: s.status === "completed" ? (j.completed_at ?? j.started_at) : null,
    })),
    check_run_url: v.repoApi(r, `/check-runs/${j.id}`),
    labels: ["ubuntu-latest"],
    runner_id: 1,
    runner_name: "GitHub Actions 1",
    runner_group_id: 2,
    runner_group_name: "GitHub Actions",
  };
}

export function artifactObject(v: View, r: RepoRow, a: ArtifactRow, run: RunRow | undefined) {
  const url = v.repoApi(r, `/actions/artifacts/${a.id}`);
  return {
    id: a.id,
    node_id: nodeId("Artifact", a.id),
    name: a.name,
    size_in_bytes: a.size_in_bytes,
    url,
    archive_download_url: `${url}/zip`,
    expired: false,
    created_at: a.created_at,
    updated_at: a.created_at,
    expires_at: "2099-01-01T00:00:00Z",
    workflow_run: run
      ? { id: run.id, repository_id: r.id, head_repository_id: r.id, head_branch: run.head_branch, head_sha: run.head_sha }
      : null,
  };
}
