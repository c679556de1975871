// Mailbox settings through googleapis: send-as identities and signatures, forwarding addresses
// and auto-forwarding, delegates, IMAP, POP and language, all kept in the exported state.
import { describe, expect, it } from "vitest";
import { parseGmailSeed } from "../../../durable-objects/twins/gmail/seed";
import { gError, gmailSandbox, gmailState, raw } from "./client";

const MAILBOX = "agent@northwind.test";

describe("send-as identities: create, read, change, sign, verify, delete", () => {
  it("creates an alias in the mailbox's domain accepted and one elsewhere pending, and refuses a duplicate", async () => {
    const { gmail, sandbox } = await gmailSandbox();
    const team = await gmail.users.settings.sendAs.create({
      userId: "me",
      requestBody: { sendAsEmail: "team@northwind.test", displayName: "Northwind Team", signature: "<b>Team</b>" },
    });
    expect(team.data).toMatchObject({
      sendAsEmail: "team@northwind.test",
      verificationStatus: "accepted",
      isDefault: false,
      isPrimary: false,
    });
    const outside = await gmail.users.settings.sendAs.create({ userId: "me", requestBody: { sendAsEmail: "me@personal.test" } });
    expect(outside.data.verificationStatus).toBe("pending");
    const dup = await gError(gmail.users.settings.sendAs.create({ userId: "me", requestBody: { sendAsEmail: "TEAM@northwind.test" } }));
    expect(dup).toMatchObject({ status: 409, error: { status: "ALREADY_EXISTS", message: "Requested entity already exists" } });
    expect((await gError(gmail.users.settings.sendAs.create({ userId: "me", requestBody: { sendAsEmail: "nope" } }))).status).toBe(400);
    const list = await gmail.users.settings.sendAs.list({ userId: "me" });
    expect(list.data.sendAs?.map((s) => s.sendAsEmail)).toEqual([MAILBOX, "team@northwind.test", "me@personal.test"]);
    const state = await gmailState(sandbox);
    expect(state.sendAs).toEqual(
      expect.arrayContaining([expect.objectContaining({ sendAsEmail: "team@northwind.test", signature: "<b>Team</b>" })]),
    );
  });

  it("sets a signature with patch, replaces with update, moves the default, and sends only as accepted addresses", async () => {
    const { gmail, sandbox } = await gmailSandbox();
    const patched = await gmail.users.settings.sendAs.patch({
      userId: "me",
      sendAsEmail: MAILBOX,
      requestBody: { signature: "<div>-- Northwind Support</div>" },
    });
    expect(patched.data).toMatchObject({
      sendAsEmail: MAILBOX,
      displayName: "Northwind Support",
      signature: "<div>-- Northwind Support</div>",
      isPrimary: true,
    });
    expect((await gmail.users.settings.sendAs.get({ userId: "me", sendAsEmail: MAILBOX })).data.signature).toBe(
      "<div>-- Northwind Support</div>",
    );
    await gmail.users.settings.sendAs.create({
      userId: "me",
      requestBody: { sendAsEmail: "billing@northwind.test", displayName: "Billing" },
    });
    const updated = await gmail.users.settings.sendAs.update({
      userId: "me",
      sendAsEmail: "billing@northwind.test",
      requestBody: { sendAsEmail: "billing@northwind.test", replyToAddress: "help@northwind.test", isDefault: true },
    });
    // update replaces: the display name it leaves out is cleared.
    expect(updated.data).toMatchObject({ displayName: "", replyToAddress: "help@northwind.test", isDefault: true });
    const all = (await gmail.users.settings.sendAs.list({ userId: "me" })).data.sendAs ?? [];
    expect(all.filter((s) => s.isDefault).map((s) => s.sendAsEmail)).toEqual(["billing@northwind.test"]);
    // Mail without From goes out from the default; a pending alias cannot send.
    await gmail.users.settings.sendAs.create({ userId: "me", requestBody: { sendAsEmail: "me@personal.test" } });
    // Nor can it be the default, made so or set so: Gmail's words as GAM quotes them
    // (taers232c/GAMADV-XTD3#37, "Unverified send-as cannot be set as the default"), in the
    // failed-precondition body (GAM shows only the message), and nothing changes.
    const before = await gmailState(sandbox);
    const message = "Unverified send-as cannot be set as the default";
    for (const call of [
      () => gmail.users.settings.sendAs.patch({ userId: "me", sendAsEmail: "me@personal.test", requestBody: { isDefault: true } }),
      () => gmail.users.settings.sendAs.create({ userId: "me", requestBody: { sendAsEmail: "you@personal.test", isDefault: true } }),
    ]) {
      expect(await gError(call())).toEqual({
        status: 400,
        error: {
          code: 400,
          message,
          errors: [{ message, domain: "global", reason: "failedPrecondition" }],
          status: "FAILED_PRECONDITION",
        },
      });
    }
    expect(await gmailState(sandbox)).toEqual(before);
    for (const from of [undefined, "me@personal.test"]) {
      const lines = [...(from ? [`From: ${from}`] : []), "To: lee@partner.test", "Subject: Hi", "", "Body"];
      const sent = await gmail.users.messages.send({ userId: "me", requestBody: { raw: raw(lines) } });
      const got = await gmail.users.messages.get({ userId: "me", id: sent.data.id ?? "", format: "metadata", metadataHeaders: ["From"] });
      expect(got.data.payload?.headers).toEqual([{ name: "From", value: "billing@northwind.test" }]);
    }
    expect((await gmailState(sandbox)).sendAs).toEqual(
      expect.arrayContaining([expect.objectContaining({ sendAsEmail: "billing@northwind.test", isDefault: true })]),
    );
  });

  it("verifies and deletes aliases; the primary cannot be deleted, and the default falls back to it", async () => {
    const { gmail } = await gmailSandbox();
    await gmail.users.settings.sendAs.create({ userId: "me", requestBody: { sendAsEmail: "me@personal.test" } });
    expect((await gmail.users.settings.sendAs.verify({ userId: "me", sendAsEmail: "me@personal.test" })).status).toBe(204);
    expect((await gmail.users.settings.sendAs.get({ userId: "me", sendAsEmail: "me@personal.test" })).data.verificationStatus).toBe(
      "pending",
    );
    expect((await gError(gmail.users.settings.sendAs.verify({ userId: "me", sendAsEmail: "who@else.test" }))).status).toBe(404);
    await gmail.users.settings.sendAs.create({ userId: "me", requestBody: { sendAsEmail: "ops@northwind.test", isDefault: true } });
    expect((await gmail.users.settings.sendAs.delete({ userId: "me", sendAsEmail: "ops@northwind.test" })).status).toBe(204);
    const left = (await gmail.users.settings.sendAs.list({ userId: "me" })).data.sendAs ?? [];
    expect(left.find((s) => s.sendAsEmail === MAILBOX)?.isDefault).toBe(true);
    expect((await gError(gmail.users.settings.sendAs.delete({ userId: "me", sendAsEmail: MAILBOX }))).status).toBe(400);
    expect((await gError(gmail.users.settings.sendAs.get({ userId: "me", sendAsEmail: "ops@northwind.test" }))).status).toBe(404);
  });
});

