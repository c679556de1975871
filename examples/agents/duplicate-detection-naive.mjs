#!/usr/bin/env node
// A naive agent for examples/tasks/duplicate-detection.md: it matches the new report by its title
// alone ("code"), takes the newest issue that matches, whatever its state, and marks #58 as its
// duplicate. That is the closed desktop issue #44, not the original #41. The task must fail it.
import { githubFromEnv, run, say } from "./lib/github.mjs";

const owner = "acme";
const repo = "orders-service";
const newIssue = 58;

run(async () => {
  const gh = githubFromEnv();
  const all = await gh.paginate(gh.issues.listForRepo, { owner, repo, state: "all", per_page: 100 });
  const match = all
    .filter((i) => i.number !== newIssue && !i.pull_request && /\bcode\b/i.test(i.title))
    .sort((a, b) => b.number - a.number)[0];
  if (!match) throw new Error("no issue mentions a code");
  await gh.issues.addLabels({ owner, repo, issue_number: newIssue, labels: ["duplicate"] });
  await gh.issues.createComment({ owner, repo, issue_number: newIssue, body: `Duplicate of #${match.number}.` });
  await gh.issues.update({ owner, repo, issue_number: newIssue, state: "closed", state_reason: "not_planned" });
  say(`marked #${newIssue} as a duplicate of #${match.number}`);
});
