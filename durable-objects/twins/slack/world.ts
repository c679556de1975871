// Booting a Slack world from its seed and exporting it back in the seed's own shape. Derived
// fields (reply counts, reaction counts, file sizes and shares) are computed here and kept in
// their own columns, never exported, so a seed cannot disagree with itself.
import { scheduleAtBoot } from "../kit/platform";
import type { Db } from "../types";
import { fromBase64 } from "../kit/bytes";
import { bool, bulkInsert, groupBy } from "../kit/sql";
import type { Clock } from "../types";
import type { SlackChannel, SlackFile, SlackMessage, SlackSeed } from "./seed";
import { bootEmoji, customEmoji } from "./store/emoji";
import { mimetypeOf } from "./store/files";
import { bootSurfaces, exportSurfaces } from "./store/views";
import { allReminders, allUserStates, saveReminder, withState } from "./store/people";
import {
  type ChannelData,
  type ChannelRow,
  type FileRow,
  inHistory,
  type MessageData,
  type MessageRow,
  channelData,
  fileData,
  messageData,
  noteTs,
  nowSeconds,
  readInstallation,
  readTeam,
  scheduledData,
  scriptedData,
  usergroupData,
  userData,
  SCHEDULED_KIND,
  type UserRow,
} from "./store/rows";

export function messageRest(m: SlackMessage): MessageData {
  const { ts: _t, thread_ts: _th, user: _u, text: _x, reactions: _r, ...rest } = m;
  return rest;
}

/** Bytes of a file's content, whichever way it was given. */
export function contentBytes(f: { content?: string; content_base64?: string }): Uint8Array {
  if (f.content_base64 !== undefined) return fromBase64(f.content_base64);
  return new TextEncoder().encode(f.content ?? "");
}

export function bootSlack(db: Db, seed: SlackSeed, clock: Clock): void {
  const now = nowSeconds(clock);
  db.run(
    "INSERT INTO sl_meta (key, value) VALUES ('team', ?), ('installation', ?)",
    JSON.stringify(seed.team),
    JSON.stringify(seed.installation),
  );
  // Read once per sandbox (ratelimit.ts), so only boot may write it.
  if (seed.rate_limits) db.run("INSERT INTO sl_meta (key, value) VALUES ('rate_limits', ?)", JSON.stringify(seed.rate_limits));
  for (const u of seed.users) {
    db.run("INSERT INTO sl_users (id, name, email, data) VALUES (?, ?, ?, ?)", u.id, u.name, u.profile.email ?? null, JSON.stringify(u));
  }
  for (const f of seed.files) bootFile(db, f, now);
  let seq = 0;
  for (const c of seed.channels) {
    bootChannel(db, c, now);
    const replies = groupBy(
      c.messages.filter((m) => m.thread_ts !== undefined && m.thread_ts !== m.ts),
      (m) => m.thread_ts,
    );
    const rows = c.messages.map((m) => {
      const thread = replies.get(m.ts) ?? [];
      const users = [...new Set(thread.map((r) => r.user))];
      return [
        m.ts,
        m.thread_ts ?? null,
        m.user,
        bool(inHistory(m)),
        m.text ?? "",
        JSON.stringify(messageRest(m)),
        thread.length,
        JSON.stringify(users),
        thread.at(-1)?.ts ?? null,
      ];
    });
    bulkInsert(
      db,
      `INSERT INTO sl_messages (channel, ts, thread_ts, user, in_history, text, data, reply_count, reply_users, latest_reply)
       SELECT ?, value->>0, value->>1, value->>2, value->>3, value->>4, value->>5, value->>6, value->>7, value->>8 FROM jsonb_each(?)`,
      rows,
      c.id,
    );
    const last = c.messages.at(-1);
    if (last) noteTs(db, last.ts);
    for (const m of c.messages) {
      for (const r of m.reactions ?? [])
        for (const u of r.users)
          db.run("INSERT INTO sl_reactions (channel, ts, name, user, seq) VALUES (?, ?, ?, ?, ?)", c.id, m.ts, r.name, u, ++seq);
      for (const f of m.files ?? []) db.run("INSERT OR IGNORE INTO sl_file_shares (file, channel, ts) VALUES (?, ?, ?)", f, c.id, m.ts);
    }
    for (const p of c.pins)
      db.run(
        "INSERT INTO sl_pins (channel, ts, created, created_by, seq) VALUES (?, ?, ?, ?, ?)",
        c.id,
        p,
        now,
        seed.installation.bot_user_id,
        ++seq,
      );
    for (const b of c.bookmarks)
      db.run("INSERT INTO sl_bookmarks (id, channel, seq, data) VALUES (?, ?, ?, ?)", b.id, c.id, ++seq, JSON.stringify(b));
  }
  db.run("INSERT INTO sl_meta (key, value) VALUES ('seq', ?)", String(seq + 1));
  for (const s of seed.scheduled_messages) {
    db.run(
      "INSERT INTO sl_scheduled (id, channel, post_at, created, data) VALUES (?, ?, ?, ?, ?)",
      s.id,
      s.channel_id,
      s.post_at,
      now,
      JSON.stringify(s),
    );
    scheduleDelivery(db, clock, s.id, s.post_at);
  }
  for (const g of seed.usergroups) db.run("INSERT INTO sl_usergroups (id, data) VALUES (?, ?)", g.id, JSON.stringify(g));
  bootEmoji(db, seed.emoji);
  for (const f of seed.deleted_files) db.run("INSERT INTO sl_deleted_files (id, deleted) VALUES (?, ?)", f.id, f.date_deleted);
  for (const r of seed.reminders) saveReminder(db, r);
  bootSurfaces(db, seed);
  seed.scripted_replies.forEach((r, i) =>
    db.run("INSERT INTO sl_scripted (id, channel, triggered, data) VALUES (?, ?, 0, ?)", i + 1, r.channel, JSON.stringify(r)),
  );
}

