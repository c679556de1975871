// Booting a Slack world from its seed and exporting it back in the seed's own shape. Which column
// keeps which field is declared once per table, as column maps, in world-tables.ts; boot and export
// both go through them. Derived fields (reply counts, reaction counts, file sizes and shares) are
// computed at boot and kept in their own columns, never exported, so a seed cannot disagree with itself.
import { scheduleAtBoot } from "../kit/platform";
import { type Cell, groupBy, insertRows } from "../kit/sql";
import {
  type Column,
  type Placed,
  type StoredRow,
  type TableMap,
  insertLists,
  insertObjects,
  insertPlaced,
  objectOf,
  readLists,
  readRows,
} from "../kit/world-table";
import type { Clock, Db } from "../types";
import { rateLimitsOf } from "./ratelimit";
import type { SlackChannel, SlackFile, SlackMessage, SlackSeed } from "./seed";
import type { SlackStar } from "./seed-surfaces";
import { bootEmoji, customEmoji } from "./store/emoji";
import { allUserStates, withState } from "./store/people";
import { SCHEDULED_KIND, noteTs, nowSeconds, readInstallation, readTeam } from "./store/rows";
import * as T from "./world-tables";

export function bootSlack(db: Db, seed: SlackSeed, clock: Clock): void {
  const dated: T.Dated = { now: nowSeconds(clock) };
  db.run(
    "INSERT INTO sl_meta (key, value) VALUES ('team', ?), ('installation', ?)",
    JSON.stringify(seed.team),
    JSON.stringify(seed.installation),
  );
  // Read once per sandbox (ratelimit.ts), so only boot may write it.
  if (seed.rate_limits) db.run("INSERT INTO sl_meta (key, value) VALUES ('rate_limits', ?)", JSON.stringify(seed.rate_limits));
  insertObjects(db, T.users, seed.users.map(T.keep), undefined);
  insertPlaced(db, T.files, at(seed.files, dated), undefined);
  insertPlaced(db, T.channels, at(seed.channels, dated), undefined);
  insertLists(db, T.members, seed.channels, (c) => ({ id: c.id, items: c.members }), undefined);
  bootConversations(db, seed, dated);
  insertPlaced(db, T.scheduled, at(seed.scheduled_messages.map(T.keep), dated), undefined);
  for (const s of seed.scheduled_messages) scheduleDelivery(db, clock, s.id, s.post_at);
  insertObjects(db, T.usergroups, seed.usergroups.map(T.keep), undefined);
  bootEmoji(db, seed.emoji);
  insertObjects(db, T.deletedFiles, seed.deleted_files, undefined);
  insertObjects(db, T.reminders, seed.reminders.map(T.keep), undefined);
  insertObjects(
    db,
    T.triggerIds,
    T.laterWins(seed.trigger_ids, (t) => t.id, "last"),
    undefined,
  );
  insertObjects(db, T.views, T.laterWins(seed.views, (v) => v.id, "first").map(T.keep), undefined);
  insertObjects(db, T.linkShares, seed.link_shares.map(T.keep), undefined);
  insertObjects(
    db,
    T.stars,
    seed.stars.map((s): T.Kept<SlackStar> => T.keep({ ...s, date_create: s.date_create ?? dated.now })),
    undefined,
  );
  insertPlaced(
    db,
    T.scripted,
    seed.scripted_replies.map((r, i) => ({ value: T.keep(r), place: i + 1 })),
    undefined,
  );
}

/** Seed objects all placed alike. */
const at = <V, Place>(items: readonly V[], place: Place) => items.map((value) => ({ value, place }));

/**
 * Each conversation's messages, their reactions and file shares, its pins and bookmarks. Reactions,
 * pins and bookmarks share one `seq` order (the order they were made in), numbered conversation by
 * conversation; the next one made takes the `seq` counter boot leaves.
 */
function bootConversations(db: Db, seed: SlackSeed, dated: T.Dated): void {
  let seq = 0;
  const messages: Placed<SlackMessage, T.InChannel>[] = [];
  const reactions: Placed<T.Reaction, T.InSeq & { ts: string }>[] = [];
  const pins: Placed<T.Pin, T.InSeq & T.Dated & { by: string }>[] = [];
  const bookmarks: Placed<T.Kept<T.SlackBookmark>, T.InSeq>[] = [];
  const shares: Cell[][] = [];
  for (const c of seed.channels) {
    const replies = groupBy(
      c.messages.filter((m) => m.thread_ts !== undefined && m.thread_ts !== m.ts),
      (m) => m.thread_ts,
    );
    for (const m of c.messages) {
      messages.push({ value: m, place: { channel: c.id, replies: replies.get(m.ts) ?? [] } });
      for (const r of m.reactions ?? [])
        for (const user of r.users) reactions.push({ value: { name: r.name, user }, place: { channel: c.id, ts: m.ts, seq: ++seq } });
      // Where a file is shared is what Slack derives from the messages that list it: never exported.
      for (const f of m.files ?? []) shares.push([f, c.id, m.ts]);
    }
    const last = c.messages.at(-1);
    if (last) noteTs(db, last.ts);
    const by = seed.installation.bot_user_id;
    for (const ts of c.pins) pins.push({ value: { ts }, place: { channel: c.id, seq: ++seq, now: dated.now, by } });
    for (const b of c.bookmarks) bookmarks.push({ value: T.keep(b), place: { channel: c.id, seq: ++seq } });
  }
  insertPlaced(db, T.messages, messages, undefined);
  insertPlaced(db, T.reactions, reactions, undefined);
  insertPlaced(db, T.pins, pins, undefined);
  insertPlaced(db, T.bookmarks, bookmarks, undefined);
  if (shares.length) insertRows(db, "sl_file_shares", ["file", "channel", "ts"], shares, { orIgnore: true });
  db.run("INSERT INTO sl_meta (key, value) VALUES ('seq', ?)", String(seq + 1));
}

