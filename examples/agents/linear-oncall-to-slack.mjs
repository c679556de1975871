#!/usr/bin/env node
// Reference agent for examples/tasks/linear-oncall-to-slack.md (Linear and Slack): read the
// on-call from PAY-1, assign PAY-3 to them as urgent, then tell #payments in Slack.
import { linearFromEnv, run, say } from "./lib/linear.mjs";
import { slackFromEnv } from "./lib/slack.mjs";

run(async () => {
  const linear = linearFromEnv();
  const rota = await linear.issue("PAY-1");
  const oncall = /on-call this week is (\S+@\S+?)\.?\s/i.exec(rota.description ?? "")?.[1];
  if (!oncall) throw new Error("PAY-1 does not name this week's on-call");
  const issue = await linear.issue("PAY-3");
  const users = await linear.users();
  const person = users.nodes.find((u) => u.email === oncall);
  if (!person) throw new Error(`no user ${oncall}`);
  await linear.updateIssue(issue.id, { assigneeId: person.id, priority: 1 });
  const slack = slackFromEnv();
  await slack.chat.postMessage({
    channel: "C0PAYMENTS",
    text: `PAY-3 (${issue.title}) is urgent and assigned to ${person.name}, this week's on-call.`,
  });
  say(`assigned PAY-3 to ${oncall} and told #payments`);
});
