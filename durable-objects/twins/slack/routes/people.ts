// People and groups: user groups (usergroups.*), a user's own profile, status and presence
// (users.profile.set, users.setPresence), do-not-disturb (dnd.*) and reminders (reminders.*).
// Token rules are docs.slack.dev's: users.profile.set, users.setPresence, dnd.setSnooze/endSnooze
// and reminders.* take user tokens only (their scopes are user scopes); usergroups.* and dnd.info
// take either. Error codes are the ones each method's reference page lists.
import type { Route } from "../../types";
import { type Call, method } from "../context";
import { fail } from "../errors";
import type { SlackReminder, SlackUser, SlackUsergroup } from "../seed";
import { channelRow } from "../store/channels";
import { customEmoji, knownEmoji } from "../store/emoji";
import { allUsergroups, reminderRow, saveReminder, saveUsergroup, usergroupRow, writeUserState } from "../store/people";
import { newId, nowSeconds } from "../store/rows";
import { profileView, requireUser, userById } from "../store/users";

const READ_GROUPS = ["usergroups:read"];
const WRITE_GROUPS = ["usergroups:write"];

function usergroupView(call: Call, g: SlackUsergroup, opts: { users?: boolean; count?: boolean } = {}) {
  const creator = g.created_by ?? call.installation.bot_user_id;
  return {
    id: g.id,
    team_id: call.team.id,
    is_usergroup: true,
    is_subteam: true,
    name: g.name,
    description: g.description,
    handle: g.handle,
    is_external: false,
    date_create: g.date_create,
    date_update: g.date_create,
    date_delete: g.date_delete,
    auto_type: null,
    auto_provision: false,
    enterprise_subteam_id: "",
    created_by: creator,
    updated_by: creator,
    deleted_by: g.date_delete ? creator : null,
    prefs: { channels: g.channels, groups: [] },
    ...(opts.users ? { users: g.users } : {}),
    ...(opts.count || opts.users ? { user_count: g.users.length } : {}),
  };
}

const requireGroup = (call: Call): SlackUsergroup => usergroupRow(call.db, call.args.str("usergroup") ?? "") ?? fail("no_such_subteam");

/** Users named by a comma list, each a member of the workspace, else `invalid_users`. */
function userList(call: Call, key: string): string[] {
  const ids =
    call.args.list(key) ?? fail("invalid_arguments", { response_metadata: { messages: [`[ERROR] missing required field: ${key}`] } });
  for (const id of ids) if (!userById(call.db, id)) fail("invalid_users");
  return [...new Set(ids)];
}

function channelList(call: Call): string[] | undefined {
  const ids = call.args.list("channels");
  for (const id of ids ?? []) if (!channelRow(call.db, id)) fail("channel_not_found");
  return ids;
}

/** A group's name and handle are unique among the workspace's groups. */
function checkUnique(call: Call, id: string, name: string | undefined, handle: string | undefined): void {
  for (const g of allUsergroups(call.db)) {
    if (g.id === id) continue;
    if (name !== undefined && g.name === name) fail("name_already_exists");
    if (handle !== undefined && g.handle === handle) fail("handle_already_exists");
  }
}

function reminderView(r: SlackReminder) {
  return { id: r.id, creator: r.creator, text: r.text, user: r.user, recurring: r.recurring, time: r.time, complete_ts: r.complete_ts };
}

/**
 * When a reminder fires, as reminders.add takes it: a Unix time, a number of seconds from now (within
 * 24 hours), or "in N minutes|hours|days" (the part of Slack's natural language the twin reads).
 */
export function reminderTime(raw: string, now: number): number | undefined {
  const trimmed = raw.trim().toLowerCase();
  if (/^\d+$/.test(trimmed)) {
    const n = Number(trimmed);
    return n <= 24 * 3600 ? now + n : n;
  }
  const m = /^in (\d+) (minute|hour|day|week)s?$/.exec(trimmed);
  if (!m) return undefined;
  const unit = { minute: 60, hour: 3600, day: 86400, week: 604800 }[m[2] as "minute" | "hour" | "day" | "week"];
  return now + Number(m[1]) * unit;
}

