// The Gmail seed: defaults, export(boot(seed)) equal to the normalized seed, and each integrity
// refusal at its path.
import { describe, expect, it } from "vitest";
import { gmailTwin } from "../../../durable-objects/twins/gmail";
import { inTwinWorld } from "../kit/world";
import { postJson } from "../helpers";
import { gmailSandbox, gmailState, raw } from "./client";

const parse = (seed: unknown) => gmailTwin.parseSeed(seed);
const issues = (seed: unknown) => {
  const r = parse(seed);
  return r.ok ? [] : r.issues.map((i) => i.path);
};
const base = { profile: { emailAddress: "agent@northwind.test" } };
const from = [{ name: "From", value: "a@b.test" }];

describe("the Gmail seed", () => {
  it("fills Gmail's defaults: ids, threads, no labels, Date from internalDate, send-as", () => {
    const r = parse({ ...base, messages: [{ headers: from, text: "hi", internalDate: "1767258000000" }] });
    if (!r.ok) throw new Error(JSON.stringify(r.issues));
    const [m] = r.seed.messages;
    expect(m).toMatchObject({ id: "19a0000000000000", threadId: "19a0000000000000", labelIds: [], internalDate: "1767258000000" });
    expect(m && "headers" in m ? m.headers.at(-1) : undefined).toEqual({ name: "Date", value: "Thu, 1 Jan 2026 09:00:00 +0000" });
    expect(r.seed.sendAs).toEqual([
      { sendAsEmail: "agent@northwind.test", displayName: "", signature: "", isPrimary: true, isDefault: true },
    ]);
    expect(r.seed.profile.historyId).toBe("1");
  });

  it("round-trips: export(boot(seed)) equals the normalized seed, raw mail included", async () => {
    const seed = {
      ...base,
      labels: [{ name: "Receipts", color: { textColor: "#ffffff", backgroundColor: "#16a766" } }],
      messages: [
        {
          id: "18f0c0de0000a001",
          labelIds: ["INBOX", "Label_1"],
          headers: from,
          text: "t",
          html: "<p>t</p>",
          attachments: [{ filename: "a.txt", mimeType: "text/plain", data: "aGVsbG8=" }],
        },
        {
          id: "18f0c0de0000a002",
          threadId: "18f0c0de0000a001",
          labelIds: ["SENT"],
          raw: btoa("From: me@x.test\r\nTo: a@b.test\r\nSubject: raw\r\nDate: Thu, 1 Jan 2026 10:00:00 +0000\r\n\r\nbody\r\n"),
        },
      ],
      drafts: [{ message: { headers: from, text: "draft" } }],
      filters: [{ criteria: { from: "a@b.test" }, action: { addLabelIds: ["Label_1"] } }],
      correspondents: [{ address: "c@d.test", reply: { text: "ok" } }],
      faults: [{ operation: "gmail.users.messages.list", status: 503, reason: "backendError" }],
    };
    const normalized = parse(seed);
    if (!normalized.ok) throw new Error(JSON.stringify(normalized.issues));
    const { sandbox } = await gmailSandbox(seed);
    expect(await gmailState(sandbox)).toEqual(JSON.parse(JSON.stringify(normalized.seed)));
    const { sandbox: again } = await gmailSandbox(await gmailState(sandbox));
    expect(await gmailState(again)).toEqual(await gmailState(sandbox));
  });

  it("round-trips the default world and a generated one", async () => {
    await inTwinWorld(gmailTwin, gmailTwin.defaultSeed(), (w) => expect(w.exportState()).toEqual(gmailTwin.defaultSeed()));
    const generated = parse(gmailTwin.generateSeed?.(25));
    if (!generated.ok) throw new Error(JSON.stringify(generated.issues));
    await inTwinWorld(gmailTwin, generated.seed, (w) => expect(w.exportState()).toEqual(generated.seed));
  });

  it("exports mail sent during the run in the structured form when it fits", async () => {
    const { sandbox, gmail } = await gmailSandbox(base);
    await gmail.users.messages.send({ userId: "me", requestBody: { raw: raw(["To: a@b.test", "Subject: S", "", "Body"]) } });
    const state = await gmailState(sandbox);
    expect(state.messages).toMatchObject([
      { labelIds: ["SENT"], headers: expect.arrayContaining([{ name: "To", value: "a@b.test" }]), text: expect.stringContaining("Body") },
    ]);
  });

  it("refuses unknown keys, bad ids, duplicates, unknown labels and unknown operations at their paths", async () => {
    expect(issues({ ...base, extra: 1 })).toEqual(["extra"]);
    expect(issues({ profile: {} })).toEqual(["profile.emailAddress"]);
    expect(issues({ ...base, messages: [{ text: "no from" }] })).toEqual(["messages[0].headers"]);
    expect(issues({ ...base, messages: [{ id: "ffffffffffffffff", threadId: "abc123", headers: from }] })).toEqual(["messages[0].id"]);
    expect(issues({ ...base, messages: [{ id: "not-hex", threadId: "zz", headers: from }] })).toEqual([
      "messages[0].id",
      "messages[0].threadId",
    ]);
    expect(issues({ ...base, messages: [{ id: "a1", headers: from }], drafts: [{ message: { id: "a1", headers: from } }] })).toEqual([
      "drafts[0].message.id",
    ]);
    expect(
      issues({
        ...base,
        drafts: [
          { id: "r1", message: { headers: from } },
          { id: "r1", message: { headers: from } },
        ],
      }),
    ).toEqual(["drafts[1].id"]);
    expect(issues({ ...base, messages: [{ headers: from, labelIds: ["Label_9"] }] })).toEqual(["messages[0].labelIds[0]"]);
    expect(issues({ ...base, labels: [{ name: "A" }, { name: "a" }, { name: "Inbox" }] })).toEqual(["labels[1].name", "labels[2].name"]);
    expect(
      issues({
        ...base,
        labels: [
          { id: "Label_1", name: "A" },
          { id: "Label_1", name: "B" },
          { id: "INBOX", name: "C" },
        ],
      }),
    ).toEqual(["labels[1].id", "labels[2].id"]);
    expect(issues({ ...base, messages: [{ headers: from, labelIds: ["DRAFT"] }] })).toEqual(["messages[0].labelIds"]);
    expect(issues({ ...base, messages: [{ headers: [...from, { name: "Content-Type", value: "text/plain" }] }] })).toEqual([
      "messages[0].headers[1].name",
    ]);
    expect(issues({ ...base, drafts: [{ message: { headers: from, labelIds: ["INBOX"] } }] })).toEqual(["drafts[0].message.labelIds"]);
    expect(issues({ ...base, filters: [{ criteria: { from: "x" }, action: { addLabelIds: ["Label_3"] } }] })).toEqual([
      "filters[0].action.addLabelIds[0]",
    ]);
    expect(issues({ ...base, correspondents: [{ address: "c@d.test", reply: { text: "x", labelIds: ["NOPE"] } }] })).toEqual([
      "correspondents[0].reply.labelIds[0]",
    ]);
    expect(issues({ ...base, faults: [{ operation: "gmail.users.nope", status: 429, reason: "rateLimitExceeded" }] })).toEqual([
      "faults[0].operation",
    ]);
    expect(issues({ ...base, messages: [{ raw: "!!!" }] })).toEqual(["messages[0].raw"]);
    expect(issues({ ...base, messages: [{ raw: btoa("no header block here") }] })).toEqual(["messages[0].raw"]);
    const res = await postJson("/v1/sandboxes", { task_source: "IyAuLgo=", twins: ["gmail"], seed: { ...base, bogus: true } });
    expect(res.status).toBe(422);
    expect(JSON.stringify(await res.json())).toContain("bogus");
  });
});
