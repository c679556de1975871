// Gmail's MCP tools: typed fronts for the REST calls googleapis makes, in Gmail's own argument
// names. Composing tools (send, draft) take address, subject and body and build the RFC 822
// message the REST call carries; the call then runs through the same dispatch and tape.
import { z } from "zod";
import { encodeBase64Url, utf8 } from "../kit/base64";
import { query, seg, tool } from "../kit/tools";
import type { TwinTool } from "../types";
import { mimeTree, serialize, type Header } from "./mime";

const U = "/gmail/v1/users/me";
const id = (what: string) => z.string().min(1).describe(`The ${what}'s id (hex, as Gmail gives it)`);
const labelIds = z.array(z.string()).optional().describe('Label ids, e.g. ["INBOX", "UNREAD"] or a user label\'s "Label_1"');
const format = z.enum(["full", "metadata", "minimal", "raw"]).optional().describe("How much of the message to return (default full)");
const listArgs = {
  q: z.string().optional().describe('Gmail search, e.g. "from:dana@customer.test is:unread"'),
  labelIds,
  maxResults: z.number().int().min(1).max(500).optional().describe("Page size (default 100)"),
  pageToken: z.string().optional().describe("nextPageToken of the previous page"),
  includeSpamTrash: z.boolean().optional().describe("Include SPAM and TRASH"),
};
const compose = {
  to: z.string().min(3).describe("Recipients, comma-separated"),
  subject: z.string().describe("Subject line"),
  body: z.string().describe("Plain-text body"),
  cc: z.string().optional().describe("Cc recipients, comma-separated"),
  inReplyTo: z.string().optional().describe("Message-ID header of the mail replied to, e.g. <m1@customer.test>"),
  threadId: z.string().optional().describe("Thread to reply in (needs inReplyTo and a matching subject)"),
};

function listQuery(a: { labelIds?: string[] } & Record<string, unknown>): string {
  const { labelIds: labels, ...rest } = a;
  const params = new URLSearchParams(query(Object.fromEntries(Object.entries(rest).filter((e): e is [string, string | number | boolean] => ["string", "number", "boolean"].includes(typeof e[1])))));
  for (const l of labels ?? []) params.append("labelIds", l);
  return params.toString();
}

/** The RFC 822 text of a composed tool message, base64url as Gmail's `raw` takes it. */
function rawOf(a: { to: string; subject: string; body: string; cc?: string; inReplyTo?: string }): string {
  const headers: Header[] = [{ name: "To", value: a.to }];
  if (a.cc) headers.push({ name: "Cc", value: a.cc });
  headers.push({ name: "Subject", value: a.subject });
  if (a.inReplyTo) headers.push({ name: "In-Reply-To", value: a.inReplyTo }, { name: "References", value: a.inReplyTo });
  return encodeBase64Url(utf8(serialize(mimeTree({ headers, text: a.body, attachments: [] }, "tool"))));
}

/** A GET whose query is built from repeated keys, as googleapis sends arrays. */
function listRequest(path: string, args: Record<string, unknown> & { labelIds?: string[] }) {
  return { method: "GET", path, query: Object.fromEntries(new URLSearchParams(listQuery(args))) };
}

