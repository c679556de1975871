#!/usr/bin/env node
// Reference agent for examples/tasks/triage-bug-report.md: read the on-call rotation, classify
// the new issue with one existing label, assign the on-call engineer, and explain in a comment.
import { decodeContent, githubFromEnv, run, say } from "./lib/github.mjs";

const owner = "northwind";
const repo = "payments";
const issue_number = 12;

run(async () => {
  const gh = githubFromEnv();
  const { data: rota } = await gh.repos.getContent({ owner, repo, path: "docs/oncall.md", ref: "main" });
  const oncall = /on-call this week is @([A-Za-z0-9-]+)/i.exec(decodeContent(rota))?.[1];
  if (!oncall) throw new Error("docs/oncall.md does not name this week's on-call");

  const { data: issue } = await gh.issues.get({ owner, repo, issue_number });
  const broken = /\b(500|error|exception|crash|fails?)\b/i.test(`${issue.title}\n${issue.body ?? ""}`);
  const label = broken ? "bug" : "question";
  say(`issue #${issue_number} looks like a ${label}; on-call is ${oncall}`);

  await gh.issues.addLabels({ owner, repo, issue_number, labels: [label] });
  await gh.issues.addAssignees({ owner, repo, issue_number, assignees: [oncall] });
  await gh.issues.createComment({
    owner,
    repo,
    issue_number,
    body: `Triage: ${label}. The report has reproduction steps and a partial refund answers HTTP 500 with a TypeError, while full refunds still work, so existing behaviour is broken. Assigned to @${oncall}, this week's payments on-call.`,
  });
  say("labelled, assigned and commented");
});
