// Gmail's MCP tools. Most are derived from the route declarations (declare.ts): a tool's arguments
// are its route's path, query and body fields in Gmail's own names, and it makes that one REST
// call. The tools written here are the ones no single route declares: composing tools take
// address, subject and body and build the RFC 822 message the REST call carries; the call then
// runs through the same dispatch and tape.
import { z } from "zod";
import { toBase64Url, utf8 } from "../kit/bytes";
import { toolsOf } from "../kit/route";
import { seg, tool } from "../kit/tools";
import type { TwinTool } from "../types";
import { mimeTree, serialize, type Header } from "./mime";
import { gmailRoutes } from "./routes";

const U = "/gmail/v1/users/me";
const labelIds = z.array(z.string()).optional().describe('Label ids, e.g. ["INBOX", "UNREAD"] or a user label\'s "Label_1"');
const compose = {
  to: z.string().min(3).describe("Recipients, comma-separated"),
  subject: z.string().describe("Subject line"),
  body: z.string().describe("Plain-text body"),
  cc: z.string().optional().describe("Cc recipients, comma-separated"),
  inReplyTo: z.string().optional().describe("Message-ID header of the mail replied to, e.g. <m1@customer.test>"),
  threadId: z.string().optional().describe("Thread to reply in (needs inReplyTo and a matching subject)"),
};

/** The RFC 822 text of a composed tool message, base64url as Gmail's `raw` takes it. */
function rawOf(a: { to: string; subject: string; body: string; cc?: string; inReplyTo?: string }): string {
  const headers: Header[] = [{ name: "To", value: a.to }];
  if (a.cc) headers.push({ name: "Cc", value: a.cc });
  headers.push({ name: "Subject", value: a.subject });
  if (a.inReplyTo) headers.push({ name: "In-Reply-To", value: a.inReplyTo }, { name: "References", value: a.inReplyTo });
  return toBase64Url(utf8(serialize(mimeTree({ headers, text: a.body, attachments: [] }, "tool"))));
}

/** A composed message as the `message` of a draft or the body of a send. */
const composed = (a: Parameters<typeof rawOf>[0] & { threadId?: string }) =>
  a.threadId ? { raw: rawOf(a), threadId: a.threadId } : { raw: rawOf(a) };

/**
 * The tools that are not one route's front, so no declaration can derive them. messages.send,
 * drafts.create and drafts.update take a base64url RFC 822 `raw`, which a model should not have to
 * write: their tools take the parts of a plain-text mail and build it.
 */
const extraTools: readonly TwinTool[] = [
  // Builds the message messages.send carries.
  tool({
    name: "send_message",
    description:
      "Send a plain-text message from the mailbox. To reply in a thread, give threadId and the original Message-ID as inReplyTo, and keep the subject (Re: is fine).",
    input: compose,
    toRequest: (a) => ({ method: "POST", path: `${U}/messages/send`, body: composed(a) }),
  }),
  // Builds the message drafts.create carries.
  tool({
    name: "create_draft",
    description: "Save a plain-text draft (not sent).",
    input: compose,
    toRequest: (a) => ({ method: "POST", path: `${U}/drafts`, body: { message: composed(a) } }),
  }),
  // Builds the message drafts.update carries.
  tool({
    name: "update_draft",
    description: "Replace a draft's message with a new plain-text one.",
    input: { id: z.string().min(1).describe("The draft's id"), ...compose },
    toRequest: ({ id: d, ...a }) => ({ method: "PUT", path: `${U}/drafts/${seg(d)}`, body: { message: composed(a) } }),
  }),
  // Takes the criteria and the label changes flat, and builds the `criteria` and `action` objects
  // filters.create nests them in.
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
];

export const gmailTools: readonly TwinTool[] = [...toolsOf(gmailRoutes), ...extraTools];

const ADMIN = "an administration call that puts mail in the mailbox without sending it; not an agent's action";
const PERMANENT = "permanent deletion is kept off the tool surface; the trash tools are the reversible form";

export const gmailUntooled: Readonly<Record<string, string>> = {
  "gmail.batch": "many REST calls in one multipart/mixed body, a wire saving; an agent calls the tools one at a time",
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
