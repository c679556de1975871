// auth.test, team.info and the users.* methods.
import type { Route } from "../../types";
import { method } from "../context";
import { USER_TEXT, cursor, flag, limit, text, typeList } from "../declare";
import { fail } from "../errors";
import { channelView } from "../store/channels";
import type { ChannelRow, UserRow } from "../store/rows";
import { userData } from "../store/rows";
import { cut, metadata, pageOf } from "../store/paging";
import { profileView, requireUser, userByEmail, userById, userView } from "../store/users";
import { conversationTypes, typeFilter } from "./conversations";

const READ_CONVERSATIONS = ["channels:read", "groups:read", "im:read", "mpim:read"];

export const identityRoutes: Route[] = [
  ...method({
    name: "auth.test",
    summary: "Who the token acts as",
    scopes: [],
    tool: { description: "Who the token acts as: team, bot user id and bot id.", readOnly: true },
    handler: (call) => {
      const user = requireUser(call.db, call.actor.user, "invalid_auth");
      const out: Record<string, unknown> = {
        url: `https://${call.team.domain}.slack.com/`,
        team: call.team.name,
        user: user.name,
        team_id: call.team.id,
        user_id: user.id,
      };
      if (call.actor.kind === "bot" && user.profile.bot_id !== undefined) out.bot_id = user.profile.bot_id;
      out.is_enterprise_install = false;
      return out;
    },
  }),
  ...method({
    name: "team.info",
    summary: "The workspace",
    scopes: ["team:read"],
    tool: { description: "The workspace: id, name, domain.", readOnly: true },
    handler: (call) => ({
      team: {
        id: call.team.id,
        name: call.team.name,
        url: `https://${call.team.domain}.slack.com/`,
        domain: call.team.domain,
        email_domain: "",
        icon: { image_default: true },
        avatar_base_url: "https://ca.slack-edge.com/",
        is_verified: false,
      },
    }),
  }),
  ...method({
    name: "users.list",
    summary: "Members of the workspace, a page at a time",
    scopes: ["users:read"],
    args: { limit: limit(), cursor: cursor() },
    tool: { description: "Workspace members, a page at a time.", readOnly: true },
    handler: (call) => {
      const page = pageOf(call, "users", 200, 1000);
      const rows = call.db.all<UserRow>("SELECT * FROM sl_users WHERE id > ? ORDER BY id LIMIT ?", page.after ?? "", page.limit + 1);
      const { rows: shown, next } = cut(rows, page, "users", (r) => r.id);
      const members = shown.map((r) => userView(call, userById(call.db, r.id) ?? userData(r)));
      return { members, cache_ts: Math.floor(call.clock.now() / 1000), ...metadata(next) };
    },
  }),
  ...method({
    name: "users.info",
    summary: "One user",
    scopes: ["users:read"],
    args: { user: text({ missing: "user_not_found" }).describe(USER_TEXT) },
    tool: { description: "One user by id.", readOnly: true },
    handler: (call, args) => ({ user: userView(call, requireUser(call.db, args.user)) }),
  }),
  ...method({
    name: "users.lookupByEmail",
    summary: "A user by email address",
    scopes: ["users:read.email"],
    args: { email: text({ missing: "invalid_arguments" }).describe("An email address") },
    tool: { description: "A user by email address (users_not_found when none).", readOnly: true },
    handler: (call, args) => ({ user: userView(call, userByEmail(call.db, args.email) ?? fail("users_not_found")) }),
  }),
  ...method({
    name: "users.profile.get",
    summary: "A user's profile (the caller's by default)",
    scopes: ["users.profile:read"],
    args: { user: text().optional().describe(USER_TEXT) },
    tool: { description: "A user's profile (default: the bot's).", readOnly: true },
    handler: (call, args) => ({ profile: profileView(call, requireUser(call.db, args.user ?? call.actor.user)) }),
  }),
  ...method({
    name: "users.getPresence",
    summary: "Whether a user is active or away",
    scopes: ["users:read"],
    args: { user: text().optional().describe(USER_TEXT) },
    tool: { description: "Whether a user is active or away.", readOnly: true },
    handler: (call, args) => {
      const user = requireUser(call.db, args.user ?? call.actor.user);
      const presence = user.is_bot ? "active" : user.presence;
      if (user.id !== call.actor.user) return { presence };
      return {
        presence,
        online: presence === "active",
        auto_away: false,
        manual_away: presence === "away",
        connection_count: 1,
        last_activity: Math.floor(call.clock.now() / 1000),
      };
    },
  }),
  ...method({
    name: "users.conversations",
    summary: "Conversations a user is a member of, that the caller can see",
    scopes: READ_CONVERSATIONS,
    args: {
      user: text().optional().describe(USER_TEXT),
      types: typeList(),
      exclude_archived: flag().optional().describe("Leave archived conversations out"),
      limit: limit(),
      cursor: cursor(),
    },
    tool: { description: "Conversations a user (default: the bot) is a member of.", readOnly: true },
    handler: (call, args) => {
      const user = requireUser(call.db, args.user ?? call.actor.user);
      const types = conversationTypes(args.types);
      const excludeArchived = args.exclude_archived ?? false;
      const page = pageOf(call, "users.conversations", 100, 1000);
      const filter = typeFilter(types, "c");
      const rows = call.db.all<ChannelRow>(
        `SELECT c.* FROM sl_members m JOIN sl_channels c ON c.id = m.channel
         WHERE m.user = ? AND c.id > ? AND ${filter} AND (? = 0 OR c.is_archived = 0)
           AND (c.is_private = 0 OR EXISTS (SELECT 1 FROM sl_members me WHERE me.channel = c.id AND me.user = ?))
         ORDER BY c.id LIMIT ?`,
        user.id,
        page.after ?? "",
        excludeArchived ? 1 : 0,
        call.actor.user,
        page.limit + 1,
      );
      const { rows: shown, next } = cut(rows, page, "users.conversations", (r) => r.id);
      return { channels: shown.map((r) => channelView(call, r)), ...metadata(next) };
    },
  }),
];
