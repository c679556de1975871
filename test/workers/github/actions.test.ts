// GitHub Actions through @octokit/rest: seeded workflows, runs, jobs, logs and artifacts that a CI
// agent reads, and the re-run, cancel, dispatch and delete it acts with.
import { describe, expect, it } from "vitest";
import { ciWorld, FLAKY_LOG } from "./ci-world";
import { parseGithubSeed } from "../../../durable-objects/twins/github/seed";
import { failure, sandboxWith, stateOf } from "./fixtures";

const repo = { owner: "acme", repo: "api" };

describe("workflows are listed and read by id or file name", () => {
  it("lists the seeded workflows and finds one by its file name", async () => {
    const { octokit } = await sandboxWith(ciWorld());
    const list = await octokit.actions.listRepoWorkflows(repo);
    expect(list.data.total_count).toBe(2);
    expect(list.data.workflows.map((w) => [w.name, w.path, w.state])).toEqual([
      ["CI", ".github/workflows/ci.yml", "active"],
      ["Release", ".github/workflows/release.yml", "disabled_manually"],
    ]);
    const byFile = await octokit.actions.getWorkflow({ ...repo, workflow_id: "ci.yml" });
    expect(byFile.data.id).toBe(list.data.workflows[0]?.id);
    const byId = await octokit.actions.getWorkflow({ ...repo, workflow_id: byFile.data.id });
    expect(byId.data.name).toBe("CI");
    expect((await failure(octokit.actions.getWorkflow({ ...repo, workflow_id: "nope.yml" }))).status).toBe(404);
  });
});

describe("workflow runs are listed newest first with GitHub's filters", () => {
  it("filters by branch, event, status or conclusion, head_sha, and workflow", async () => {
    const { octokit } = await sandboxWith(ciWorld());
    const all = await octokit.actions.listWorkflowRunsForRepo(repo);
    expect(all.data.total_count).toBe(2);
    expect(all.data.workflow_runs.map((r) => r.id)).toEqual([600, 500]);
    const failed = await octokit.actions.listWorkflowRunsForRepo({ ...repo, status: "failure" });
    expect(failed.data.workflow_runs.map((r) => r.id)).toEqual([600]);
    const completed = await octokit.actions.listWorkflowRunsForRepo({ ...repo, status: "completed" });
    expect(completed.data.total_count).toBe(2);
    const onFeature = await octokit.actions.listWorkflowRunsForRepo({ ...repo, branch: "feature", event: "pull_request" });
    expect(onFeature.data.workflow_runs.map((r) => r.id)).toEqual([600]);
    const feature = await octokit.repos.getBranch({ ...repo, branch: "feature" });
    const bySha = await octokit.actions.listWorkflowRunsForRepo({ ...repo, head_sha: feature.data.commit.sha });
    expect(bySha.data.workflow_runs.map((r) => r.head_sha)).toEqual([feature.data.commit.sha]);
    const ofCi = await octokit.actions.listWorkflowRuns({ ...repo, workflow_id: "ci.yml", branch: "main" });
    expect(ofCi.data.workflow_runs.map((r) => r.id)).toEqual([500]);
  });

  it("reads a run with its attempt, numbers and URLs into the sandbox", async () => {
    const { octokit } = await sandboxWith(ciWorld());
    const run = (await octokit.actions.getWorkflowRun({ ...repo, run_id: 600 })).data;
    expect(run).toMatchObject({
      id: 600,
      name: "CI",
      head_branch: "feature",
      event: "pull_request",
      status: "completed",
      conclusion: "failure",
      run_attempt: 1,
      run_number: 2,
      path: ".github/workflows/ci.yml",
      previous_attempt_url: null,
    });
    expect(run.pull_requests?.map((p) => p.number)).toEqual([4]);
    expect((await octokit.request(`GET ${run.jobs_url}`)).status).toBe(200);
    expect((await failure(octokit.actions.getWorkflowRun({ ...repo, run_id: 999 }))).status).toBe(404);
  });
});

