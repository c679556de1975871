// Gmail's search language over one message: `from:`, `to:`, `cc:`, `bcc:`, `subject:`, `is:`,
// `in:`, `label:`, `category:`, `has:attachment`, `filename:`, `newer_than:`, `older_than:`,
// `after:`, `before:`, bare words, "quoted phrases", `-` negation, `OR` and parentheses.
// Text matches by whole words, as Gmail's does: the text and the term are cut into words at
// every character that is not a letter or a digit, and the term's words must appear in the text
// one after another (`customer.test` matches `dana@customer.test`, `cust` matches nothing).
import { badRequest, fail } from "../errors";
import type { StoredMessage } from "./messages";

type Node = { kind: "and" | "or"; items: Node[] } | { kind: "not"; item: Node } | { kind: "term"; key: string | undefined; value: string };

function tokenize(q: string): string[] {
  const tokens: string[] = [];
  const re = /\s*(\(|\)|-?[a-zA-Z_][a-zA-Z0-9_]*:"[^"]*"|-?"[^"]*"|-?[a-zA-Z_][a-zA-Z0-9_]*:\([^)]*\)|[^\s()]+)/g;
  for (const m of q.matchAll(re)) if (m[1] !== undefined) tokens.push(m[1]);
  return tokens;
}

function parseTokens(tokens: string[]): Node {
  let at = 0;
  const parseOr = (): Node => {
    const items = [parseAnd()];
    while (tokens[at] === "OR") {
      at++;
      items.push(parseAnd());
    }
    return items.length === 1 ? items[0] : { kind: "or", items };
  };
  const parseAnd = (): Node => {
    const items: Node[] = [];
    while (at < tokens.length && tokens[at] !== ")" && tokens[at] !== "OR") items.push(parseUnary());
    return items.length === 1 ? items[0] : { kind: "and", items };
  };
  const parseUnary = (): Node => {
    const token = tokens[at++];
    if (token === "(") {
      const inner = parseOr();
      if (tokens[at] === ")") at++;
      return inner;
    }
    if (token === "-" && tokens[at] === "(") return { kind: "not", item: parseUnary() };
    if (token.startsWith("-") && token.length > 1) return { kind: "not", item: termOf(token.slice(1)) };
    return termOf(token);
  };
  return parseOr();
}

const unquote = (v: string) => (v.startsWith('"') && v.endsWith('"') && v.length >= 2 ? v.slice(1, -1) : v);

function termOf(token: string): Node {
  const m = /^([a-zA-Z_][a-zA-Z0-9_]*):(.*)$/.exec(token);
  if (m && KEYS.has(m[1].toLowerCase())) {
    const value = m[2];
    // `from:(a OR b)` groups values of one operator.
    if (value.startsWith("(") && value.endsWith(")")) {
      const inner = parseTokens(tokenize(value.slice(1, -1)));
      return scope(inner, m[1].toLowerCase());
    }
    return { kind: "term", key: m[1].toLowerCase(), value: unquote(value) };
  }
  return { kind: "term", key: undefined, value: unquote(token) };
}

function scope(node: Node, key: string): Node {
  if (node.kind === "term") return node.key ? node : { ...node, key };
  if (node.kind === "not") return { kind: "not", item: scope(node.item, key) };
  return { kind: node.kind, items: node.items.map((n) => scope(n, key)) };
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
]);

/** Lower-case words: runs of letters and digits, everything else a separator. */
export const wordsOf = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/** Whether `words` holds `term`'s words one after another; a term without words asks nothing. */
export function hasWords(words: readonly string[], term: string): boolean {
  const wanted = wordsOf(term);
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
  /** User label names (lower case) by id. */
  labelName(id: string): string | undefined;
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
  const m = /^(\d{4})[/-](\d{1,2})[/-](\d{1,2})$/.exec(value);
  // Gmail reads dates in the mailbox's time zone; the twin's mailbox lives in UTC.
  return m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : undefined;
}

const labelSlug = (name: string) => name.toLowerCase().replace(/[\s/]+/g, "-");

