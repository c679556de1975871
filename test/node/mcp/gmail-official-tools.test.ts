// Google's own Gmail MCP tools (the gmail.* tools of gemini-cli-extensions/workspace's
// workspace-server) at a sandbox's `…/mcp/official`: listed exactly as that server lists them
// (test/fixtures/vendor-mcp/gmail-workspace-server.json, with its commit and license), each tool
// carried out as the googleapis call its GmailService makes, answering the service's text (its
// chosen fields pretty-printed; `{"error": …}` for any failure, never `isError`), changing the
// mailbox as that call would (checked through googleapis), and taped.
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { type gmail_v1, google } from "googleapis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, createSandbox, pomeUrl, type Sandbox, type TapeRow, tapeOf, textOf } from "./helpers";

const published = JSON.parse(
  readFileSync(path.resolve(import.meta.dirname, "../../fixtures/vendor-mcp/gmail-workspace-server.json"), "utf8"),
) as { source: string; version: string; license: string; tools: { name: string; description: string; inputSchema: unknown }[] };

/** The default mailbox: Dana's refund mail (text and HTML), an invoice with a PDF, Label_1 "Receipts", one draft. */
const DANA = "19a0c0de0000a001";
const INVOICE = "19a0c0de0000a003";

let sandbox: Sandbox;
let client: Client;
let gmail: gmail_v1.Gmail;

function gmailFor(s: Sandbox): gmail_v1.Gmail {
  const auth = new google.auth.OAuth2();
  auth.setCredentials({ access_token: s.provider_credentials.gmail.token, expiry_date: Date.now() + 3600e3 });
  return google.gmail({ version: "v1", auth, rootUrl: `${pomeUrl()}/`, retry: false });
}

beforeAll(async () => {
  sandbox = await createSandbox({ twins: ["gmail"] });
  client = await connect(`${sandbox.per_twin.gmail.mcp_url}/official`, sandbox.agent_token);
  gmail = gmailFor(sandbox);
});
afterAll(async () => {
  await client?.close();
});

const call = (name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args });
/** A tool's answer as the service gives it: one text item, never flagged, JSON. */
async function answer<T>(name: string, args: Record<string, unknown>): Promise<{ json: T; text: string }> {
  const result = await call(name, args);
  expect(result.isError ?? false, `${name} ${textOf(result)}`).toBe(false);
  return { json: JSON.parse(textOf(result)) as T, text: textOf(result) };
}
const json = async <T>(name: string, args: Record<string, unknown>) => (await answer<T>(name, args)).json;
const rowsSince = async (before: number) => (await tapeOf(sandbox, "gmail")).slice(before);
const tapeLength = async () => (await tapeOf(sandbox, "gmail")).length;
const queryOf = (row: TapeRow | undefined) => new URLSearchParams((row as unknown as { query?: string } | undefined)?.query ?? "");

describe("the tool set is served exactly as Google's Workspace MCP server lists it", () => {
  it("lists its eight gmail tools in its order, each with its name, description and input schema", async () => {
    expect(published.version).toMatch(/^commit 7b49c394c34a8c6f77b07e84b1c8559f8216fc73 /);
    expect(published.license).toMatch(/^Apache-2\.0, Copyright 2025 Google LLC/);
    expect(published.source).toMatch(/^gemini-cli-extensions\/workspace /);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      "gmail.search",
      "gmail.get",
      "gmail.downloadAttachment",
      "gmail.modify",
      "gmail.send",
      "gmail.createDraft",
      "gmail.sendDraft",
      "gmail.listLabels",
    ]);
    expect(tools).toEqual(published.tools);
  });

  it("refuses arguments the published schema refuses, and an unknown tool, before any Gmail call", async () => {
    const before = await tapeLength();
    expect((await call("gmail.get", { format: "full" })).isError).toBe(true);
    const tooMany = await call("gmail.modify", { messageId: DANA, addLabelIds: Array.from({ length: 101 }, () => "STARRED") });
    expect(tooMany.isError).toBe(true);
    expect(textOf(tooMany)).toMatch(/addLabelIds/);
    expect((await call("gmail.send", { to: 42, subject: "x", body: "y" })).isError).toBe(true);
    expect((await call("gmail.deleteAll", {})).isError).toBe(true);
    const operations = (await rowsSince(before)).map((r) => r.operation);
    expect(operations.filter((op) => op.startsWith("gmail.users."))).toEqual([]);
  });
});

