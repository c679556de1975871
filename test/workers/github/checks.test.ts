// Checks through @octokit/rest: check runs and suites on a commit, GitHub's status and conclusion
// rules, annotations, and the combined view agents read beside commit statuses.
import { describe, expect, it } from "vitest";
import { ciWorld } from "./ci-world";
import type { CheckConclusion } from "../../../durable-objects/twins/github/seed-ci";
import { suiteOutcome } from "../../../durable-objects/twins/github/store/checks";
import { failure, sandboxWith } from "./fixtures";

const repo = { owner: "acme", repo: "api" };

describe("a workflow run is a check suite and its jobs are check runs, as GitHub Actions reports them", () => {
  it("reads a job through the Checks API by its id, follows a re-run, and refuses to update it", async () => {
    const { octokit } = await sandboxWith(ciWorld());
    const job = (await octokit.actions.getJobForWorkflowRun({ ...repo, job_id: 602 })).data;
    const asCheck = await octokit.request(`GET ${job.check_run_url}`);
    expect(asCheck.data).toMatchObject({ id: 602, name: "test", conclusion: "failure", app: { slug: "github-actions" } });
    const run = (await octokit.actions.getWorkflowRun({ ...repo, run_id: 600 })).data;
    const suite = await octokit.checks.getSuite({ ...repo, check_suite_id: run.check_suite_id ?? 0 });
    expect(suite.data).toMatchObject({ conclusion: "failure", latest_check_runs_count: 2, head_branch: "feature" });
    await octokit.actions.reRunWorkflowFailedJobs({ ...repo, run_id: 600 });
    const after = await octokit.checks.getSuite({ ...repo, check_suite_id: run.check_suite_id ?? 0 });
    expect(after.data.conclusion).toBe("success");
    const denied = await failure(octokit.checks.update({ ...repo, check_run_id: 602, conclusion: "success" }));
    expect(denied.status).toBe(403);
  });
});

describe("a suite concludes as its worst check run", () => {
  it("orders conclusions from action_required down to skipped", () => {
    const done = (conclusion: CheckConclusion) => ({ status: "completed" as const, conclusion });
    expect(suiteOutcome([])).toEqual({ status: "queued", conclusion: null });
    expect(suiteOutcome([done("success"), { status: "in_progress", conclusion: null }])).toEqual({
      status: "in_progress",
      conclusion: null,
    });
    expect(suiteOutcome([done("success"), done("skipped")])).toEqual({ status: "completed", conclusion: "success" });
    expect(suiteOutcome([done("neutral"), done("failure"), done("cancelled")])).toEqual({ status: "completed", conclusion: "failure" });
    expect(suiteOutcome([done("timed_out"), done("action_required")])).toEqual({ status: "completed", conclusion: "action_required" });
  });
});

describe("a check run is created, updated and read on a commit", () => {
  it("creates a queued run, completes it with a conclusion, and reads it back", async () => {
    const { octokit } = await sandboxWith(ciWorld());
    const main = (await octokit.repos.getBranch({ ...repo, branch: "main" })).data.commit.sha;
    const created = await octokit.checks.create({ ...repo, name: "unit", head_sha: main, external_id: "build-7" });
    expect(created.status).toBe(201);
    expect(created.data).toMatchObject({
      name: "unit",
      head_sha: main,
      status: "queued",
      conclusion: null,
      external_id: "build-7",
      completed_at: null,
    });
    expect(created.data.app?.slug).toBe("pome-sandbox");
    const done = await octokit.checks.update({
      ...repo,
      check_run_id: created.data.id,
      conclusion: "failure",
      output: {
        title: "1 test failed",
        summary: "`times out` failed",
        annotations: [{ path: "src/app.ts", start_line: 2, end_line: 2, annotation_level: "failure", message: "Timeout is 10s" }],
      },
    });
    // A conclusion completes the run, as GitHub documents.
    expect(done.data).toMatchObject({
      status: "completed",
      conclusion: "failure",
      output: { title: "1 test failed", annotations_count: 1 },
    });
    expect(done.data.completed_at).not.toBeNull();
    const got = await octokit.checks.get({ ...repo, check_run_id: created.data.id });
    expect(got.data.output.summary).toBe("`times out` failed");
    const notes = await octokit.checks.listAnnotations({ ...repo, check_run_id: created.data.id });
    expect(notes.data).toEqual([
      expect.objectContaining({
        path: "src/app.ts",
        start_line: 2,
        annotation_level: "failure",
        message: "Timeout is 10s",
        blob_href: expect.stringContaining(`/blob/${main}/src/app.ts`),
      }),
    ]);
  });

  it("refuses a completed run without a conclusion, an unknown conclusion, and a sha that names no commit", async () => {
    const { octokit } = await sandboxWith(ciWorld());
    const noConclusion = await failure(octokit.checks.create({ ...repo, name: "x", head_sha: "main", status: "completed" }));
    expect(noConclusion.status).toBe(422);
    expect(noConclusion.response.data.message).toContain('"conclusion" wasn\'t supplied');
    // Typed as a plain string, so the client does not refuse the unknown conclusion before GitHub does.
    const createRoute: string = "POST /repos/{owner}/{repo}/check-runs";
    const badConclusion = await failure(octokit.request(createRoute, { ...repo, name: "x", head_sha: "main", conclusion: "great" }));
    expect(badConclusion.status).toBe(422);
    const noCommit = await failure(octokit.checks.create({ ...repo, name: "x", head_sha: "f".repeat(40) }));
    expect(noCommit.status).toBe(422);
    expect(noCommit.response.data.message).toBe(`No commit found for SHA: ${"f".repeat(40)}`);
    // Only the seeded Actions job is on main: nothing was created.
    expect((await octokit.checks.listForRef({ ...repo, ref: "main" })).data.check_runs.map((c) => c.app?.slug)).toEqual(["github-actions"]);
  });
});

