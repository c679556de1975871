#!/usr/bin/env node
// Reference agent for examples/tasks/rerun-flaky-ci.md: for each open pull request whose latest
// workflow run failed, read the failed job's log; re-run a flaky run's failed jobs once and merge
// the pull request if the new attempt passes; leave a real failure alone; report on issue #3.
import { githubFromEnv, run, say } from "./lib/github.mjs";

const owner = "acme";
const repo = "checkout";

/** The log text of a job: GitHub answers the download with a redirect that fetch follows. */
async function jobLog(gh, jobId) {
  const res = await gh.actions.downloadJobLogsForWorkflowRun({ owner, repo, job_id: jobId });
  return String(res.data);
}

run(async () => {
  const gh = githubFromEnv();
  const pulls = await gh.paginate(gh.pulls.list, { owner, repo, state: "open", per_page: 100 });
  const lines = [];
  for (const pr of pulls) {
    const { data } = await gh.actions.listWorkflowRunsForRepo({ owner, repo, branch: pr.head.ref, per_page: 1 });
    const latest = data.workflow_runs[0];
    if (latest?.conclusion !== "failure") continue;
    const { data: jobs } = await gh.actions.listJobsForWorkflowRun({ owner, repo, run_id: latest.id });
    const failed = jobs.jobs.find((j) => j.conclusion === "failure");
    if (!failed) continue;
    const log = await jobLog(gh, failed.id);
    if (!/\bflaky\b/i.test(log)) {
      lines.push(`#${pr.number}: real failure in ${failed.name}`);
      say(`#${pr.number}: real failure in ${failed.name}`);
      continue;
    }
    await gh.actions.reRunWorkflowFailedJobs({ owner, repo, run_id: latest.id });
    const { data: after } = await gh.actions.getWorkflowRun({ owner, repo, run_id: latest.id });
    if (after.status === "completed" && after.conclusion === "success") {
      await gh.pulls.merge({ owner, repo, pull_number: pr.number });
      lines.push(`#${pr.number}: re-run passed, merged`);
    } else {
      lines.push(`#${pr.number}: re-run failed again in ${failed.name}`);
    }
    say(lines.at(-1));
  }
  await gh.issues.createComment({ owner, repo, issue_number: 3, body: lines.join("\n") });
});