/** A reminder the caller made or receives, else `not_found`. */
function ownReminder(call: Call): SlackReminder {
  const r = reminderRow(call.db, call.args.str("reminder") ?? "") ?? fail("not_found");
  if (r.creator !== call.actor.user && r.user !== call.actor.user) fail("not_found");
  return r;
}

/** A status emoji as users.profile.set takes it: `:name:` of an emoji Slack knows, or empty to clear. */
function statusEmoji(call: Call, raw: unknown): string {
  if (raw === "" || raw === undefined || raw === null) return "";
  if (typeof raw !== "string" || !/^:[^:\s]+(?:::skin-tone-[2-6])?:$/.test(raw)) return fail("profile_status_set_failed_not_emoji_syntax");
  if (!knownEmoji(raw.slice(1, -1), customEmoji(call.db))) fail("profile_status_set_failed_not_valid_emoji");
  return raw;
}

const PROFILE_FIELDS = ["status_text", "status_emoji", "status_expiration", "title", "display_name", "real_name"] as const;

function dndView(call: Call, u: SlackUser) {
  const dnd = u.dnd ?? { dnd_enabled: false, next_dnd_start_ts: 0, next_dnd_end_ts: 0, snooze_enabled: false };
  const base = { dnd_enabled: dnd.dnd_enabled, next_dnd_start_ts: dnd.next_dnd_start_ts, next_dnd_end_ts: dnd.next_dnd_end_ts };
  // Slack shows the snooze only to the user themself.
  if (u.id !== call.actor.user) return base;
  const now = nowSeconds(call.clock);
  const snoozing = dnd.snooze_enabled && (dnd.snooze_endtime ?? 0) > now;
  return {
    ...base,
    snooze_enabled: snoozing,
    ...(snoozing
      ? { snooze_endtime: dnd.snooze_endtime, snooze_remaining: (dnd.snooze_endtime ?? now) - now, snooze_is_indefinite: false }
      : {}),
  };
}