describe("jobs carry their steps, and a job's log is the seeded text", () => {
  it("lists a run's jobs and reads one job", async () => {
    const { octokit } = await sandboxWith(ciWorld());
    const jobs = await octokit.actions.listJobsForWorkflowRun({ ...repo, run_id: 600 });
    expect(jobs.data.jobs.map((j) => [j.name, j.conclusion])).toEqual([
      ["build", "success"],
      ["test", "failure"],
    ]);
    const test = await octokit.actions.getJobForWorkflowRun({ ...repo, job_id: 602 });
    expect(test.data.steps?.map((s) => [s.number, s.name, s.conclusion])).toEqual([
      [1, "Checkout", "success"],
      [2, "Run npm test", "failure"],
    ]);
    expect(test.data).toMatchObject({ run_id: 600, workflow_name: "CI", head_branch: "feature", run_attempt: 1 });
  });

  it("answers the log download with a redirect to the plain text", async () => {
    const { octokit } = await sandboxWith(ciWorld());
    const logs = await octokit.actions
      .downloadJobLogsForWorkflowRun({ ...repo, job_id: 602, request: { redirect: "manual" } })
      .catch((e: { status: number; response: { headers: Record<string, string> } }) => e);
    expect(logs.status).toBe(302);
    const location = "response" in logs ? logs.response.headers.location : (logs as { headers: Record<string, string> }).headers.location;
    expect(location).toMatch(/\/actions\/jobs\/602\/logs\/text$/);
    const text = await octokit.request(`GET ${location}`);
    expect(text.data).toBe(FLAKY_LOG);
  });
});

describe("a re-run makes a new attempt that concludes as the seed scripts", () => {
  it("re-runs only the failed jobs: the flaky test passes on attempt 2", async () => {
    const { sandbox, octokit } = await sandboxWith(ciWorld());
    const res = await octokit.actions.reRunWorkflowFailedJobs({ ...repo, run_id: 600 });
    expect(res.status).toBe(201);
    const run = (await octokit.actions.getWorkflowRun({ ...repo, run_id: 600 })).data;
    expect(run).toMatchObject({ run_attempt: 2, status: "completed", conclusion: "success" });
    expect(run.previous_attempt_url).toMatch(/\/actions\/runs\/600\/attempts\/1$/);
    const latest = await octokit.actions.listJobsForWorkflowRun({ ...repo, run_id: 600 });
    expect(latest.data.jobs.map((j) => [j.name, j.run_attempt, j.conclusion])).toEqual([
      ["build", 2, "success"],
      ["test", 2, "success"],
    ]);
    const all = await octokit.actions.listJobsForWorkflowRun({ ...repo, run_id: 600, filter: "all" });
    expect(all.data.total_count).toBe(4);
    // The re-run is part of the world the sandbox exports (and could seed again).
    const state = await stateOf<{ repositories: { workflow_runs: { id: number; run_attempt: number; jobs: unknown[] }[] }[] }>(sandbox);
    const exported = state.repositories[0]?.workflow_runs.find((r) => r.id === 600);
    expect(exported).toMatchObject({ run_attempt: 2 });
    expect(exported?.jobs).toHaveLength(4);
  });

  it("re-runs every job; a run without a scripted outcome concludes as before", async () => {
    const { octokit } = await sandboxWith(ciWorld());
    await octokit.actions.reRunWorkflow({ ...repo, run_id: 500 });
    const run = (await octokit.actions.getWorkflowRun({ ...repo, run_id: 500 })).data;
    expect(run).toMatchObject({ run_attempt: 2, conclusion: "success" });
  });

  it("refuses to re-run a run still in progress, and to cancel a finished one", async () => {
    const { octokit } = await sandboxWith(
      ciWorld({
        workflow_runs: [
          { id: 800, workflow: "CI", head_branch: "main", status: "in_progress", jobs: [{ id: 801, name: "test", status: "in_progress" }] },
          { id: 810, workflow: "CI", head_branch: "main", conclusion: "success" },
        ],
      }),
    );
    expect((await failure(octokit.actions.reRunWorkflow({ ...repo, run_id: 800 }))).status).toBe(403);
    const done = await failure(octokit.actions.cancelWorkflowRun({ ...repo, run_id: 810 }));
    expect(done.status).toBe(409);
    expect((await octokit.actions.cancelWorkflowRun({ ...repo, run_id: 800 })).status).toBe(202);
    expect((await octokit.actions.getWorkflowRun({ ...repo, run_id: 800 })).data).toMatchObject({
      status: "completed",
      conclusion: "cancelled",
    });
    expect((await octokit.actions.getJobForWorkflowRun({ ...repo, job_id: 801 })).data.conclusion).toBe("cancelled");
  });
});

