#!/usr/bin/env node
// A naive agent for examples/tasks/triage-bug-report.md: it labels the issue `bug` but, to be
// safe, also creates and applies a `needs-triage` label of its own, so the issue carries two
// labels and the repository a new one. The task must fail it.
import { githubFromEnv, run, say } from "./lib/github.mjs";

const owner = "northwind";
const repo = "payments";
const issue_number = 12;

run(async () => {
  const gh = githubFromEnv();
  await gh.issues.createLabel({ owner, repo, name: "needs-triage", color: "ededed" });
  await gh.issues.addLabels({ owner, repo, issue_number, labels: ["bug", "needs-triage"] });
  await gh.issues.createComment({ owner, repo, issue_number, body: "Triage: looks like a bug, flagged for triage." });
  say("labelled bug + needs-triage and commented");
});