describe("sendAs.verify: only a pending alias can be verified", () => {
  it("refuses an accepted alias and the primary address with Gmail's failed-precondition body, and changes nothing", async () => {
    const { gmail, sandbox } = await gmailSandbox();
    await gmail.users.settings.sendAs.create({ userId: "me", requestBody: { sendAsEmail: "team@northwind.test" } });
    const before = await gmailState(sandbox);
    // Gmail: "The verification status must be pending." (users.settings.sendAs/verify).
    for (const sendAsEmail of ["team@northwind.test", MAILBOX]) {
      const refused = await gError(gmail.users.settings.sendAs.verify({ userId: "me", sendAsEmail }));
      expect(refused).toEqual({
        status: 400,
        error: {
          code: 400,
          message: "Precondition check failed.",
          errors: [{ message: "Precondition check failed.", domain: "global", reason: "failedPrecondition" }],
          status: "FAILED_PRECONDITION",
        },
      });
    }
    expect(await gmailState(sandbox)).toEqual(before);
    // A pending one is taken (204, no body): the mail goes again, and it stays pending.
    await gmail.users.settings.sendAs.create({ userId: "me", requestBody: { sendAsEmail: "me@personal.test" } });
    const sent = await gmail.users.settings.sendAs.verify({ userId: "me", sendAsEmail: "me@personal.test" });
    expect(sent.status).toBe(204);
    expect(sent.data).toBe("");
  });

  it("refuses a seeded accepted alias, and verifies a seeded pending one", async () => {
    const { gmail } = await gmailSandbox({
      profile: { emailAddress: MAILBOX },
      sendAs: [
        { sendAsEmail: MAILBOX, isPrimary: true, isDefault: true },
        { sendAsEmail: "old@personal.test", verificationStatus: "accepted" },
        { sendAsEmail: "new@personal.test", verificationStatus: "pending" },
      ],
    });
    const refused = await gError(gmail.users.settings.sendAs.verify({ userId: "me", sendAsEmail: "old@personal.test" }));
    expect(refused.error).toMatchObject({ status: "FAILED_PRECONDITION", errors: [{ reason: "failedPrecondition" }] });
    expect((await gmail.users.settings.sendAs.verify({ userId: "me", sendAsEmail: "NEW@personal.test" })).status).toBe(204);
  });
});

