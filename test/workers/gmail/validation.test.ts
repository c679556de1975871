// Gmail's own refusals, through googleapis: a label change that names no label, labels only
// sending and drafting set, label names and colours. Each answers Google's error body and
// changes nothing.
import { describe, expect, it } from "vitest";
import { LABEL_PALETTE, onPalette } from "../../../durable-objects/twins/gmail/palette";
import { parseGmailSeed } from "../../../durable-objects/twins/gmail/seed";
import { gError, gmailSandbox, gmailState } from "./client";

const MESSAGE = "19a0c0de0000a001";
const THREAD = "19a0c0de0000a001";

describe("a label change must name a label, as Gmail requires", () => {
  it("refuses modify, batchModify and threads.modify with nothing to add or remove", async () => {
    const { gmail, sandbox } = await gmailSandbox();
    const before = await gmailState(sandbox);
    const refusals = [
      () => gmail.users.messages.modify({ userId: "me", id: MESSAGE, requestBody: {} }),
      () => gmail.users.messages.modify({ userId: "me", id: MESSAGE, requestBody: { addLabelIds: [], removeLabelIds: [] } }),
      () => gmail.users.messages.batchModify({ userId: "me", requestBody: { ids: [MESSAGE] } }),
      () => gmail.users.threads.modify({ userId: "me", id: THREAD, requestBody: {} }),
    ];
    for (const call of refusals) {
      const { status, error } = await gError(call());
      expect(status).toBe(400);
      expect(error).toEqual({
        code: 400,
        message: "No label add or removes specified",
        errors: [{ message: "No label add or removes specified", domain: "global", reason: "invalidArgument" }],
        status: "INVALID_ARGUMENT",
      });
    }
    expect(await gmailState(sandbox)).toEqual(before);
  });

  it("refuses to add or remove SENT and DRAFT, which only sending and drafting set", async () => {
    const { gmail } = await gmailSandbox();
    for (const requestBody of [{ addLabelIds: ["SENT"] }, { removeLabelIds: ["SENT"] }, { addLabelIds: ["DRAFT"] }]) {
      const { status, error } = await gError(gmail.users.messages.modify({ userId: "me", id: MESSAGE, requestBody }));
      expect(status).toBe(400);
      expect(error.message).toMatch(/^Invalid label: (SENT|DRAFT)$/);
    }
    const ok = await gmail.users.messages.modify({ userId: "me", id: MESSAGE, requestBody: { addLabelIds: ["TRASH"] } });
    expect(ok.data.labelIds).toContain("TRASH");
  });
});

describe("label names and colours follow Gmail's rules", () => {
  it("takes only colours of Gmail's palette, in both fields, with Google's 400", async () => {
    expect(LABEL_PALETTE.size).toBe(113);
    expect(onPalette("#FB4C2F")).toBe(true);
    expect(onPalette("#ff0000")).toBe(false);
    const { gmail, sandbox } = await gmailSandbox();
    const before = await gmailState(sandbox);
    for (const color of [
      { textColor: "#ffffff", backgroundColor: "#ff0000" },
      { textColor: "red", backgroundColor: "#fb4c2f" },
    ]) {
      const { status, error } = await gError(gmail.users.labels.create({ userId: "me", requestBody: { name: "Urgent", color } }));
      expect(status).toBe(400);
      expect(error.status).toBe("INVALID_ARGUMENT");
      expect(error.errors[0]?.reason).toBe("invalidArgument");
      expect(error.message).toMatch(/^Label color (#ff0000|red) is not on the allowed color palette$/);
      expect((await gError(gmail.users.labels.patch({ userId: "me", id: "Label_1", requestBody: { color } }))).status).toBe(400);
    }
    expect(await gmailState(sandbox)).toEqual(before);
    const made = await gmail.users.labels.create({
      userId: "me",
      requestBody: { name: "Urgent", color: { textColor: "#ffffff", backgroundColor: "#fb4c2f" } },
    });
    expect(made.data.color).toEqual({ textColor: "#ffffff", backgroundColor: "#fb4c2f" });
  });

  it("refuses reserved and duplicate names with a 409, and empty or overlong names with a 400", async () => {
    const { gmail } = await gmailSandbox();
    for (const name of ["INBOX", "starred", "Sent Mail", "All Mail", "receipts"]) {
      const { status, error } = await gError(gmail.users.labels.create({ userId: "me", requestBody: { name } }));
      expect(status).toBe(409);
      expect(error.message).toBe("Label name exists or conflicts");
    }
    for (const name of ["   ", "x".repeat(226)]) {
      const { status, error } = await gError(gmail.users.labels.create({ userId: "me", requestBody: { name } }));
      expect(status).toBe(400);
      expect(error.message).toBe("Invalid label name");
    }
    expect((await gmail.users.labels.create({ userId: "me", requestBody: { name: "y".repeat(225) } })).status).toBe(200);
  });

  it("refuses changes to system labels", async () => {
    const { gmail } = await gmailSandbox();
    expect((await gError(gmail.users.labels.patch({ userId: "me", id: "INBOX", requestBody: { name: "Mine" } }))).status).toBe(400);
    expect((await gError(gmail.users.labels.delete({ userId: "me", id: "SENT" }))).status).toBe(400);
  });

  it("refuses a seed whose label colour is off the palette, at its path", () => {
    const result = parseGmailSeed({
      profile: { emailAddress: "agent@northwind.test" },
      labels: [{ name: "Hot", color: { textColor: "#ffffff", backgroundColor: "#ff0000" } }],
    });
    expect(result).toMatchObject({ ok: false });
    expect(JSON.stringify(result)).toContain("labels[0].color.backgroundColor");
  });
});
