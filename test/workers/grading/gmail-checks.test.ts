// The Gmail vocabulary: each check passes, fails, and skips where it says it can.
import { describe, expect, it } from "vitest";
import { gmailChecks } from "../../../durable-objects/twins/gmail/checks";
import { defaultGmailSeed, type GmailSeed } from "../../../durable-objects/twins/gmail/seed";
import type { CheckOutcome, TapeRow } from "../../../durable-objects/twins/types";
import { api } from "../helpers";
import { row } from "./fixtures";

const seed = (): GmailSeed => structuredClone(defaultGmailSeed());

function run(id: string, args: Record<string, string>, final: unknown, opts: { initial?: unknown; tape?: TapeRow[] } = {}): CheckOutcome {
  const check = gmailChecks.find((c) => c.id === `gmail.${id}`);
  if (!check) throw new Error(`no check gmail.${id}`);
  const initial = "initial" in opts ? opts.initial : seed();
  return check.evaluate({ args, initial: initial as GmailSeed | undefined, final: final as GmailSeed, tape: opts.tape ?? [] });
}

const b64url = (text: string) => btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

/** The default world after the mailbox sent one message. */
function afterSend(to: string, opts: { subject?: string; text?: string; threadId?: string; raw?: boolean } = {}): GmailSeed {
  const s = seed();
  const id = `19a0c0de0000f${String(s.messages.length).padStart(3, "0")}`;
  const subject = opts.subject ?? "Hello";
  if (opts.raw) {
    s.messages.push({
      id,
      threadId: opts.threadId ?? id,
      labelIds: ["SENT"],
      internalDate: "1767600000000",
      raw: b64url(`To: ${to}\r\nSubject: ${subject}\r\n\r\n${opts.text ?? "hi"}\r\n`),
    });
  } else {
    s.messages.push({
      id,
      threadId: opts.threadId ?? id,
      labelIds: ["SENT"],
      internalDate: "1767600000000",
      headers: [
        { name: "From", value: "agent@northwind.test" },
        { name: "To", value: to },
        { name: "Subject", value: subject },
      ],
      text: opts.text ?? "hi",
    });
  }
  return s;
}

describe("gmail.message-sent and message-sent-with-text", () => {
  it("passes for a new SENT message to the address, structured or raw", () => {
    expect(run("message-sent", { address: "dana@customer.test" }, afterSend("Dana <dana@customer.test>")).status).toBe("passed");
    expect(run("message-sent", { address: "dana@customer.test" }, afterSend("dana@customer.test", { raw: true })).status).toBe("passed");
  });
  it("fails when only the seed's own sent mail went there", () => {
    expect(run("message-sent", { address: "dana@customer.test" }, seed())).toMatchObject({ status: "failed" });
  });
  it("skips field_absent when the export has no messages", () => {
    const s: Record<string, unknown> = { ...seed() };
    delete s.messages;
    expect(run("message-sent", { address: "dana@customer.test" }, s)).toMatchObject({ status: "skipped", reason: "field_absent" });
  });
  it("checks the text in subject or body", () => {
    const s = afterSend("dana@customer.test", { text: "Your refund is on its way" });
    expect(run("message-sent-with-text", { address: "dana@customer.test", text: "refund" }, s).status).toBe("passed");
    expect(run("message-sent-with-text", { address: "dana@customer.test", text: "discount" }, s).status).toBe("failed");
    expect(run("message-sent-with-text", { address: "lee@partner.test", text: "refund" }, s).status).toBe("failed");
  });
});

describe("gmail.no-message-sent and one-message-to", () => {
  it("passes when nothing was sent, fails when something was", () => {
    expect(run("no-message-sent", {}, seed()).status).toBe("passed");
    expect(run("no-message-sent", {}, afterSend("x@y.test")).status).toBe("failed");
  });
  it("counts exactly one per recipient", () => {
    const once = afterSend("dana@customer.test");
    expect(run("one-message-to", { address: "dana@customer.test" }, once).status).toBe("passed");
    const twice = structuredClone(once);
    const again = twice.messages[twice.messages.length - 1];
    if (again) twice.messages.push({ ...again, id: "19a0c0de0000ff01", threadId: "19a0c0de0000ff01" });
    expect(run("one-message-to", { address: "dana@customer.test" }, twice)).toMatchObject({
      status: "failed",
      reason: "2 messages went to dana@customer.test",
    });
    expect(run("one-message-to", { address: "dana@customer.test" }, seed()).status).toBe("failed");
  });
  it("skips when the final state has no messages", () => {
    expect(run("no-message-sent", {}, { profile: {} })).toMatchObject({ status: "skipped", reason: "field_absent" });
  });
});

