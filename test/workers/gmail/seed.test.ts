// The Gmail seed: defaults, export(boot(seed)) equal to the normalized seed, and each integrity
// refusal at its path.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { gmailTwin } from "../../../durable-objects/twins/gmail";
import { rfc2822 } from "../../../durable-objects/twins/gmail/mime";
import { normalizeSeed } from "../../../durable-objects/twins/normalize";
import { sandboxStub } from "../../../workers/stubs";
import { inTwinWorld } from "../kit/world";
import { createSandbox, postJson } from "../helpers";
import { gmailSandbox, gmailState, raw } from "./client";

const parse = (seed: unknown) => gmailTwin.parseSeed(seed);
const issues = (seed: unknown) => {
  const r = parse(seed);
  return r.ok ? [] : r.issues.map((i) => i.path);
};
const base = { profile: { emailAddress: "agent@northwind.test" } };
const from = [{ name: "From", value: "a@b.test" }];
/** Mail whose MIME the structured form cannot say: an inline image in multipart/related. */
const INLINE_IMAGE_MAIL = btoa(
  [
    "From: news@x.test",
    "Subject: inline",
    "Date: Thu, 1 Jan 2026 11:00:00 +0000",
    "MIME-Version: 1.0",
    'Content-Type: multipart/related; boundary="r"',
    "",
    "--r",
    "Content-Type: text/html; charset=UTF-8",
    "",
    '<img src="cid:logo">',
    "--r",
    "Content-Type: image/png",
    "Content-ID: <logo>",
    "Content-Disposition: inline",
    "Content-Transfer-Encoding: base64",
    "",
    "iVBORw0KGgo=",
    "--r--",
    "",
  ].join("\r\n"),
);

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
          internalDate: "1767258000000",
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
        { id: "18f0c0de0000a003", labelIds: ["INBOX"], raw: INLINE_IMAGE_MAIL },
      ],
      drafts: [{ message: { headers: [...from, { name: "Date", value: "Fri, 2 Jan 2026 08:00:00 +0000" }], text: "draft" } }],
      filters: [{ criteria: { from: "a@b.test" }, action: { addLabelIds: ["Label_1"] } }],
      correspondents: [{ address: "c@d.test", reply: { text: "ok" } }],
      faults: [{ operation: "gmail.users.messages.list", status: 503, reason: "backendError" }],
    };
    const normalized = await normalizeSeed(gmailTwin, seed);
    if (!normalized.ok) throw new Error(JSON.stringify(normalized.issues));
    const { sandbox } = await gmailSandbox(seed);
    const state = await gmailState(sandbox);
    expect(state).toEqual(JSON.parse(JSON.stringify(normalized.seed)));
    // The simple raw mail became structured; the one with an inline image stays raw.
    expect(normalized.seed.messages[1]).toEqual({
      id: "18f0c0de0000a002",
      threadId: "18f0c0de0000a001",
      labelIds: ["SENT"],
      internalDate: String(Date.UTC(2026, 0, 1, 10)),
      headers: [
        { name: "From", value: "me@x.test" },
        { name: "To", value: "a@b.test" },
        { name: "Subject", value: "raw" },
        { name: "Date", value: "Thu, 1 Jan 2026 10:00:00 +0000" },
      ],
      text: "body\n",
    });
    expect(normalized.seed.messages[2]).toMatchObject({ id: "18f0c0de0000a003", raw: expect.any(String) });
    const { sandbox: again } = await gmailSandbox(state);
    expect(await gmailState(again)).toEqual(state);
  });

  it("turns raw mail whose MIME fits into the structured form when it normalizes, drafts too", async () => {
    const mixed = raw([
      "From: Dana <dana@customer.test>",
      "To: agent@northwind.test",
      "Subject: Invoice",
      "Date: Fri, 2 Jan 2026 08:00:00 +0000",
      "MIME-Version: 1.0",
      'Content-Type: multipart/mixed; boundary="m"',
      "",
      "--m",
      'Content-Type: multipart/alternative; boundary="a"',
      "",
      "--a",
      "Content-Type: text/plain; charset=UTF-8",
      "",
      "See attached.",
      "--a",
      "Content-Type: text/html; charset=UTF-8",
      "",
      "<p>See attached.</p>",
      "--a--",
      "--m",
      'Content-Type: application/pdf; name="inv.pdf"',
      'Content-Disposition: attachment; filename="inv.pdf"',
      "Content-Transfer-Encoding: base64",
      "",
      "JVBERi0xLjQK",
      "--m--",
      "",
    ]);
    const noFrom = raw(["To: a@b.test", "Subject: no sender", "Date: Fri, 2 Jan 2026 08:00:00 +0000", "", "x"]);
    const seed = { ...base, messages: [{ raw: mixed }, { raw: noFrom }], drafts: [{ message: { raw: mixed } }] };
    const normalized = await normalizeSeed(gmailTwin, seed);
    if (!normalized.ok) throw new Error(JSON.stringify(normalized.issues));
    const [structured, kept] = normalized.seed.messages;
    expect(structured).toMatchObject({
      headers: [
        { name: "From", value: "Dana <dana@customer.test>" },
        { name: "To", value: "agent@northwind.test" },
        { name: "Subject", value: "Invoice" },
        { name: "Date", value: "Fri, 2 Jan 2026 08:00:00 +0000" },
      ],
      text: expect.stringContaining("See attached."),
      html: expect.stringContaining("<p>See attached.</p>"),
      attachments: [{ filename: "inv.pdf", mimeType: "application/pdf", data: "JVBERi0xLjQK" }],
    });
    expect(structured && "raw" in structured).toBe(false);
    // A structured message needs a From, so mail without one stays raw.
    expect(kept && "raw" in kept).toBe(true);
    expect(normalized.seed.drafts[0]?.message).toMatchObject({ attachments: [{ filename: "inv.pdf" }] });
    const exported = await inTwinWorld(gmailTwin, normalized.seed, (w) => w.exportState());
    expect(exported).toEqual(normalized.seed);
    expect(await normalizeSeed(gmailTwin, exported)).toEqual({ ok: true, seed: normalized.seed });
    // googleapis reads the structured message's attachment as the one in the raw mail.
    const { gmail } = await gmailSandbox(seed);
    const listed = await gmail.users.messages.list({ userId: "me", q: "filename:pdf" });
    expect(listed.data.messages?.length).toBe(2);
  });

  it("dates a message with neither internalDate nor Date by the sandbox clock, in boot and in the export", async () => {
    const seed = {
      ...base,
      messages: [
        { headers: from, text: "undated" },
        { raw: btoa("From: me@x.test\r\nSubject: undated raw\r\n\r\nbody\r\n") },
        { headers: from, text: "dated", internalDate: "1767258000000" },
      ],
      drafts: [{ message: { headers: from, text: "undated draft" } }],
    };
    // The control plane leaves the date to the sandbox.
    const plane = await normalizeSeed(gmailTwin, seed);
    if (!plane.ok) throw new Error(JSON.stringify(plane.issues));
    expect(plane.seed.messages[0]).not.toHaveProperty("internalDate");
    expect(plane.seed.messages[0]).toMatchObject({ headers: from });
    for (const at of [Date.UTC(2026, 4, 6, 7, 8, 9), Date.UTC(2027, 1, 2, 3, 4, 5)]) {
      const clock = { now: () => at };
      const inSandbox = await normalizeSeed(gmailTwin, plane.seed, clock);
      if (!inSandbox.ok) throw new Error(JSON.stringify(inSandbox.issues));
      const exported = await inTwinWorld(gmailTwin, plane.seed, (w) => w.exportState(), clock);
      expect(exported).toEqual(inSandbox.seed);
      const [undated, rawUndated, dated] = exported.messages;
      expect(undated).toMatchObject({ internalDate: String(at), headers: [...from, { name: "Date", value: rfc2822(at) }] });
      expect(rawUndated).toMatchObject({
        internalDate: String(at),
        headers: [
          { name: "From", value: "me@x.test" },
          { name: "Subject", value: "undated raw" },
          { name: "Date", value: rfc2822(at) },
        ],
      });
      expect(dated).toMatchObject({ internalDate: "1767258000000" });
      expect(exported.drafts[0]?.message).toMatchObject({ internalDate: String(at) });
      // The export seeds again as itself: its dates are its own now.
      expect(await normalizeSeed(gmailTwin, exported, { now: () => at + 1 })).toEqual({ ok: true, seed: exported });
    }
    // Through the control plane, the sandbox's own clock dates it, and googleapis reads that date.
    const before = Date.now();
    const { sandbox, gmail } = await gmailSandbox(seed);
    const after = Date.now();
    const state = (await gmailState(sandbox)) as { messages: { id: string; internalDate: string }[] };
    const first = state.messages[0];
    expect(Number(first?.internalDate)).toBeGreaterThanOrEqual(before);
    expect(Number(first?.internalDate)).toBeLessThanOrEqual(after);
    const got = await gmail.users.messages.get({ userId: "me", id: first?.id ?? "" });
    expect(got.data.internalDate).toBe(first?.internalDate);
  });

  it("completes a task's Seed State the same way: structured mail, the sandbox clock, and the initial state saved so", async () => {
    const world = {
      gmail: {
        ...base,
        messages: [{ id: "18f0c0de0000b001", labelIds: ["INBOX"], raw: btoa("From: a@b.test\r\nSubject: from a task\r\n\r\nhello\r\n") }],
      },
    };
    const markdown = [
      "# Raw task",
      "",
      "## Config",
      "twins: [gmail]",
      "",
      "## Seed State",
      "```json",
      JSON.stringify(world),
      "```",
      "",
    ].join("\n");
    const before = Date.now();
    const sandbox = await createSandbox({ twins: ["gmail"], task_source: btoa(markdown) });
    const after = Date.now();
    const state = (await gmailState(sandbox)) as { messages: Record<string, unknown>[] };
    const [m] = state.messages;
    expect(m).toMatchObject({ id: "18f0c0de0000b001", text: "hello\n" });
    expect(m).not.toHaveProperty("raw");
    expect(Number(m?.internalDate)).toBeGreaterThanOrEqual(before);
    expect(Number(m?.internalDate)).toBeLessThanOrEqual(after);
    // Grading's initial world is the completed seed, so it agrees with the state on what was there.
    const initial = await sandboxStub(env, sandbox.session_id).initialStates();
    expect(initial).toEqual({ gmail: state });
    // Validation runs the same completion and accepts the world.
    const validated = await postJson("/v1/seeds/validate", { twins: ["gmail"], seed: world.gmail });
    expect(validated.status).toBe(200);
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
    // A name labels.create refuses as reserved (Muted, Drafts: routes/labels.ts) is refused in a seed too.
    expect(issues({ ...base, labels: [{ name: "Muted" }, { name: "drafts" }, { name: "Mute" }] })).toEqual([
      "labels[0].name",
      "labels[1].name",
    ]);
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
