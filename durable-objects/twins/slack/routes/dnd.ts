// Do-not-disturb (dnd.*): a person's scheduled quiet hours (`dnd_enabled`, the next session's
// start and end) and their snooze, kept with what else calls change about a user (store/people.ts).
// Token rules and codes are each method's docs.slack.dev page's: dnd.info and dnd.teamInfo take
// either token kind (`dnd:read`); dnd.setSnooze, dnd.endSnooze and dnd.endDnd are user-token
// methods (`dnd:write` is a user scope only).
import type { Route } from "../../types";
import { type Call, method } from "../context";
import { USER_TEXT, int, list, text } from "../declare";
import { fail } from "../errors";
import type { SlackUser } from "../seed";
import { writeUserState } from "../store/people";
import { nowSeconds } from "../store/rows";
import { requireUser, userById } from "../store/users";

const DAY = 86_400;

/** A user's do-not-disturb as dnd.info answers it; the snooze only to the user themself. */
export function dndView(call: Call, u: SlackUser) {
  const dnd = u.dnd ?? { dnd_enabled: false, next_dnd_start_ts: 0, next_dnd_end_ts: 0, snooze_enabled: false };
  const base = { dnd_enabled: dnd.dnd_enabled, next_dnd_start_ts: dnd.next_dnd_start_ts, next_dnd_end_ts: dnd.next_dnd_end_ts };
  // Slack shows the snooze only to the user themself.
  if (u.id !== call.actor.user) return base;
  const now = nowSeconds(call.clock);
  const snoozing = dnd.snooze_enabled && (dnd.snooze_endtime ?? 0) > now;
  return {
    ...base,
    snooze_enabled: snoozing,
    ...(snoozing ? { snooze_endtime: dnd.snooze_endtime, snooze_remaining: (dnd.snooze_endtime ?? now) - now } : {}),
  };
}

export const dndRoutes: Route[] = [
  ...method({
    name: "dnd.info",
    summary: "A user's do-not-disturb status (the caller's by default)",
    scopes: ["dnd:read"],
    args: { user: text().optional().describe(USER_TEXT) },
    tool: { description: "A user's do-not-disturb status (default: the caller's).", readOnly: true },
    handler: (call, args) => dndView(call, requireUser(call.db, args.user ?? call.actor.user)),
  }),
  ...method({
    name: "dnd.setSnooze",
    summary: "Turns on do-not-disturb for the caller for num_minutes",
    scopes: ["dnd:write"],
    token: "user",
    args: {
      // Missing, it is Slack's `invalid_arguments` naming the field (declare.ts).
      num_minutes: int().describe("How long to snooze, in minutes (1 or more)"),
    },
    tool: { description: "Snoozes the caller's notifications for num_minutes. User token only." },
    handler: (call, args) => {
      const minutes = args.num_minutes;
      if (minutes <= 0) fail("invalid_arguments", { response_metadata: { messages: ["[ERROR] missing required field: num_minutes"] } });
      const me = requireUser(call.db, call.actor.user);
      const now = nowSeconds(call.clock);
      const endtime = now + minutes * 60;
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
    tool: { description: "Ends the caller's snooze. User token only." },
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
    name: "dnd.teamInfo",
    summary: "Several users' do-not-disturb schedules",
    scopes: ["dnd:read"],
    args: { users: list({ missing: "no_users_provided" }).describe("Comma list of user ids (U…)") },
    tool: { description: "The do-not-disturb schedule of each of several users (comma list of ids).", readOnly: true },
    handler: (call, args) => {
      if (args.users.length === 0) fail("no_users_provided");
      const users: Record<string, unknown> = {};
      for (const id of args.users) {
        const u = userById(call.db, id) ?? fail("user_not_visible");
        const dnd = u.dnd;
        users[u.id] = {
          dnd_enabled: dnd?.dnd_enabled ?? false,
          next_dnd_start_ts: dnd?.next_dnd_start_ts ?? 0,
          next_dnd_end_ts: dnd?.next_dnd_end_ts ?? 0,
        };
      }
      return { users };
    },
  }),
  ...method({
    name: "dnd.endDnd",
    summary: "Ends the caller's current do-not-disturb session: a snooze, or the scheduled hours now under way",
    scopes: ["dnd:write"],
    token: "user",
    tool: { description: "Ends the caller's current do-not-disturb session (snooze or scheduled hours). User token only." },
    handler: (call) => {
      const me = requireUser(call.db, call.actor.user);
      const now = nowSeconds(call.clock);
      const dnd = me.dnd;
      const snoozing = dnd?.snooze_enabled === true && (dnd.snooze_endtime ?? 0) > now;
      const scheduled = dnd?.dnd_enabled === true && dnd.next_dnd_start_ts <= now && now < dnd.next_dnd_end_ts;
      if (!dnd || (!snoozing && !scheduled)) return fail("not_in_dnd");
      const { snooze_endtime: _end, ...rest } = dnd;
      // The schedule stays; this session ends, so the next one is a day later.
      const next = scheduled ? { next_dnd_start_ts: rest.next_dnd_start_ts + DAY, next_dnd_end_ts: rest.next_dnd_end_ts + DAY } : {};
      writeUserState(call.db, me.id, { dnd: { ...rest, ...next, snooze_enabled: false } });
      return {};
    },
  }),
];
