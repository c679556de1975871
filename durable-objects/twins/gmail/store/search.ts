// Gmail's search language over one message, as Google's "Search operators you can use with Gmail"
// (https://support.google.com/mail/answer/7190) lists it: `from:`, `to:`, `cc:`, `bcc:`,
// `subject:`, `deliveredto:`, `list:`, `rfc822msgid:`, `is:`, `in:`, `label:`, `category:`,
// `has:` (attachment, drive, document, spreadsheet, presentation, youtube, userlabels,
// nouserlabels, the stars), `filename:`, `size:`/`larger:`/`smaller:`, `after:`/`before:`/
// `older:`/`newer:`, `older_than:`/`newer_than:`, bare words, "quoted phrases", `-` negation
// (of a term or a group), `OR`, `{…}` (any of) and `(…)` (all of), also as an operator's value.
// Text matches by whole words, as Gmail's does: the text and the term are cut into words at
// every character that is not a letter or a digit, and the term's words must appear in the text
// one after another (`customer.test` matches `dana@customer.test`, `cust` matches nothing).
import { fail, invalidQuery } from "../errors";
import type { StoredMessage } from "./messages";

/** A term keeps its value's words, cut once when the query is read rather than once per message. */
interface Term {
  kind: "term";
  key: string | undefined;
  value: string;
  words: string[];
}
type Node = { kind: "and" | "or"; items: Node[] } | { kind: "not"; item: Node } | Term;

const termNode = (key: string | undefined, value: string): Term => ({ kind: "term", key, value, words: wordsOf(value) });

/**
 * The bounds of one query, so parsing and matching cost a bounded amount whatever an agent sends.
 * Gmail's API takes long queries (gmailctl's split filters run to thousands of characters); these
 * leave room for any query a person or a filter tool writes and refuse only machine-made ones.
 */
export const QUERY_LIMITS = { length: 8_192, depth: 64, terms: 512 } as const;

/** Why a query cannot be read: it is past a bound, or an operator's value is not one it takes. */
export class UnreadableQuery extends Error {}

const KEY_START = /[a-zA-Z_]/;
const KEY_PART = /[a-zA-Z0-9_]/;
const isSpace = (c: string) => c === " " || c === "\t" || c === "\n" || c === "\r" || c === "\f" || c === "\v";

/** The group brackets: `(…)` all of its terms, `{…}` any of them. */
const isBracket = (c: string) => c === "(" || c === ")" || c === "{" || c === "}";

/**
 * Cuts a query into tokens in one pass: `(`, `)`, `{`, `}`, `key:"quoted"`, `"quoted"`,
 * `key:(group)` and `key:{group}` (up to the first closing bracket), each optionally negated with
 * `-`, else a run of characters that are neither space nor bracket. An unclosed quote or group
 * falls back to the plain run.
 */
export function tokenize(q: string): string[] {
  const tokens: string[] = [];
  // Where the last quote and the last `)` stand: a search for a closing one that cannot succeed
  // is never started, so no position is scanned twice.
  const lastQuote = q.lastIndexOf('"');
  const lastClose = q.lastIndexOf(")");
  const lastBrace = q.lastIndexOf("}");
  let i = 0;
  while (i < q.length) {
    const c = q.charAt(i);
    if (isSpace(c)) {
      i++;
      continue;
    }
    if (isBracket(c)) {
      tokens.push(c);
      i++;
      continue;
    }
    const end = closedTokenEnd(q, i, lastQuote, lastClose, lastBrace);
    if (end !== undefined) {
      tokens.push(q.slice(i, end));
      i = end;
      continue;
    }
    let j = i;
    while (j < q.length && !isSpace(q.charAt(j)) && !isBracket(q.charAt(j))) j++;
    tokens.push(q.slice(i, j));
    i = j;
  }
  return tokens;
}

