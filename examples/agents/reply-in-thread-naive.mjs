#!/usr/bin/env node
// Naive agent for examples/tasks/reply-in-thread.md: answers Dana with a fresh message (no
// thread, no amount) and leaves her mail as it was. It fails the task.
import { gmailFromEnv, rawMail, run, say } from "./lib/gmail.mjs";

run(async () => {
  const gmail = gmailFromEnv();
  await gmail.users.messages.send({
    userId: "me",
    requestBody: { raw: rawMail({ To: "dana@customer.test", Subject: "Your order" }, "Hi Dana, we have looked into your order. Thanks!") },
  });
  say("sent a new message to Dana");
});
