// People and groups: user groups (usergroups.*), a user's own profile, status and presence
// (users.profile.set, users.setPresence) and reminders (reminders.*); do-not-disturb is dnd.ts.
// Token rules are docs.slack.dev's: users.profile.set and reminders.* take user tokens only
// (their scopes are user scopes); usergroups.* and users.setPresence take either. Error codes are the ones each method's reference page lists.
import { z } from "zod";
import type { Route } from "../../types";
import { type Call, method } from "../context";
import { flag, json, list, oneOf, text } from "../declare";
import { fail } from "../errors";
import type { SlackReminder, SlackUsergroup } from "../seed";
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

const requireGroup = (call: Call, id: string): SlackUsergroup => usergroupRow(call.db, id) ?? fail("no_such_subteam");

/** Users named by a list, each a member of the workspace, else `invalid_users`. */
function userList(call: Call, ids: readonly string[]): string[] {
  for (const id of ids) if (!userById(call.db, id)) fail("invalid_users");
  return [...new Set(ids)];
}

function channelList(call: Call, ids: string[] | undefined): string[] | undefined {
  for (const id of ids ?? []) if (!channelRow(call.db, id)) fail("channel_not_found");
  return ids;
}

const usergroup = () => text({ missing: "no_such_subteam" }).describe("A user group id (S…)");
const includeCount = () => flag().optional().describe("Include user_count");
const groupChannels = () => list().optional().describe("Comma list of default channel ids");
const reminderId = () => text({ missing: "not_found" }).describe("A reminder id (Rm…)");

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
function ownReminder(call: Call, id: string): SlackReminder {
  const r = reminderRow(call.db, id) ?? fail("not_found");
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

export const peopleRoutes: Route[] = [
  ...method({
    name: "usergroups.list",
    summary: "The workspace's user groups (disabled ones with include_disabled)",
    scopes: READ_GROUPS,
    args: {
      include_users: flag().optional().describe("Include each group's users"),
      include_count: includeCount(),
      include_disabled: flag().optional().describe("Include disabled groups"),
    },
    tool: { description: "The workspace's user groups (disabled ones too with include_disabled).", readOnly: true },
    handler: (call, args) => {
      const users = args.include_users ?? false;
      const count = args.include_count ?? false;
      const disabled = args.include_disabled ?? false;
      const groups = allUsergroups(call.db).filter((g) => disabled || g.date_delete === 0);
      return { usergroups: groups.map((g) => usergroupView(call, g, { users, count })) };
    },
  }),
  ...method({
    name: "usergroups.create",
    summary: "Creates a user group",
    scopes: WRITE_GROUPS,
    args: {
      // Missing, it is Slack's `invalid_arguments` naming the field (declare.ts).
      name: text().describe("The group's name, unused by any other group"),
      handle: text().optional().describe("The @handle (default: from the name), unused by any other group"),
      description: text().optional().describe("What the group is for"),
      channels: groupChannels(),
      include_count: includeCount(),
    },
    tool: { description: "Creates a user group; name and handle must be unused." },
    handler: (call, args) => {
      const name = args.name;
      const handle = args.handle ?? name.toLowerCase().replace(/[^a-z0-9._-]+/g, "-");
      checkUnique(call, "", name, handle);
      const id = newId(call.db, "S", (s) => usergroupRow(call.db, s) !== undefined);
      const group: SlackUsergroup = {
        id,
        handle,
        name,
        description: args.description ?? "",
        users: [],
        channels: channelList(call, args.channels) ?? [],
        date_delete: 0,
        date_create: nowSeconds(call.clock),
        created_by: call.actor.user,
      };
      saveUsergroup(call.db, group);
      return { usergroup: usergroupView(call, group, { count: args.include_count ?? false }) };
    },
  }),
  ...method({
    name: "usergroups.update",
    summary: "Renames or redescribes a user group",
    scopes: WRITE_GROUPS,
    args: {
      usergroup: usergroup(),
      name: text().optional().describe("A new name, unused by any other group"),
      handle: text().optional().describe("A new @handle, unused by any other group"),
      description: text().optional().describe("A new description"),
      channels: groupChannels(),
      include_count: includeCount(),
    },
    tool: { description: "Renames or redescribes a user group." },
    handler: (call, args) => {
      const g = requireGroup(call, args.usergroup);
      const { name, handle, description } = args;
      checkUnique(call, g.id, name, handle);
      const next: SlackUsergroup = {
        ...g,
        ...(name !== undefined ? { name } : {}),
        ...(handle !== undefined ? { handle } : {}),
        ...(description !== undefined ? { description } : {}),
        channels: channelList(call, args.channels) ?? g.channels,
      };
      saveUsergroup(call.db, next);
      return { usergroup: usergroupView(call, next, { count: args.include_count ?? false }) };
    },
  }),
  ...method({
    name: "usergroups.disable",
    summary: "Disables a user group (it stays, with date_delete set)",
    scopes: WRITE_GROUPS,
    args: { usergroup: usergroup(), include_count: includeCount() },
    tool: { description: "Disables a user group.", destructive: true },
    handler: (call, args) => {
      const g = requireGroup(call, args.usergroup);
      const next = g.date_delete ? g : { ...g, date_delete: nowSeconds(call.clock) };
      if (next !== g) saveUsergroup(call.db, next);
      return { usergroup: usergroupView(call, next, { count: args.include_count ?? false }) };
    },
  }),
  ...method({
    name: "usergroups.enable",
    summary: "Enables a disabled user group",
    scopes: WRITE_GROUPS,
    args: { usergroup: usergroup(), include_count: includeCount() },
    tool: { description: "Enables a disabled user group." },
    handler: (call, args) => {
      const g = requireGroup(call, args.usergroup);
      const next = g.date_delete ? { ...g, date_delete: 0 } : g;
      if (next !== g) saveUsergroup(call.db, next);
      return { usergroup: usergroupView(call, next, { count: args.include_count ?? false }) };
    },
  }),
  ...method({
    name: "usergroups.users.list",
    summary: "The members of a user group",
    scopes: READ_GROUPS,
    args: { usergroup: usergroup(), include_disabled: flag().optional().describe("Answer a disabled group's users too") },
    tool: { description: "The members of a user group.", readOnly: true },
    handler: (call, args) => {
      const g = requireGroup(call, args.usergroup);
      if (g.date_delete && !(args.include_disabled ?? false)) fail("no_such_subteam");
      return { users: g.users };
    },
  }),
  ...method({
    name: "usergroups.users.update",
    summary: "Replaces the members of a user group",
    scopes: WRITE_GROUPS,
    args: {
      usergroup: usergroup(),
      // Missing, it is Slack's `invalid_arguments` naming the field (declare.ts).
      users: list().describe("Comma list of user ids: the group's whole new member list"),
    },
    tool: {
      description: "Replaces the members of a user group with exactly these users (send everyone who should stay).",
    },
    handler: (call, args) => {
      const g = requireGroup(call, args.usergroup);
      const next = { ...g, users: userList(call, args.users) };
      saveUsergroup(call.db, next);
      return { usergroup: usergroupView(call, next, { users: true }) };
    },
  }),
  ...method({
    name: "users.profile.set",
    summary: "Sets the caller's own profile fields: status text, emoji and expiration, title, names",
    scopes: ["users.profile:write"],
    token: "user",
    args: {
      user: text().optional().describe("Only the caller's own id: setting another user's profile takes an admin"),
      profile: json(z.record(z.string(), z.unknown()), { wrong: "invalid_profile" })
        .optional()
        .describe("The fields to set, e.g. {status_text, status_emoji, status_expiration}"),
      name: text().optional().describe("Without profile: the one field to set"),
      value: text().optional().describe("With name: its value"),
    },
    tool: {
      description:
        "Sets the caller's own profile fields (status_text, status_emoji as :name:, status_expiration, title, display_name, real_name). User token only.",
    },
    handler: (call, args) => {
      const target = args.user;
      // Only an admin may set another user's profile (docs.slack.dev: `not_admin`).
      if (target !== undefined && target !== call.actor.user) fail("not_admin");
      let fields: Record<string, unknown> = {};
      const profile = args.profile;
      if (profile !== undefined) {
        if (typeof profile !== "object" || profile === null || Array.isArray(profile)) fail("invalid_profile");
        fields = profile as Record<string, unknown>;
      } else if (args.name !== undefined) fields[args.name] = args.value ?? "";
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
    // Both token kinds: docs.slack.dev gives users:write to bot and user tokens alike (a bot sets
    // its bot user's presence).
    scopes: ["users:write"],
    args: { presence: oneOf(["auto", "away"], "invalid_presence").describe("auto (active) or away") },
    tool: { description: "Sets the caller's presence (the bot user's, for a bot token): auto or away." },
    handler: (call, args) => {
      const presence = args.presence;
      writeUserState(call.db, call.actor.user, { presence: presence === "away" ? "away" : "active" });
      return {};
    },
  }),
  ...method({
    name: "reminders.add",
    summary: "Creates a reminder for the caller",
    scopes: ["reminders:write"],
    token: "user",
    args: {
      text: text({ missing: "no_text" }).describe("What to be reminded of"),
      time: text({ missing: "invalid_time" }).describe('Unix time, seconds from now (within 24 hours), or "in N minutes|hours|days"'),
      user: text().optional().describe("Only the caller's own id: Slack no longer sets reminders for others"),
    },
    tool: { description: "Creates a reminder for the caller. User token only." },
    handler: (call, args) => {
      const time = reminderTime(args.time, nowSeconds(call.clock)) ?? fail("cannot_parse");
      const user = args.user ?? call.actor.user;
      // Reminders for someone else are no longer supported by Slack.
      if (user !== call.actor.user) fail(userById(call.db, user) ? "cannot_add_others" : "user_not_found");
      const id = newId(call.db, "Rm", (r) => reminderRow(call.db, r) !== undefined);
      const reminder: SlackReminder = { id, creator: call.actor.user, user, text: args.text, time, recurring: false, complete_ts: 0 };
      saveReminder(call.db, reminder);
      return { reminder: reminderView(reminder) };
    },
  }),
  ...method({
    name: "reminders.list",
    summary: "The caller's reminders",
    scopes: ["reminders:read"],
    token: "user",
    tool: { description: "The caller's reminders. User token only.", readOnly: true },
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
    args: { reminder: reminderId() },
    tool: { description: "One reminder. User token only.", readOnly: true },
    handler: (call, args) => ({ reminder: reminderView(ownReminder(call, args.reminder)) }),
  }),
  ...method({
    name: "reminders.complete",
    summary: "Marks a reminder complete",
    scopes: ["reminders:write"],
    token: "user",
    args: { reminder: reminderId() },
    tool: { description: "Marks a reminder complete. User token only." },
    handler: (call, args) => {
      const r = ownReminder(call, args.reminder);
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
    args: { reminder: reminderId() },
    tool: { description: "Deletes a reminder. User token only.", destructive: true },
    handler: (call, args) => {
      const r = ownReminder(call, args.reminder);
      call.db.run("DELETE FROM sl_reminders WHERE id = ?", r.id);
      return {};
    },
  }),
];
