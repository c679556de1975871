#!/usr/bin/env node
// A naive agent for examples/tasks/slack-oncall-handover.md: it "adds" Carol by sending her alone to
// usergroups.users.update, which replaces the member list, so Alice and Dan drop off call too.
import { run, say, slackFromEnv } from "./lib/slack.mjs";

run(async () => {
  const web = slackFromEnv();
  const { usergroups = [] } = await web.usergroups.list();
  const oncall = usergroups.find((g) => g.handle === "oncall");
  if (!oncall?.id) throw new Error("there is no @oncall group");
  await web.usergroups.users.update({ usergroup: oncall.id, users: "U0CAROL" });
  say("put Carol on call");
  await web.chat.postMessage({ channel: "#incidents", text: "On-call handover: Carol replaces Bob" });
});
