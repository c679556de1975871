#!/usr/bin/env node
// Reference agent for examples/tasks/signature-and-forwarding.md: patch the send-as signature
// (patch changes only the field given, so the display name stays), add the archive as a
// forwarding address, then turn auto-forwarding on to it, keeping Gmail's copy in the inbox.
import { gmailFromEnv, run, say } from "./lib/gmail.mjs";

const SUPPORT = "support@northwind.test";
const ARCHIVE = "archive@northwind.test";

run(async () => {
  const gmail = gmailFromEnv();
  const { data: identity } = await gmail.users.settings.sendAs.patch({
    userId: "me",
    sendAsEmail: SUPPORT,
    requestBody: { signature: "Northwind Support · help.northwind.test" },
  });
  say(`signature set for ${identity.sendAsEmail} (${identity.displayName})`);

  const known = (await gmail.users.settings.forwardingAddresses.list({ userId: "me" })).data.forwardingAddresses ?? [];
  const address =
    known.find((f) => f.forwardingEmail === ARCHIVE) ??
    (await gmail.users.settings.forwardingAddresses.create({ userId: "me", requestBody: { forwardingEmail: ARCHIVE } })).data;
  if (address.verificationStatus !== "accepted")
    throw new Error(`${ARCHIVE} is ${address.verificationStatus}: its owner must confirm it first`);

  await gmail.users.settings.updateAutoForwarding({
    userId: "me",
    requestBody: { enabled: true, emailAddress: ARCHIVE, disposition: "leaveInInbox" },
  });
  say(`forwarding arriving mail to ${ARCHIVE}`);
});