/**
 * A seeded scheduled message turns into a message before the first call served once its post_at
 * has passed. Boot has no call context, so it schedules on the platform's timed mechanism directly;
 * chat.scheduleMessage uses `ctx.schedule`, the same mechanism.
 */
function scheduleDelivery(db: Db, clock: Clock, id: string, postAt: number): void {
  scheduleAtBoot(db, "slack", SCHEDULED_KIND, { id }, { seconds: Math.max(0, postAt - clock.now() / 1000) }, clock.now());
}

function bootChannel(db: Db, c: SlackChannel, now: number): void {
  const data: ChannelData = { is_general: c.is_general, topic: c.topic, purpose: c.purpose };
  if (c.creator !== undefined) data.creator = c.creator;
  db.run(
    "INSERT INTO sl_channels (id, name, is_im, im_user, is_private, is_archived, created, data, is_mpim) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
    c.id,
    c.name ?? null,
    bool(c.is_im),
    c.user ?? null,
    bool(c.is_private || c.is_im || c.is_mpim === true),
    bool(c.is_archived),
    c.created ?? now,
    JSON.stringify(data),
    bool(c.is_mpim === true),
  );
  for (const m of c.members) db.run("INSERT OR IGNORE INTO sl_members (channel, user) VALUES (?, ?)", c.id, m);
}

function bootFile(db: Db, f: SlackFile, now: number): void {
  const bytes = contentBytes(f);
  const encoding = f.content_base64 !== undefined ? "base64" : "utf8";
  const { content, content_base64, created, ...meta } = f;
  db.run(
    "INSERT INTO sl_files (id, complete, user, created, size, content, data) VALUES (?, 1, ?, ?, ?, ?, ?)",
    f.id,
    f.user,
    created ?? now,
    bytes.length,
    encoding === "base64" ? (content_base64 ?? "") : (content ?? ""),
    JSON.stringify({ ...meta, mimetype: mimetypeOf(f.filetype ?? "text"), encoding }),
  );
}

export function exportMessage(row: MessageRow, reactions: { name: string; user: string }[]): SlackMessage {
  const m: SlackMessage = { ts: row.ts, user: row.user, text: row.text, ...messageData(row) };
  if (row.thread_ts !== null) m.thread_ts = row.thread_ts;
  const byName = groupBy(reactions, (r) => r.name);
  if (byName.size) m.reactions = [...byName].map(([name, list]) => ({ name, users: list.map((r) => r.user) }));
  // Keys in the seed's order, so an export reads like the seed it came from.
  const { ts, user, text, thread_ts, ...rest } = m;
  return { ts, user, text, ...(thread_ts !== undefined ? { thread_ts } : {}), ...rest };
}