describe("an agent written for Google's Workspace MCP server reads the mailbox unchanged", () => {
  it("gmail.search is messages.list with the service's defaults, answered as ids, page token and estimate", async () => {
    const before = await tapeLength();
    const found = await answer<{ messages: { id: string; threadId: string }[]; resultSizeEstimate: number; nextPageToken?: string }>(
      "gmail.search",
      { query: "from:dana@customer.test" },
    );
    expect(found.json).toEqual({ messages: [{ id: DANA, threadId: DANA }], resultSizeEstimate: 1 });
    expect(found.text).toBe(JSON.stringify(found.json, null, 2)); // pretty-printed, as the service writes it
    const [list] = await rowsSince(before);
    expect(list).toMatchObject({ operation: "gmail.users.messages.list", method: "GET", transport: "mcp", status: 200 });
    expect(Object.fromEntries(queryOf(list))).toEqual({ q: "from:dana@customer.test", maxResults: "100", includeSpamTrash: "false" });

    const beforeLabels = await tapeLength();
    const first = await json<{ messages: { id: string }[]; nextPageToken: string }>("gmail.search", {
      labelIds: ["INBOX", "UNREAD"],
      maxResults: 1,
    });
    expect(first.messages).toHaveLength(1);
    // A list of labels is the repeated parameter googleapis sends, not one joined value.
    const [labelled] = await rowsSince(beforeLabels);
    expect(queryOf(labelled).getAll("labelIds")).toEqual(["INBOX", "UNREAD"]);
    const second = await json<{ messages: { id: string }[] }>("gmail.search", {
      labelIds: ["INBOX", "UNREAD"],
      maxResults: 1,
      pageToken: first.nextPageToken,
    });
    const unread = await gmail.users.messages.list({ userId: "me", labelIds: ["INBOX", "UNREAD"], maxResults: 2 });
    expect([first.messages[0].id, second.messages[0].id]).toEqual(unread.data.messages?.map((m) => m.id));
    // Trash and spam only when asked, as messages.list decides.
    const withSpam = await json<{ messages: { id: string }[] }>("gmail.search", {
      query: "from:winner@lottery.test",
      includeSpamTrash: true,
    });
    expect(withSpam.messages).toHaveLength(1);
    expect(await json("gmail.search", { query: "from:winner@lottery.test" })).toEqual({ messages: [], resultSizeEstimate: 0 });
  });

  it("gmail.get summarises a full message: headers, the text/plain body over the HTML, attachments", async () => {
    const dana = await json<Record<string, unknown>>("gmail.get", { messageId: DANA });
    const real = (await gmail.users.messages.get({ userId: "me", id: DANA, format: "full" })).data;
    const header = (name: string) => real.payload?.headers?.find((h) => h.name === name)?.value;
    expect(dana).toEqual({
      id: DANA,
      threadId: DANA,
      labelIds: real.labelIds,
      snippet: real.snippet,
      subject: "Refund request for order #1234",
      from: "Dana Customer <dana@customer.test>",
      to: header("To"),
      date: header("Date"),
      body: "Hi, I was charged twice for order #1234. Could you refund one of the charges?",
      attachments: [],
    });
    const invoice = await json<{ attachments: { filename: string; mimeType: string; attachmentId: string; size: number }[] }>("gmail.get", {
      messageId: INVOICE,
      format: "full",
    });
    expect(invoice.attachments).toEqual([
      { filename: "INV-2041.pdf", mimeType: "application/pdf", attachmentId: expect.stringMatching(/.+/), size: 66 },
    ]);
    // metadata: no body is read, so the snippet stands in; minimal and raw are the message itself.
    const metadata = await json<{ body: string; snippet: string; attachments: unknown[]; subject: string }>("gmail.get", {
      messageId: DANA,
      format: "metadata",
    });
    expect(metadata).toMatchObject({ body: real.snippet, attachments: [], subject: "Refund request for order #1234" });
    const minimal = await json<Record<string, unknown>>("gmail.get", { messageId: DANA, format: "minimal" });
    expect(minimal).toEqual((await gmail.users.messages.get({ userId: "me", id: DANA, format: "minimal" })).data);
    const raw = await json<{ raw: string }>("gmail.get", { messageId: DANA, format: "raw" });
    expect(Buffer.from(raw.raw, "base64url").toString()).toContain("Subject: Refund request for order #1234");
    const formats = (await tapeOf(sandbox, "gmail"))
      .filter((r) => r.operation === "gmail.users.messages.get" && r.transport === "mcp")
      .map((r) => queryOf(r).get("format"));
    expect(formats).toEqual(["full", "full", "metadata", "minimal", "raw"]);
  });

  it("answers Gmail's refusal as the service does: the error's message as text, not flagged", async () => {
    const missing = await answer("gmail.get", { messageId: "00000000deadbeef" });
    expect(missing.text).toBe(JSON.stringify({ error: "Requested entity was not found." }));
  });

  it("gmail.downloadAttachment fetches the attachment and answers where it was saved; a relative path is refused first", async () => {
    const invoice = await gmail.users.messages.get({ userId: "me", id: INVOICE, format: "full" });
    const attachmentId = invoice.data.payload?.parts?.find((p) => p.filename === "INV-2041.pdf")?.body?.attachmentId ?? "";
    const before = await tapeLength();
    expect((await answer("gmail.downloadAttachment", { messageId: INVOICE, attachmentId, localPath: "invoice.pdf" })).text).toBe(
      JSON.stringify({ error: "localPath must be an absolute path." }),
    );
    expect((await rowsSince(before)).filter((r) => r.operation.startsWith("gmail.users."))).toEqual([]);
    const saved = await answer("gmail.downloadAttachment", { messageId: INVOICE, attachmentId, localPath: "/home/agent/INV-2041.pdf" });
    expect(saved.text).toBe(
      JSON.stringify({ message: "Attachment downloaded successfully to /home/agent/INV-2041.pdf", path: "/home/agent/INV-2041.pdf" }),
    );
    const rows = (await rowsSince(before)).filter((r) => r.operation.startsWith("gmail.users."));
    expect(rows.map((r) => [r.operation, r.status, r.transport])).toEqual([["gmail.users.messages.attachments.get", 200, "mcp"]]);
    const wrong = await answer<{ error: string }>("gmail.downloadAttachment", {
      messageId: "00000000deadbeef",
      attachmentId,
      localPath: "/tmp/x.pdf",
    });
    expect(wrong.json.error).toEqual(expect.any(String));
  });

  it("gmail.listLabels is labels.list, each label as id, name, type and visibilities", async () => {
    const { labels } = await json<{ labels: Record<string, unknown>[] }>("gmail.listLabels", {});
    const real = (await gmail.users.labels.list({ userId: "me" })).data.labels ?? [];
    expect(labels).toEqual(
      real.map((l) =>
        JSON.parse(
          JSON.stringify({
            id: l.id,
            name: l.name,
            type: l.type,
            messageListVisibility: l.messageListVisibility,
            labelListVisibility: l.labelListVisibility,
          }),
        ),
      ),
    );
    expect(labels).toEqual(expect.arrayContaining([expect.objectContaining({ id: "Label_1", name: "Receipts", type: "user" })]));
    expect(labels).toEqual(expect.arrayContaining([expect.objectContaining({ id: "INBOX", type: "system" })]));
  });
});

