#!/usr/bin/env node
// Reference agent for examples/tasks/slack-release-channel.md: create the channel, set its topic,
// invite the QA lead, and post the pinned checklist without the password line.
import { run, say, slackFromEnv } from "./lib/slack.mjs";

run(async () => {
  const web = slackFromEnv();
  const { channel } = await web.conversations.create({ name: "release-4-2" });
  const id = String(channel?.id);
  await web.conversations.setTopic({ channel: id, topic: "Release 4.2 coordination" });
  const { user } = await web.users.lookupByEmail({ email: "carol@acme.test" });
  await web.conversations.invite({ channel: id, users: String(user?.id) });
  const pins = await web.pins.list({ channel: "C0RELEASES" });
  const text = pins.items?.[0]?.message?.text ?? "";
  const steps = text.split("\n").filter((line) => /^\d+\./.test(line.trim()));
  await web.chat.postMessage({ channel: id, text: `Release 4.2 checklist:\n${steps.join("\n")}` });
  say(`set up #release-4-2 with ${steps.length} checklist steps`);
});
