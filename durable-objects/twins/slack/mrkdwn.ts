// Slack's message text as Slack reads it: `<@U…>`, `<#C…|name>`, `<!here>`/`<!channel>`/
// `<!everyone>`, `<!subteam^S…>`, `<url|label>` and the `&lt;&gt;&amp;` escapes ("Formatting text
// for app surfaces", docs.slack.dev/messaging/formatting-message-text). Two things are derived
// from it: with `link_names=1` or `parse=full` the text is rewritten so `@name`/`#channel` become
// mentions, as Slack stores them; and a text-only message carries the `rich_text` block Slack
// derives for it (`rich_text_section` of `text`/`user`/`channel`/`usergroup`/`broadcast`/`link`/
// `emoji` elements, the shape slack-go's rich text support reads, slack-go/slack#991), so an agent
// or a grader reading mentions from blocks finds them. A mention of a user the workspace lacks
// stays text. Pure functions over a Directory; directoryOf binds one to a call's world.
import type { Call } from "./context";
import { STANDARD_EMOJI_NAMES } from "./data/standard-emoji";
import { channelByName } from "./store/channels";
import { customEmoji } from "./store/emoji";
import { userById } from "./store/users";

/** What the parser asks of the workspace. */
export interface Directory {
  userExists(id: string): boolean;
  userIdByName(name: string): string | undefined;
  channelIdByName(name: string): string | undefined;
  usergroupIdByHandle(handle: string): string | undefined;
  emojiExists(name: string): boolean;
}

export type RichElement =
  | { type: "text"; text: string; style?: Record<string, true> }
  | { type: "user"; user_id: string }
  | { type: "channel"; channel_id: string }
  | { type: "usergroup"; usergroup_id: string }
  | { type: "broadcast"; range: "here" | "channel" | "everyone" }
  | { type: "link"; url: string; text?: string }
  | { type: "emoji"; name: string };

export interface RichTextBlock {
  type: "rich_text";
  block_id: string;
  elements: { type: "rich_text_section"; elements: RichElement[] }[];
}

const BROADCASTS = new Set(["here", "channel", "everyone"]);

