// The Gmail twin's check vocabulary: pure predicates over the exported mailbox (the seed's own
// shape) and this twin's tape. A message exported `raw` is read through its header block; a
// field an uploaded state lacks is skipped, never read as a default.
import { addressParser } from "postal-mime";
import { decodeBase64, fromUtf8 } from "../kit/bytes";
import { checkMaker, fail, fieldOf, isRec, listOf, noUnsupportedEndpoint, pass, plural, type Found, type Rec } from "../kit/checks";
import type { CheckDefinition, CheckParam } from "../types";
import type { GmailSeed } from "./seed";

const check = checkMaker<GmailSeed>("gmail");

const ADDRESS: CheckParam = { name: "address", pattern: "[^\\s`@]+@[^\\s`@]+", example: "dana@customer.test" };
const MESSAGE: CheckParam = { name: "message", pattern: "[0-9a-f]{1,16}", example: "19a0c0de0000a001" };
const THREAD: CheckParam = { name: "thread", pattern: "[0-9a-f]{1,16}", example: "19a0c0de0000a001" };
const LABEL: CheckParam = { name: "label", pattern: "[^`\\n]+", example: "INBOX" };
const TEXT: CheckParam = { name: "text", pattern: "[^`\\n]+", example: "refund" };
const COUNT: CheckParam = { name: "count", pattern: "[0-9]+", example: "1" };

interface Mail {
  id: string;
  threadId: string;
  labelIds: string[];
  headers: { name: string; value: string }[];
  body: string;
}

/** The headers of raw mail: its header block, folded lines joined. */
function rawHeaders(text: string): { name: string; value: string }[] {
  const head = (text.split(/\r?\n\r?\n/)[0] ?? "").replace(/\r?\n[ \t]+/g, " ");
  return head.split(/\r?\n/).flatMap((line) => {
    const m = /^([^:\s]+):\s*(.*)$/.exec(line);
    return m ? [{ name: m[1], value: m[2] }] : [];
  });
}

function mailOf(r: Rec): Mail | undefined {
  if (typeof r.id !== "string") return undefined;
  const labelIds = Array.isArray(r.labelIds) ? r.labelIds.filter((l): l is string => typeof l === "string") : [];
  const threadId = typeof r.threadId === "string" ? r.threadId : r.id;
  if (typeof r.raw === "string") {
    const bytes = decodeBase64(r.raw);
    const text = bytes ? fromUtf8(bytes) : "";
    return { id: r.id, threadId, labelIds, headers: rawHeaders(text), body: text };
  }
  const headers = Array.isArray(r.headers)
    ? r.headers.flatMap((h) =>
        isRec(h) && typeof h.name === "string" && typeof h.value === "string" ? [{ name: h.name, value: h.value }] : [],
      )
    : [];
  const body = [r.text, r.html].filter((s): s is string => typeof s === "string").join("\n");
  return { id: r.id, threadId, labelIds, headers, body };
}

function messages(state: unknown): Found<Mail[]> {
  const list = listOf(state, "messages", "the mailbox");
  if (!list.ok) return list;
  return { ok: true, value: list.value.flatMap((r) => (isRec(r) ? (mailOf(r) ?? []) : [])) };
}

function drafts(state: unknown): Found<Mail[]> {
  const list = listOf(state, "drafts", "the mailbox");
  if (!list.ok) return list;
  return { ok: true, value: list.value.flatMap((d) => (isRec(d) && isRec(d.message) ? (mailOf(d.message) ?? []) : [])) };
}

const header = (m: Mail, name: string) =>
  m.headers
    .filter((h) => h.name.toLowerCase() === name.toLowerCase())
    .map((h) => h.value)
    .join(", ");

function addressedTo(m: Mail, address: string): boolean {
  const wanted = address.toLowerCase();
  return ["To", "Cc", "Bcc"].some((n) => addressParser(header(m, n), { flatten: true }).some((a) => a.address?.toLowerCase() === wanted));
}

/** Messages the mailbox sent during the run: SENT in the final state and not in the seed. */
function sentDuringRun(initial: unknown, final: unknown): Found<Mail[]> {
  const after = messages(final);
  if (!after.ok) return after;
  const before = initial === undefined ? { ok: true as const, value: [] } : messages(initial);
  if (!before.ok) return before;
  const seeded = new Set(before.value.map((m) => m.id));
  return { ok: true, value: after.value.filter((m) => m.labelIds.includes("SENT") && !seeded.has(m.id)) };
}

/** A label as tasks name it: a system id (`INBOX`) or a user label's name or id. */
function labelIdFor(state: unknown, label: string): Found<string> {
  if (/^[A-Z_]+$/.test(label)) return { ok: true, value: label };
  const labels = listOf(state, "labels", "the mailbox");
  if (!labels.ok) return labels;
  const hit = labels.value.find(
    (l) => isRec(l) && (l.id === label || (typeof l.name === "string" && l.name.toLowerCase() === label.toLowerCase())),
  );
  return isRec(hit) && typeof hit.id === "string"
    ? { ok: true, value: hit.id }
    : { ok: false, outcome: fail(`the mailbox has no label ${label}`) };
}