/**
 * A seeded scheduled message turns into a message before the first call served once its post_at
 * has passed. Boot has no call context, so it schedules on the platform's timed mechanism directly;
 * chat.scheduleMessage uses `ctx.schedule`, the same mechanism.
 */
function scheduleDelivery(db: Db, clock: Clock, id: string, postAt: number): void {
  scheduleAtBoot(db, "slack", SCHEDULED_KIND, { id }, { seconds: Math.max(0, postAt - clock.now() / 1000) }, clock.now());
}

/** Users as they are now: what calls changed (status, presence, dnd) merged into each. */
function exportUsers(db: Db) {
  const states = allUserStates(db);
  return readRows(db, T.users.table).map((row) => {
    const u = objectOf(T.users, row, undefined).data;
    return withState(u, states.get(u.id));
  });
}

/** A message as the seed gives it: its columns, then the rest it keeps in `data`, then its reactions. */
function exportMessage(row: StoredRow, reactions: readonly StoredRow[]): SlackMessage {
  const m: SlackMessage = { ...objectOf(T.messages, row, undefined), ...T.messageDataOfRow(row) };
  const byName = groupBy(
    reactions.map((r) => objectOf(T.reactions, r, undefined)),
    (r) => r.name,
  );
  if (byName.size) m.reactions = [...byName].map(([name, list]) => ({ name, users: list.map((r) => r.user) }));
  return m;
}

/** Each conversation with its members, pins, bookmarks and messages. */
function exportChannels(db: Db): SlackChannel[] {
  const members = readLists(db, T.members, undefined);
  const byChannel = (table: string, order: string) => groupBy(readRows(db, table, order), (r) => String(r.channel));
  const messages = byChannel(T.messages.table, "ORDER BY channel, ts");
  const pins = byChannel(T.pins.table, "ORDER BY seq");
  const bookmarks = byChannel(T.bookmarks.table, "ORDER BY seq");
  const reactions = groupBy(readRows(db, T.reactions.table, "ORDER BY seq"), (r) => `${r.channel}/${r.ts}`);
  return readRows(db, T.channels.table).map((row): SlackChannel => {
    const id = String(row.id);
    const data = T.channelDataOfRow(row);
    return objectOf(T.channels, row, undefined, {
      is_general: data.is_general,
      topic: data.topic,
      purpose: data.purpose,
      members: members.get(id) ?? [],
      pins: (pins.get(id) ?? []).map((p) => objectOf(T.pins, p, undefined).ts),
      bookmarks: (bookmarks.get(id) ?? []).map((b) => objectOf(T.bookmarks, b, undefined).data),
      messages: (messages.get(id) ?? []).map((m) => exportMessage(m, reactions.get(`${id}/${m.ts}`) ?? [])),
      ...(data.creator !== undefined ? { creator: data.creator } : {}),
      ...(data.canvas !== undefined ? { canvas: data.canvas } : {}),
    });
  });
}

/** Files as the seed gives them: their content as it was given (text, or base64). */
function exportFiles(db: Db): SlackFile[] {
  return readRows(db, T.files.table, "WHERE complete = 1 ORDER BY rowid").map((row) => {
    const { mimetype: _m, encoding, ...meta } = T.fileDataOfRow(row);
    const { id: _i, user: _u, ...assembledMeta } = meta;
    const content = row.content === null || row.content === undefined ? "" : String(row.content);
    const file = objectOf(T.files, row, undefined, {
      ...assembledMeta,
      ...(encoding === "base64" ? { content_base64: content } : { content }),
    });
    // Keys in the order the file's own data keeps them (its seed's, or its upload's), as export always gave them.
    return { ...meta, ...file };
  });
}

export function exportSlack(db: Db): SlackSeed {
  const limits = rateLimitsOf(db);
  const keptIn = <V, Place>(map: TableMap<T.Kept<V>, unknown, Place, { data: Column<V> }>, order?: string) =>
    readRows(db, map.table, order).map((row) => objectOf(map, row, undefined).data);
  return {
    team: readTeam(db),
    installation: readInstallation(db),
    users: exportUsers(db),
    channels: exportChannels(db),
    files: exportFiles(db),
    scheduled_messages: keptIn(T.scheduled),
    usergroups: keptIn(T.usergroups),
    scripted_replies: keptIn(T.scripted, "ORDER BY id"),
    emoji: customEmoji(db),
    reminders: keptIn(T.reminders),
    deleted_files: readRows(db, T.deletedFiles.table).map((r) => objectOf(T.deletedFiles, r, undefined)),
    trigger_ids: readRows(db, T.triggerIds.table).map((r) => objectOf(T.triggerIds, r, undefined)),
    views: keptIn(T.views),
    link_shares: keptIn(T.linkShares),
    stars: keptIn(T.stars),
    ...(limits ? { rate_limits: limits } : {}),
  };
}
