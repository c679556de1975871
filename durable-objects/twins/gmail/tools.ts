// Gmail's MCP tools: typed fronts for the REST calls googleapis makes, in Gmail's own argument
// names. Composing tools (send, draft) take address, subject and body and build the RFC 822
// message the REST call carries; the call then runs through the same dispatch and tape.
import { z } from "zod";
import { toBase64Url, utf8 } from "../kit/bytes";
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
  const params = new URLSearchParams(
    query(
      Object.fromEntries(
        Object.entries(rest).filter((e): e is [string, string | number | boolean] => ["string", "number", "boolean"].includes(typeof e[1])),
      ),
    ),
  );
  for (const l of labels ?? []) params.append("labelIds", l);
  return params.toString();
}

/** The RFC 822 text of a composed tool message, base64url as Gmail's `raw` takes it. */
function rawOf(a: { to: string; subject: string; body: string; cc?: string; inReplyTo?: string }): string {
  const headers: Header[] = [{ name: "To", value: a.to }];
  if (a.cc) headers.push({ name: "Cc", value: a.cc });
  headers.push({ name: "Subject", value: a.subject });
  if (a.inReplyTo) headers.push({ name: "In-Reply-To", value: a.inReplyTo }, { name: "References", value: a.inReplyTo });
  return toBase64Url(utf8(serialize(mimeTree({ headers, text: a.body, attachments: [] }, "tool"))));
}

/** A GET whose query is built from repeated keys, as googleapis sends arrays. */
function listRequest(path: string, args: Record<string, unknown> & { labelIds?: string[] }) {
  return { method: "GET", path, query: Object.fromEntries(new URLSearchParams(listQuery(args))) };
}

