// The Slack seed's column maps: for each sl_ table a seed fills directly, which column keeps which
// field and how. Boot and export (world.ts) both go through these maps, so a field is declared
// once. Many Slack objects are only ever read whole, so their row keeps them whole, JSON-encoded in
// `data` (`Kept`), beside the columns calls look them up by, copied out of them at boot (`derived`).
// What Slack derives is never exported: a message's reply count, reply users and latest reply
// (computed at boot from its thread, then kept by chat.* writes), a file's size and mimetype, the
// privacy a DM has by its kind. The team, installation and rate limits are sl_meta boot constants
// (world.ts); a message's file shares (sl_file_shares) are derived from its `files` (world.ts).
import { fromBase64 } from "../kit/bytes";
import { bool } from "../kit/sql";
import { type ListTable, type Placed, type StoredRow, assembled, col, tableMap } from "../kit/world-table";
import type {
  ScriptedReply,
  SlackChannel,
  SlackDeletedFile,
  SlackFile,
  SlackMessage,
  SlackReminder,
  SlackScheduled,
  SlackUser,
  SlackUsergroup,
} from "./seed";
import { type SlackLinkShare, type SlackStar, type SlackTriggerId, type SlackView, starKey } from "./seed-surfaces";
import { mimetypeOf } from "./store/files";
import { type ChannelData, type FileData, type MessageData, inHistory } from "./store/rows";
import { externalIdOf, kindOf } from "./store/views";

/** An object a row keeps whole, JSON-encoded in its `data` column. */
export interface Kept<T> {
  readonly data: T;
}

/** A seed object as a row that keeps it whole. */
export const keep = <T>(data: T): Kept<T> => ({ data });

/** The JSON column a `Kept` row keeps its object in. */
const whole = <T>() => col.json<T>("data");

/** When boot happens: the time a seed object without its own date takes. */
export interface Dated {
  readonly now: number;
}

/** A `created` the seed may leave out: boot dates it now, and export always gives it. */
const created = <T>() =>
  col.custom<number | undefined, unknown, Placed<T, Dated>>(
    "created",
    (v, _ctx, { place }) => v ?? place.now,
    (cell) => Number(cell),
  );

export const users = tableMap<Kept<SlackUser>>()({
  table: "sl_users",
  fields: { data: whole<SlackUser>() },
  derived: {
    id: ({ value }) => value.data.id,
    name: ({ value }) => value.data.name,
    email: ({ value }) => value.data.profile.email ?? null,
  },
});

/**
 * A conversation. Its topic, purpose, `is_general` and creator are read only whole, kept in the
 * `data` column (`ChannelData`) and assembled back on export; members, pins, bookmarks and
 * messages are rows of their own tables.
 */
export const channels = tableMap<SlackChannel, unknown, Dated>()({
  table: "sl_channels",
  fields: {
    id: col.text("id"),
    name: col.optional(col.text("name")),
    // A DM's and a group DM's privacy is their kind's, not a flag of theirs: kept set (so a
    // visibility check reads one column), exported unset.
    is_private: col.custom<boolean, unknown, Placed<SlackChannel, Dated>>(
      "is_private",
      (v, _ctx, { value }) => bool(v || value.is_im || value.is_mpim === true),
      (cell, _ctx, row) => (row.is_im === 1 || row.is_mpim === 1 ? false : cell === 1),
    ),
    is_archived: col.flag("is_archived"),
    is_general: assembled,
    is_im: col.flag("is_im"),
    created: created<SlackChannel>(),
    topic: assembled,
    purpose: assembled,
    members: assembled,
    pins: assembled,
    bookmarks: assembled,
    messages: assembled,
    user: col.optional(col.text("im_user")),
    is_mpim: col.custom<boolean | undefined>(
      "is_mpim",
      (v) => bool(v === true),
      (cell) => (cell === 1 ? true : undefined),
    ),
    creator: assembled,
    canvas: assembled,
  },
  derived: { data: ({ value }) => JSON.stringify(channelDataOf(value)) },
});

