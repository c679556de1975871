// Conversations: lookup by id or name, who may see and post where, membership, and the
// conversation object Slack answers with.
import type { Db } from "../../types";
import type { Call } from "../context";
import { fail } from "../errors";
import { type ChannelData, type ChannelRow, channelData, nowSeconds } from "./rows";

export const channelRow = (db: Db, id: string) => db.one<ChannelRow>("SELECT * FROM sl_channels WHERE id = ?", id);
export const channelByName = (db: Db, name: string) => db.one<ChannelRow>("SELECT * FROM sl_channels WHERE name = ?", name);
export const isMember = (db: Db, channel: string, user: string) =>
  db.one<{ n: number }>("SELECT 1 AS n FROM sl_members WHERE channel = ? AND user = ?", channel, user) !== undefined;
export const memberCount = (db: Db, channel: string) =>
  db.one<{ n: number }>("SELECT count(*) AS n FROM sl_members WHERE channel = ?", channel)?.n ?? 0;

/** Whether the caller can see a conversation at all: every public channel, and private ones and DMs it is in. */
export const canSee = (call: Call, row: ChannelRow) => row.is_private === 0 || isMember(call.db, row.id, call.actor.user);

/** The conversation an argument names: an id, or for posting a channel name with or without `#`. */
export function findChannel(call: Call, raw: string, byName = false): ChannelRow | undefined {
  const row = channelRow(call.db, raw);
  if (row) return row;
  if (!byName) return undefined;
  const name = raw.startsWith("#") ? raw.slice(1) : raw;
  return channelByName(call.db, name.toLowerCase());
}

/** A conversation the caller can see, else `channel_not_found` (private ones it is not in do not exist for it). */
export function visibleChannel(call: Call, raw: string | undefined, byName = false): ChannelRow {
  const row = raw === undefined ? fail("channel_not_found") : findChannel(call, raw, byName);
  if (!row || !canSee(call, row)) return fail("channel_not_found");
  return row;
}

/** A conversation the caller is in, else `not_in_channel` (or `channel_not_found` when it cannot see it). */
export function joinedChannel(call: Call, raw: string | undefined, byName = false): ChannelRow {
  const row = visibleChannel(call, raw, byName);
  if (!isMember(call.db, row.id, call.actor.user)) fail("not_in_channel");
  return row;
}

export function notArchived(row: ChannelRow): ChannelRow {
  if (row.is_archived) fail("is_archived");
  return row;
}

export function setChannelData(db: Db, id: string, data: ChannelData): void {
  db.run("UPDATE sl_channels SET data = ? WHERE id = ?", JSON.stringify(data), id);
}

/** The DM between the caller and a user, opened on demand. */
export function imWith(call: Call, user: string, newId: () => string): ChannelRow {
  const existing = call.db.one<ChannelRow>("SELECT * FROM sl_channels WHERE im_user = ? AND is_im = 1", user);
  if (existing) {
    call.db.run("INSERT OR IGNORE INTO sl_members (channel, user) VALUES (?, ?)", existing.id, call.actor.user);
    return existing;
  }
  const id = newId();
  const data: ChannelData = {
    is_general: false,
    topic: { value: "", creator: "", last_set: 0 },
    purpose: { value: "", creator: "", last_set: 0 },
  };
  call.db.run(
    "INSERT INTO sl_channels (id, name, is_im, im_user, is_private, is_archived, created, data) VALUES (?, NULL, 1, ?, 1, 0, ?, ?)",
    id,
    user,
    nowSeconds(call.clock),
    JSON.stringify(data),
  );
  call.db.run("INSERT OR IGNORE INTO sl_members (channel, user) VALUES (?, ?), (?, ?)", id, user, id, call.actor.user);
  const row = channelRow(call.db, id);
  return row ?? fail("channel_not_found");
}

/**
 * The group DM (mpim) of the caller and `others`, opened on demand: the one whose members are
 * exactly these people, else a new one named as Slack names them (`mpdm-alice--bob--carol-1`).
 */
export function mpimWith(call: Call, others: readonly string[], newId: () => string): { row: ChannelRow; existed: boolean } {
  const people = [...new Set([call.actor.user, ...others])].sort();
  const existing = call.db.one<ChannelRow>(
    `SELECT c.* FROM sl_channels c WHERE c.is_mpim = 1
       AND (SELECT json_group_array(user) FROM (SELECT user FROM sl_members WHERE channel = c.id ORDER BY user)) = ?`,
    JSON.stringify(people),
  );
  if (existing) return { row: existing, existed: true };
  const names = people.map((id) => call.db.one<{ name: string }>("SELECT name FROM sl_users WHERE id = ?", id)?.name ?? id.toLowerCase());
  const base = `mpdm-${names.join("--")}`;
  let n = 1;
  while (channelByName(call.db, `${base}-${n}`)) n += 1;
  const id = newId();
  const data: ChannelData = {
    is_general: false,
    topic: { value: "Group messaging", creator: call.actor.user, last_set: nowSeconds(call.clock) },
    purpose: {
      value: `Group messaging with: ${people.map((p) => `@${p}`).join(" ")}`,
      creator: call.actor.user,
      last_set: nowSeconds(call.clock),
    },
    creator: call.actor.user,
  };
  call.db.run(
    "INSERT INTO sl_channels (id, name, is_im, im_user, is_private, is_archived, created, data, is_mpim) VALUES (?, ?, 0, NULL, 1, 0, ?, ?, 1)",
    id,
    `${base}-${n}`,
    nowSeconds(call.clock),
    JSON.stringify(data),
  );
  for (const p of people) call.db.run("INSERT OR IGNORE INTO sl_members (channel, user) VALUES (?, ?)", id, p);
  return { row: channelRow(call.db, id) ?? fail("channel_not_found"), existed: false };
}

export function channelView(call: Call, row: ChannelRow, opts: { numMembers?: boolean } = {}): Record<string, unknown> {
  const data = channelData(row);
  const member = isMember(call.db, row.id, call.actor.user);
  if (row.is_im) {
    return {
      id: row.id,
      created: row.created,
      is_archived: row.is_archived === 1,
      is_im: true,
      is_org_shared: false,
      context_team_id: call.team.id,
      updated: row.created * 1000,
      user: row.im_user,
      is_user_deleted: false,
      priority: 0,
    };
  }
  const name = row.name ?? "";
  const view: Record<string, unknown> = {
    id: row.id,
    name,
    is_channel: row.is_private === 0,
    is_group: row.is_private === 1 && row.is_mpim !== 1,
    is_im: false,
    is_mpim: row.is_mpim === 1,
    is_private: row.is_private === 1,
    created: row.created,
    is_archived: row.is_archived === 1,
    is_general: data.is_general,
    unlinked: 0,
    name_normalized: name,
    is_shared: false,
    is_org_shared: false,
    is_pending_ext_shared: false,
    pending_shared: [],
    context_team_id: call.team.id,
    updated: row.created * 1000,
    parent_conversation: null,
    creator: data.creator ?? "",
    is_ext_shared: false,
    shared_team_ids: [call.team.id],
    pending_connected_team_ids: [],
    is_member: member,
    topic: data.topic,
    purpose: data.purpose,
    previous_names: [],
  };
  if (opts.numMembers) view.num_members = memberCount(call.db, row.id);
  return view;
}
