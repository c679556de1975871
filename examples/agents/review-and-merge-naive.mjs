#!/usr/bin/env node
// A naive agent for examples/tasks/review-and-merge.md: it approves and merges every open pull
// request without looking at CI, so the one whose ci/test fails is merged too, then closes the
// issue. The task must fail it.
import { githubFromEnv, run, say } from "./lib/github.mjs";

const owner = "acme";
const repo = "web";

run(async () => {
  const gh = githubFromEnv();
  const pulls = await gh.paginate(gh.pulls.list, { owner, repo, state: "open", per_page: 100 });
  for (const pull of pulls) {
    await gh.pulls.createReview({ owner, repo, pull_number: pull.number, event: "APPROVE", body: "Looks good to me." });
    try {
      await gh.pulls.merge({ owner, repo, pull_number: pull.number, merge_method: "squash" });
      say(`approved and merged #${pull.number}`);
    } catch (err) {
      say(`approved #${pull.number}; merging answered ${err.status ?? ""} ${err.message}`);
    }
  }
  await gh.issues.createComment({ owner, repo, issue_number: 5, body: "Fixed in #7, which is now merged." });
  await gh.issues.update({ owner, repo, issue_number: 5, state: "closed", state_reason: "completed" });
  say("closed #5");
});
