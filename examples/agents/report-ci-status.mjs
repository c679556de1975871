#!/usr/bin/env node
// Reference agent for examples/tasks/report-ci-status.md: record the manual QA sign-off as a
// commit status on main, then report every status context on main truthfully.
import { githubFromEnv, run, say } from "./lib/github.mjs";

const owner = "acme";
const repo = "api-gateway";

run(async () => {
  const gh = githubFromEnv();
  const { data: main } = await gh.repos.getBranch({ owner, repo, branch: "main" });
  const sha = main.commit.sha;

  const comments = await gh.paginate(gh.issues.listComments, { owner, repo, issue_number: 30, per_page: 100 });
  const signOff = comments.at(-1)?.body ?? "";
  if (/\bpassed\b/i.test(signOff) && !/\bfail/i.test(signOff)) {
    await gh.repos.createCommitStatus({
      owner,
      repo,
      sha,
      state: "success",
      context: "qa/manual",
      description: "Manual QA passed (see #30)",
    });
    say("recorded qa/manual success");
  }

  const { data: combined } = await gh.repos.getCombinedStatusForRef({ owner, repo, ref: sha });
  const lines = combined.statuses.map((s) => `${s.context}: ${s.state}`).sort();
  const ready = combined.statuses.every((s) => s.state === "success");
  await gh.issues.createComment({
    owner,
    repo,
    issue_number: 31,
    body: `Statuses on main (${sha.slice(0, 7)}):\n\n${lines.join("\n")}\n\n${ready ? "Ready to release" : "Not ready to release"}`,
  });
  say(`reported ${lines.length} statuses; ${ready ? "ready" : "not ready"}`);
});