export const gmailTools: readonly TwinTool[] = [
  tool({ name: "get_profile", description: "The mailbox's address, message and thread totals, and current historyId.", input: {}, readOnly: true, toRequest: () => ({ method: "GET", path: `${U}/profile` }) }),
  tool({ name: "list_messages", description: "List message ids, newest first, filtered by Gmail search and labels (all labels must match).", input: listArgs, readOnly: true, toRequest: (a) => listRequest(`${U}/messages`, a) }),
  tool({
    name: "get_message",
    description: "Get one message: headers, body parts, labels and snippet.",
    input: { id: id("message"), format },
    readOnly: true,
    toRequest: (a) => ({ method: "GET", path: `${U}/messages/${seg(a.id)}`, query: query({ format: a.format }) }),
  }),
  tool({
    name: "send_message",
    description: "Send a plain-text message from the mailbox. To reply in a thread, give threadId and the original Message-ID as inReplyTo, and keep the subject (Re: is fine).",
    input: compose,
    toRequest: (a) => ({ method: "POST", path: `${U}/messages/send`, body: a.threadId ? { raw: rawOf(a), threadId: a.threadId } : { raw: rawOf(a) } }),
  }),
  tool({
    name: "modify_message",
    description: "Add and remove labels on a message (archive: remove INBOX; mark read: remove UNREAD).",
    input: { id: id("message"), addLabelIds: labelIds, removeLabelIds: labelIds },
    toRequest: ({ id: m, ...body }) => ({ method: "POST", path: `${U}/messages/${seg(m)}/modify`, body }),
  }),
  tool({ name: "trash_message", description: "Move a message to the trash.", input: { id: id("message") }, destructive: true, toRequest: (a) => ({ method: "POST", path: `${U}/messages/${seg(a.id)}/trash` }) }),
  tool({ name: "list_threads", description: "List threads, newest first, filtered like list_messages.", input: listArgs, readOnly: true, toRequest: (a) => listRequest(`${U}/threads`, a) }),
  tool({
    name: "get_thread",
    description: "Get a thread with all its messages, oldest first.",
    input: { id: id("thread"), format },
    readOnly: true,
    toRequest: (a) => ({ method: "GET", path: `${U}/threads/${seg(a.id)}`, query: query({ format: a.format }) }),
  }),
  tool({ name: "list_labels", description: "List system and user labels with their ids.", input: {}, readOnly: true, toRequest: () => ({ method: "GET", path: `${U}/labels` }) }),
  tool({
    name: "create_label",
    description: "Create a user label; names are unique, case-insensitively.",
    input: { name: z.string().min(1).describe("The label's name") },
    toRequest: (a) => ({ method: "POST", path: `${U}/labels`, body: a }),
  }),
  tool({ name: "list_drafts", description: "List drafts, newest first.", input: { q: listArgs.q, maxResults: listArgs.maxResults, pageToken: listArgs.pageToken }, readOnly: true, toRequest: (a) => listRequest(`${U}/drafts`, a) }),
  tool({
    name: "create_draft",
    description: "Save a plain-text draft (not sent).",
    input: compose,
    toRequest: (a) => ({ method: "POST", path: `${U}/drafts`, body: { message: a.threadId ? { raw: rawOf(a), threadId: a.threadId } : { raw: rawOf(a) } } }),
  }),
  tool({
    name: "send_draft",
    description: "Send a draft by its draft id (r…); the draft is removed and a SENT message stored.",
    input: { id: z.string().min(1).describe("The draft's id, e.g. r7390128431662530001") },
    toRequest: (a) => ({ method: "POST", path: `${U}/drafts/send`, body: { id: a.id } }),
  }),
];

const RARE = "rarely needed by agents; reachable over REST";

export const gmailUntooled: Readonly<Record<string, string>> = {
  "gmail.users.messages.insert": "puts mail in the mailbox without sending; an administration call, not an agent's",
  "gmail.users.messages.import": "imports mail as if received; an administration call, not an agent's",
  "gmail.users.messages.batchModify": RARE,
  "gmail.users.messages.untrash": RARE,
  "gmail.users.messages.delete": "permanent deletion is kept off the tool surface; trash_message is the reversible form",
  "gmail.users.messages.batchDelete": "permanent deletion is kept off the tool surface",
  "gmail.users.messages.attachments.get": "attachment bytes are base64 blobs, not useful to a model; reachable over REST",
  "gmail.users.threads.modify": RARE,
  "gmail.users.threads.trash": RARE,
  "gmail.users.threads.untrash": RARE,
  "gmail.users.threads.delete": "permanent deletion is kept off the tool surface",
  "gmail.users.labels.get": RARE,
  "gmail.users.labels.update": RARE,
  "gmail.users.labels.patch": RARE,
  "gmail.users.labels.delete": RARE,
  "gmail.users.drafts.get": RARE,
  "gmail.users.drafts.update": RARE,
  "gmail.users.drafts.delete": RARE,
  "gmail.users.history.list": "a sync protocol for clients, not an agent's tool",
  "gmail.users.settings.sendAs.list": RARE,
  "gmail.users.settings.filters.list": RARE,
  "gmail.users.settings.filters.get": RARE,
  "gmail.users.settings.filters.create": RARE,
  "gmail.users.settings.filters.delete": RARE,
  "gmail.users.settings.getVacation": RARE,
  "gmail.users.settings.updateVacation": RARE,
};