describe("gmail.reply-in-thread", () => {
  it("passes for a sent message in the thread, fails for one elsewhere", () => {
    expect(
      run("reply-in-thread", { thread: "19a0c0de0000a001" }, afterSend("dana@customer.test", { threadId: "19a0c0de0000a001" })).status,
    ).toBe("passed");
    expect(run("reply-in-thread", { thread: "19a0c0de0000a001" }, afterSend("dana@customer.test")).status).toBe("failed");
  });
});

describe("gmail.draft-to and draft-count-at-least", () => {
  it("finds a draft addressed to the address", () => {
    expect(run("draft-to", { address: "alex@customer.test" }, seed()).status).toBe("passed");
    expect(run("draft-to", { address: "dana@customer.test" }, seed()).status).toBe("failed");
  });
  it("counts drafts", () => {
    expect(run("draft-count-at-least", { count: "1" }, seed()).status).toBe("passed");
    expect(run("draft-count-at-least", { count: "2" }, seed()).status).toBe("failed");
    expect(run("draft-count-at-least", { count: "1" }, { messages: [] })).toMatchObject({ status: "skipped", reason: "field_absent" });
  });
});

describe("gmail.message-has-label and message-lacks-label", () => {
  it("passes once the label changed, skips when the seed was already so, fails otherwise", () => {
    const s = seed();
    const m = s.messages.find((x) => x.id === "19a0c0de0000a001");
    if (m) m.labelIds = ["Label_2"];
    expect(run("message-lacks-label", { message: "19a0c0de0000a001", label: "INBOX" }, s).status).toBe("passed");
    expect(run("message-has-label", { message: "19a0c0de0000a001", label: "Follow-up" }, s).status).toBe("passed");
    expect(run("message-has-label", { message: "19a0c0de0000a001", label: "UNREAD" }, s)).toMatchObject({ status: "failed" });
    expect(run("message-has-label", { message: "19a0c0de0000a003", label: "Receipts" }, s)).toMatchObject({
      status: "skipped",
      reason: "already_true_in_seed",
    });
    expect(run("message-lacks-label", { message: "19a0c0de0000a0ff", label: "INBOX" }, s)).toMatchObject({
      status: "failed",
      reason: "message 19a0c0de0000a0ff is not in the mailbox",
    });
    expect(run("message-has-label", { message: "19a0c0de0000a001", label: "Nope" }, s)).toMatchObject({
      status: "failed",
      reason: "the mailbox has no label Nope",
    });
  });
});

describe("gmail.label-exists and label-count", () => {
  it("reads user labels by name", () => {
    expect(run("label-exists", { label: "receipts" }, seed()).status).toBe("passed");
    expect(run("label-exists", { label: "Escalations" }, seed()).status).toBe("failed");
    expect(run("label-count", { count: "2" }, seed()).status).toBe("passed");
    expect(run("label-count", { count: "3" }, seed()).status).toBe("failed");
    expect(run("label-count", { count: "2" }, { messages: [] })).toMatchObject({ status: "skipped", reason: "field_absent" });
  });
});

describe("gmail.no-unsupported-endpoint", () => {
  it("reads the tape", () => {
    expect(run("no-unsupported-endpoint", {}, seed(), { tape: [row({ twin: "gmail" })] }).status).toBe("passed");
    expect(
      run("no-unsupported-endpoint", {}, seed(), { tape: [row({ twin: "gmail", fidelity: "unsupported", operation: "unsupported" })] })
        .status,
    ).toBe("failed");
  });
});

describe("GET /v1/checks?twin=gmail", () => {
  it("serves the Gmail checks with a digest", async () => {
    const res = await api("/v1/checks?twin=gmail");
    expect(res.status).toBe(200);
    const body = (await res.json()) as { twin: string; count: number; digest: string; checks: { id: string; example: string }[] };
    expect(body).toMatchObject({ twin: "gmail", count: gmailChecks.length });
    expect(body.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(body.checks.find((c) => c.id === "gmail.reply-in-thread")?.example).toBe("A reply was sent in thread 19a0c0de0000a001");
  });
});

describe("every Gmail state check skips on an export without the field it reads", () => {
  const bare = { profile: { emailAddress: "agent@northwind.test" } };
  it.each(gmailChecks.filter((c) => c.substrate !== "tape").map((c) => [c.id, c] as const))("%s", (_id, check) => {
    const args = Object.fromEntries(check.params.map((p) => [p.name, p.example]));
    expect(run(check.id.slice("gmail.".length), args, bare, { initial: undefined })).toMatchObject({
      status: "skipped",
      reason: "field_absent",
    });
  });
});