/** The end of a quoted or grouped token starting at `i`, when it is closed. */
function closedTokenEnd(q: string, i: number, lastQuote: number, lastClose: number, lastBrace: number): number | undefined {
  let j = q.charAt(i) === "-" ? i + 1 : i;
  if (q.charAt(j) === '"') return j + 1 <= lastQuote ? q.indexOf('"', j + 1) + 1 : undefined;
  if (!KEY_START.test(q.charAt(j))) return undefined;
  j++;
  while (j < q.length && KEY_PART.test(q.charAt(j))) j++;
  if (q.charAt(j) !== ":") return undefined;
  const open = q.charAt(j + 1);
  if (open === '"') return j + 2 <= lastQuote ? q.indexOf('"', j + 2) + 1 : undefined;
  if (open === "(") return j + 2 <= lastClose ? q.indexOf(")", j + 2) + 1 : undefined;
  if (open === "{") return j + 2 <= lastBrace ? q.indexOf("}", j + 2) + 1 : undefined;
  return undefined;
}

function parseTokens(tokens: string[], depth: number): Node {
  let at = 0;
  const deeper = (level: number) => {
    if (level > QUERY_LIMITS.depth) throw new UnreadableQuery(`nested deeper than ${QUERY_LIMITS.depth}`);
    return level + 1;
  };
  const parseOr = (level: number): Node => {
    const items = [parseAnd(level)];
    while (tokens[at] === "OR") {
      at++;
      items.push(parseAnd(level));
    }
    return items.length === 1 ? items[0] : { kind: "or", items };
  };
  const ends = (token: string | undefined) => token === ")" || token === "}" || token === "OR";
  const parseAnd = (level: number): Node => {
    const items: Node[] = [];
    while (at < tokens.length && !ends(tokens[at])) {
      // `AND` is what Gmail reads between terms anyway.
      if (tokens[at] === "AND") {
        at++;
        continue;
      }
      items.push(parseUnary(level));
    }
    return items.length === 1 ? items[0] : { kind: "and", items };
  };
  /** `{a b c}`: any of its terms (Gmail: "Messages that match multiple terms: OR or { }"). */
  const parseAnyOf = (level: number): Node => {
    const items: Node[] = [];
    while (at < tokens.length && tokens[at] !== "}") {
      const item = parseOr(level);
      if (item.kind !== "and" || item.items.length) items.push(...(item.kind === "and" ? item.items : [item]));
      if (tokens[at] === ")") at++;
    }
    if (tokens[at] === "}") at++;
    // An empty `{}` asks nothing, as an empty `()` does.
    if (!items.length) return { kind: "and", items };
    return items.length === 1 ? items[0] : { kind: "or", items };
  };
  const parseUnary = (level: number): Node => {
    const token = tokens[at++] ?? "";
    if (token === "(") {
      const inner = parseOr(deeper(level));
      if (tokens[at] === ")") at++;
      return inner;
    }
    if (token === "{") return parseAnyOf(deeper(level));
    if (token === "-" && (tokens[at] === "(" || tokens[at] === "{")) return { kind: "not", item: parseUnary(deeper(level)) };
    if (token.startsWith("-") && token.length > 1) return { kind: "not", item: termOf(token.slice(1), level) };
    return termOf(token, level);
  };
  // A stray `)` or `}` ends nothing: it is skipped, as Gmail reads unbalanced brackets leniently.
  const items: Node[] = [];
  while (at < tokens.length) {
    items.push(parseOr(depth));
    if (tokens[at] === ")" || tokens[at] === "}") at++;
  }
  return items.length === 1 ? items[0] : { kind: "and", items };
}

const unquote = (v: string) => (v.startsWith('"') && v.endsWith('"') && v.length >= 2 ? v.slice(1, -1) : v);

function termOf(token: string, depth: number): Node {
  const m = /^([a-zA-Z_][a-zA-Z0-9_]*):(.*)$/s.exec(token);
  if (m && KEYS.has(m[1].toLowerCase())) {
    const key = m[1].toLowerCase();
    const value = m[2];
    // `from:(a OR b)` groups values of one operator; `from:{a b}` is any of them.
    const anyOf = value.startsWith("{") && value.endsWith("}");
    if ((value.startsWith("(") && value.endsWith(")")) || anyOf) {
      if (depth > QUERY_LIMITS.depth) throw new UnreadableQuery(`nested deeper than ${QUERY_LIMITS.depth}`);
      const inner = anyOf ? `{${value.slice(1, -1)}}` : value.slice(1, -1);
      return scope(parseTokens(tokenize(inner), depth + 1), key);
    }
    // An operator given a value it does not take (`newer_than:soon`) is not refused: Gmail accepts
    // such a query and reads the token as words, which match no message's text.
    return takesValue(key, unquote(value)) ? termNode(key, unquote(value)) : termNode(undefined, token);
  }
  return termNode(undefined, unquote(token));
}