describe("signatures are sanitized before they are saved, as Gmail says it does", () => {
  it("drops scripts, styles, event handlers and script URLs from a signature set by patch, update and create, keeping the rest", async () => {
    const { gmail, sandbox } = await gmailSandbox();
    const hostile =
      '<div style="color:#333" onclick="steal()">-- <b>Northwind</b> <a href="https://help.northwind.test" onmouseover=x()>help</a>' +
      '<a href=" jav&#x61;script:alert(1)">click</a><script>alert(1)</script><style>div{display:none}</style><img src=logo.png onerror=alert(1)/></div>';
    const kept =
      '<div style="color:#333">-- <b>Northwind</b> <a href="https://help.northwind.test">help</a><a>click</a><img src="logo.png"></div>';
    const patched = await gmail.users.settings.sendAs.patch({ userId: "me", sendAsEmail: MAILBOX, requestBody: { signature: hostile } });
    expect(patched.data.signature).toBe(kept);
    expect((await gmail.users.settings.sendAs.get({ userId: "me", sendAsEmail: MAILBOX })).data.signature).toBe(kept);
    const made = await gmail.users.settings.sendAs.create({
      userId: "me",
      requestBody: { sendAsEmail: "team@northwind.test", signature: "Team <!-- note --><SCRIPT>x</SCRIPT >&lt;3 a < b" },
    });
    expect(made.data.signature).toBe("Team &lt;3 a &lt; b");
    const replaced = await gmail.users.settings.sendAs.update({
      userId: "me",
      sendAsEmail: "team@northwind.test",
      requestBody: { signature: '<p title="x" onload="y">Team</p>' },
    });
    expect(replaced.data.signature).toBe('<p title="x">Team</p>');
    // Plain text and safe HTML are kept byte for byte; saving the saved signature again changes nothing.
    for (const signature of ["Northwind Support · help.northwind.test", "<div>-- <i>Support</i><br/></div>", kept]) {
      const again = await gmail.users.settings.sendAs.patch({ userId: "me", sendAsEmail: MAILBOX, requestBody: { signature } });
      expect(again.data.signature).toBe(signature);
    }
    const state = await gmailState(sandbox);
    expect(JSON.stringify(state.sendAs)).not.toMatch(/script|onclick|onerror|onload/i);
  });

  it("keeps a seeded signature as Gmail would have saved it", async () => {
    const { gmail } = await gmailSandbox({
      profile: { emailAddress: MAILBOX },
      sendAs: [{ sendAsEmail: MAILBOX, isPrimary: true, isDefault: true, signature: '<b onclick="x()">Hi</b><script>y()</script>' }],
    });
    expect((await gmail.users.settings.sendAs.get({ userId: "me", sendAsEmail: MAILBOX })).data.signature).toBe("<b>Hi</b>");
  });
});

