// Threads, labels, drafts, history and settings through googleapis; then the twin's own
// additions: a correspondent's scripted reply and a seeded fault.
import { describe, expect, it } from "vitest";
import { gError, gmailSandbox, gmailState, gmailTape, raw } from "./client";

describe("threads, labels, drafts, history and settings", () => {
  it("lists and gets threads, modifies, trashes and deletes them", async () => {
    const { gmail } = await gmailSandbox();
    const list = await gmail.users.threads.list({ userId: "me", maxResults: 2 });
    expect(list.data.threads).toHaveLength(2);
    expect(list.data.nextPageToken).toEqual(expect.any(String));
    const next = await gmail.users.threads.list({ userId: "me", maxResults: 2, pageToken: list.data.nextPageToken ?? "" });
    expect(next.data.threads?.[0]?.id).not.toBe(list.data.threads?.[1]?.id);
    const thread = await gmail.users.threads.get({ userId: "me", id: "19a0c0de0000a001", format: "metadata" });
    expect(thread.data.messages).toHaveLength(2);
    const mod = await gmail.users.threads.modify({ userId: "me", id: "19a0c0de0000a001", requestBody: { addLabelIds: ["STARRED"] } });
    expect(mod.data.messages?.every((m) => m.labelIds?.includes("STARRED"))).toBe(true);
    await gmail.users.threads.trash({ userId: "me", id: "19a0c0de0000a001" });
    expect((await gmail.users.messages.get({ userId: "me", id: "19a0c0de0000a002", format: "minimal" })).data.labelIds).toContain("TRASH");
    const inbox = (await gmail.users.messages.get({ userId: "me", id: "19a0c0de0000a001", format: "minimal" })).data.labelIds;
    expect(inbox).not.toContain("INBOX");
    // Untrash puts each message back where trash took it from: the first mail in the inbox, the reply in SENT only.
    const back = await gmail.users.threads.untrash({ userId: "me", id: "19a0c0de0000a001" });
    expect(back.data.messages?.map((m) => m.labelIds)).toEqual([
      expect.arrayContaining(["INBOX", "STARRED"]),
      expect.not.arrayContaining(["INBOX", "TRASH"]),
    ]);
    expect((await gmail.users.threads.delete({ userId: "me", id: "19a0c0de0000a001" })).status).toBe(204);
    expect((await gError(gmail.users.threads.get({ userId: "me", id: "19a0c0de0000a001" }))).status).toBe(404);
  });

  it("pages threads with opaque tokens: every thread once, in list order, filters kept across pages", async () => {
    const seed = {
      profile: { emailAddress: "agent@northwind.test" },
      // Thread t1 has an old and a newer message; t2 sits between them in time.
      messages: [
        { id: "a1", labelIds: ["INBOX"], internalDate: "1000", headers: [{ name: "From", value: "x@y.test" }], text: "old" },
        { id: "b1", labelIds: ["INBOX"], internalDate: "2000", headers: [{ name: "From", value: "x@y.test" }], text: "t2" },
        {
          id: "a2",
          threadId: "a1",
          labelIds: ["INBOX"],
          internalDate: "3000",
          headers: [{ name: "From", value: "x@y.test" }],
          text: "new",
        },
        { id: "c1", labelIds: ["INBOX"], internalDate: "4000", headers: [{ name: "From", value: "x@y.test" }], text: "t3" },
        { id: "d1", labelIds: ["SENT"], internalDate: "5000", headers: [{ name: "From", value: "x@y.test" }], text: "t4" },
      ],
    };
    const { gmail } = await gmailSandbox(seed);
    const all = async (labelIds?: string[], maxResults = 1) => {
      const ids: string[] = [];
      let pageToken: string | undefined;
      do {
        const page = await gmail.users.threads.list({ userId: "me", maxResults, labelIds, pageToken });
        ids.push(...(page.data.threads ?? []).map((t) => t.id ?? ""));
        pageToken = page.data.nextPageToken ?? undefined;
        if (pageToken) expect(pageToken).not.toMatch(/^\d+$/);
      } while (pageToken);
      return ids;
    };
    expect(await all()).toEqual(["d1", "c1", "a1", "b1"]);
    expect(await all(["INBOX"])).toEqual(["c1", "a1", "b1"]);
    // A page that ends on a thread's newest message does not serve that thread again with its older one.
    expect(await all(undefined, 3)).toEqual(["d1", "c1", "a1", "b1"]);
    expect(await all(["INBOX"], 2)).toEqual(["c1", "a1", "b1"]);
    expect((await gError(gmail.users.threads.list({ userId: "me", pageToken: "not-a-token" }))).status).toBe(400);
  });

  it("lists, creates, updates, patches and deletes labels; a duplicate name is a 409, a system one a 400", async () => {
    const { gmail } = await gmailSandbox();
    const list = await gmail.users.labels.list({ userId: "me" });
    expect(list.data.labels?.map((l) => l.id)).toEqual(expect.arrayContaining(["INBOX", "SPAM", "Label_1", "Label_2"]));
    const created = await gmail.users.labels.create({
      userId: "me",
      requestBody: { name: "Escalations", labelListVisibility: "labelShow", messageListVisibility: "show" },
    });
    expect(created.data).toMatchObject({ id: "Label_3", name: "Escalations", type: "user" });
    const dup = await gError(gmail.users.labels.create({ userId: "me", requestBody: { name: "escalations" } }));
    expect(dup).toMatchObject({ status: 409, error: { message: "Label name exists or conflicts" } });
    // A system label's name is not a conflict but an invalid name (got-your-back#350, #95).
    const reserved = await gError(gmail.users.labels.create({ userId: "me", requestBody: { name: "Inbox" } }));
    expect(reserved).toMatchObject({ status: 400, error: { message: "Invalid label name" } });
    const patched = await gmail.users.labels.patch({
      userId: "me",
      id: "Label_3",
      requestBody: { color: { textColor: "#000000", backgroundColor: "#ffad47" } },
    });
    expect(patched.data).toMatchObject({ name: "Escalations", color: { backgroundColor: "#ffad47" } });
    const updated = await gmail.users.labels.update({ userId: "me", id: "Label_3", requestBody: { name: "Escalated" } });
    expect(updated.data.name).toBe("Escalated");
    const receipts = await gmail.users.labels.get({ userId: "me", id: "Label_1" });
    expect(receipts.data).toMatchObject({ messagesTotal: 2, threadsTotal: 2 });
    const inbox = await gmail.users.labels.get({ userId: "me", id: "INBOX" });
    expect(inbox.data).toMatchObject({ type: "system", messagesUnread: 4 });
    expect((await gmail.users.labels.delete({ userId: "me", id: "Label_1" })).status).toBe(204);
    expect((await gmail.users.messages.get({ userId: "me", id: "19a0c0de0000a003", format: "minimal" })).data.labelIds).toEqual(["INBOX"]);
    expect((await gError(gmail.users.labels.get({ userId: "me", id: "Label_1" }))).status).toBe(404);
  });

  it("creates, lists, gets, updates, sends and deletes drafts", async () => {
    const { gmail } = await gmailSandbox();
    const created = await gmail.users.drafts.create({
      userId: "me",
      requestBody: { message: { raw: raw(["To: lee@partner.test", "Subject: Renewal", "", "Draft one"]) } },
    });
    expect(created.data.message?.labelIds).toEqual(["DRAFT"]);
    const list = await gmail.users.drafts.list({ userId: "me" });
    expect(list.data.drafts?.map((d) => d.id)).toEqual([created.data.id, "r7390128431662530001"]);
    const updated = await gmail.users.drafts.update({
      userId: "me",
      id: created.data.id ?? "",
      requestBody: { message: { raw: raw(["To: lee@partner.test", "Subject: Renewal", "", "Draft two"]) } },
    });
    // Gmail keeps the draft's id and replaces its message: a new message id, the old message gone.
    expect(updated.data.id).toBe(created.data.id);
    expect(updated.data.message?.id).not.toBe(created.data.message?.id);
    expect((await gError(gmail.users.messages.get({ userId: "me", id: created.data.message?.id ?? "" }))).status).toBe(404);
    expect((await gmail.users.drafts.list({ userId: "me" })).data.drafts?.map((d) => [d.id, d.message?.id])).toEqual([
      [created.data.id, updated.data.message?.id],
      ["r7390128431662530001", "19a0c0de0000d001"],
    ]);
    const got = await gmail.users.drafts.get({ userId: "me", id: created.data.id ?? "" });
    expect(got.data.message?.snippet).toBe("Draft two");
    const sent = await gmail.users.drafts.send({ userId: "me", requestBody: { id: "r7390128431662530001" } });
    expect(sent.data.labelIds).toEqual(["SENT"]);
    expect((await gError(gmail.users.drafts.get({ userId: "me", id: "r7390128431662530001" }))).status).toBe(404);
    expect((await gmail.users.drafts.delete({ userId: "me", id: created.data.id ?? "" })).status).toBe(204);
    expect((await gmail.users.drafts.list({ userId: "me" })).data.drafts).toBeUndefined();
  });

  it("lists history after a startHistoryId, by type", async () => {
    const { gmail } = await gmailSandbox();
    const start = (await gmail.users.getProfile({ userId: "me" })).data.historyId ?? "";
    await gmail.users.messages.modify({ userId: "me", id: "19a0c0de0000a001", requestBody: { removeLabelIds: ["UNREAD"] } });
    const sent = await gmail.users.messages.send({
      userId: "me",
      requestBody: { raw: raw(["To: sam@northwind.test", "Subject: Hi", "", "x"]) },
    });
    const all = await gmail.users.history.list({ userId: "me", startHistoryId: start });
    expect(all.data.history?.map((h) => Object.keys(h).filter((k) => k !== "id" && k !== "messages"))).toEqual([
      ["labelsRemoved"],
      ["messagesAdded"],
    ]);
    expect(all.data.historyId).toBe(String(Number(start) + 2));
    expect(all.data.history?.[0]?.labelsRemoved?.[0]).toEqual({
      message: { id: "19a0c0de0000a001", threadId: "19a0c0de0000a001", labelIds: ["INBOX"] },
      labelIds: ["UNREAD"],
    });
    const added = await gmail.users.history.list({ userId: "me", startHistoryId: start, historyTypes: ["messageAdded"] });
    expect(added.data.history?.[0]?.messagesAdded?.[0]?.message?.id).toBe(sent.data.id);
    const firstPage = await gmail.users.history.list({ userId: "me", startHistoryId: start, maxResults: 1 });
    expect(firstPage.data.history).toHaveLength(1);
    const secondPage = await gmail.users.history.list({
      userId: "me",
      startHistoryId: start,
      maxResults: 1,
      pageToken: firstPage.data.nextPageToken ?? "",
    });
    expect(secondPage.data.history?.[0]?.messagesAdded).toBeDefined();
    expect(secondPage.data.nextPageToken).toBeUndefined();
    const none = await gmail.users.history.list({ userId: "me", startHistoryId: all.data.historyId ?? "" });
    expect(none.data.history).toBeUndefined();
  });

  it("answers 404 for a startHistoryId older than the mailbox's first history id, as Gmail does", async () => {
    const { gmail } = await gmailSandbox();
    // The default world boots at historyId 1000: its history starts there.
    expect((await gmail.users.history.list({ userId: "me", startHistoryId: "1000" })).status).toBe(200);
    const old = await gError(gmail.users.history.list({ userId: "me", startHistoryId: "999" }));
    expect(old).toEqual({
      status: 404,
      error: {
        code: 404,
        message: "Requested entity was not found.",
        status: "NOT_FOUND",
        errors: [{ message: "Requested entity was not found.", domain: "global", reason: "notFound" }],
      },
    });
  });

  it("serves send-as, filters and vacation settings", async () => {
    const { gmail } = await gmailSandbox();
    expect((await gmail.users.settings.sendAs.list({ userId: "me" })).data.sendAs).toMatchObject([
      { sendAsEmail: "agent@northwind.test", isPrimary: true },
    ]);
    expect((await gmail.users.settings.filters.list({ userId: "me" })).data.filter).toBeUndefined();
    const f = await gmail.users.settings.filters.create({
      userId: "me",
      requestBody: { criteria: { from: "news@deals.test" }, action: { removeLabelIds: ["INBOX"] } },
    });
    expect((await gmail.users.settings.filters.get({ userId: "me", id: f.data.id ?? "" })).data.criteria).toEqual({
      from: "news@deals.test",
    });
    expect((await gmail.users.settings.filters.list({ userId: "me" })).data.filter).toHaveLength(1);
    expect((await gmail.users.settings.filters.delete({ userId: "me", id: f.data.id ?? "" })).status).toBe(204);
    const bad = await gError(
      gmail.users.settings.filters.create({
        userId: "me",
        requestBody: { criteria: { from: "x" }, action: { addLabelIds: ["Label_99"] } },
      }),
    );
    expect(bad.status).toBe(400);
    const v = await gmail.users.settings.updateVacation({
      userId: "me",
      requestBody: { enableAutoReply: true, responseSubject: "Away", responseBodyPlainText: "Back Monday" },
    });
    expect(v.data.enableAutoReply).toBe(true);
    expect((await gmail.users.settings.getVacation({ userId: "me" })).data).toMatchObject({
      enableAutoReply: true,
      responseSubject: "Away",
    });
  });
});