function scope(node: Node, key: string): Node {
  if (node.kind === "term") {
    if (node.key) return node;
    return takesValue(key, node.value) ? termNode(key, node.value) : termNode(undefined, `${key}:${node.value}`);
  }
  if (node.kind === "not") return { kind: "not", item: scope(node.item, key) };
  return { kind: node.kind, items: node.items.map((n) => scope(n, key)) };
}

/** The date and size operators take only dates, spans and sizes (`2d`, `2026/07/01`, `5M`); the others any value. */
function takesValue(key: string, value: string): boolean {
  const v = value.toLowerCase();
  if (key === "larger" || key === "smaller" || key === "size") return sizeBytes(v) !== undefined;
  if (key === "newer_than" || key === "older_than") return relativeMs(v) !== undefined;
  if (key === "after" || key === "before" || key === "newer" || key === "older") return dateMs(v) !== undefined;
  return true;
}

const KEYS = new Set([
  "from",
  "to",
  "cc",
  "bcc",
  "subject",
  "is",
  "in",
  "label",
  "category",
  "has",
  "filename",
  "newer_than",
  "older_than",
  "after",
  "before",
  "newer",
  "older",
  "rfc822msgid",
  "list",
  "deliveredto",
  "larger",
  "smaller",
  "size",
]);

/** Lower-case words: runs of letters and digits, everything else a separator. */
export const wordsOf = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/** Whether `words` holds the `wanted` words one after another; no wanted words ask nothing. */
export function hasWords(words: readonly string[], wanted: readonly string[]): boolean {
  if (!wanted.length) return true;
  for (let i = 0; i + wanted.length <= words.length; i++) {
    if (wanted.every((w, j) => words[i + j] === w)) return true;
  }
  return false;
}

/** What a message is searched against, computed once per message. */
export interface SearchDoc {
  message: StoredMessage;
  /** Lower-case header values by lower-case name. */
  header(name: string): string;
  /** The words of the searchable text (subject, From, To, Cc, bodies, file names). */
  text: string[];
  /** Whether the searchable text holds these words one after another. */
  hasText(wanted: readonly string[]): boolean;
  /** The words of a header's values (lower-case name), cut once per message. */
  headerWords(name: string): string[];
  /** User label names (lower case) by id. */
  labelName(id: string): string | undefined;
  /** The words of each of the mailbox's own addresses (its address, its send-as aliases): what `me` names. */
  own: readonly string[][];
}

function relativeMs(value: string): number | undefined {
  const m = /^(\d+)([dmy])$/i.exec(value);
  if (!m) return undefined;
  const n = Number(m[1]);
  const day = 86_400_000;
  return n * (m[2].toLowerCase() === "d" ? day : m[2].toLowerCase() === "m" ? 30 * day : 365 * day);
}

function dateMs(value: string): number | undefined {
  if (/^\d{9,}$/.test(value)) return Number(value) * 1000;
  // Gmail reads dates in the mailbox's time zone; the twin's mailbox lives in UTC. Google's page
  // writes them `YYYY/MM/DD`; the US order `MM/DD/YYYY` is read too, as Gmail's search box does.
  const ymd = /^(\d{4})[/-](\d{1,2})[/-](\d{1,2})$/.exec(value);
  if (ymd) return Date.UTC(Number(ymd[1]), Number(ymd[2]) - 1, Number(ymd[3]));
  const mdy = /^(\d{1,2})[/-](\d{1,2})[/-](\d{4})$/.exec(value);
  return mdy ? Date.UTC(Number(mdy[3]), Number(mdy[1]) - 1, Number(mdy[2])) : undefined;
}