export const gmailTools: readonly TwinTool[] = [
  tool({
    name: "get_profile",
    description: "The mailbox's address, message and thread totals, and current historyId.",
    input: {},
    readOnly: true,
    toRequest: () => ({ method: "GET", path: `${U}/profile` }),
  }),
  tool({
    name: "list_messages",
    description: "List message ids, newest first, filtered by Gmail search and labels (all labels must match).",
    input: listArgs,
    readOnly: true,
    toRequest: (a) => listRequest(`${U}/messages`, a),
  }),
  tool({
    name: "get_message",
    description: "Get one message: headers, body parts, labels and snippet.",
    input: { id: id("message"), format },
    readOnly: true,
    toRequest: (a) => ({ method: "GET", path: `${U}/messages/${seg(a.id)}`, query: query({ format: a.format }) }),
  }),
  tool({
    name: "send_message",
    description:
      "Send a plain-text message from the mailbox. To reply in a thread, give threadId and the original Message-ID as inReplyTo, and keep the subject (Re: is fine).",
    input: compose,
    toRequest: (a) => ({
      method: "POST",
      path: `${U}/messages/send`,
      body: a.threadId ? { raw: rawOf(a), threadId: a.threadId } : { raw: rawOf(a) },
    }),
  }),
  tool({
    name: "modify_message",
    description: "Add and remove labels on a message (archive: remove INBOX; mark read: remove UNREAD).",
    input: { id: id("message"), addLabelIds: labelIds, removeLabelIds: labelIds },
    toRequest: ({ id: m, ...body }) => ({ method: "POST", path: `${U}/messages/${seg(m)}/modify`, body }),
  }),
  tool({
    name: "trash_message",
    description: "Move a message to the trash.",
    input: { id: id("message") },
    destructive: true,
    toRequest: (a) => ({ method: "POST", path: `${U}/messages/${seg(a.id)}/trash` }),
  }),
  tool({
    name: "list_threads",
    description: "List threads, newest first, filtered like list_messages.",
    input: listArgs,
    readOnly: true,
    toRequest: (a) => listRequest(`${U}/threads`, a),
  }),
  tool({
    name: "get_thread",
    description: "Get a thread with all its messages, oldest first.",
    input: { id: id("thread"), format },
    readOnly: true,
    toRequest: (a) => ({ method: "GET", path: `${U}/threads/${seg(a.id)}`, query: query({ format: a.format }) }),
  }),
  tool({
    name: "list_labels",
    description: "List system and user labels with their ids.",
    input: {},
    readOnly: true,
    toRequest: () => ({ method: "GET", path: `${U}/labels` }),
  }),
  tool({
    name: "create_label",
    description: "Create a user label; names are unique, case-insensitively.",
    input: { name: z.string().min(1).describe("The label's name") },
    toRequest: (a) => ({ method: "POST", path: `${U}/labels`, body: a }),
  }),
  tool({
    name: "list_drafts",
    description: "List drafts, newest first.",
    input: { q: listArgs.q, maxResults: listArgs.maxResults, pageToken: listArgs.pageToken },
    readOnly: true,
    toRequest: (a) => listRequest(`${U}/drafts`, a),
  }),
  tool({
    name: "create_draft",
    description: "Save a plain-text draft (not sent).",
    input: compose,
    toRequest: (a) => ({
      method: "POST",
      path: `${U}/drafts`,
      body: { message: a.threadId ? { raw: rawOf(a), threadId: a.threadId } : { raw: rawOf(a) } },
    }),
  }),
  tool({
    name: "send_draft",
    description: "Send a draft by its draft id (r…); the draft is removed and a SENT message stored.",
    input: { id: z.string().min(1).describe("The draft's id, e.g. r7390128431662530001") },
    toRequest: (a) => ({ method: "POST", path: `${U}/drafts/send`, body: { id: a.id } }),
  }),
  tool({
    name: "untrash_message",
    description: "Take a message out of the trash, back where trash took it from (the inbox, or spam).",
    input: { id: id("message") },
    toRequest: (a) => ({ method: "POST", path: `${U}/messages/${seg(a.id)}/untrash` }),
  }),
  tool({
    name: "batch_modify_messages",
    description: "Add and remove labels on many messages at once (unknown ids are skipped).",
    input: { ids: z.array(z.string().min(1)).min(1).max(1000).describe("Message ids"), addLabelIds: labelIds, removeLabelIds: labelIds },
    toRequest: (body) => ({ method: "POST", path: `${U}/messages/batchModify`, body }),
  }),
  tool({
    name: "modify_thread",
    description: "Add and remove labels on every message of a thread.",
    input: { id: id("thread"), addLabelIds: labelIds, removeLabelIds: labelIds },
    toRequest: ({ id: t, ...body }) => ({ method: "POST", path: `${U}/threads/${seg(t)}/modify`, body }),
  }),
  tool({
    name: "trash_thread",
    description: "Move every message of a thread to the trash.",
    input: { id: id("thread") },
    destructive: true,
    toRequest: (a) => ({ method: "POST", path: `${U}/threads/${seg(a.id)}/trash` }),
  }),
  tool({
    name: "untrash_thread",
    description: "Take a thread's messages out of the trash, each back where trash took it from.",
    input: { id: id("thread") },
    toRequest: (a) => ({ method: "POST", path: `${U}/threads/${seg(a.id)}/untrash` }),
  }),
  tool({
    name: "get_label",
    description: "Get a label with its message and thread counts (total and unread).",
    input: { id: z.string().min(1).describe('The label id, e.g. "INBOX" or "Label_1"') },
    readOnly: true,
    toRequest: (a) => ({ method: "GET", path: `${U}/labels/${seg(a.id)}` }),
  }),
  tool({
    name: "update_label",
    description: "Rename a user label or change its visibility.",
    input: {
      id: z.string().min(1).describe('The user label id, e.g. "Label_1"'),
      name: z.string().min(1).optional().describe("The new name"),
      labelListVisibility: z.enum(["labelShow", "labelShowIfUnread", "labelHide"]).optional().describe("Shown in the label list"),
      messageListVisibility: z.enum(["show", "hide"]).optional().describe("Shown on messages"),
    },
    toRequest: ({ id: l, ...body }) => ({ method: "PATCH", path: `${U}/labels/${seg(l)}`, body }),
  }),
  tool({
    name: "delete_label",
    description: "Delete a user label; messages keep everything else.",
    input: { id: z.string().min(1).describe('The user label id, e.g. "Label_1"') },
    destructive: true,
    toRequest: (a) => ({ method: "DELETE", path: `${U}/labels/${seg(a.id)}` }),
  }),
  tool({
    name: "get_draft",
    description: "Get a draft and its message.",
    input: { id: z.string().min(1).describe("The draft's id, e.g. r7390128431662530001"), format },
    readOnly: true,
    toRequest: (a) => ({ method: "GET", path: `${U}/drafts/${seg(a.id)}`, query: query({ format: a.format }) }),
  }),
  tool({
    name: "update_draft",
    description: "Replace a draft's message with a new plain-text one.",
    input: { id: z.string().min(1).describe("The draft's id"), ...compose },
    toRequest: ({ id: d, ...a }) => ({
      method: "PUT",
      path: `${U}/drafts/${seg(d)}`,
      body: { message: a.threadId ? { raw: rawOf(a), threadId: a.threadId } : { raw: rawOf(a) } },
    }),
  }),
  tool({
    name: "delete_draft",
    description: "Delete a draft (it is not sent).",
    input: { id: z.string().min(1).describe("The draft's id") },
    destructive: true,
    toRequest: (a) => ({ method: "DELETE", path: `${U}/drafts/${seg(a.id)}` }),
  }),
  tool({
    name: "list_send_as",
    description: "The addresses the mailbox can send as, with display names.",
    input: {},
    readOnly: true,
    toRequest: () => ({ method: "GET", path: `${U}/settings/sendAs` }),
  }),
  tool({
    name: "list_filters",
    description: "The mailbox's filters: criteria and the labels they add or remove.",
    input: {},
    readOnly: true,
    toRequest: () => ({ method: "GET", path: `${U}/settings/filters` }),
  }),
  tool({
    name: "create_filter",
    description: "Create a filter for arriving mail: match by sender, recipient, subject or a search, then add or remove labels.",
    input: {
      from: z.string().optional().describe("Sender to match"),
      to: z.string().optional().describe("Recipient to match"),
      subject: z.string().optional().describe("Subject text to match"),
      query: z.string().optional().describe("A Gmail search to match"),
      addLabelIds: labelIds,
      removeLabelIds: labelIds,
    },
    toRequest: ({ addLabelIds: add, removeLabelIds: remove, ...criteria }) => ({
      method: "POST",
      path: `${U}/settings/filters`,
      body: { criteria, action: { ...(add ? { addLabelIds: add } : {}), ...(remove ? { removeLabelIds: remove } : {}) } },
    }),
  }),
  tool({
    name: "delete_filter",
    description: "Delete a filter by its id.",
    input: { id: z.string().min(1).describe("The filter's id") },
    destructive: true,
    toRequest: (a) => ({ method: "DELETE", path: `${U}/settings/filters/${seg(a.id)}` }),
  }),
  tool({
    name: "get_vacation",
    description: "The auto-reply (vacation responder) settings.",
    input: {},
    readOnly: true,
    toRequest: () => ({ method: "GET", path: `${U}/settings/vacation` }),
  }),
  tool({
    name: "update_vacation",
    description: "Turn the auto-reply on or off and set its subject and text.",
    input: {
      enableAutoReply: z.boolean().describe("Whether the responder is on"),
      responseSubject: z.string().optional().describe("Subject of the automatic reply"),
      responseBodyPlainText: z.string().optional().describe("Text of the automatic reply"),
    },
    toRequest: (body) => ({ method: "PUT", path: `${U}/settings/vacation`, body }),
  }),
  tool({
    name: "update_send_as",
    description: "Change a send-as address's display name, reply-to address or signature (HTML); only the fields given change.",
    input: {
      sendAsEmail: z.string().min(3).describe("The send-as address, e.g. the mailbox's own address"),
      displayName: z.string().optional().describe("Name shown in From"),
      replyToAddress: z.string().optional().describe("Reply-To address for mail sent as this address"),
      signature: z.string().optional().describe("Signature, as HTML"),
    },
    toRequest: ({ sendAsEmail, ...body }) => ({ method: "PATCH", path: `${U}/settings/sendAs/${seg(sendAsEmail)}`, body }),
  }),
  tool({
    name: "create_send_as",
    description: "Add an address to send as; one outside the mailbox's domain stays pending until its owner confirms it.",
    input: {
      sendAsEmail: z.string().min(3).describe("The address to send as"),
      displayName: z.string().optional().describe("Name shown in From"),
      signature: z.string().optional().describe("Signature, as HTML"),
    },
    toRequest: (body) => ({ method: "POST", path: `${U}/settings/sendAs`, body }),
  }),
  tool({
    name: "list_forwarding_addresses",
    description: "The addresses mail may be forwarded to, with their verification status.",
    input: {},
    readOnly: true,
    toRequest: () => ({ method: "GET", path: `${U}/settings/forwardingAddresses` }),
  }),
  tool({
    name: "create_forwarding_address",
    description: "Add a forwarding address; one outside the mailbox's domain stays pending until its owner confirms it.",
    input: { forwardingEmail: z.string().min(3).describe("The address to forward to") },
    toRequest: (body) => ({ method: "POST", path: `${U}/settings/forwardingAddresses`, body }),
  }),
  tool({
    name: "get_auto_forwarding",
    description: "Whether arriving mail is forwarded, to which address, and what happens to Gmail's copy.",
    input: {},
    readOnly: true,
    toRequest: () => ({ method: "GET", path: `${U}/settings/autoForwarding` }),
  }),
  tool({
    name: "update_auto_forwarding",
    description: "Turn forwarding of arriving mail on (to an accepted forwarding address) or off.",
    input: {
      enabled: z.boolean().describe("Whether to forward"),
      emailAddress: z.string().optional().describe("An accepted forwarding address"),
      disposition: z.enum(["leaveInInbox", "archive", "trash", "markRead"]).optional().describe("What to do with Gmail's copy"),
    },
    toRequest: (body) => ({ method: "PUT", path: `${U}/settings/autoForwarding`, body }),
  }),
  tool({
    name: "list_delegates",
    description: "The people who may read and send mail on the mailbox's behalf.",
    input: {},
    readOnly: true,
    toRequest: () => ({ method: "GET", path: `${U}/settings/delegates` }),
  }),
];