function matchTerm(doc: SearchDoc, key: string | undefined, rawValue: string, now: number): boolean {
  const value = rawValue.toLowerCase();
  const labels = doc.message.labelIds;
  const has = (id: string) => labels.includes(id);
  switch (key) {
    case undefined:
      return hasWords(doc.text, value);
    case "from":
    case "to":
    case "cc":
    case "bcc":
    case "subject":
      return hasWords(wordsOf(doc.header(key)), value);
    case "deliveredto":
      return hasWords(wordsOf(doc.header("delivered-to")), value) || hasWords(wordsOf(doc.header("to")), value);
    case "list":
      return hasWords(wordsOf(doc.header("list-id")), value);
    case "rfc822msgid": {
      // The whole Message-ID, with or without its angle brackets.
      const bare = (v: string) => v.trim().replace(/^<|>$/g, "");
      return bare(doc.header("message-id")) === bare(value);
    }
    case "is":
      if (value === "unread") return has("UNREAD");
      if (value === "read") return !has("UNREAD");
      if (value === "starred") return has("STARRED");
      if (value === "important") return has("IMPORTANT");
      return has(value.toUpperCase());
    case "in":
      if (value === "anywhere") return true;
      if (value === "drafts" || value === "draft") return has("DRAFT");
      if (value === "chats") return has("CHAT");
      return has(value.toUpperCase());
    case "category":
      return has(`CATEGORY_${value.toUpperCase()}`);
    case "label": {
      if (has(value.toUpperCase())) return true;
      return labels.some((id) => {
        const name = doc.labelName(id);
        return name !== undefined && (name === value || labelSlug(name) === labelSlug(value));
      });
    }
    case "has":
      if (value === "attachment") return doc.message.content.attachments.length > 0;
      if (value === "userlabels") return labels.some((id) => id.startsWith("Label_"));
      if (value === "nouserlabels") return !labels.some((id) => id.startsWith("Label_"));
      return false;
    case "filename":
      // A file's name by its words (`pdf` is its extension's word), or its MIME type's subtype.
      return doc.message.content.attachments.some(
        (a) => hasWords(wordsOf(a.filename), value) || a.mimeType.toLowerCase().split("/")[1] === value,
      );
    case "newer_than":
    case "older_than": {
      const span = relativeMs(value) ?? fail(badRequest(`Invalid ${key} value: ${rawValue}`));
      return key === "newer_than" ? doc.message.internalDate > now - span : doc.message.internalDate < now - span;
    }
    case "after":
    case "newer":
    case "before":
    case "older": {
      const at = dateMs(value) ?? fail(badRequest(`Invalid ${key} value: ${rawValue}`));
      return key === "after" || key === "newer" ? doc.message.internalDate >= at : doc.message.internalDate < at;
    }
    default:
      return false;
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
      return matchTerm(doc, node.key, node.value, now);
  }
}

export interface Query {
  matches(doc: SearchDoc): boolean;
  /** Whether the query itself asks for spam or trash (then they are not left out by default). */
  reachesSpamTrash: boolean;
}

export function parseQuery(q: string, now: number): Query {
  const tokens = tokenize(q);
  const tree = parseTokens(tokens);
  const reachesSpamTrash = /\b(in:(spam|trash|anywhere)|is:(spam|trash)|label:(spam|trash))\b/i.test(q);
  return { matches: (doc) => evaluate(tree, doc, now), reachesSpamTrash };
}

export function searchDoc(message: StoredMessage, labelNames: ReadonlyMap<string, string>): SearchDoc {
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
    c.html?.replace(/<[^>]*>/g, " "),
    ...c.attachments.map((a) => a.filename),
  ]
    .filter((s): s is string => typeof s === "string")
    // An empty word between fields, so a phrase never runs from one field into the next.
    .flatMap((s) => [...wordsOf(s), ""]);
  return { message, header: (name) => headers.get(name) ?? "", text, labelName: (id) => labelNames.get(id) };
}