// The `data` columns are written by this twin alone, from values of these very types.
export const channelDataOfRow = (row: StoredRow) => JSON.parse(String(row.data)) as ChannelData;
export const messageDataOfRow = (row: StoredRow) => JSON.parse(String(row.data)) as MessageData;
export const fileDataOfRow = (row: StoredRow) => JSON.parse(String(row.data)) as FileData;

function channelDataOf(c: SlackChannel): ChannelData {
  const data: ChannelData = { is_general: c.is_general, topic: c.topic, purpose: c.purpose };
  if (c.creator !== undefined) data.creator = c.creator;
  if (c.canvas !== undefined) data.canvas = c.canvas;
  return data;
}

/** A conversation's members: `(channel, user)`, a member named twice kept once. */
export const members: ListTable<string, unknown> = { table: "sl_members", owner: "channel", item: col.text("user"), orIgnore: true };

/**
 * Where a message sits: its conversation, and (for a thread's parent) the replies its derived
 * reply columns are computed from.
 */
export interface InChannel {
  readonly channel: string;
  readonly replies: readonly SlackMessage[];
}

/** What a message row keeps in `data`: the message but for its indexed columns and its reactions (sl_reactions). */
export function messageRest(m: SlackMessage): MessageData {
  const { ts: _t, thread_ts: _th, user: _u, text: _x, reactions: _r, ...rest } = m;
  return rest;
}

/** A message's indexed columns; export spreads its `data` (messageRest) after them and adds its reactions. */
export const messages = tableMap<SlackMessage, unknown, InChannel>()({
  table: "sl_messages",
  fields: {
    ts: col.text("ts"),
    user: col.text("user"),
    text: col.custom<string | undefined>(
      "text",
      (v) => v ?? "",
      (cell) => String(cell),
    ),
    thread_ts: col.optional(col.text("thread_ts")),
  },
  derived: {
    channel: ({ place }) => place.channel,
    in_history: ({ value }) => bool(inHistory(value)),
    data: ({ value }) => JSON.stringify(messageRest(value)),
    reply_count: ({ place }) => place.replies.length,
    reply_users: ({ place }) => JSON.stringify([...new Set(place.replies.map((r) => r.user))]),
    latest_reply: ({ place }) => place.replies.at(-1)?.ts ?? null,
  },
});

/** Where a row that belongs to a message or a conversation sits, and its place in the world's one `seq` order. */
export interface InSeq {
  readonly channel: string;
  readonly seq: number;
}

/** One user's reaction to one message: a seed's `{ name, users }` is one row per user. */
export interface Reaction {
  readonly name: string;
  readonly user: string;
}

export const reactions = tableMap<Reaction, unknown, InSeq & { readonly ts: string }>()({
  table: "sl_reactions",
  fields: { name: col.text("name"), user: col.text("user") },
  derived: { channel: ({ place }) => place.channel, ts: ({ place }) => place.ts, seq: ({ place }) => place.seq },
});

/** A pinned message, by its ts; a seeded pin was pinned at boot by the app's bot user. */
export interface Pin {
  readonly ts: string;
}

export const pins = tableMap<Pin, unknown, InSeq & Dated & { readonly by: string }>()({
  table: "sl_pins",
  fields: { ts: col.text("ts") },
  derived: {
    channel: ({ place }) => place.channel,
    created: ({ place }) => place.now,
    created_by: ({ place }) => place.by,
    seq: ({ place }) => place.seq,
  },
});

export type SlackBookmark = SlackChannel["bookmarks"][number];

export const bookmarks = tableMap<Kept<SlackBookmark>, unknown, InSeq>()({
  table: "sl_bookmarks",
  fields: { data: whole<SlackBookmark>() },
  derived: { id: ({ value }) => value.data.id, channel: ({ place }) => place.channel, seq: ({ place }) => place.seq },
});

/**
 * A file with its content. Its name, title, filetype and public-link flag are kept in `data`
 * (`FileData`, with the mimetype and content encoding Slack derives) and assembled back on export;
 * `content` holds text as is, or base64 as given.
 */
export const files = tableMap<SlackFile, unknown, Dated>()({
  table: "sl_files",
  fields: {
    id: col.text("id"),
    name: assembled,
    title: assembled,
    filetype: assembled,
    user: col.text("user"),
    public_url_shared: assembled,
    created: created<SlackFile>(),
    content: assembled,
    content_base64: assembled,
  },
  derived: {
    complete: () => 1,
    size: ({ value }) => contentBytes(value).length,
    content: ({ value }) => (value.content_base64 !== undefined ? value.content_base64 : (value.content ?? "")),
    data: ({ value }) => JSON.stringify(fileDataOf(value)),
  },
});