export const peopleRoutes: Route[] = [
  ...method({
    name: "usergroups.list",
    summary: "The workspace's user groups (disabled ones with include_disabled)",
    scopes: READ_GROUPS,
    handler: (call) => {
      const users = call.args.bool("include_users") ?? false;
      const count = call.args.bool("include_count") ?? false;
      const disabled = call.args.bool("include_disabled") ?? false;
      const groups = allUsergroups(call.db).filter((g) => disabled || g.date_delete === 0);
      return { usergroups: groups.map((g) => usergroupView(call, g, { users, count })) };
    },
  }),
  ...method({
    name: "usergroups.create",
    summary: "Creates a user group",
    scopes: WRITE_GROUPS,
    handler: (call) => {
      const name =
        call.args.str("name") ?? fail("invalid_arguments", { response_metadata: { messages: ["[ERROR] missing required field: name"] } });
      const handle = call.args.str("handle") ?? name.toLowerCase().replace(/[^a-z0-9._-]+/g, "-");
      checkUnique(call, "", name, handle);
      const id = newId(call.db, "S", (s) => usergroupRow(call.db, s) !== undefined);
      const group: SlackUsergroup = {
        id,
        handle,
        name,
        description: call.args.str("description") ?? "",
        users: [],
        channels: channelList(call) ?? [],
        date_delete: 0,
        date_create: nowSeconds(call.clock),
        created_by: call.actor.user,
      };
      saveUsergroup(call.db, group);
      return { usergroup: usergroupView(call, group, { count: call.args.bool("include_count") ?? false }) };
    },
  }),
  ...method({
    name: "usergroups.update",
    summary: "Renames or redescribes a user group",
    scopes: WRITE_GROUPS,
    handler: (call) => {
      const g = requireGroup(call);
      const name = call.args.str("name");
      const handle = call.args.str("handle");
      checkUnique(call, g.id, name, handle);
      const next: SlackUsergroup = {
        ...g,
        ...(name !== undefined ? { name } : {}),
        ...(handle !== undefined ? { handle } : {}),
        ...(call.args.str("description") !== undefined ? { description: call.args.str("description") ?? "" } : {}),
        channels: channelList(call) ?? g.channels,
      };
      saveUsergroup(call.db, next);
      return { usergroup: usergroupView(call, next, { count: call.args.bool("include_count") ?? false }) };
    },
  }),
  ...method({
    name: "usergroups.disable",
    summary: "Disables a user group (it stays, with date_delete set)",
    scopes: WRITE_GROUPS,
    handler: (call) => {
      const g = requireGroup(call);
      const next = g.date_delete ? g : { ...g, date_delete: nowSeconds(call.clock) };
      if (next !== g) saveUsergroup(call.db, next);
      return { usergroup: usergroupView(call, next, { count: call.args.bool("include_count") ?? false }) };
    },
  }),
  ...method({
    name: "usergroups.enable",
    summary: "Enables a disabled user group",
    scopes: WRITE_GROUPS,
    handler: (call) => {
      const g = requireGroup(call);
      const next = g.date_delete ? { ...g, date_delete: 0 } : g;
      if (next !== g) saveUsergroup(call.db, next);
      return { usergroup: usergroupView(call, next, { count: call.args.bool("include_count") ?? false }) };
    },
  }),
  ...method({
    name: "usergroups.users.list",
    summary: "The members of a user group",
    scopes: READ_GROUPS,
    handler: (call) => {
      const g = requireGroup(call);
      if (g.date_delete && !(call.args.bool("include_disabled") ?? false)) fail("no_such_subteam");
      return { users: g.users };
    },
  }),
  ...method({
    name: "usergroups.users.update",
    summary: "Replaces the members of a user group",
    scopes: WRITE_GROUPS,
    handler: (call) => {
      const g = requireGroup(call);
      const next = { ...g, users: userList(call, "users") };
      saveUsergroup(call.db, next);
      return { usergroup: usergroupView(call, next, { users: true }) };
    },
  }),
  ...method({
    name: "users.profile.set",
    summary: "Sets the caller's own profile fields: status text, emoji and expiration, title, names",
    scopes: ["users.profile:write"],
    token: "user",
    handler: (call) => {
      const target = call.args.str("user");
      // Only an admin may set another user's profile (docs.slack.dev: `not_admin`).
      if (target !== undefined && target !== call.actor.user) fail("not_admin");
      let fields: Record<string, unknown> = {};
      const profile = call.args.json("profile");
      if (profile !== undefined) {
        if (typeof profile !== "object" || profile === null || Array.isArray(profile)) fail("invalid_profile");
        fields = profile as Record<string, unknown>;
      } else {
        const name = call.args.str("name");
        if (name !== undefined) fields[name] = call.args.str("value") ?? "";
      }
      const change: Record<string, string | number> = {};
      for (const key of PROFILE_FIELDS) {
        if (!(key in fields)) continue;
        const v = fields[key];
        if (key === "status_emoji") change[key] = statusEmoji(call, v);
        else if (key === "status_expiration") {
          const n = typeof v === "number" ? v : Number(v);
          change[key] = Number.isInteger(n) && n >= 0 ? n : fail("invalid_profile");
        } else if (typeof v === "string") {
          if (key === "status_text" && [...v].length > 100) fail("too_long");
          change[key] = v;
        } else fail("invalid_profile");
      }
      writeUserState(call.db, call.actor.user, { profile: change });
      const me = requireUser(call.db, call.actor.user);
      return { username: me.name, profile: profileView(call, me) };
    },
  }),
  ...method({
    name: "users.setPresence",
    summary: "Sets the caller's presence: auto (active) or away",
    scopes: ["users:write"],
    token: "user",
    handler: (call) => {
      const presence = call.args.str("presence");
      if (presence !== "auto" && presence !== "away") fail("invalid_presence");
      writeUserState(call.db, call.actor.user, { presence: presence === "away" ? "away" : "active" });
      return {};
    },
  }),
  ...method({
    name: "dnd.info",
    summary: "A user's do-not-disturb status (the caller's by default)",
    scopes: ["dnd:read"],
    handler: (call) => dndView(call, requireUser(call.db, call.args.str("user") ?? call.actor.user)),
  }),
  ...method({
    name: "dnd.setSnooze",
    summary: "Turns on do-not-disturb for the caller for num_minutes",
    scopes: ["dnd:write"],
    token: "user",
    handler: (call) => {
      const minutes = call.args.int("num_minutes");
      if (minutes === undefined || minutes <= 0)
        fail("invalid_arguments", { response_metadata: { messages: ["[ERROR] missing required field: num_minutes"] } });
      const me = requireUser(call.db, call.actor.user);
      const now = nowSeconds(call.clock);
      const endtime = now + (minutes ?? 0) * 60;
      const dnd = { dnd_enabled: true, next_dnd_start_ts: 0, next_dnd_end_ts: 0, ...me.dnd, snooze_enabled: true, snooze_endtime: endtime };
      writeUserState(call.db, me.id, { dnd });
      return { snooze_enabled: true, snooze_endtime: endtime, snooze_remaining: endtime - now, snooze_is_indefinite: false };
    },
  }),
  ...method({
    name: "dnd.endSnooze",
    summary: "Ends the caller's snooze",
    scopes: ["dnd:write"],
    token: "user",
    handler: (call) => {
      const me = requireUser(call.db, call.actor.user);
      const now = nowSeconds(call.clock);
      const dnd = me.dnd;
      if (!dnd?.snooze_enabled || (dnd.snooze_endtime ?? 0) <= now) return fail("snooze_not_active");
      const { snooze_endtime: _end, ...rest } = dnd;
      writeUserState(call.db, me.id, { dnd: { ...rest, snooze_enabled: false } });
      return {
        dnd_enabled: rest.dnd_enabled,
        next_dnd_start_ts: rest.next_dnd_start_ts,
        next_dnd_end_ts: rest.next_dnd_end_ts,
        snooze_enabled: false,
      };
    },
  }),
  ...method({
    name: "reminders.add",
    summary: "Creates a reminder for the caller",
    scopes: ["reminders:write"],
    token: "user",
    handler: (call) => {
      const text = call.args.str("text") ?? fail("no_text");
      const rawTime = call.args.str("time") ?? fail("invalid_time");
      const time = reminderTime(rawTime, nowSeconds(call.clock)) ?? fail("cannot_parse");
      const user = call.args.str("user") ?? call.actor.user;
      // Reminders for someone else are no longer supported by Slack.
      if (user !== call.actor.user) fail(userById(call.db, user) ? "cannot_add_others" : "user_not_found");
      const id = newId(call.db, "Rm", (r) => reminderRow(call.db, r) !== undefined);
      const reminder: SlackReminder = { id, creator: call.actor.user, user, text, time, recurring: false, complete_ts: 0 };
      saveReminder(call.db, reminder);
      return { reminder: reminderView(reminder) };
    },
  }),
  ...method({
    name: "reminders.list",
    summary: "The caller's reminders",
    scopes: ["reminders:read"],
    token: "user",
    handler: (call) => {
      const rows = call.db.all<{ data: string }>(
        "SELECT data FROM sl_reminders WHERE user = ? OR data->>'user' = ? ORDER BY rowid",
        call.actor.user,
        call.actor.user,
      );
      return { reminders: rows.map((r) => reminderView(JSON.parse(r.data) as SlackReminder)) };
    },
  }),
  ...method({
    name: "reminders.info",
    summary: "One reminder",
    scopes: ["reminders:read"],
    token: "user",
    handler: (call) => ({ reminder: reminderView(ownReminder(call)) }),
  }),
  ...method({
    name: "reminders.complete",
    summary: "Marks a reminder complete",
    scopes: ["reminders:write"],
    token: "user",
    handler: (call) => {
      const r = ownReminder(call);
      if (r.recurring) fail("cannot_complete_recurring");
      if (r.complete_ts === 0) saveReminder(call.db, { ...r, complete_ts: nowSeconds(call.clock) });
      return {};
    },
  }),
  ...method({
    name: "reminders.delete",
    summary: "Deletes a reminder",
    scopes: ["reminders:write"],
    token: "user",
    handler: (call) => {
      const r = ownReminder(call);
      call.db.run("DELETE FROM sl_reminders WHERE id = ?", r.id);
      return {};
    },
  }),
];