/** Users as they are now: what calls changed (status, presence, dnd) merged into each. */
function exportUsers(db: Db) {
  const states = allUserStates(db);
  return db.all<UserRow>("SELECT * FROM sl_users ORDER BY rowid").map((r) => {
    const u = userData(r);
    return withState(u, states.get(u.id));
  });
}

export function exportSlack(db: Db): SlackSeed {
  const members = groupBy(
    db.all<{ channel: string; user: string }>("SELECT channel, user FROM sl_members ORDER BY rowid"),
    (r) => r.channel,
  );
  const messages = groupBy(db.all<MessageRow>("SELECT * FROM sl_messages ORDER BY channel, ts"), (r) => r.channel);
  const reactions = groupBy(
    db.all<{ channel: string; ts: string; name: string; user: string }>("SELECT channel, ts, name, user FROM sl_reactions ORDER BY seq"),
    (r) => `${r.channel}/${r.ts}`,
  );
  const pins = groupBy(db.all<{ channel: string; ts: string }>("SELECT channel, ts FROM sl_pins ORDER BY seq"), (r) => r.channel);
  const bookmarks = groupBy(
    db.all<{ channel: string; data: string }>("SELECT channel, data FROM sl_bookmarks ORDER BY seq"),
    (r) => r.channel,
  );
  const channels = db.all<ChannelRow>("SELECT * FROM sl_channels ORDER BY rowid").map((row): SlackChannel => {
    const data = channelData(row);
    const c: SlackChannel = {
      id: row.id,
      // A DM's and a group DM's privacy is their kind's, not a flag of theirs.
      is_private: row.is_im || row.is_mpim ? false : row.is_private === 1,
      is_archived: row.is_archived === 1,
      is_general: data.is_general,
      is_im: row.is_im === 1,
      created: row.created,
      topic: data.topic,
      purpose: data.purpose,
      members: (members.get(row.id) ?? []).map((m) => m.user),
      pins: (pins.get(row.id) ?? []).map((p) => p.ts),
      bookmarks: (bookmarks.get(row.id) ?? []).map((b) => JSON.parse(b.data) as SlackChannel["bookmarks"][number]),
      messages: (messages.get(row.id) ?? []).map((m) => exportMessage(m, reactions.get(`${m.channel}/${m.ts}`) ?? [])),
    };
    if (row.name !== null) c.name = row.name;
    if (row.im_user !== null) c.user = row.im_user;
    if (row.is_mpim === 1) c.is_mpim = true;
    if (data.creator !== undefined) c.creator = data.creator;
    const { id, name, ...rest } = c;
    return { id, ...(name !== undefined ? { name } : {}), ...rest };
  });
  const files = db.all<FileRow>("SELECT * FROM sl_files WHERE complete = 1 ORDER BY rowid").map((row): SlackFile => {
    const { mimetype: _m, encoding, ...meta } = fileData(row);
    const content = row.content ?? "";
    return { ...meta, created: row.created, ...(encoding === "base64" ? { content_base64: content } : { content }) };
  });
  return {
    team: readTeam(db),
    installation: readInstallation(db),
    users: exportUsers(db),
    channels,
    files,
    scheduled_messages: db.all<{ data: string }>("SELECT data FROM sl_scheduled ORDER BY rowid").map((r) => scheduledData(r.data)),
    usergroups: db.all<{ data: string }>("SELECT data FROM sl_usergroups ORDER BY rowid").map((r) => usergroupData(r.data)),
    scripted_replies: db.all<{ data: string }>("SELECT data FROM sl_scripted ORDER BY id").map((r) => scriptedData(r.data)),
    emoji: customEmoji(db),
    reminders: allReminders(db),
    deleted_files: db
      .all<{ id: string; deleted: number }>("SELECT id, deleted FROM sl_deleted_files ORDER BY rowid")
      .map((r) => ({ id: r.id, date_deleted: r.deleted })),
    ...exportSurfaces(db),
  };
}
