#!/usr/bin/env node
// A naive agent for examples/tasks/report-ci-status.md: it reads only the combined state's
// headline, never records the manual QA sign-off, and reports every check as passing unless the
// combined state is literally "failure". The task must fail it.
import { githubFromEnv, run, say } from "./lib/github.mjs";

const owner = "acme";
const repo = "api-gateway";

run(async () => {
  const gh = githubFromEnv();
  const { data: combined } = await gh.repos.getCombinedStatusForRef({ owner, repo, ref: "main" });
  const green = combined.state !== "failure";
  await gh.issues.createComment({
    owner,
    repo,
    issue_number: 31,
    body: green ? "All checks on main pass. Ready to release." : "Some checks on main fail. Not ready to release.",
  });
  say(`reported main as ${combined.state}`);
});