function fileDataOf(f: SlackFile): FileData {
  const { content: _c, content_base64, created: _d, ...meta } = f;
  return { ...meta, mimetype: mimetypeOf(f.filetype ?? "text"), encoding: content_base64 !== undefined ? "base64" : "utf8" };
}

/** Bytes of a file's content, whichever way it was given. */
export function contentBytes(f: { content?: string; content_base64?: string }): Uint8Array {
  if (f.content_base64 !== undefined) return fromBase64(f.content_base64);
  return new TextEncoder().encode(f.content ?? "");
}

export const deletedFiles = tableMap<SlackDeletedFile>()({
  table: "sl_deleted_files",
  fields: { id: col.text("id"), date_deleted: col.number("deleted") },
});

export const scheduled = tableMap<Kept<SlackScheduled>, unknown, Dated>()({
  table: "sl_scheduled",
  fields: { data: whole<SlackScheduled>() },
  derived: {
    id: ({ value }) => value.data.id,
    channel: ({ value }) => value.data.channel_id,
    post_at: ({ value }) => value.data.post_at,
    created: ({ place }) => place.now,
  },
});

export const usergroups = tableMap<Kept<SlackUsergroup>>()({
  table: "sl_usergroups",
  fields: { data: whole<SlackUsergroup>() },
  derived: { id: ({ value }) => value.data.id },
});

/** A scripted reply, numbered from 1 in seed order; none has fired yet. */
export const scripted = tableMap<Kept<ScriptedReply>, unknown, number>()({
  table: "sl_scripted",
  fields: { data: whole<ScriptedReply>() },
  derived: { id: ({ place }) => place, channel: ({ value }) => value.data.channel, triggered: () => 0 },
});

export const reminders = tableMap<Kept<SlackReminder>>()({
  table: "sl_reminders",
  fields: { data: whole<SlackReminder>() },
  derived: { id: ({ value }) => value.data.id, user: ({ value }) => value.data.creator },
});

export const triggerIds = tableMap<SlackTriggerId>()({
  table: "sl_triggers",
  fields: {
    id: col.text("id"),
    user: col.text("user"),
    expires_at: col.optional(col.number("expires_at")),
    exchanged: col.flag("exchanged"),
  },
});

export const views = tableMap<Kept<SlackView>>()({
  table: "sl_views",
  fields: { data: whole<SlackView>() },
  derived: {
    id: ({ value }) => value.data.id,
    user: ({ value }) => value.data.user,
    kind: ({ value }) => kindOf(value.data),
    external_id: ({ value }) => externalIdOf(value.data),
  },
});

/** The link_shared events the app was sent, by unfurl id (chat.unfurl). */
export const linkShares = tableMap<Kept<SlackLinkShare>>()({
  table: "sl_link_shares",
  fields: { data: whole<SlackLinkShare>() },
  derived: {
    unfurl_id: ({ value }) => value.data.unfurl_id,
    channel: ({ value }) => value.data.channel ?? null,
    message_ts: ({ value }) => value.data.message_ts ?? null,
  },
});

/** People's saved items (stars.*), in the order they were saved. */
export const stars = tableMap<Kept<SlackStar>>()({
  table: "sl_stars",
  fields: { data: whole<SlackStar>() },
  derived: { user: ({ value }) => value.data.user, item: ({ value }) => starKey(value.data) },
});

/**
 * A list that may name one id twice (the seed does not refuse it for trigger ids and views), as
 * the store's own writes leave it: the later object wins, at the place of the first (an upsert,
 * `saveView`) or of the last (a replace, `saveTrigger`).
 */
export function laterWins<T>(items: readonly T[], idOf: (item: T) => string, at: "first" | "last"): T[] {
  const byId = new Map<string, T>();
  for (const item of items) {
    if (at === "last") byId.delete(idOf(item));
    byId.set(idOf(item), item);
  }
  return [...byId.values()];
}