describe("an agent written for Google's Workspace MCP server changes the mailbox unchanged", () => {
  it("gmail.modify adds and removes labels, always sending both lists; naming none is Gmail's refusal", async () => {
    const modified = await json<{ id: string; labelIds: string[] }>("gmail.modify", {
      messageId: DANA,
      addLabelIds: ["STARRED", "Label_2"],
      removeLabelIds: ["UNREAD"],
    });
    expect(modified.id).toBe(DANA);
    const after = (await gmail.users.messages.get({ userId: "me", id: DANA, format: "minimal" })).data.labelIds ?? [];
    expect(after).toEqual(expect.arrayContaining(["STARRED", "Label_2", "INBOX"]));
    expect(after).not.toContain("UNREAD");
    expect(modified.labelIds).toEqual(after);

    const before = await tapeLength();
    expect((await answer("gmail.modify", { messageId: DANA })).text).toBe(JSON.stringify({ error: "No label add or removes specified" }));
    const [refused] = await rowsSince(before);
    expect(refused).toMatchObject({
      operation: "gmail.users.messages.modify",
      status: 400,
      request_body: { addLabelIds: [], removeLabelIds: [] },
    });
  });

  it("gmail.send checks addresses as the service's zod 4.1.13 does, with its issues as details, before any call", async () => {
    const before = await tapeLength();
    const refused = await answer<{ error: string; details: string }>("gmail.send", {
      to: ["lee@partner.test", "Lee <lee@partner.test>"],
      subject: "Hi",
      body: "x",
    });
    const issues = [
      {
        origin: "string",
        code: "invalid_format",
        format: "email",
        pattern: String.raw`/^(?!\.)(?!.*\.\.)([A-Za-z0-9_'+\-\.]*)[A-Za-z0-9_+-]@([A-Za-z0-9][A-Za-z0-9\-]*\.)+[A-Za-z]{2,}$/`,
        path: [1],
        message: "Invalid email format",
      },
    ];
    expect(refused.json).toEqual({ error: "Invalid email address format", details: JSON.stringify(issues, null, 2) });
    const badCc = await json<{ details: string }>("gmail.send", {
      to: "lee@partner.test",
      cc: "a..b@partner.test",
      subject: "Hi",
      body: "x",
    });
    expect(JSON.parse(badCc.details)).toEqual([{ ...issues[0], path: [] }]);
    expect((await rowsSince(before)).filter((r) => r.operation.startsWith("gmail.users."))).toEqual([]);
  });

  it("gmail.send sends the RFC 822 message the service's MimeHelper writes; the mailbox shows it sent", async () => {
    const before = await tapeLength();
    const sent = await answer<{ id: string; threadId: string; labelIds: string[]; status: string }>("gmail.send", {
      to: ["lee@partner.test", "sam@northwind.test"],
      cc: "dana@customer.test",
      subject: "Renewal résumé",
      body: "Let's talk Tuesday.\nThanks!",
    });
    expect(sent.json).toEqual({ id: expect.any(String), threadId: expect.any(String), labelIds: ["SENT"], status: "sent" });
    expect(sent.text).toBe(JSON.stringify(sent.json, null, 2));
    const mime = [
      "To: lee@partner.test, sam@northwind.test",
      "Cc: dana@customer.test",
      `Subject: =?utf-8?B?${Buffer.from("Renewal résumé").toString("base64")}?=`,
      "Content-Type: text/plain; charset=utf-8",
      "",
      "Let's talk Tuesday.\nThanks!",
    ].join("\r\n");
    const [send] = await rowsSince(before);
    expect(send).toMatchObject({
      operation: "gmail.users.messages.send",
      method: "POST",
      transport: "mcp",
      request_body: { raw: Buffer.from(mime).toString("base64url") },
    });
    const back = (await gmail.users.messages.get({ userId: "me", id: sent.json.id, format: "full" })).data;
    const header = (name: string) => back.payload?.headers?.find((h) => h.name === name)?.value;
    expect(header("Subject")).toBe("Renewal résumé"); // Gmail reads the encoded word
    expect(header("To")).toBe("lee@partner.test, sam@northwind.test");
    expect(back.labelIds).toEqual(["SENT"]);
    const found = await json<{ messages: { id: string }[] }>("gmail.search", { query: "in:sent subject:Renewal" });
    expect(found.messages.map((m) => m.id)).toContain(sent.json.id);
  });

  it("gmail.createDraft saves a draft (no address check) and gmail.sendDraft sends it", async () => {
    const draft = await json<{ id: string; message: { id: string; threadId: string; labelIds: string[] }; status: string }>(
      "gmail.createDraft",
      { to: "lee@partner.test", subject: "Agenda", body: "<p>Tuesday 10:00</p>", isHtml: true },
    );
    expect(draft).toEqual({
      id: expect.any(String),
      message: { id: expect.any(String), threadId: expect.any(String), labelIds: ["DRAFT"] },
      status: "draft_created",
    });
    const stored = await gmail.users.drafts.get({ userId: "me", id: draft.id, format: "full" });
    expect(stored.data.message?.payload?.mimeType).toBe("text/html");
    // The service checks addresses only before sending: a draft to a name without an address is saved.
    const loose = await json<{ status: string }>("gmail.createDraft", { to: "Lee", subject: "Later", body: "x" });
    expect(loose.status).toBe("draft_created");

    const sent = await json<{ id: string; threadId: string; labelIds: string[]; status: string }>("gmail.sendDraft", { draftId: draft.id });
    expect(sent).toEqual({ id: expect.any(String), threadId: expect.any(String), labelIds: ["SENT"], status: "sent" });
    expect((await gmail.users.messages.get({ userId: "me", id: sent.id, format: "minimal" })).data.labelIds).toEqual(["SENT"]);
    const gone = await gmail.users.drafts.get({ userId: "me", id: draft.id }).catch((e: { status?: number }) => e.status);
    expect(gone).toBe(404);
    const again = await json<{ error: string }>("gmail.sendDraft", { draftId: draft.id });
    expect(again.error).toEqual(expect.any(String));
    const drafts = (await tapeOf(sandbox, "gmail")).filter((r) => r.transport === "mcp" && r.operation.startsWith("gmail.users.drafts"));
    expect(drafts.map((r) => [r.operation, r.status])).toEqual([
      ["gmail.users.drafts.create", 200],
      ["gmail.users.drafts.create", 200],
      ["gmail.users.drafts.send", 200],
      ["gmail.users.drafts.send", 404],
    ]);
    expect(drafts[2]?.request_body).toEqual({ id: draft.id });
  });
});

