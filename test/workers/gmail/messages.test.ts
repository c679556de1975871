// Messages through googleapis against the running twin: formats, paging, search, send and
// threading, uploads, labels, attachments and Gmail's errors.
import { describe, expect, it } from "vitest";
import { ORIGIN } from "../helpers";
import { SELF } from "cloudflare:test";
import { gError, gmailSandbox, gmailState, gmailTape, raw } from "./client";

const ME = "agent@northwind.test";

describe("messages through googleapis", () => {
  it("reads the profile and lists the inbox newest first, without spam and trash", async () => {
    const { gmail } = await gmailSandbox();
    const profile = await gmail.users.getProfile({ userId: "me" });
    expect(profile.data).toMatchObject({ emailAddress: ME, messagesTotal: 13, historyId: "1000" });
    const all = await gmail.users.messages.list({ userId: "me" });
    const ids = (all.data.messages ?? []).map((m) => m.id);
    expect(ids).not.toContain("19a0c0de0000a005"); // spam
    expect(ids).not.toContain("19a0c0de0000a00c"); // trash
    expect(ids[0]).toBe("19a0c0de0000a00b");
    expect(ids).toContain("19a0c0de0000d001"); // drafts are listed too
    const withSpam = await gmail.users.messages.list({ userId: "me", includeSpamTrash: true });
    expect(withSpam.data.messages).toHaveLength(13);
  });

  it("answers JSON as Google writes it, at the root and under api_url", async () => {
    const { sandbox } = await gmailSandbox();
    const auth = { authorization: `Bearer ${sandbox.provider_credentials.gmail.token}` };
    for (const url of [`${ORIGIN}/gmail/v1/users/me/profile`, `${sandbox.per_twin.gmail.api_url}/gmail/v1/users/me/profile`]) {
      const res = await SELF.fetch(url, { headers: auth });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("application/json; charset=UTF-8");
    }
    const refused = await SELF.fetch(`${ORIGIN}/gmail/v1/users/me/profile`, { headers: { authorization: "Bearer ya29.forged.token" } });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ error: { code: 401, status: "UNAUTHENTICATED" } });
  });

  it("pages with maxResults and pageToken and ANDs labelIds", async () => {
    const { gmail } = await gmailSandbox();
    const first = await gmail.users.messages.list({ userId: "me", labelIds: ["INBOX"], maxResults: 3 });
    expect(first.data.messages).toHaveLength(3);
    expect(first.data.nextPageToken).toBeTruthy();
    const second = await gmail.users.messages.list({
      userId: "me",
      labelIds: ["INBOX"],
      maxResults: 3,
      pageToken: first.data.nextPageToken ?? "",
    });
    expect(second.data.messages?.[0]?.id).not.toBe(first.data.messages?.[2]?.id);
    const both = await gmail.users.messages.list({ userId: "me", labelIds: ["INBOX", "UNREAD"] });
    expect((both.data.messages ?? []).map((m) => m.id).sort()).toEqual([
      "19a0c0de0000a001",
      "19a0c0de0000a004",
      "19a0c0de0000a007",
      "19a0c0de0000a00a",
    ]);
    const none = await gmail.users.messages.list({ userId: "me", q: "from:nobody@nowhere.test" });
    expect(none.data.messages).toBeUndefined();
    expect(none.data.resultSizeEstimate).toBe(0);
  });

  it("searches with Gmail's qualifiers", async () => {
    const { gmail } = await gmailSandbox();
    const q = async (query: string) =>
      ((await gmail.users.messages.list({ userId: "me", q: query })).data.messages ?? []).map((m) => m.id).sort();
    expect(await q("from:dana@customer.test")).toEqual(["19a0c0de0000a001"]);
    expect(await q("subject:invoice has:attachment")).toEqual(["19a0c0de0000a003"]);
    expect(await q("filename:pdf")).toEqual(["19a0c0de0000a003"]);
    expect(await q("label:receipts")).toEqual(["19a0c0de0000a003", "19a0c0de0000a00b"]);
    expect(await q("is:starred")).toEqual(["19a0c0de0000a00a"]);
    expect(await q("in:spam")).toEqual(["19a0c0de0000a005"]);
    expect(await q('"charged twice"')).toEqual(["19a0c0de0000a001"]);
    expect(await q("from:(dana@customer.test OR alex@customer.test) -is:starred")).toEqual(["19a0c0de0000a001"]);
    expect(await q("category:promotions")).toEqual(["19a0c0de0000a004"]);
    expect(await q("in:inbox is:unread is:important")).toEqual(["19a0c0de0000a007"]);
    expect(await q("after:2026/01/05 before:2026/01/05")).toEqual([]);
    expect(await q("older_than:1d to:agent@northwind.test subject:renewal")).toEqual(["19a0c0de0000a007"]);
  });

  it("matches whole words, as Gmail does, not parts of words", async () => {
    const { gmail } = await gmailSandbox();
    const q = async (query: string) =>
      ((await gmail.users.messages.list({ userId: "me", q: query })).data.messages ?? []).map((m) => m.id).sort();
    // "Hi, I was charged twice for order #1234": whole words match, case aside; parts of words do not.
    expect(await q("CHARGED")).toEqual(["19a0c0de0000a001"]);
    expect(await q("charge")).toEqual([]);
    expect(await q("harged")).toEqual([]);
    expect(await q("1234")).toEqual(["19a0c0de0000a001", "19a0c0de0000a002", "19a0c0de0000a008"]);
    // Punctuation separates words: a domain matches an address in it, a part of the domain does not.
    expect(await q("from:customer.test")).toEqual(["19a0c0de0000a001", "19a0c0de0000a00a"]);
    expect(await q("from:custom")).toEqual([]);
    expect(await q("from:dana")).toEqual(["19a0c0de0000a001"]);
    expect(await q("subject:invoice")).toEqual(["19a0c0de0000a003"]);
    expect(await q("subject:invo")).toEqual([]);
    // A phrase is its words in order; the words apart are not the phrase.
    expect(await q('"twice charged"')).toEqual([]);
    expect(await q("filename:INV-2041")).toEqual(["19a0c0de0000a003"]);
    expect(await q("filename:2041.pdf")).toEqual(["19a0c0de0000a003"]);
    expect(await q("filename:inv")).toEqual(["19a0c0de0000a003"]);
    expect(await q("filename:invo")).toEqual([]);
    // rfc822msgid: takes the whole Message-ID, brackets optional.
    expect(await q("rfc822msgid:<m1@customer.test>")).toEqual(["19a0c0de0000a001"]);
    expect(await q("rfc822msgid:m1@customer.test")).toEqual(["19a0c0de0000a001"]);
    expect(await q("rfc822msgid:m1@customer")).toEqual([]);
  });

  it("serves each format: full with parts, metadata with chosen headers, minimal, raw", async () => {
    const { gmail } = await gmailSandbox();
    const full = await gmail.users.messages.get({ userId: "me", id: "19a0c0de0000a001" });
    expect(full.data).toMatchObject({
      id: "19a0c0de0000a001",
      threadId: "19a0c0de0000a001",
      labelIds: ["INBOX", "UNREAD"],
      internalDate: expect.any(String),
      historyId: "1000",
    });
    expect(full.data.snippet).toBe("Hi, I was charged twice for order #1234. Could you refund one of the charges?");
    expect(full.data.payload?.mimeType).toBe("multipart/alternative");
    const [plain, html] = full.data.payload?.parts ?? [];
    expect(plain).toMatchObject({ partId: "0", mimeType: "text/plain" });
    expect(html).toMatchObject({ partId: "1", mimeType: "text/html" });
    expect(atob((plain?.body?.data ?? "").replace(/-/g, "+").replace(/_/g, "/"))).toContain("charged twice");
    const meta = await gmail.users.messages.get({
      userId: "me",
      id: "19a0c0de0000a001",
      format: "metadata",
      metadataHeaders: ["subject", "From"],
    });
    expect(meta.data.payload?.headers?.map((h) => h.name)).toEqual(["From", "Subject"]);
    const minimal = await gmail.users.messages.get({ userId: "me", id: "19a0c0de0000a001", format: "minimal" });
    expect(minimal.data.payload).toBeUndefined();
    const rawMsg = await gmail.users.messages.get({ userId: "me", id: "19a0c0de0000a001", format: "raw" });
    const text = decodeURIComponent(escape(atob((rawMsg.data.raw ?? "").replace(/-/g, "+").replace(/_/g, "/"))));
    expect(text).toMatch(/^From: Dana Customer <dana@customer.test>\r\n/);
    expect(text).toContain("Content-Type: multipart/alternative");
  });

  it("serves attachments by attachmentId", async () => {
    const { gmail } = await gmailSandbox();
    const m = await gmail.users.messages.get({ userId: "me", id: "19a0c0de0000a003" });
    const file = m.data.payload?.parts?.find((p) => p.filename === "INV-2041.pdf");
    expect(file?.body?.attachmentId).toBeTruthy();
    const a = await gmail.users.messages.attachments.get({
      userId: "me",
      messageId: "19a0c0de0000a003",
      id: file?.body?.attachmentId ?? "",
    });
    expect(atob((a.data.data ?? "").replace(/-/g, "+").replace(/_/g, "/"))).toMatch(/^%PDF-1.4/);
    expect(a.data.size).toBe(file?.body?.size);
  });

  it("answers Gmail's errors: 404 for unknown ids, 400 for ids Gmail never issues", async () => {
    const { gmail } = await gmailSandbox();
    for (const id of ["abc123", "00000000deadbeef"]) {
      const e = await gError(gmail.users.messages.get({ userId: "me", id }));
      expect(e).toMatchObject({
        status: 404,
        error: { code: 404, message: "Requested entity was not found.", status: "NOT_FOUND", errors: [{ reason: "notFound" }] },
      });
    }
    for (const id of ["not-a-message-id", "ffffffffffffffff"]) {
      const e = await gError(gmail.users.messages.get({ userId: "me", id }));
      expect(e).toMatchObject({ status: 400, error: { message: "Invalid id value" } });
    }
  });

  it("sends raw mail, threads a reply by threadId + References + subject, and starts a new thread otherwise", async () => {
    const { sandbox, gmail } = await gmailSandbox();
    const sent = await gmail.users.messages.send({
      userId: "me",
      requestBody: {
        threadId: "19a0c0de0000a001",
        raw: raw([
          "To: dana@customer.test",
          "Subject: Re: Refund request for order #1234",
          "In-Reply-To: <m1@customer.test>",
          "References: <m1@customer.test>",
          "",
          "Refunded.",
        ]),
      },
    });
    expect(sent.data).toMatchObject({ threadId: "19a0c0de0000a001", labelIds: ["SENT"] });
    const other = await gmail.users.messages.send({
      userId: "me",
      requestBody: { threadId: "19a0c0de0000a001", raw: raw(["To: dana@customer.test", "Subject: Something else", "", "Hi"]) },
    });
    expect(other.data.threadId).toBe(other.data.id);
    const got = await gmail.users.messages.get({ userId: "me", id: sent.data.id ?? "" });
    const names = got.data.payload?.headers?.map((h) => h.name);
    expect(names).toEqual(expect.arrayContaining(["From", "Date", "Message-ID", "To", "Subject"]));
    const thread = await gmail.users.threads.get({ userId: "me", id: "19a0c0de0000a001" });
    expect(thread.data.messages?.map((m) => m.id)).toEqual(["19a0c0de0000a001", "19a0c0de0000a002", sent.data.id]);
    const spoofed = await gmail.users.messages.send({
      userId: "me",
      requestBody: { raw: raw(["From: The CEO <ceo@elsewhere.test>", "To: lee@partner.test", "Subject: Wire", "", "x"]) },
    });
    const asSent = await gmail.users.messages.get({ userId: "me", id: spoofed.data.id ?? "", format: "raw" });
    const spoofedText = atob((asSent.data.raw ?? "").replace(/-/g, "+").replace(/_/g, "/"));
    expect(spoofedText).toMatch(/^From: Northwind Support <agent@northwind.test>\r\n/);
    expect(spoofedText).not.toContain("ceo@elsewhere.test");
    const e = await gError(gmail.users.messages.send({ userId: "me", requestBody: { raw: raw(["Subject: nobody", "", "x"]) } }));
    expect(e).toMatchObject({ status: 400, error: { message: "Recipient address required" } });
    const state = await gmailState(sandbox);
    const exported = (state.messages as { id: string; headers?: { name: string; value: string }[]; text?: string }[]).find(
      (m) => m.id === sent.data.id,
    );
    expect(exported?.text).toContain("Refunded.");
    const tape = await gmailTape(sandbox);
    expect(tape.map((r) => r.operation)).toContain("gmail.users.messages.send");
  });

  it("sends through the multipart and media upload forms, at the root and under api_url", async () => {
    const { sandbox, gmail } = await gmailSandbox();
    const message = ["To: lee@partner.test", "Subject: Upload", "", "Sent as an upload."].join("\r\n");
    const multipart = await gmail.users.messages.send(
      { userId: "me", requestBody: {}, media: { mimeType: "message/rfc822", body: message } },
      { rootUrl: `${ORIGIN}/` },
    );
    expect(multipart.data.labelIds).toEqual(["SENT"]);
    const media = await gmail.users.messages.send(
      { userId: "me", media: { mimeType: "message/rfc822", body: message } },
      { rootUrl: `${sandbox.per_twin.gmail.api_url}/` },
    );
    expect(media.data.id).not.toBe(multipart.data.id);
    const tape = await gmailTape(sandbox);
    expect(tape.filter((r) => r.path.startsWith("/upload/")).map((r) => r.operation)).toEqual([
      "gmail.users.messages.send",
      "gmail.users.messages.send",
    ]);
  });

  it("modifies, batch-modifies (skipping unknown ids), trashes, untrashes and deletes", async () => {
    const { gmail } = await gmailSandbox();
    const mod = await gmail.users.messages.modify({
      userId: "me",
      id: "19a0c0de0000a001",
      requestBody: { removeLabelIds: ["UNREAD", "INBOX"], addLabelIds: ["Label_2"] },
    });
    expect(mod.data.labelIds).toEqual(["Label_2"]);
    const batch = await gmail.users.messages.batchModify({
      userId: "me",
      requestBody: { ids: ["19a0c0de0000a004", "00000000deadbeef"], addLabelIds: ["STARRED"] },
    });
    expect(batch.status).toBe(204);
    expect((await gmail.users.messages.get({ userId: "me", id: "19a0c0de0000a004", format: "minimal" })).data.labelIds).toContain(
      "STARRED",
    );
    const bad = await gError(
      gmail.users.messages.modify({ userId: "me", id: "19a0c0de0000a001", requestBody: { addLabelIds: ["Label_99"] } }),
    );
    expect(bad.status).toBe(400);
    expect((await gmail.users.messages.trash({ userId: "me", id: "19a0c0de0000a006" })).data.labelIds).toEqual(["IMPORTANT", "TRASH"]);
    // Untrash puts back what trash took away: the message is in the inbox again.
    expect((await gmail.users.messages.untrash({ userId: "me", id: "19a0c0de0000a006" })).data.labelIds).toEqual(["IMPORTANT", "INBOX"]);
    // Spam that was trashed goes back to spam; a second untrash changes nothing.
    expect((await gmail.users.messages.trash({ userId: "me", id: "19a0c0de0000a005" })).data.labelIds).toEqual(["UNREAD", "TRASH"]);
    expect((await gmail.users.messages.untrash({ userId: "me", id: "19a0c0de0000a005" })).data.labelIds).toEqual(["UNREAD", "SPAM"]);
    expect((await gmail.users.messages.untrash({ userId: "me", id: "19a0c0de0000a005" })).data.labelIds).toEqual(["UNREAD", "SPAM"]);
    expect((await gmail.users.messages.delete({ userId: "me", id: "19a0c0de0000a006" })).status).toBe(204);
    expect((await gError(gmail.users.messages.get({ userId: "me", id: "19a0c0de0000a006" }))).status).toBe(404);
    expect(
      (await gmail.users.messages.batchDelete({ userId: "me", requestBody: { ids: ["19a0c0de0000a008", "00000000deadbeef"] } })).status,
    ).toBe(204);
    expect((await gmail.users.getProfile({ userId: "me" })).data.messagesTotal).toBe(11);
  });

  it("inserts and imports raw mail with the labels asked for", async () => {
    const { gmail } = await gmailSandbox();
    const mail = raw([
      "From: ext@outside.test",
      "To: agent@northwind.test",
      "Subject: Imported",
      "Date: Mon, 5 Jan 2026 08:00:00 +0000",
      "",
      "Hello",
    ]);
    const imported = await gmail.users.messages.import({ userId: "me", requestBody: { raw: mail } });
    expect(imported.data.labelIds).toEqual(["INBOX", "UNREAD"]);
    const got = await gmail.users.messages.get({ userId: "me", id: imported.data.id ?? "" });
    expect(got.data.internalDate).toBe(String(Date.UTC(2026, 0, 5, 8)));
    const inserted = await gmail.users.messages.insert({ userId: "me", requestBody: { raw: mail, labelIds: ["Label_1"] } });
    expect(inserted.data.labelIds).toEqual(["Label_1"]);
    // Received mail joins the thread its References name, as Gmail threads incoming replies.
    const followUp = raw([
      "From: dana@customer.test",
      "To: agent@northwind.test",
      "Subject: Re: Refund request for order #1234",
      "References: <r1@northwind.test>",
      "",
      "Thanks!",
    ]);
    expect((await gmail.users.messages.import({ userId: "me", requestBody: { raw: followUp } })).data.threadId).toBe("19a0c0de0000a001");
  });

  it("refuses another user's mailbox and an unknown route without a retryable status", async () => {
    const { sandbox, gmail } = await gmailSandbox();
    expect((await gError(gmail.users.getProfile({ userId: "someone@else.test" }))).status).toBe(403);
    const e = await gError(gmail.users.settings.cse.identities.list({ userId: "me" }));
    expect(e).toMatchObject({ status: 404, error: { errors: [{ reason: "notImplemented" }] } });
    const tape = await gmailTape(sandbox);
    expect(tape.at(-1)).toMatchObject({ fidelity: "unsupported", operation: "unsupported" });
  });
});