function findMessage(state: unknown, id: string): Found<Mail> {
  const list = messages(state);
  if (!list.ok) return list;
  const hit = list.value.find((m) => m.id === id);
  return hit ? { ok: true, value: hit } : { ok: false, outcome: fail(`message ${id} is not in the mailbox`) };
}

function labelCheck(want: boolean) {
  return ({ args, initial, final }: Parameters<CheckDefinition<GmailSeed>["evaluate"]>[0]) => {
    const label = labelIdFor(final, args.label);
    if (!label.ok) return label.outcome;
    const m = findMessage(final, args.message);
    if (!m.ok) return m.outcome;
    const has = m.value.labelIds.includes(label.value);
    if (has !== want) return fail(`message ${args.message} ${has ? "still has" : "does not have"} label ${args.label}`);
    const before = initial === undefined ? undefined : findMessage(initial, args.message);
    if (before?.ok && before.value.labelIds.includes(label.value) === want) {
      return {
        status: "skipped" as const,
        reason: "already_true_in_seed" as const,
        detail: `message ${args.message} ${want ? "had" : "lacked"} label ${args.label} in the seed already`,
      };
    }
    return pass(`message ${args.message} ${want ? "has" : "lacks"} label ${args.label}`);
  };
}

const contains = (haystack: string, needle: string | undefined) =>
  needle === undefined || needle === "" || haystack.toLowerCase().includes(needle.toLowerCase());