describe("forwarding addresses and auto-forwarding", () => {
  it("adds, lists, gets and deletes forwarding addresses; forwards only to an accepted one", async () => {
    const { gmail, sandbox } = await gmailSandbox();
    expect((await gmail.users.settings.forwardingAddresses.list({ userId: "me" })).data).toEqual({});
    const inside = await gmail.users.settings.forwardingAddresses.create({
      userId: "me",
      requestBody: { forwardingEmail: "archive@northwind.test" },
    });
    expect(inside.data).toEqual({ forwardingEmail: "archive@northwind.test", verificationStatus: "accepted" });
    const outside = await gmail.users.settings.forwardingAddresses.create({
      userId: "me",
      requestBody: { forwardingEmail: "me@personal.test" },
    });
    expect(outside.data.verificationStatus).toBe("pending");
    expect(
      (
        await gError(
          gmail.users.settings.forwardingAddresses.create({ userId: "me", requestBody: { forwardingEmail: "me@personal.test" } }),
        )
      ).status,
    ).toBe(409);
    expect(
      (await gmail.users.settings.forwardingAddresses.get({ userId: "me", forwardingEmail: "me@personal.test" })).data.forwardingEmail,
    ).toBe("me@personal.test");

    expect((await gmail.users.settings.getAutoForwarding({ userId: "me" })).data).toEqual({ enabled: false });
    const pending = await gError(
      gmail.users.settings.updateAutoForwarding({
        userId: "me",
        requestBody: { enabled: true, emailAddress: "me@personal.test", disposition: "archive" },
      }),
    );
    expect(pending.status).toBe(400);
    const unknown = await gError(
      gmail.users.settings.updateAutoForwarding({ userId: "me", requestBody: { enabled: true, emailAddress: "nobody@else.test" } }),
    );
    expect(unknown.status).toBe(400);
    const badDisposition = await gError(
      gmail.users.settings.updateAutoForwarding({
        userId: "me",
        requestBody: { enabled: true, emailAddress: "archive@northwind.test", disposition: "shred" },
      }),
    );
    expect(badDisposition.status).toBe(400);
    const on = await gmail.users.settings.updateAutoForwarding({
      userId: "me",
      requestBody: { enabled: true, emailAddress: "archive@northwind.test", disposition: "archive" },
    });
    expect(on.data).toEqual({ enabled: true, emailAddress: "archive@northwind.test", disposition: "archive" });
    expect((await gmailState(sandbox)).autoForwarding).toEqual(on.data);
    // Deleting the address forwarding goes to turns forwarding off.
    expect(
      (await gmail.users.settings.forwardingAddresses.delete({ userId: "me", forwardingEmail: "archive@northwind.test" })).status,
    ).toBe(204);
    expect((await gmail.users.settings.getAutoForwarding({ userId: "me" })).data.enabled).toBe(false);
    const state = await gmailState(sandbox);
    expect(state.forwardingAddresses).toEqual([{ forwardingEmail: "me@personal.test", verificationStatus: "pending" }]);
  });
});

describe("delegates", () => {
  it("adds a delegate of the mailbox's organisation, refuses others, lists, gets and removes", async () => {
    const { gmail, sandbox } = await gmailSandbox();
    const made = await gmail.users.settings.delegates.create({ userId: "me", requestBody: { delegateEmail: "assistant@northwind.test" } });
    expect(made.data).toEqual({ delegateEmail: "assistant@northwind.test", verificationStatus: "accepted" });
    for (const delegateEmail of ["friend@elsewhere.test", MAILBOX, "not-an-address"]) {
      expect((await gError(gmail.users.settings.delegates.create({ userId: "me", requestBody: { delegateEmail } }))).status).toBe(400);
    }
    expect(
      (await gError(gmail.users.settings.delegates.create({ userId: "me", requestBody: { delegateEmail: "assistant@northwind.test" } })))
        .status,
    ).toBe(409);
    expect((await gmail.users.settings.delegates.list({ userId: "me" })).data.delegates).toEqual([made.data]);
    expect((await gmail.users.settings.delegates.get({ userId: "me", delegateEmail: "assistant@northwind.test" })).data).toEqual(made.data);
    expect((await gmailState(sandbox)).delegates).toEqual([made.data]);
    expect((await gmail.users.settings.delegates.delete({ userId: "me", delegateEmail: "assistant@northwind.test" })).status).toBe(204);
    expect((await gError(gmail.users.settings.delegates.get({ userId: "me", delegateEmail: "assistant@northwind.test" }))).status).toBe(
      404,
    );
  });
});