const ADMIN = "an administration call that puts mail in the mailbox without sending it; not an agent's action";
const PERMANENT = "permanent deletion is kept off the tool surface; the trash tools are the reversible form";

export const gmailUntooled: Readonly<Record<string, string>> = {
  "gmail.users.messages.insert": ADMIN,
  "gmail.users.messages.import": ADMIN,
  "gmail.users.messages.delete": PERMANENT,
  "gmail.users.messages.batchDelete": PERMANENT,
  "gmail.users.threads.delete": PERMANENT,
  "gmail.users.messages.attachments.get": "attachment bytes are base64 blobs, not useful to a model; reachable over REST",
  "gmail.users.labels.update": "update_label uses PATCH (labels.patch), which changes only the fields given",
  "gmail.users.history.list": "a sync protocol for mail clients, not an agent's tool; reachable over REST",
  "gmail.users.settings.filters.get": "list_filters returns every filter with its id and fields",
  "gmail.users.settings.sendAs.get": "list_send_as returns every send-as address with its fields",
  "gmail.users.settings.sendAs.update": "update_send_as uses PATCH (sendAs.patch), which changes only the fields given",
  "gmail.users.settings.sendAs.delete": "removing an identity is an account administrator's step; reachable over REST",
  "gmail.users.settings.sendAs.verify": "re-sends a verification mail to the alias's owner; reachable over REST",
  "gmail.users.settings.forwardingAddresses.get": "list_forwarding_addresses returns every address with its status",
  "gmail.users.settings.forwardingAddresses.delete": "an account administrator's step; reachable over REST",
  "gmail.users.settings.delegates.get": "list_delegates returns every delegate with its status",
  "gmail.users.settings.delegates.create":
    "granting mailbox access is an administrator's step (it needs domain-wide authority); reachable over REST",
  "gmail.users.settings.delegates.delete": "revoking mailbox access is an administrator's step; reachable over REST",
  "gmail.users.settings.getImap": "mail-client access settings, not an agent's concern; reachable over REST",
  "gmail.users.settings.updateImap": "mail-client access settings, not an agent's concern; reachable over REST",
  "gmail.users.settings.getPop": "mail-client access settings, not an agent's concern; reachable over REST",
  "gmail.users.settings.updatePop": "mail-client access settings, not an agent's concern; reachable over REST",
  "gmail.users.settings.getLanguage": "the display language of Gmail's own pages; reachable over REST",
  "gmail.users.settings.updateLanguage": "the display language of Gmail's own pages; reachable over REST",
  "gmail.users.watch": "push notifications are a mail client's sync channel, not an agent's action; reachable over REST",
  "gmail.users.stop": "push notifications are a mail client's sync channel, not an agent's action; reachable over REST",
};