describe("a dispatch queues a run, and a deleted run is gone", () => {
  it("dispatches on a branch (204) and the new run is listed first", async () => {
    const { octokit } = await sandboxWith(ciWorld());
    const res = await octokit.actions.createWorkflowDispatch({ ...repo, workflow_id: "ci.yml", ref: "main" });
    expect(res.status).toBe(204);
    const runs = await octokit.actions.listWorkflowRuns({ ...repo, workflow_id: "ci.yml" });
    expect(runs.data.workflow_runs[0]).toMatchObject({
      event: "workflow_dispatch",
      status: "queued",
      conclusion: null,
      run_number: 3,
      head_branch: "main",
    });
    expect((await failure(octokit.actions.createWorkflowDispatch({ ...repo, workflow_id: "ci.yml", ref: "nope" }))).status).toBe(422);
  });

  it("deletes a run with its jobs and artifacts", async () => {
    const { octokit } = await sandboxWith(ciWorld());
    expect((await octokit.actions.listArtifactsForRepo(repo)).data.artifacts.map((a) => a.name)).toEqual(["coverage"]);
    expect((await octokit.actions.listWorkflowRunArtifacts({ ...repo, run_id: 600 })).data.artifacts[0]).toMatchObject({
      id: 610,
      size_in_bytes: 2048,
      expired: false,
      workflow_run: { id: 600, head_branch: "feature" },
    });
    expect((await octokit.actions.deleteWorkflowRun({ ...repo, run_id: 600 })).status).toBe(204);
    expect((await failure(octokit.actions.getWorkflowRun({ ...repo, run_id: 600 }))).status).toBe(404);
    expect((await failure(octokit.actions.getJobForWorkflowRun({ ...repo, job_id: 602 }))).status).toBe(404);
    expect((await octokit.actions.listArtifactsForRepo(repo)).data.total_count).toBe(0);
  });
});

describe("the CI part of a seed is checked and round-trips", () => {
  const parsedCi = (seed: unknown) => {
    const parsed = parseGithubSeed(seed);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
    const [r] = parsed.seed.repositories;
    return { workflows: r?.workflows, workflow_runs: r?.workflow_runs, check_runs: r?.check_runs, hooks: r?.hooks };
  };

  it("exports exactly the normalized CI part, and the export parses to itself", async () => {
    const seed = ciWorld({ hooks: [{ id: 990, url: "http://127.0.0.1:9/hook", events: ["push"], secret: "s" }] });
    const { sandbox } = await sandboxWith(seed);
    const state = await stateOf<{ repositories: Record<string, unknown>[] }>(sandbox);
    const r = state.repositories[0] ?? {};
    const exported = { workflows: r.workflows, workflow_runs: r.workflow_runs, check_runs: r.check_runs, hooks: r.hooks };
    expect(exported).toEqual(parsedCi(seed));
    expect(parsedCi(state)).toEqual(exported);
  });

  it("names the failing path of a run, job, check run or hook that does not fit", () => {
    const problems = (extra: Record<string, unknown>) => {
      const parsed = parseGithubSeed(ciWorld(extra));
      return parsed.ok ? [] : parsed.issues.map((i) => i.path);
    };
    expect(problems({ workflow_runs: [{ workflow: "Deploy", head_branch: "main", conclusion: "success" }] })).toEqual([
      "repositories[0].workflow_runs[0].workflow",
    ]);
    expect(problems({ workflow_runs: [{ workflow: "CI", head_branch: "nope", conclusion: "success" }] })).toEqual([
      "repositories[0].workflow_runs[0].head_branch",
    ]);
    expect(problems({ workflow_runs: [{ workflow: "CI", head_branch: "main" }] })).toEqual(["repositories[0].workflow_runs[0].conclusion"]);
    expect(
      problems({
        workflow_runs: [
          { workflow: "CI", head_branch: "main", conclusion: "success", jobs: [{ name: "t", conclusion: "success", run_attempt: 3 }] },
        ],
      }),
    ).toEqual(["repositories[0].workflow_runs[0].jobs[0].run_attempt"]);
    expect(problems({ check_runs: [{ name: "x", ref: "nope", conclusion: "success" }] })).toEqual(["repositories[0].check_runs[0].ref"]);
    expect(problems({ hooks: [{ url: "http://169.254.169.254/latest" }] })).toEqual(["repositories[0].hooks[0].url"]);
    expect(problems({ workflows: [{ name: "CI", path: "ci.yml" }] })).toEqual(["repositories[0].workflows[0].path"]);
  });

  it("exports the seeded CI world as it was seeded", async () => {
    const { sandbox } = await sandboxWith(ciWorld());
    const state = await stateOf<{ repositories: Record<string, unknown>[] }>(sandbox);
    const r = state.repositories[0] ?? {};
    expect(r.workflows).toEqual([
      { id: expect.any(Number), name: "CI", path: ".github/workflows/ci.yml", state: "active" },
      { id: expect.any(Number), name: "Release", path: ".github/workflows/release.yml", state: "disabled_manually" },
    ]);
    expect(r.check_runs).toEqual([expect.objectContaining({ id: 700, name: "lint", ref: "feature", conclusion: "neutral" })]);
    expect((r.workflow_runs as { workflow: string }[]).map((w) => w.workflow)).toEqual([
      ".github/workflows/ci.yml",
      ".github/workflows/ci.yml",
    ]);
  });
});
