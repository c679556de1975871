#!/usr/bin/env node
// Reference agent for examples/tasks/linear-triage-issue.md: read the on-call rotation from
// PAY-1, label PAY-3 a bug, make it urgent, assign the on-call, move it to Todo and explain.
import { linearFromEnv, run, say } from "./lib/linear.mjs";

run(async () => {
  const linear = linearFromEnv();
  const rota = await linear.issue("PAY-1");
  const oncall = /on-call this week is (\S+@\S+?)\.?\s/i.exec(rota.description ?? "")?.[1];
  if (!oncall) throw new Error("PAY-1 does not name this week's on-call");

  const issue = await linear.issue("PAY-3");
  const team = await issue.team;
  if (!team) throw new Error("PAY-3 has no team");
  const [labels, states, users] = await Promise.all([team.labels(), team.states(), linear.users()]);
  const text = `${issue.title}\n${issue.description ?? ""}`;
  const label = labels.nodes.find((l) => l.name === (/\b(500|error|crash|fails?)\b/i.test(text) ? "Bug" : "Question"));
  const todo = states.nodes.find((s) => s.name === "Todo");
  const person = users.nodes.find((u) => u.email === oncall);
  if (!label || !todo || !person) throw new Error("the team lacks the label, the Todo state or the on-call person");
  say(`PAY-3 looks like a ${label.name}; on-call is ${oncall}`);

  await linear.updateIssue(issue.id, { labelIds: [label.id], priority: 1, assigneeId: person.id, stateId: todo.id });
  await linear.createComment({
    issueId: issue.id,
    body: `Triage: ${label.name}. A partial refund answers HTTP 500 with a TypeError, so existing behaviour is broken and money is not reaching customers. Assigned to ${person.name}, this week's payments on-call.`,
  });
  say("labelled, prioritised, assigned, moved and commented");
});