export const gmailChecks: CheckDefinition<GmailSeed>[] = [
  check(
    "message-sent",
    "A message was sent to {address}",
    "A message the mailbox sent during the run (SENT in the final state, absent from the seed) has this address in To, Cc or Bcc.",
    "seed+final",
    [ADDRESS],
    ({ args, initial, final }) => {
      const sent = sentDuringRun(initial, final);
      if (!sent.ok) return sent.outcome;
      const hit = sent.value.find((m) => addressedTo(m, args.address));
      return hit
        ? pass(`message ${hit.id} was sent to ${args.address}`)
        : fail(`none of the ${plural(sent.value.length, "sent message")} is addressed to ${args.address}`);
    },
  ),
  check(
    "message-sent-with-text",
    "A message was sent to {address} mentioning `{text}`",
    "Like message-sent, and the message's subject or body contains this text (case-insensitive; raw mail is searched as written).",
    "seed+final",
    [ADDRESS, TEXT],
    ({ args, initial, final }) => {
      const sent = sentDuringRun(initial, final);
      if (!sent.ok) return sent.outcome;
      const to = sent.value.filter((m) => addressedTo(m, args.address));
      if (!to.length) return fail(`no message was sent to ${args.address}`);
      const hit = to.find((m) => contains(`${header(m, "Subject")}\n${m.body}`, args.text));
      return hit
        ? pass(`message ${hit.id} to ${args.address} mentions "${args.text}"`)
        : fail(`${plural(to.length, "message")} went to ${args.address}, none mentioning "${args.text}"`);
    },
  ),
  check(
    "no-message-sent",
    "No message was sent",
    "The final state holds no SENT message that the seed did not have.",
    "seed+final",
    [],
    ({ initial, final }) => {
      const sent = sentDuringRun(initial, final);
      if (!sent.ok) return sent.outcome;
      return sent.value.length
        ? fail(`${plural(sent.value.length, "message")} were sent: ${sent.value.map((m) => m.id).join(", ")}`)
        : pass("no message was sent");
    },
  ),
  check(
    "one-message-to",
    "Exactly one message was sent to {address}",
    "Counts the messages sent during the run addressed to this address; passes on exactly one (a duplicate send fails).",
    "seed+final",
    [ADDRESS],
    ({ args, initial, final }) => {
      const sent = sentDuringRun(initial, final);
      if (!sent.ok) return sent.outcome;
      const n = sent.value.filter((m) => addressedTo(m, args.address)).length;
      return n === 1 ? pass(`one message was sent to ${args.address}`) : fail(`${plural(n, "message")} went to ${args.address}`);
    },
  ),
  check(
    "reply-in-thread",
    "A reply was sent in thread {thread}",
    "A message sent during the run belongs to this thread (Gmail threads a reply only when its threadId, In-Reply-To/References and subject agree).",
    "seed+final",
    [THREAD],
    ({ args, initial, final }) => {
      const sent = sentDuringRun(initial, final);
      if (!sent.ok) return sent.outcome;
      const hit = sent.value.find((m) => m.threadId === args.thread);
      return hit
        ? pass(`message ${hit.id} was sent in thread ${args.thread}`)
        : fail(`no message sent during the run is in thread ${args.thread}`);
    },
  ),
  check(
    "draft-to",
    "A draft is addressed to {address}",
    "A draft in the final state has this address in To, Cc or Bcc.",
    "final",
    [ADDRESS],
    ({ args, final }) => {
      const list = drafts(final);
      if (!list.ok) return list.outcome;
      const hit = list.value.find((m) => addressedTo(m, args.address));
      return hit
        ? pass(`draft message ${hit.id} is addressed to ${args.address}`)
        : fail(`none of the ${plural(list.value.length, "draft")} is addressed to ${args.address}`);
    },
  ),
  check(
    "draft-count-at-least",
    "The mailbox holds at least {count} drafts",
    "Counts the drafts in the final state.",
    "final",
    [COUNT],
    ({ args, final }) => {
      const list = drafts(final);
      if (!list.ok) return list.outcome;
      return list.value.length >= Number(args.count)
        ? pass(`${plural(list.value.length, "draft")} in the mailbox`)
        : fail(`only ${plural(list.value.length, "draft")} in the mailbox`);
    },
  ),
  check(
    "message-has-label",
    "Message {message} has label {label}",
    "The message carries the label in the final state: a system id (INBOX, UNREAD, STARRED…) or a user label's name. Skipped when the seed already had it so.",
    "seed+final",
    [MESSAGE, LABEL],
    labelCheck(true),
  ),
  check(
    "message-lacks-label",
    "Message {message} lacks label {label}",
    "The message does not carry the label in the final state (archived = lacks INBOX, read = lacks UNREAD). A deleted message fails. Skipped when the seed already had it so.",
    "seed+final",
    [MESSAGE, LABEL],
    labelCheck(false),
  ),
  check(
    "label-exists",
    "A label named `{label}` exists",
    "A user label with this name (case-insensitive) is in the final state.",
    "final",
    [LABEL],
    ({ args, final }) => {
      const labels = listOf(final, "labels", "the mailbox");
      if (!labels.ok) return labels.outcome;
      const hit = labels.value.some((l) => isRec(l) && typeof l.name === "string" && l.name.toLowerCase() === args.label.toLowerCase());
      return hit ? pass(`label ${args.label} exists`) : fail(`no label is named ${args.label}`);
    },
  ),
  check(
    "label-count",
    "The mailbox has {count} user labels",
    "Counts the user labels in the final state; passes on exactly this number.",
    "final",
    [COUNT],
    ({ args, final }) => {
      const labels = listOf(final, "labels", "the mailbox");
      if (!labels.ok) return labels.outcome;
      return labels.value.length === Number(args.count)
        ? pass(`${plural(labels.value.length, "user label")}`)
        : fail(`${plural(labels.value.length, "user label")}, not ${args.count}`);
    },
  ),
  check(
    "signature-mentions",
    "Send-as {address} has a signature mentioning `{text}`",
    "The send-as address (sendAs in the final state) has a signature containing this text (case-insensitive; the signature is HTML as Gmail keeps it). Skipped when the seed's signature already did.",
    "seed+final",
    [ADDRESS, TEXT],
    ({ args, initial, final }) => {
      const now = signatureOf(final, args.address);
      if (!now.ok) return now.outcome;
      if (!contains(now.value, args.text)) return fail(`the signature of ${args.address} does not mention "${args.text}"`);
      const before = initial === undefined ? undefined : signatureOf(initial, args.address);
      if (before?.ok && contains(before.value, args.text))
        return {
          status: "skipped" as const,
          reason: "already_true_in_seed" as const,
          detail: `the seed's signature of ${args.address} mentioned "${args.text}" already`,
        };
      return pass(`the signature of ${args.address} mentions "${args.text}"`);
    },
  ),
  check(
    "auto-forwarding-to",
    "Mail is auto-forwarded to {address}",
    "Auto-forwarding is on in the final state, to this address, and the address is an accepted forwarding address (Gmail forwards only to one).",
    "final",
    [ADDRESS],
    ({ args, final }) => {
      const auto = fieldOf(final, "autoForwarding", "the mailbox");
      if (!auto.ok) return auto.outcome;
      const forwarding = listOf(final, "forwardingAddresses", "the mailbox");
      if (!forwarding.ok) return forwarding.outcome;
      const a = isRec(auto.value) ? auto.value : {};
      if (a.enabled !== true) return fail("auto-forwarding is off");
      if (typeof a.emailAddress !== "string" || a.emailAddress.toLowerCase() !== args.address.toLowerCase())
        return fail(`mail is forwarded to ${String(a.emailAddress)}, not ${args.address}`);
      const accepted = forwarding.value.some(
        (f) =>
          isRec(f) &&
          typeof f.forwardingEmail === "string" &&
          f.forwardingEmail.toLowerCase() === args.address.toLowerCase() &&
          f.verificationStatus === "accepted",
      );
      return accepted ? pass(`mail is forwarded to ${args.address}`) : fail(`${args.address} is not an accepted forwarding address`);
    },
  ),
  noUnsupportedEndpoint<GmailSeed>("gmail", "Gmail"),
];

/** The signature of a send-as address, "" when it has none. */
function signatureOf(state: unknown, address: string): Found<string> {
  const list = listOf(state, "sendAs", "the mailbox");
  if (!list.ok) return list;
  const hit = list.value.find(
    (s) => isRec(s) && typeof s.sendAsEmail === "string" && s.sendAsEmail.toLowerCase() === address.toLowerCase(),
  );
  if (!isRec(hit)) return { ok: false, outcome: fail(`${address} is not a send-as address of the mailbox`) };
  return { ok: true, value: typeof hit.signature === "string" ? hit.signature : "" };
}
