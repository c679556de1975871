// The settings checks of the Gmail vocabulary, as plain predicates over exported states.
import { describe, expect, it } from "vitest";
import { gmailChecks } from "../../../durable-objects/twins/gmail/checks";
import { defaultGmailSeed, type GmailSeed } from "../../../durable-objects/twins/gmail/seed";
import type { CheckOutcome } from "../../../durable-objects/twins/types";

const MAILBOX = "agent@northwind.test";
const seed = (): GmailSeed => structuredClone(defaultGmailSeed());

function run(id: string, args: Record<string, string>, final: unknown, initial: unknown = seed()): CheckOutcome {
  const check = gmailChecks.find((c) => c.id === `gmail.${id}`);
  if (!check) throw new Error(`no check gmail.${id}`);
  return check.evaluate({ args, initial: initial as GmailSeed | undefined, final: final as GmailSeed, tape: [] });
}

describe("gmail.signature-mentions", () => {
  it("passes when the signature was given the text, fails otherwise, skips when the seed had it", () => {
    const signed = seed();
    signed.sendAs = signed.sendAs.map((s) => ({ ...s, signature: "<div>Northwind · help.northwind.test</div>" }));
    expect(run("signature-mentions", { address: MAILBOX, text: "HELP.northwind.test" }, signed).status).toBe("passed");
    expect(run("signature-mentions", { address: MAILBOX, text: "help.northwind.test" }, seed()).status).toBe("failed");
    expect(run("signature-mentions", { address: "nobody@else.test", text: "x" }, signed).status).toBe("failed");
    expect(run("signature-mentions", { address: MAILBOX, text: "help.northwind.test" }, signed, signed)).toMatchObject({
      status: "skipped",
      reason: "already_true_in_seed",
    });
    expect(run("signature-mentions", { address: MAILBOX, text: "x" }, { profile: {} })).toMatchObject({
      status: "skipped",
      reason: "field_absent",
    });
  });
});

describe("gmail.auto-forwarding-to", () => {
  const forwarding = (status: "accepted" | "pending", enabled = true): GmailSeed => ({
    ...seed(),
    forwardingAddresses: [{ forwardingEmail: "archive@northwind.test", verificationStatus: status }],
    autoForwarding: { enabled, emailAddress: "archive@northwind.test", disposition: "leaveInInbox" },
  });

  it("passes only for forwarding that is on, to this address, which is accepted", () => {
    expect(run("auto-forwarding-to", { address: "archive@northwind.test" }, forwarding("accepted")).status).toBe("passed");
    expect(run("auto-forwarding-to", { address: "archive@northwind.test" }, forwarding("pending")).status).toBe("failed");
    expect(run("auto-forwarding-to", { address: "archive@northwind.test" }, forwarding("accepted", false)).status).toBe("failed");
    expect(run("auto-forwarding-to", { address: "other@northwind.test" }, forwarding("accepted")).status).toBe("failed");
    expect(run("auto-forwarding-to", { address: "archive@northwind.test" }, { profile: {} })).toMatchObject({ status: "skipped" });
  });
});