/**
 * A size in bytes: digits, optionally `K` or `M` (`larger:10M`). A megabyte is 2^20 bytes, as
 * Gmail's filter guide reads it ("criteria.size=10485760 … Emails larger than 10 MB",
 * https://developers.google.com/gmail/api/guides/filter_settings).
 */
export function sizeBytes(value: string): number | undefined {
  const m = /^(\d{1,12})([km]b?)?$/i.exec(value);
  if (!m) return undefined;
  const unit = (m[2] ?? "").charAt(0).toLowerCase();
  return Number(m[1]) * (unit === "k" ? 1024 : unit === "m" ? 1024 * 1024 : 1);
}

/**
 * `category:` names a tab; the API labels messages with the tab's CATEGORY_* label (the Primary
 * tab is CATEGORY_PERSONAL). Reservations and Purchases are smart labels Gmail's API exposes as
 * no label, so no message of the twin is in them.
 */
const CATEGORY_LABELS: Record<string, string> = {
  primary: "CATEGORY_PERSONAL",
  personal: "CATEGORY_PERSONAL",
  social: "CATEGORY_SOCIAL",
  promotions: "CATEGORY_PROMOTIONS",
  updates: "CATEGORY_UPDATES",
  forums: "CATEGORY_FORUMS",
};

/**
 * Links that `has:drive`, `has:document`, `has:spreadsheet`, `has:presentation` and `has:youtube`
 * look for ("Messages that have a Google Drive, Docs, Sheets, or Slides attachment or link",
 * "Messages that have a YouTube video"), as the words a link is cut into.
 */
const LINK_WORDS: Record<string, string[][]> = {
  drive: [
    ["drive", "google", "com"],
    ["docs", "google", "com"],
  ],
  document: [["docs", "google", "com", "document"]],
  spreadsheet: [["docs", "google", "com", "spreadsheets"]],
  presentation: [["docs", "google", "com", "presentation"]],
  youtube: [
    ["youtube", "com", "watch"],
    ["youtu", "be"],
  ],
};

/** Attachment types that count as a Drive file of each kind (`has:document` and so on). */
const DRIVE_TYPES: Record<string, string[]> = {
  drive: ["application/vnd.google-apps."],
  document: ["application/vnd.google-apps.document"],
  spreadsheet: ["application/vnd.google-apps.spreadsheet"],
  presentation: ["application/vnd.google-apps.presentation"],
  youtube: [],
};

/**
 * The stars `has:` names. The API shows one star, the STARRED label, which Gmail's default
 * star setting draws yellow; the other colours are set in Gmail's UI, which the API cannot
 * see, so only `has:yellow-star` finds starred mail.
 */
const STARS = new Set([
  "orange-star",
  "red-star",
  "purple-star",
  "blue-star",
  "green-star",
  "red-bang",
  "orange-guillemet",
  "yellow-bang",
  "green-check",
  "blue-info",
  "purple-question",
]);

const labelSlug = (name: string) => name.toLowerCase().replace(/[\s/]+/g, "-");

/** Whether the message carries a user label of this name (or its `-` form: `label:my-label`). */
function hasUserLabel(doc: SearchDoc, value: string): boolean {
  return doc.message.labelIds.some((id) => {
    const name = doc.labelName(id);
    return name !== undefined && (name === value || labelSlug(name) === labelSlug(value));
  });
}

const hasLabel = (doc: SearchDoc, id: string) => doc.message.labelIds.includes(id);

/** `is:` — a message state, or any system label by its name. */
function matchIs(doc: SearchDoc, value: string): boolean {
  const has = (id: string) => hasLabel(doc, id);
  if (value === "unread") return has("UNREAD");
  if (value === "read") return !has("UNREAD");
  if (value === "starred") return has("STARRED");
  if (value === "important") return has("IMPORTANT");
  // Snoozed and muted mail carry no label the API shows; the twin has neither state.
  if (value === "snoozed" || value === "muted") return false;
  return has(value.toUpperCase());
}

/** `in:` — a place (anywhere, drafts, chats), a system label, or a user label's name. */
function matchIn(doc: SearchDoc, value: string): boolean {
  const has = (id: string) => hasLabel(doc, id);
  if (value === "anywhere") return true;
  if (value === "drafts" || value === "draft") return has("DRAFT");
  if (value === "chats") return has("CHAT");
  // `in:` also takes a label's name, as `label:` does.
  return has(value.toUpperCase()) || hasUserLabel(doc, value);
}

