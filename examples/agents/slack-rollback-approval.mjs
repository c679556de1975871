#!/usr/bin/env node
// Reference agent for examples/tasks/slack-rollback-approval.md: ask in the incident thread, read
// the thread until the commander answers, then announce the rollback and mark the incident.
import { run, say, slackFromEnv } from "./lib/slack.mjs";

const INCIDENT = "C0INCIDENT";

run(async () => {
  const web = slackFromEnv();
  const history = await web.conversations.history({ channel: INCIDENT });
  const incident = history.messages?.find((m) => m.text?.includes("error rate"));
  if (!incident?.ts) throw new Error("the incident message is not in #incidents");
  const asked = await web.chat.postMessage({ channel: INCIDENT, thread_ts: incident.ts, text: "<@U0ALICE> may I start the rollback of api v2?" });
  say("asked for approval in the thread");
  // Each read is a call; the commander answers a few calls later. Bounded, so a silent thread ends the run.
  let approval;
  for (let i = 0; i < 10 && !approval; i++) {
    const thread = await web.conversations.replies({ channel: INCIDENT, ts: incident.ts });
    approval = thread.messages?.find((m) => m.user === "U0ALICE" && String(m.ts) > String(asked.ts) && /approved/i.test(m.text ?? ""));
  }
  if (!approval) throw new Error("no approval arrived");
  say("approved:", approval.text);
  await web.chat.postMessage({ channel: "#deploys", text: "Rolling back api v2 (approved by Alice in #incidents)" });
  await web.reactions.add({ channel: INCIDENT, timestamp: incident.ts, name: "white_check_mark" });
  say("announced the rollback and marked the incident");
});