/** `&lt;` `&gt;` `&amp;` back to the characters they stand for. */
export const unescapeText = (s: string) => s.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
/** The three characters Slack escapes in message text. */
export const escapeText = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** One `<…>` token (without its brackets) as the element it stands for. */
export function tokenElement(inner: string, dir: Directory): RichElement {
  const bar = inner.indexOf("|");
  const target = bar < 0 ? inner : inner.slice(0, bar);
  const label = bar < 0 ? undefined : unescapeText(inner.slice(bar + 1));
  const literal: RichElement = { type: "text", text: `<${unescapeText(inner)}>` };
  if (/^@[UW][A-Z0-9]+$/.test(target)) return dir.userExists(target.slice(1)) ? { type: "user", user_id: target.slice(1) } : literal;
  if (/^#[CGD][A-Z0-9]+$/.test(target)) return { type: "channel", channel_id: target.slice(1) };
  const bang = /^!([a-z]+)(?:\^([A-Z0-9]+))?/.exec(target);
  if (bang) {
    const [, word = "", id] = bang;
    if (BROADCASTS.has(word)) return { type: "broadcast", range: word as "here" | "channel" | "everyone" };
    if (word === "subteam" && id !== undefined) return { type: "usergroup", usergroup_id: id };
    // `<!date^…|fallback>` and the like: what a reader without them sees.
    return { type: "text", text: label ?? "" };
  }
  if (/^(?:https?:\/\/|mailto:)\S+$/i.test(target)) {
    const url = unescapeText(target);
    return label === undefined || label === "" ? { type: "link", url } : { type: "link", url, text: label };
  }
  return literal;
}

const STYLES: [RegExp, string][] = [
  [/^`([^`\n]+)`$/, "code"],
  [/^\*([^*\n]+)\*$/, "bold"],
  [/^_([^_\n]+)_$/, "italic"],
  [/^~([^~\n]+)~$/, "strike"],
];

/** Plain text (no `<…>` tokens): styled runs, `:emoji:` and bare URLs split out. */
export function plainElements(raw: string, dir: Directory): RichElement[] {
  const out: RichElement[] = [];
  const pattern =
    /`[^`\n]+`|(?<![\w*])\*[^*\n]+\*(?![\w*])|(?<![\w_])_[^_\n]+_(?![\w_])|(?<![\w~])~[^~\n]+~(?![\w~])|:[a-z0-9_+'-]+(?:::skin-tone-[2-6])?:|https?:\/\/[^\s<>]+/g;
  let last = 0;
  for (const m of raw.matchAll(pattern)) {
    const at = m.index ?? 0;
    const piece = m[0];
    const element = pieceElement(piece, dir);
    if (!element) continue;
    if (at > last) out.push({ type: "text", text: unescapeText(raw.slice(last, at)) });
    out.push(element);
    last = at + piece.length;
  }
  if (last < raw.length) out.push({ type: "text", text: unescapeText(raw.slice(last)) });
  return out;
}

function pieceElement(piece: string, dir: Directory): RichElement | undefined {
  for (const [re, style] of STYLES) {
    const inner = re.exec(piece)?.[1];
    if (inner !== undefined) return { type: "text", text: unescapeText(inner), style: { [style]: true } };
  }
  if (piece.startsWith(":")) {
    const name = piece.slice(1, -1);
    return dir.emojiExists(name.split("::")[0] ?? "") ? { type: "emoji", name } : undefined;
  }
  return { type: "link", url: unescapeText(piece) };
}

/** A message text's elements, in order; adjacent plain text runs joined. */
export function richElements(text: string, dir: Directory): RichElement[] {
  const out: RichElement[] = [];
  let last = 0;
  for (const m of text.matchAll(/<([^<>\n]+)>/g)) {
    const at = m.index ?? 0;
    if (at > last) out.push(...plainElements(text.slice(last, at), dir));
    out.push(tokenElement(m[1] ?? "", dir));
    last = at + m[0].length;
  }
  if (last < text.length) out.push(...plainElements(text.slice(last), dir));
  return joinText(out);
}

function joinText(elements: RichElement[]): RichElement[] {
  const out: RichElement[] = [];
  for (const e of elements) {
    const prev = out.at(-1);
    if (e.type === "text" && e.style === undefined && prev?.type === "text" && prev.style === undefined) {
      out[out.length - 1] = { type: "text", text: prev.text + e.text };
    } else if (!(e.type === "text" && e.text === "")) out.push(e);
  }
  return out;
}

/** A short id stable for a text, as Slack gives derived blocks one (`"block_id": "Xk3p"`). */
export function derivedBlockId(text: string): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  let h = 2166136261;
  for (const ch of text) h = Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0;
  let id = "";
  for (let i = 0; i < 5; i++, h = Math.floor(h / alphabet.length)) id += alphabet[h % alphabet.length];
  return id;
}

/** The rich_text block Slack derives for a text-only message. */
export function derivedBlock(text: string, dir: Directory): RichTextBlock {
  return {
    type: "rich_text",
    block_id: derivedBlockId(text),
    elements: [{ type: "rich_text_section", elements: richElements(text, dir) }],
  };
}

/**
 * `link_names=1`: `@name`, `@here`/`@channel`/`@everyone`, `@group-handle` and `#channel` as the
 * mentions Slack stores them as; a name the workspace lacks stays as typed. Text inside `<…>` is
 * left alone.
 */
export function linkNames(text: string, dir: Directory): string {
  return text.replace(/<[^<>]*>|(^|[\s(])([@#])([a-z0-9][a-z0-9._-]*)/gi, (whole, pre: string | undefined, sigil, name: string) => {
    if (pre === undefined) return whole;
    const lower = name.toLowerCase();
    if (sigil === "#") {
      const id = dir.channelIdByName(lower);
      return id ? `${pre}<#${id}|${lower}>` : whole;
    }
    if (BROADCASTS.has(lower)) return `${pre}<!${lower}>`;
    const user = dir.userIdByName(lower);
    if (user) return `${pre}<@${user}>`;
    const group = dir.usergroupIdByHandle(lower);
    return group ? `${pre}<!subteam^${group}|@${lower}>` : whole;
  });
}

/**
 * `parse=full`: the text is read as a person typed it, so `<`, `>` and `&` are escaped, then names
 * and bare URLs are linked.
 */
export function parseFull(text: string, dir: Directory): string {
  const linked = linkNames(escapeText(text), dir);
  return linked.replace(/<[^<>]*>|(https?:\/\/[^\s<>]+)/g, (whole, url: string | undefined) => (url === undefined ? whole : `<${url}>`));
}

/** The text a post stores, given its `parse` and `link_names` arguments. */
export function storedText(text: string, parse: string | undefined, link: boolean | undefined, dir: Directory): string {
  if (parse === "full") return parseFull(text, dir);
  return link ? linkNames(text, dir) : text;
}

/** The call's workspace as the parser sees it. */
export function directoryOf(call: Call): Directory {
  let custom: Record<string, string> | undefined;
  return {
    userExists: (id) => userById(call.db, id) !== undefined,
    userIdByName: (name) => call.db.one<{ id: string }>("SELECT id FROM sl_users WHERE name = ?", name)?.id,
    channelIdByName: (name) => channelByName(call.db, name)?.id,
    usergroupIdByHandle: (handle) => call.db.one<{ id: string }>("SELECT id FROM sl_usergroups WHERE data ->> 'handle' = ?", handle)?.id,
    emojiExists: (name) => {
      if (STANDARD_EMOJI_NAMES.has(name)) return true;
      custom ??= customEmoji(call.db);
      return Object.hasOwn(custom, name);
    },
  };
}