const SEED = {
  profile: { emailAddress: "agent@northwind.test" },
  messages: [
    {
      id: "18f0c0de0000a001",
      labelIds: ["INBOX"],
      headers: [
        { name: "From", value: "x@y.test" },
        { name: "Subject", value: "Hello" },
      ],
      text: "hi",
    },
  ],
  correspondents: [
    { address: "carrier@shipping.test", name: "Parcel Desk", reply: { afterCalls: 2, text: "Parcel 1234 ships tomorrow." } },
  ],
  faults: [{ operation: "gmail.users.messages.send", status: 429, reason: "rateLimitExceeded", skip: 1, times: 1 }],
};

describe("the twin's additions", () => {
  it("delivers a correspondent's reply before the second call after the send, in the thread", async () => {
    const { sandbox, gmail } = await gmailSandbox({ ...SEED, faults: [] });
    const sent = await gmail.users.messages.send({
      userId: "me",
      requestBody: {
        raw: raw([
          "To: Parcel Desk <carrier@shipping.test>",
          "Subject: Where is parcel 1234?",
          "Message-ID: <ask1@northwind.test>",
          "",
          "Any news?",
        ]),
      },
    });
    const q = { userId: "me", q: "from:carrier@shipping.test" };
    expect((await gmail.users.messages.list(q)).data.messages).toBeUndefined();
    const seen = await gmail.users.messages.list(q);
    expect(seen.data.messages).toEqual([{ id: expect.any(String), threadId: sent.data.threadId }]);
    const reply = await gmail.users.messages.get({ userId: "me", id: seen.data.messages?.[0]?.id ?? "", format: "metadata" });
    const h = Object.fromEntries((reply.data.payload?.headers ?? []).map((x) => [x.name, x.value]));
    expect(h).toMatchObject({
      From: "Parcel Desk <carrier@shipping.test>",
      Subject: "Re: Where is parcel 1234?",
      "In-Reply-To": "<ask1@northwind.test>",
    });
    expect(reply.data.labelIds).toEqual(["INBOX", "UNREAD"]);
    const tape = await gmailTape(sandbox);
    expect(tape.map((r) => r.mutated)).toEqual([true, false, false, false]);
    const state = await gmailState(sandbox);
    expect((state.messages as unknown[]).length).toBe(3);
    const history = await gmail.users.history.list({ userId: "me", startHistoryId: "1", historyTypes: ["messageAdded"] });
    expect(history.data.history?.map((h) => h.messagesAdded?.[0]?.message?.id)).toEqual([sent.data.id, seen.data.messages?.[0]?.id]);
  });

  it("answers a seeded fault in Google's shape and changes nothing", async () => {
    const { sandbox, gmail } = await gmailSandbox(SEED);
    const mail = { userId: "me", requestBody: { raw: raw(["To: lee@partner.test", "Subject: One", "", "x"]) } };
    await gmail.users.messages.send(mail);
    const e = await gError(gmail.users.messages.send(mail));
    expect(e).toMatchObject({
      status: 429,
      error: { code: 429, message: "Rate Limit Exceeded", status: "RESOURCE_EXHAUSTED", errors: [{ reason: "rateLimitExceeded" }] },
    });
    await gmail.users.messages.send(mail);
    const tape = await gmailTape(sandbox);
    expect(tape.map((r) => [r.status, r.mutated])).toEqual([
      [200, true],
      [429, false],
      [200, true],
    ]);
    expect((await gmail.users.getProfile({ userId: "me" })).data.messagesTotal).toBe(3);
  });
});
