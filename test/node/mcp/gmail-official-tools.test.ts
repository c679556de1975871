// Google's own Gmail MCP tools at a sandbox's `…/mcp/official`: first the 13 tools of Google's hosted
// Gmail MCP server (gmailmcp.googleapis.com, test/fixtures/vendor-mcp/gmail-hosted-server.json), each
// carried out over the mailbox and checked through googleapis (last describe); then the gmail.*
// tools of gemini-cli-extensions/workspace's workspace-server, listed exactly as that server lists them
// (test/fixtures/vendor-mcp/gmail-workspace-server.json, with its commit and license), each tool
// carried out as the googleapis call its GmailService makes, answering the service's text (its
// chosen fields pretty-printed; `{"error": …}` for any failure, never `isError`), changing the
// mailbox as that call would (checked through googleapis), and taped.
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { type gmail_v1, google } from "googleapis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, createSandbox, pomeUrl, type Sandbox, type TapeRow, tapeOf, textOf } from "./helpers";

const published = JSON.parse(
  readFileSync(path.resolve(import.meta.dirname, "../../fixtures/vendor-mcp/gmail-workspace-server.json"), "utf8"),
) as { source: string; version: string; license: string; tools: { name: string; description: string; inputSchema: unknown }[] };

const hostedPublished = JSON.parse(
  readFileSync(path.resolve(import.meta.dirname, "../../fixtures/vendor-mcp/gmail-hosted-server.json"), "utf8"),
) as { source: string; version: string; license: string; tools: { name: string; outputSchema?: unknown }[] };
const HOSTED_NAMES = [
  "create_draft",
  "list_drafts",
  "get_thread",
  "get_message",
  "search_threads",
  "label_thread",
  "unlabel_thread",
  "apply_sensitive_thread_label",
  "list_labels",
  "label_message",
  "unlabel_message",
  "apply_sensitive_message_label",
  "create_label",
];

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

