#!/usr/bin/env node
// Naive agent for examples/tasks/ask-the-carrier.md: one attempt at asking the carrier, no retry,
// so Gmail's rate limit stops it before anything is drafted. It fails the task.
import { gmailFromEnv, rawMail, run, say } from "./lib/gmail.mjs";

run(async () => {
  const gmail = gmailFromEnv();
  await gmail.users.messages.send({
    userId: "me",
    requestBody: { raw: rawMail({ To: "carrier@shipping.test", Subject: "Parcel 1234" }, "When does parcel 1234 ship?") },
  });
  say("asked the carrier; not waiting for an answer");
});
