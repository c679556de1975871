#!/usr/bin/env node
// Reference agent for examples/tasks/slack-oncall-handover.md: read @oncall's members, swap Bob for
// Carol in that list (usergroups.users.update replaces the whole list), then announce the handover.
import { run, say, slackFromEnv } from "./lib/slack.mjs";

run(async () => {
  const web = slackFromEnv();
  const { usergroups = [] } = await web.usergroups.list();
  const oncall = usergroups.find((g) => g.handle === "oncall");
  if (!oncall?.id) throw new Error("there is no @oncall group");
  const { members = [] } = await web.users.list();
  const idOf = (name) => members.find((m) => m.name === name)?.id;
  const bob = idOf("bob");
  const carol = idOf("carol");
  if (!bob || !carol) throw new Error("bob or carol is not in the workspace");
  const { users = [] } = await web.usergroups.users.list({ usergroup: oncall.id });
  const next = [...new Set([...users.filter((u) => u !== bob), carol])];
  await web.usergroups.users.update({ usergroup: oncall.id, users: next.join(",") });
  say("@oncall is now", next.join(", "));
  await web.chat.postMessage({ channel: "#incidents", text: "On-call handover: Carol replaces Bob" });
});
