#!/usr/bin/env node
// Naive agent for examples/tasks/signature-and-forwarding.md: writes the signature into the
// display name with a full update (which also clears the rest), and turns auto-forwarding on
// without first adding the archive as a forwarding address, which Gmail refuses. It fails.
import { gmailFromEnv, run, say } from "./lib/gmail.mjs";

run(async () => {
  const gmail = gmailFromEnv();
  await gmail.users.settings.sendAs.update({
    userId: "me",
    sendAsEmail: "support@northwind.test",
    requestBody: { sendAsEmail: "support@northwind.test", displayName: "Northwind Support · help.northwind.test" },
  });
  try {
    await gmail.users.settings.updateAutoForwarding({
      userId: "me",
      requestBody: { enabled: true, emailAddress: "archive@northwind.test" },
    });
  } catch (err) {
    say(`auto-forwarding refused: ${err.message}`);
  }
  say("done");
});