/** `has:` — an attachment, user labels, a star, or a Drive/YouTube link or attachment. */
function matchHas(doc: SearchDoc, value: string): boolean {
  const labels = doc.message.labelIds;
  const attachments = doc.message.content.attachments;
  if (value === "attachment") return attachments.length > 0;
  if (value === "userlabels") return labels.some((id) => id.startsWith("Label_"));
  if (value === "nouserlabels") return !labels.some((id) => id.startsWith("Label_"));
  if (value === "yellow-star") return hasLabel(doc, "STARRED");
  if (STARS.has(value)) return false;
  const links = LINK_WORDS[value];
  if (links === undefined) return false;
  const types = DRIVE_TYPES[value] ?? [];
  return attachments.some((a) => types.some((t) => a.mimeType.toLowerCase().startsWith(t))) || links.some((wanted) => doc.hasText(wanted));
}

/** The operators that compare a message's size or date; undefined for any other key. */
function matchSizeOrDate(doc: SearchDoc, key: string, value: string, now: number): boolean | undefined {
  switch (key) {
    case "size":
    case "larger":
    case "smaller": {
      // Checked when the query was read (takesValue). `size:` is "larger than a certain size in bytes".
      const bytes = sizeBytes(value) ?? Number.NaN;
      return key === "smaller" ? doc.message.sizeEstimate < bytes : doc.message.sizeEstimate > bytes;
    }
    case "newer_than":
    case "older_than": {
      // Checked when the query was read (takesValue); NaN would match nothing.
      const span = relativeMs(value) ?? Number.NaN;
      return key === "newer_than" ? doc.message.internalDate > now - span : doc.message.internalDate < now - span;
    }
    case "after":
    case "newer":
    case "before":
    case "older": {
      const at = dateMs(value) ?? Number.NaN;
      return key === "after" || key === "newer" ? doc.message.internalDate >= at : doc.message.internalDate < at;
    }
    default:
      return undefined;
  }
}

function matchTerm(doc: SearchDoc, term: Term, now: number): boolean {
  const { key, words } = term;
  const value = term.value.toLowerCase();
  switch (key) {
    case undefined:
      return doc.hasText(words);
    case "from":
    case "to":
    case "cc":
    case "bcc":
      // `me` is the mailbox itself (Gmail's search operators page: `from:me`).
      if (value === "me") return doc.own.some((address) => hasWords(doc.headerWords(key), address));
      return hasWords(doc.headerWords(key), words);
    case "subject":
      return hasWords(doc.headerWords(key), words);
    case "deliveredto":
      if (value === "me") return doc.own.some((a) => hasWords(doc.headerWords("delivered-to"), a) || hasWords(doc.headerWords("to"), a));
      return hasWords(doc.headerWords("delivered-to"), words) || hasWords(doc.headerWords("to"), words);
    case "list":
      return hasWords(doc.headerWords("list-id"), words);
    case "rfc822msgid": {
      // The whole Message-ID, with or without its angle brackets.
      const bare = (v: string) => v.trim().replace(/^<|>$/g, "");
      return bare(doc.header("message-id")) === bare(value);
    }
    case "is":
      return matchIs(doc, value);
    case "in":
      return matchIn(doc, value);
    case "category": {
      const label = CATEGORY_LABELS[value];
      return label !== undefined && hasLabel(doc, label);
    }
    case "label":
      return hasLabel(doc, value.toUpperCase()) || hasUserLabel(doc, value);
    case "has":
      return matchHas(doc, value);
    case "filename":
      // A file's name by its words (`pdf` is its extension's word), or its MIME type's subtype.
      return doc.message.content.attachments.some(
        (a) => hasWords(wordsOf(a.filename), words) || a.mimeType.toLowerCase().split("/")[1] === value,
      );
    default:
      return matchSizeOrDate(doc, key, value, now) ?? false;
  }
}

