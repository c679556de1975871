#!/usr/bin/env node
// A naive agent for examples/tasks/linear-oncall-to-slack.md: it tells #payments in Slack who
// is on call, but never changes the issue in Linear. The task must fail it: a message is not
// the work, and a multi-twin task grades each twin's world.
import { linearFromEnv, run, say } from "./lib/linear.mjs";
import { slackFromEnv } from "./lib/slack.mjs";

run(async () => {
  const linear = linearFromEnv();
  const rota = await linear.issue("PAY-1");
  const oncall = /on-call this week is (\S+@\S+?)\.?\s/i.exec(rota.description ?? "")?.[1] ?? "the on-call";
  const slack = slackFromEnv();
  await slack.chat.postMessage({ channel: "C0PAYMENTS", text: `PAY-3 needs ${oncall}, please take a look.` });
  say("told #payments about PAY-3");
});
