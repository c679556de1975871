// Real MIME both ways: multipart mail people send is parsed (bodies, attachments, encoded
// headers), the upload forms of insert and drafts work, and mail that is not MIME is a 400.
import { describe, expect, it } from "vitest";
import { ORIGIN } from "../helpers";
import { gError, gmailSandbox, gmailState, raw } from "./client";

const b64 = (s: string) => btoa(s);
const fromB64url = (s: string) => atob(s.replace(/-/g, "+").replace(/_/g, "/"));

const MIXED = [
  "From: Agent <agent@northwind.test>",
  "To: lee@partner.test",
  "Subject: =?UTF-8?B?w4ljaMOpYW5jZQ==?=",
  "MIME-Version: 1.0",
  'Content-Type: multipart/mixed; boundary="outer"',
  "",
  "--outer",
  'Content-Type: multipart/alternative; boundary="inner"',
  "",
  "--inner",
  "Content-Type: text/plain; charset=UTF-8",
  "",
  "Plain body",
  "--inner",
  "Content-Type: text/html; charset=UTF-8",
  "",
  "<p>Html <b>body</b></p>",
  "--inner--",
  "--outer",
  'Content-Type: text/csv; name="q1.csv"',
  'Content-Disposition: attachment; filename="q1.csv"',
  "Content-Transfer-Encoding: base64",
  "",
  b64("a,b\n1,2\n"),
  "--outer--",
  "",
];

describe("MIME through googleapis", () => {
  it("parses sent multipart mail: alternative bodies, an attachment, an encoded subject", async () => {
    const { sandbox, gmail } = await gmailSandbox();
    const sent = await gmail.users.messages.send({ userId: "me", requestBody: { raw: raw(MIXED) } });
    const m = await gmail.users.messages.get({ userId: "me", id: sent.data.id ?? "" });
    expect(m.data.payload?.headers?.find((h) => h.name === "Subject")?.value).toBe("Échéance");
    expect(m.data.payload?.mimeType).toBe("multipart/mixed");
    expect(m.data.payload?.parts?.map((p) => p.mimeType)).toEqual(["multipart/alternative", "text/csv"]);
    expect(m.data.snippet).toBe("Plain body");
    const file = m.data.payload?.parts?.[1];
    expect(file).toMatchObject({ partId: "1", filename: "q1.csv" });
    const a = await gmail.users.messages.attachments.get({
      userId: "me",
      messageId: sent.data.id ?? "",
      id: file?.body?.attachmentId ?? "",
    });
    expect(fromB64url(a.data.data ?? "")).toBe("a,b\n1,2\n");
    expect((await gmail.users.messages.list({ userId: "me", q: "filename:csv in:sent" })).data.messages?.[0]?.id).toBe(sent.data.id);
    const rawBack = await gmail.users.messages.get({ userId: "me", id: sent.data.id ?? "", format: "raw" });
    expect(fromB64url(rawBack.data.raw ?? "")).toContain('boundary="outer"');
    const state = await gmailState(sandbox);
    const exported = (state.messages as Record<string, unknown>[]).at(-1);
    expect(exported).toMatchObject({
      text: expect.stringContaining("Plain body"),
      html: expect.stringContaining("<b>body</b>"),
      attachments: [{ filename: "q1.csv", mimeType: "text/csv" }],
    });
  });

  it("accepts standard base64 with padding as well as base64url", async () => {
    const { gmail } = await gmailSandbox();
    const standard = btoa("To: lee@partner.test\r\nSubject: ok?\r\n\r\nyes??>>\r\n");
    const sent = await gmail.users.messages.send({ userId: "me", requestBody: { raw: standard } });
    expect(sent.data.labelIds).toEqual(["SENT"]);
  });

  it("refuses mail that is not base64 or not RFC 822 with a 400", async () => {
    const { gmail } = await gmailSandbox();
    for (const bad of ["!!!not base64!!!", btoa("just some words, no header block")]) {
      const e = await gError(gmail.users.messages.send({ userId: "me", requestBody: { raw: bad } }));
      expect(e.status).toBe(400);
    }
    expect((await gError(gmail.users.messages.send({ userId: "me", requestBody: {} }))).status).toBe(400);
  });

  it("inserts through a media upload and creates and sends a draft through multipart uploads", async () => {
    const { sandbox, gmail } = await gmailSandbox();
    const rootUrl = `${ORIGIN}/`;
    const mail = ["From: ext@outside.test", "To: agent@northwind.test", "Subject: Uploaded", "", "Inserted by upload"].join("\r\n");
    const inserted = await gmail.users.messages.insert({ userId: "me", media: { mimeType: "message/rfc822", body: mail } }, { rootUrl });
    expect((await gmail.users.messages.get({ userId: "me", id: inserted.data.id ?? "" })).data.snippet).toBe("Inserted by upload");
    const draftMail = ["To: lee@partner.test", "Subject: Draft by upload", "", "Draft body"].join("\r\n");
    const draft = await gmail.users.drafts.create(
      { userId: "me", requestBody: { message: {} }, media: { mimeType: "message/rfc822", body: draftMail } },
      { rootUrl },
    );
    expect(draft.data.message?.labelIds).toEqual(["DRAFT"]);
    const sent = await gmail.users.drafts.send(
      {
        userId: "me",
        requestBody: { id: draft.data.id ?? "" },
        media: { mimeType: "message/rfc822", body: draftMail.replace("Draft body", "Final body") },
      },
      { rootUrl: `${sandbox.per_twin.gmail.api_url}/` },
    );
    expect((await gmail.users.messages.get({ userId: "me", id: sent.data.id ?? "" })).data.snippet).toBe("Final body");
  });
});

describe("faults and correspondents, further", () => {
  it("answers 503 backendError, then passes; a 0-call correspondent replies with the send", async () => {
    const seed = {
      profile: { emailAddress: "agent@northwind.test" },
      correspondents: [{ address: "bot@echo.test", reply: { afterCalls: 0, text: "echo", html: "<p>echo</p>", labelIds: ["INBOX"] } }],
      faults: [{ operation: "gmail.users.messages.list", status: 503, reason: "backendError" }],
    };
    const { gmail } = await gmailSandbox(seed);
    const e = await gError(gmail.users.messages.list({ userId: "me" }));
    expect(e).toMatchObject({
      status: 503,
      error: { message: "Backend Error", status: "UNAVAILABLE", errors: [{ reason: "backendError" }] },
    });
    await gmail.users.messages.send({ userId: "me", requestBody: { raw: raw(["To: bot@echo.test", "Subject: Re: ping", "", "ping"]) } });
    const list = await gmail.users.messages.list({ userId: "me", labelIds: ["INBOX"] });
    expect(list.data.messages).toHaveLength(1);
    const reply = await gmail.users.messages.get({ userId: "me", id: list.data.messages?.[0]?.id ?? "" });
    expect(reply.data.payload?.headers?.find((h) => h.name === "Subject")?.value).toBe("Re: ping");
    expect(reply.data.payload?.mimeType).toBe("multipart/alternative");
  });
});