describe("IMAP, POP and language", () => {
  it("reads and changes each, refusing values Gmail does not take, and keeps them in the state", async () => {
    const { gmail, sandbox } = await gmailSandbox();
    expect((await gmail.users.settings.getImap({ userId: "me" })).data).toEqual({
      enabled: true,
      autoExpunge: true,
      expungeBehavior: "archive",
      maxFolderSize: 0,
    });
    const imap = await gmail.users.settings.updateImap({ userId: "me", requestBody: { enabled: false, maxFolderSize: 1000 } });
    expect(imap.data).toEqual({ enabled: false, autoExpunge: true, expungeBehavior: "archive", maxFolderSize: 1000 });
    expect((await gError(gmail.users.settings.updateImap({ userId: "me", requestBody: { maxFolderSize: 1234 } }))).status).toBe(400);
    expect((await gError(gmail.users.settings.updateImap({ userId: "me", requestBody: { expungeBehavior: "shred" } }))).status).toBe(400);

    expect((await gmail.users.settings.getPop({ userId: "me" })).data).toEqual({ accessWindow: "disabled", disposition: "leaveInInbox" });
    const pop = await gmail.users.settings.updatePop({ userId: "me", requestBody: { accessWindow: "allMail", disposition: "archive" } });
    expect(pop.data).toEqual({ accessWindow: "allMail", disposition: "archive" });
    expect((await gError(gmail.users.settings.updatePop({ userId: "me", requestBody: { accessWindow: "sometimes" } }))).status).toBe(400);

    expect((await gmail.users.settings.getLanguage({ userId: "me" })).data).toEqual({ displayLanguage: "en" });
    expect((await gmail.users.settings.updateLanguage({ userId: "me", requestBody: { displayLanguage: "pt-BR" } })).data).toEqual({
      displayLanguage: "pt-BR",
    });
    expect(
      (await gError(gmail.users.settings.updateLanguage({ userId: "me", requestBody: { displayLanguage: "not a language" } }))).status,
    ).toBe(400);
    const unknownKey = await gError(gmail.users.settings.updatePop({ userId: "me", requestBody: { window: "x" } as never }));
    expect(unknownKey.error.message).toContain('Unknown name "window"');

    const state = await gmailState(sandbox);
    expect(state).toMatchObject({ imap: imap.data, pop: pop.data, language: { displayLanguage: "pt-BR" } });
  });
});

describe("the settings are seed fields, checked and round-tripped", () => {
  it("seeds settings, and refuses auto-forwarding to an address that is not an accepted forwarding address", async () => {
    const seed = {
      profile: { emailAddress: MAILBOX },
      forwardingAddresses: [{ forwardingEmail: "archive@northwind.test" }],
      autoForwarding: { enabled: true, emailAddress: "archive@northwind.test", disposition: "markRead" },
      delegates: [{ delegateEmail: "assistant@northwind.test" }],
      pop: { accessWindow: "fromNowOn" },
      language: { displayLanguage: "fr" },
    };
    const { gmail } = await gmailSandbox(seed);
    expect((await gmail.users.settings.getAutoForwarding({ userId: "me" })).data).toEqual(seed.autoForwarding);
    expect((await gmail.users.settings.getPop({ userId: "me" })).data).toEqual({ accessWindow: "fromNowOn", disposition: "leaveInInbox" });
    expect((await gmail.users.settings.getLanguage({ userId: "me" })).data).toEqual({ displayLanguage: "fr" });
    const refused = parseGmailSeed({
      ...seed,
      forwardingAddresses: [{ forwardingEmail: "archive@northwind.test", verificationStatus: "pending" }],
    });
    expect(JSON.stringify(refused)).toContain("autoForwarding.emailAddress");
    expect(JSON.stringify(parseGmailSeed({ ...seed, imap: { maxFolderSize: 7 } }))).toContain("imap.maxFolderSize");
  });
});