function evaluate(node: Node, doc: SearchDoc, now: number): boolean {
  switch (node.kind) {
    case "and":
      return node.items.every((n) => evaluate(n, doc, now));
    case "or":
      return node.items.some((n) => evaluate(n, doc, now));
    case "not":
      return !evaluate(node.item, doc, now);
    case "term":
      return matchTerm(doc, node, now);
  }
}

export interface Query {
  matches(doc: SearchDoc): boolean;
  /** Whether the query itself asks for spam or trash (then they are not left out by default). */
  reachesSpamTrash: boolean;
}

const countTerms = (node: Node): number =>
  node.kind === "term" ? 1 : node.kind === "not" ? countTerms(node.item) : node.items.reduce((n, item) => n + countTerms(item), 0);

/**
 * Reads a query, or says why it cannot: past a bound (QUERY_LIMITS). Never throws; a query it
 * returns can always be evaluated.
 */
export function compileQuery(q: string, now: number): { ok: true; query: Query } | { ok: false; reason: string } {
  if (q.length > QUERY_LIMITS.length) return { ok: false, reason: `longer than ${QUERY_LIMITS.length} characters` };
  let tree: Node;
  try {
    tree = parseTokens(tokenize(q), 0);
  } catch (err) {
    if (err instanceof UnreadableQuery) return { ok: false, reason: err.message };
    throw err;
  }
  if (countTerms(tree) > QUERY_LIMITS.terms) return { ok: false, reason: `more than ${QUERY_LIMITS.terms} terms` };
  const reachesSpamTrash = /\b(in:(spam|trash|anywhere)|is:(spam|trash)|label:(spam|trash))\b/i.test(q);
  return { ok: true, query: { matches: (doc) => evaluate(tree, doc, now), reachesSpamTrash } };
}

/** A call's `q`, or Gmail's 400 for one it cannot read. */
export function parseQuery(q: string, now: number): Query {
  const compiled = compileQuery(q, now);
  return compiled.ok ? compiled.query : fail(invalidQuery());
}

/** Markup out of HTML in one pass (a `<` with no `>` after it is kept as text). */
export function stripTags(html: string): string {
  let out = "";
  let i = 0;
  const lastClose = html.lastIndexOf(">");
  while (i < html.length) {
    const open = html.indexOf("<", i);
    if (open < 0 || open > lastClose) return out + html.slice(i);
    out += `${html.slice(i, open)} `;
    i = html.indexOf(">", open) + 1;
  }
  return out;
}

/**
 * A message as search reads it. `own` is the mailbox's own addresses (`mailboxAddresses`), which
 * `from:me` and its kin name; without them `me` matches nothing.
 */
export function searchDoc(message: StoredMessage, labelNames: ReadonlyMap<string, string>, own: readonly string[] = []): SearchDoc {
  const headers = new Map<string, string>();
  for (const h of message.headers) {
    const key = h.name.toLowerCase();
    headers.set(key, `${headers.get(key) ?? ""} ${h.value.toLowerCase()}`);
  }
  const c = message.content;
  const text = [
    headers.get("subject"),
    headers.get("from"),
    headers.get("to"),
    headers.get("cc"),
    c.text,
    c.html === undefined ? undefined : stripTags(c.html),
    ...c.attachments.map((a) => a.filename),
  ]
    .filter((s): s is string => typeof s === "string")
    // An empty word between fields, so a phrase never runs from one field into the next.
    .flatMap((s) => [...wordsOf(s), ""]);
  // Built on first use: most terms are ruled out by one word missing from the message.
  let present: Set<string> | undefined;
  const headerWords = new Map<string, string[]>();
  return {
    message,
    header: (name) => headers.get(name) ?? "",
    text,
    hasText(wanted) {
      present ??= new Set(text);
      const known = present;
      return wanted.every((w) => known.has(w)) && hasWords(text, wanted);
    },
    headerWords(name) {
      let words = headerWords.get(name);
      if (words === undefined) {
        words = wordsOf(headers.get(name) ?? "");
        headerWords.set(name, words);
      }
      return words;
    },
    labelName: (id) => labelNames.get(id),
    own: own.map((address) => wordsOf(address.toLowerCase())),
  };
}
