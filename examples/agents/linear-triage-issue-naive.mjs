#!/usr/bin/env node
// Naive agent for examples/tasks/linear-triage-issue.md: labels and moves PAY-3 correctly but
// never reads the rotation in PAY-1, assigning the first team member it finds (and skipping the
// priority), so the task fails.
import { linearFromEnv, run, say } from "./lib/linear.mjs";

run(async () => {
  const linear = linearFromEnv();
  const issue = await linear.issue("PAY-3");
  const team = await issue.team;
  if (!team) throw new Error("PAY-3 has no team");
  const [labels, states, members] = await Promise.all([team.labels(), team.states(), team.members()]);
  const bug = labels.nodes.find((l) => l.name === "Bug");
  const todo = states.nodes.find((s) => s.name === "Todo");
  const someone = members.nodes.find((m) => !m.email.startsWith("triage-bot"));
  await linear.updateIssue(issue.id, { labelIds: bug ? [bug.id] : [], stateId: todo?.id, assigneeId: someone?.id });
  await linear.createComment({ issueId: issue.id, body: "Triage: Bug." });
  say(`labelled and assigned to ${someone?.email ?? "nobody"}`);
});