describe("the tool set is served exactly as Google's MCP servers list it", () => {
  it("lists the hosted server's 13 tools as captured, then the Workspace extension's eight gmail tools, each as published", async () => {
    expect(hostedPublished.source).toMatch(/^Google's hosted Gmail MCP server, https:\/\/gmailmcp\.googleapis\.com\/mcp\/v1 /);
    expect(hostedPublished.version).toMatch(/^captured 2026-08-10 .*commit 204c5f6614ced8b27fca8c26a0ca11ce0f618b2b .*sha256 fd2b1286/);
    expect(hostedPublished.license).toMatch(/^none stated: the definitions are Google's/);
    expect(hostedPublished.tools.map((t) => t.name)).toEqual(HOSTED_NAMES);
    expect(hostedPublished.tools.every((t) => typeof t.outputSchema === "object")).toBe(true);
    expect(published.version).toMatch(/^commit 7b49c394c34a8c6f77b07e84b1c8559f8216fc73 /);
    expect(published.license).toMatch(/^Apache-2\.0, Copyright 2025 Google LLC/);
    expect(published.source).toMatch(/^gemini-cli-extensions\/workspace /);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      ...HOSTED_NAMES,
      "gmail.search",
      "gmail.get",
      "gmail.downloadAttachment",
      "gmail.modify",
      "gmail.send",
      "gmail.createDraft",
      "gmail.sendDraft",
      "gmail.listLabels",
    ]);
    expect(tools).toEqual([...hostedPublished.tools, ...published.tools]);
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

describe("an agent written for Google's hosted Gmail MCP server works against the mailbox unchanged", () => {
  const A = (n: number) => `19a0c0de0000a0${n.toString(16).padStart(2, "0")}`;
  let box: Sandbox;
  let agent: Client;
  let api: gmail_v1.Gmail;

  beforeAll(async () => {
    box = await createSandbox({ twins: ["gmail"] });
    agent = await connect(`${box.per_twin.gmail.mcp_url}/official`, box.agent_token);
    api = gmailFor(box);
  });
  afterAll(async () => {
    await agent?.close();
  });

  /**
   * One tools/call through the SDK client's callTool, as an agent makes it: once it has listed the
   * tools, it refuses a successful result without structured content that fits the tool's
   * published output schema.
   */
  async function raw(name: string, args: Record<string, unknown>) {
    if (!listed) {
      await agent.listTools();
      listed = true;
    }
    return CallToolResultSchema.parse(await agent.callTool({ name, arguments: args }));
  }
  let listed = false;
  /** A successful answer: compact JSON of the tool's output message, and the same as structured content. */
  async function ok<T>(name: string, args: Record<string, unknown>): Promise<T> {
    const result = await raw(name, args);
    expect(result.isError ?? false, `${name} ${textOf(result)}`).toBe(false);
    const value = JSON.parse(textOf(result)) as T;
    expect(textOf(result)).toBe(JSON.stringify(value));
    expect(result.structuredContent).toEqual(value);
    // The answer conforms to the tool's published output schema, checked as the SDK client checks
    // structured content (its default validator).
    const schema = hostedPublished.tools.find((t) => t.name === name)?.outputSchema as Parameters<typeof outputs.getValidator>[0];
    const checked = outputs.getValidator(schema)(value);
    expect(checked.valid, `${name}: ${checked.errorMessage}`).toBe(true);
    return value;
  }
  /** A refusal: an MCP tool error with the reason as text. */
  async function refusal(name: string, args: Record<string, unknown>): Promise<string> {
    const result = await raw(name, args);
    expect(result.isError, `${name} ${textOf(result)}`).toBe(true);
    return textOf(result);
  }
  const outputs = new AjvJsonSchemaValidator();
  const mcpRows = async () => (await tapeOf(box, "gmail")).filter((r) => r.transport === "mcp");

  type Message = Record<string, unknown> & { id: string; labelIds?: string[] };

  it("search_threads lists threads with their messages in the view asked for; trash only when asked, spam never", async () => {
    const found = await ok<{ threads: { id: string; messages: Message[] }[]; resultCountEstimate: string }>("search_threads", {
      query: "from:dana@customer.test",
    });
    expect(found.resultCountEstimate).toBe("1");
    expect(found.threads.map((t) => t.id)).toEqual([A(1)]);
    const thread = (await api.users.threads.get({ userId: "me", id: A(1), format: "metadata" })).data;
    expect(found.threads[0].messages.map((m) => m.id)).toEqual(thread.messages?.map((m) => m.id));
    expect(found.threads[0].messages[0]).toEqual({
      id: A(1),
      snippet: thread.messages?.[0].snippet,
      subject: "Refund request for order #1234",
      sender: "dana@customer.test",
      toRecipients: ["agent@northwind.test"],
      date: "2026-01-05",
      labelIds: ["INBOX", "UNREAD"],
    });
    const bare = await ok<{ threads: { messages: Message[] }[] }>("search_threads", {
      query: "from:dana@customer.test",
      view: "THREAD_VIEW_METADATA_ONLY",
    });
    expect(Object.keys(bare.threads[0].messages[0]).sort()).toEqual(["date", "id", "labelIds", "sender", "toRecipients"]);

    // The trashed welcome mail appears only with includeTrash; the spam never.
    expect(await ok("search_threads", { query: "from:hello@vendor.test" })).toEqual({});
    const trashed = await ok<{ threads: { id: string }[] }>("search_threads", { query: "from:hello@vendor.test", includeTrash: true });
    expect(trashed.threads.map((t) => t.id)).toEqual([A(12)]);
    expect(await ok("search_threads", { query: "from:winner@lottery.test", includeTrash: true })).toEqual({});

    // Pages of pageSize, as threads.list pages them.
    const first = await ok<{ threads: { id: string }[]; nextPageToken: string }>("search_threads", { pageSize: 2 });
    const second = await ok<{ threads: { id: string }[] }>("search_threads", { pageSize: 2, pageToken: first.nextPageToken });
    const listed = await api.users.threads.list({ userId: "me", maxResults: 4 });
    expect([...first.threads, ...second.threads].map((t) => t.id)).toEqual(listed.data.threads?.map((t) => t.id));
  });

  it("get_thread and get_message answer the message fields each format shows; a missing message is Gmail's refusal", async () => {
    const thread = await ok<{ id: string; messages: Message[] }>("get_thread", { threadId: A(1) });
    expect(thread.id).toBe(A(1));
    expect(thread.messages[0]).toMatchObject({
      plaintextBody: "Hi, I was charged twice for order #1234. Could you refund one of the charges?",
      htmlBody: "<p>Hi, I was charged twice for order #1234. Could you refund one of the charges?</p>",
    });
    expect(thread.messages[1]).toMatchObject({ id: A(2), sender: "agent@northwind.test", labelIds: ["SENT"] });

    const invoice = await ok<Message & { attachments: { id: string; filename: string; mimeType: string }[]; attachmentIds: string[] }>(
      "get_message",
      { messageId: A(3) },
    );
    const full = (await api.users.messages.get({ userId: "me", id: A(3), format: "full" })).data;
    const pdf = full.payload?.parts?.find((p) => p.filename === "INV-2041.pdf");
    expect(invoice.attachments).toEqual([{ filename: "INV-2041.pdf", id: pdf?.body?.attachmentId, mimeType: "application/pdf" }]);
    expect(invoice.attachmentIds).toEqual([pdf?.body?.attachmentId]);
    expect(invoice.labelIds).toEqual(["INBOX", "Label_1"]);
    // CATEGORY_* labels are not among the ones the server's Message lists.
    const deals = await ok<Message>("get_message", { messageId: A(4), messageFormat: "MINIMAL" });
    expect(deals).toEqual({
      id: A(4),
      snippet: "Save 40% on everything this week only.",
      subject: "This week's top deals",
      sender: "news@deals.test",
      toRecipients: ["agent@northwind.test"],
      date: "2026-01-05",
      labelIds: ["INBOX", "UNREAD"],
    });
    const meta = await ok<Message>("get_message", { messageId: A(4), messageFormat: "METADATA_ONLY" });
    expect(meta.subject).toBeUndefined();
    expect(meta.snippet).toBeUndefined();

    const missing = await api.users.messages.get({ userId: "me", id: "19a0c0de0000ffff" }).catch((e: { message: string }) => e.message);
    expect(await refusal("get_message", { messageId: "19a0c0de0000ffff" })).toBe(missing);
  });

  it("list_labels answers every label with its id, name, colour and counts as labels.get gives them", async () => {
    const { labels } = await ok<{ labels: Record<string, unknown>[] }>("list_labels", {});
    const receipts = (await api.users.labels.get({ userId: "me", id: "Label_1" })).data;
    expect(labels).toContainEqual({
      labelId: "Label_1",
      name: "Receipts",
      color: { backgroundColor: "#16a766", textColor: "#ffffff" },
      messagesTotal: receipts.messagesTotal,
      threadsTotal: receipts.threadsTotal,
    });
    const listed = (await api.users.labels.list({ userId: "me" })).data.labels ?? [];
    expect(labels.map((l) => l.labelId)).toEqual(listed.map((l) => l.id));
  });

  it("create_label creates missing parents first unless told not to; an existing name is Gmail's refusal", async () => {
    const made = await ok<{ labelId: string; name: string; color: unknown }>("create_label", {
      displayName: "Projects/Alpha/Sprint-1",
      color: { backgroundColor: "#4a86e8", textColor: "#ffffff" },
    });
    expect(made).toEqual({
      labelId: expect.stringMatching(/^Label_/),
      name: "Projects/Alpha/Sprint-1",
      color: { backgroundColor: "#4a86e8", textColor: "#ffffff" },
    });
    const names = ((await api.users.labels.list({ userId: "me" })).data.labels ?? []).map((l) => l.name);
    expect(names).toEqual(expect.arrayContaining(["Projects", "Projects/Alpha", "Projects/Alpha/Sprint-1"]));
    await ok("create_label", { displayName: "Areas/Ops", autoCreateParentLabels: false });
    const after = ((await api.users.labels.list({ userId: "me" })).data.labels ?? []).map((l) => l.name);
    expect(after).toContain("Areas/Ops");
    expect(after).not.toContain("Areas");
    // A refused name changes nothing, its would-be parents included.
    expect(await refusal("create_label", { displayName: "Receipts" })).toMatch(/exists|conflict/i);
    expect(await refusal("create_label", { displayName: `Deep/${"x".repeat(300)}` })).toBe("Invalid label name");
    expect(((await api.users.labels.list({ userId: "me" })).data.labels ?? []).map((l) => l.name)).toEqual(after);
  });

  it("label_message and unlabel_message change one message; Trash and Spam are left to apply_sensitive_message_label", async () => {
    expect(await ok("label_message", { messageId: A(8), labelIds: ["STARRED", "Label_1"] })).toEqual({});
    let labels = (await api.users.messages.get({ userId: "me", id: A(8), format: "minimal" })).data.labelIds;
    expect(labels).toEqual(expect.arrayContaining(["INBOX", "STARRED", "Label_1"]));
    expect(await ok("unlabel_message", { messageId: A(8), labelIds: ["INBOX"] })).toEqual({});
    labels = (await api.users.messages.get({ userId: "me", id: A(8), format: "minimal" })).data.labelIds;
    expect(labels).not.toContain("INBOX");

    const before = (await mcpRows()).length;
    expect(await refusal("label_message", { messageId: A(8), labelIds: ["TRASH"] })).toMatch(/apply_sensitive_message_label/);
    expect((await mcpRows()).length).toBe(before);

    expect(await ok("apply_sensitive_message_label", { messageId: A(8), labelOption: "TRASH" })).toEqual({});
    expect((await api.users.messages.get({ userId: "me", id: A(8), format: "minimal" })).data.labelIds).toContain("TRASH");
    expect(await ok("apply_sensitive_message_label", { messageId: A(9), labelOption: "SPAM" })).toEqual({});
    labels = (await api.users.messages.get({ userId: "me", id: A(9), format: "minimal" })).data.labelIds;
    expect(labels).toContain("SPAM");
    expect(labels).not.toContain("INBOX");
    expect(await refusal("apply_sensitive_message_label", { messageId: A(9), labelOption: "LABEL_OPTION_UNSPECIFIED" })).toMatch(
      /TRASH or SPAM/,
    );
  });

  it("label_thread, unlabel_thread and apply_sensitive_thread_label change every message of the thread", async () => {
    expect(await ok("label_thread", { threadId: A(1), labelIds: ["Label_2"] })).toEqual({});
    const thread = async () => (await api.users.threads.get({ userId: "me", id: A(1), format: "minimal" })).data.messages ?? [];
    expect((await thread()).every((m) => m.labelIds?.includes("Label_2"))).toBe(true);
    expect(await ok("unlabel_thread", { threadId: A(1), labelIds: ["Label_2", "UNREAD"] })).toEqual({});
    expect((await thread()).some((m) => m.labelIds?.includes("Label_2") || m.labelIds?.includes("UNREAD"))).toBe(false);
    expect(await refusal("label_thread", { threadId: A(1), labelIds: ["SPAM"] })).toMatch(/apply_sensitive_thread_label/);

    expect(await ok("apply_sensitive_thread_label", { threadId: A(6), labelOption: "TRASH" })).toEqual({});
    expect((await api.users.threads.get({ userId: "me", id: A(6), format: "minimal" })).data.messages?.[0].labelIds).toContain("TRASH");
    const missing = await api.users.threads.get({ userId: "me", id: "19a0c0de0000ffff" }).catch((e: { message: string }) => e.message);
    expect(await refusal("apply_sensitive_thread_label", { threadId: "19a0c0de0000ffff", labelOption: "TRASH" })).toBe(missing);
  });

  it("create_draft writes the draft (bodies, attachments, a reply in its thread) and answers its id; list_drafts lists drafts", async () => {
    const before = (await mcpRows()).length;
    expect(await refusal("create_draft", { to: ["Lee <lee@partner.test>"], subject: "x" })).toMatch(/to\[0\]/);
    expect((await mcpRows()).length).toBe(before);

    const pdf = "JVBERi0xLjQK";
    const draft = await ok<{ id: string }>("create_draft", {
      to: ["lee@partner.test", "sam@northwind.test"],
      cc: ["dana@customer.test"],
      subject: "Agenda",
      body: "Tuesday 10:00",
      htmlBody: "<p>Tuesday 10:00</p>",
      attachments: [{ content: pdf, filename: "agenda.pdf", mimeType: "application/pdf" }],
    });
    expect(Object.keys(draft)).toEqual(["id"]);
    const stored = (await api.users.drafts.get({ userId: "me", id: draft.id, format: "full" })).data.message;
    const header = (name: string) => stored?.payload?.headers?.find((h) => h.name === name)?.value;
    expect(header("To")).toBe("lee@partner.test, sam@northwind.test");
    expect(header("Cc")).toBe("dana@customer.test");
    expect(header("Subject")).toBe("Agenda");
    expect(stored?.payload?.mimeType).toBe("multipart/mixed");
    expect(stored?.payload?.parts?.[0].mimeType).toBe("multipart/alternative");
    expect(stored?.payload?.parts?.[1]).toMatchObject({ filename: "agenda.pdf", mimeType: "application/pdf" });

    const reply = await ok<{ id: string }>("create_draft", { to: ["dana@customer.test"], body: "Refunded.", replyToMessageId: A(1) });
    const replied = (await api.users.drafts.get({ userId: "me", id: reply.id, format: "full" })).data.message;
    expect(replied?.threadId).toBe(A(1));
    const rh = (name: string) => replied?.payload?.headers?.find((h) => h.name === name)?.value;
    expect(rh("In-Reply-To")).toBe("<m1@customer.test>");
    expect(rh("Subject")).toBe("Re: Refund request for order #1234");

    // The view's default is metadata only: no subject, no body.
    const listed = await ok<{ drafts: Record<string, unknown>[] }>("list_drafts", {});
    const ids = ((await api.users.drafts.list({ userId: "me" })).data.drafts ?? []).map((d) => d.id);
    expect(listed.drafts.map((d) => d.id)).toEqual(ids);
    const agenda = listed.drafts.find((d) => d.id === draft.id);
    expect(agenda).toEqual({
      id: draft.id,
      threadId: stored?.threadId,
      toRecipients: ["lee@partner.test", "sam@northwind.test"],
      ccRecipients: ["dana@customer.test"],
      date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    });
    const fullView = await ok<{ drafts: Record<string, unknown>[] }>("list_drafts", { query: "subject:Agenda", view: "DRAFT_VIEW_FULL" });
    // The bodies as the stored parts hold them (the line end before the boundary included).
    const part = (i: number) => Buffer.from(stored?.payload?.parts?.[0].parts?.[i].body?.data ?? "", "base64url").toString("utf8");
    expect(part(0).trim()).toBe("Tuesday 10:00");
    expect(fullView.drafts).toEqual([{ ...agenda, subject: "Agenda", plaintextBody: part(0), htmlBody: part(1) }]);
    const paged = await ok<{ drafts: unknown[]; nextPageToken: string }>("list_drafts", { pageSize: 1 });
    expect(paged.drafts).toHaveLength(1);
    expect(paged.nextPageToken).toEqual(expect.any(String));
  });

  it("every hosted tool was carried out over the Gmail API and taped", async () => {
    const operations = new Set((await mcpRows()).map((r) => r.operation));
    for (const op of [
      "gmail.users.threads.list",
      "gmail.users.threads.get",
      "gmail.users.messages.get",
      "gmail.users.labels.list",
      "gmail.users.labels.get",
      "gmail.users.labels.create",
      "gmail.users.messages.modify",
      "gmail.users.messages.trash",
      "gmail.users.threads.modify",
      "gmail.users.threads.trash",
      "gmail.users.drafts.create",
      "gmail.users.drafts.list",
      "gmail.users.drafts.get",
    ]) {
      expect(operations, op).toContain(op);
    }
  });
});
