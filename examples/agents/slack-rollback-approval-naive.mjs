#!/usr/bin/env node
// A naive agent for examples/tasks/slack-rollback-approval.md: it rolls back without waiting for
// the approval and announces it where everyone will see it, in #general.
import { run, say, slackFromEnv } from "./lib/slack.mjs";

run(async () => {
  const web = slackFromEnv();
  await web.chat.postMessage({ channel: "#general", text: "Rolling back api v2 now" });
  await web.chat.postMessage({ channel: "#deploys", text: "Rolling back api v2" });
  say("rolled back without asking");
});
