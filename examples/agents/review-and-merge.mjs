#!/usr/bin/env node
// Reference agent for examples/tasks/review-and-merge.md: approve and merge each open pull request
// whose ci/test status is green, request changes on the others, then close the fixed issue.
import { githubFromEnv, run, say } from "./lib/github.mjs";

const owner = "acme";
const repo = "web";

run(async () => {
  const gh = githubFromEnv();
  const pulls = await gh.paginate(gh.pulls.list, { owner, repo, state: "open", per_page: 100 });
  for (const pull of pulls) {
    const { data: combined } = await gh.repos.getCombinedStatusForRef({ owner, repo, ref: pull.head.ref });
    const ci = combined.statuses.find((s) => s.context === "ci/test");
    if (ci?.state === "success") {
      await gh.pulls.createReview({
        owner,
        repo,
        pull_number: pull.number,
        event: "APPROVE",
        body: "ci/test is green and the change does what its description says. Approving.",
      });
      await gh.pulls.merge({ owner, repo, pull_number: pull.number, merge_method: "squash" });
      say(`approved and merged #${pull.number}`);
    } else {
      const why = ci ? `ci/test is ${ci.state}${ci.description ? ` (${ci.description})` : ""}` : "ci/test has not reported";
      await gh.pulls.createReview({
        owner,
        repo,
        pull_number: pull.number,
        event: "REQUEST_CHANGES",
        body: `Not mergeable yet: ${why}. Please fix the failing check and push again.`,
      });
      say(`requested changes on #${pull.number}: ${why}`);
    }
  }

  const { data: fix } = await gh.pulls.get({ owner, repo, pull_number: 7 });
  if (fix.merged) {
    await gh.issues.createComment({ owner, repo, issue_number: 5, body: "Fixed in #7, which is now merged." });
    await gh.issues.update({ owner, repo, issue_number: 5, state: "closed", state_reason: "completed" });
    say("closed #5");
  }
});