describe("the check runs and suites of a ref are what agents read", () => {
  it("lists the seeded and created runs of a branch, latest of each name by default", async () => {
    const { octokit } = await sandboxWith(ciWorld());
    const feature = (await octokit.repos.getBranch({ ...repo, branch: "feature" })).data.commit.sha;
    await octokit.checks.create({ ...repo, name: "lint", head_sha: feature, status: "in_progress" });
    await octokit.checks.create({ ...repo, name: "unit", head_sha: feature, conclusion: "success" });
    const latest = await octokit.checks.listForRef({ ...repo, ref: "feature" });
    // The workflow run's jobs on this commit are check runs too, reported by GitHub Actions.
    expect(latest.data.check_runs.map((c) => [c.name, c.status, c.app?.slug])).toEqual([
      ["unit", "completed", "pome-sandbox"],
      ["lint", "in_progress", "pome-sandbox"],
      ["test", "completed", "github-actions"],
      ["build", "completed", "github-actions"],
    ]);
    const all = await octokit.checks.listForRef({ ...repo, ref: feature, filter: "all" });
    expect(all.data.total_count).toBe(5);
    const lint = await octokit.checks.listForRef({ ...repo, ref: "feature", check_name: "lint", filter: "all", status: "completed" });
    expect(lint.data.check_runs.map((c) => c.id)).toEqual([700]);
    // The seeded check run's pull request is the open one whose head is this commit.
    expect(lint.data.check_runs[0]?.pull_requests.map((p) => p.number)).toEqual([4]);
  });

  it("gathers a commit's runs in a suite whose conclusion is its worst run's", async () => {
    const { octokit } = await sandboxWith(ciWorld());
    const suites = await octokit.checks.listSuitesForRef({ ...repo, ref: "feature" });
    expect(suites.data.check_suites.map((s) => [s.app?.slug, s.conclusion])).toEqual([
      ["pome-sandbox", "neutral"],
      ["github-actions", "failure"],
    ]);
    const suite = suites.data.check_suites[0];
    expect(suite).toMatchObject({ status: "completed", conclusion: "neutral", head_branch: "feature", latest_check_runs_count: 1 });
    const feature = (await octokit.repos.getBranch({ ...repo, branch: "feature" })).data.commit.sha;
    await octokit.checks.create({ ...repo, name: "unit", head_sha: feature, conclusion: "failure" });
    const again = await octokit.checks.getSuite({ ...repo, check_suite_id: suite?.id ?? 0 });
    expect(again.data).toMatchObject({ conclusion: "failure", latest_check_runs_count: 2, head_commit: { id: feature } });
    const inSuite = await octokit.checks.listForSuite({ ...repo, check_suite_id: suite?.id ?? 0 });
    expect(inSuite.data.check_runs.map((c) => c.name).sort()).toEqual(["lint", "unit"]);
    expect((await octokit.checks.rerequestSuite({ ...repo, check_suite_id: suite?.id ?? 0 })).status).toBe(201);
  });

  it("creates a suite once per commit (201, then 200) and 404s an unknown one", async () => {
    const { octokit } = await sandboxWith(ciWorld());
    const first = await octokit.checks.createSuite({ ...repo, head_sha: "main" });
    expect(first.status).toBe(201);
    expect(first.data).toMatchObject({ status: "queued", conclusion: null, latest_check_runs_count: 0 });
    const second = await octokit.checks.createSuite({ ...repo, head_sha: "main" });
    expect(second.status).toBe(200);
    expect(second.data.id).toBe(first.data.id);
    expect((await failure(octokit.checks.getSuite({ ...repo, check_suite_id: 999_999 }))).status).toBe(404);
    expect((await failure(octokit.checks.get({ ...repo, check_run_id: 999_999 }))).status).toBe(404);
  });

  it("sits beside commit statuses: the combined status is unchanged by check runs", async () => {
    const { octokit } = await sandboxWith(ciWorld());
    const feature = (await octokit.repos.getBranch({ ...repo, branch: "feature" })).data.commit.sha;
    await octokit.checks.create({ ...repo, name: "unit", head_sha: feature, conclusion: "failure" });
    // GitHub keeps the two systems apart: the combined status reads statuses only.
    const combined = await octokit.repos.getCombinedStatusForRef({ ...repo, ref: "feature" });
    expect(combined.data.state).toBe("success");
    expect(
      (await octokit.checks.listForRef({ ...repo, ref: "feature", status: "completed" })).data.check_runs.map((c) => c.conclusion),
    ).toContain("failure");
  });
});