describe("googleapis' retries, as the service configures them", () => {
  it("retries a GET on 5xx up to three times, then answers the last refusal", async () => {
    const seed = {
      profile: { emailAddress: "agent@northwind.test" },
      labels: [{ id: "Label_1", name: "Receipts" }],
      faults: [{ operation: "gmail.users.labels.list", status: 503, reason: "backendError", times: 2 }],
    };
    const flaky = await createSandbox({ twins: ["gmail"], seed });
    const mcp = await connect(`${flaky.per_twin.gmail.mcp_url}/official`, flaky.agent_token);
    try {
      const listed = await mcp.callTool({ name: "gmail.listLabels", arguments: {} });
      expect(JSON.parse(textOf(listed)).labels).toEqual(expect.arrayContaining([expect.objectContaining({ id: "Label_1" })]));
      const statuses = (await tapeOf(flaky, "gmail")).filter((r) => r.operation === "gmail.users.labels.list").map((r) => r.status);
      expect(statuses).toEqual([503, 503, 200]);
    } finally {
      await mcp.close();
    }
    const down = await createSandbox({ twins: ["gmail"], seed: { ...seed, faults: [{ ...seed.faults[0], times: 5 }] } });
    const mcp2 = await connect(`${down.per_twin.gmail.mcp_url}/official`, down.agent_token);
    try {
      const failed = await mcp2.callTool({ name: "gmail.listLabels", arguments: {} });
      expect(failed.isError ?? false).toBe(false);
      expect(textOf(failed)).toBe(JSON.stringify({ error: "Backend Error" }));
      expect((await tapeOf(down, "gmail")).filter((r) => r.operation === "gmail.users.labels.list")).toHaveLength(4);
    } finally {
      await mcp2.close();
    }
  });
});
