#!/usr/bin/env node
// A naive agent for examples/tasks/rerun-flaky-ci.md: it reads only each run's conclusion, never a
// job's log, so it cannot tell a flaky failure from a real one; it re-runs nothing, merges nothing,
// and reports every red pull request as broken. The task must fail it.
import { githubFromEnv, run, say } from "./lib/github.mjs";

const owner = "acme";
const repo = "checkout";

run(async () => {
  const gh = githubFromEnv();
  const { data } = await gh.actions.listWorkflowRunsForRepo({ owner, repo, status: "failure" });
  const lines = data.workflow_runs.map((r) => `${r.head_branch}: CI failed (${r.display_title})`);
  await gh.issues.createComment({ owner, repo, issue_number: 3, body: lines.join("\n") || "CI is green." });
  say(`reported ${lines.length} failing runs`);
});
