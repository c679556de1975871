// Users: point lookups by id, name and email, and the user object Slack answers with.
import type { Db } from "../../types";
import { perStorage } from "../../kit/boot-constants";
import type { Call } from "../context";
import { hasScope } from "../context";
import { fail } from "../errors";
import type { SlackUser } from "../seed";
import { userState, withState } from "./people";
import { type UserRow, userData } from "./rows";

/** Rows of sl_users by id: only boot writes that table, so a row read once holds for the sandbox. */
const knownUsers = perStorage<UserRow | null>();

export const userRow = (db: Db, id: string): UserRow | undefined =>
  knownUsers(db).get(id, () => db.one<UserRow>("SELECT * FROM sl_users WHERE id = ?", id) ?? null) ?? undefined;
/** A user as it is now: the boot-constant row with what calls changed (status, presence, dnd). */
export const userById = (db: Db, id: string): SlackUser | undefined => {
  const row = userRow(db, id);
  return row ? withState(userData(row), userState(db, id)) : undefined;
};
export const userByEmail = (db: Db, email: string): SlackUser | undefined => {
  const row = db.one<UserRow>("SELECT * FROM sl_users WHERE email = ? COLLATE NOCASE", email);
  return row ? withState(userData(row), userState(db, row.id)) : undefined;
};
export const requireUser = (db: Db, id: string | undefined, error = "user_not_found"): SlackUser =>
  (id === undefined ? undefined : userById(db, id)) ?? fail(error);

const COLORS = ["9f69e7", "4bbe2e", "e7392d", "3c989f", "674b1b", "e96699", "e0a729", "684b6c", "5b89d5", "53b759"];

function hash(text: string): number {
  let h = 0;
  for (const ch of text) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return h;
}

/** A user's profile as Slack serves it; the email only to a token with `users:read.email`. */
export function profileView(call: Call, u: SlackUser): Record<string, unknown> {
  const realName = u.profile.real_name ?? u.real_name ?? u.name;
  const display = u.profile.display_name ?? "";
  const avatar = hash(u.id).toString(16).padStart(12, "0").slice(0, 12);
  const profile: Record<string, unknown> = {
    title: u.profile.title ?? "",
    phone: "",
    skype: "",
    real_name: realName,
    real_name_normalized: realName,
    display_name: display,
    display_name_normalized: display,
    fields: {},
    status_text: u.profile.status_text ?? "",
    status_emoji: u.profile.status_emoji ?? "",
    status_expiration: u.profile.status_expiration ?? 0,
    avatar_hash: avatar,
    first_name: realName.split(" ")[0] ?? "",
    last_name: realName.split(" ").slice(1).join(" "),
    image_24: `https://secure.gravatar.com/avatar/${avatar}.jpg?s=24`,
    image_32: `https://secure.gravatar.com/avatar/${avatar}.jpg?s=32`,
    image_48: `https://secure.gravatar.com/avatar/${avatar}.jpg?s=48`,
    image_72: `https://secure.gravatar.com/avatar/${avatar}.jpg?s=72`,
    image_192: `https://secure.gravatar.com/avatar/${avatar}.jpg?s=192`,
    image_512: `https://secure.gravatar.com/avatar/${avatar}.jpg?s=512`,
    team: call.team.id,
  };
  if (u.profile.email !== undefined && hasScope(call, "users:read.email")) profile.email = u.profile.email;
  if (u.profile.bot_id !== undefined) {
    profile.bot_id = u.profile.bot_id;
    profile.api_app_id = call.installation.bot_user_id === u.id ? call.installation.app_id : "";
    profile.always_active = true;
  }
  return profile;
}

export function userView(call: Call, u: SlackUser): Record<string, unknown> {
  const tz = u.tz ?? "America/Los_Angeles";
  return {
    id: u.id,
    team_id: call.team.id,
    name: u.name,
    deleted: u.deleted,
    color: COLORS[hash(u.id) % COLORS.length],
    real_name: u.real_name ?? u.profile.real_name ?? u.name,
    tz,
    tz_label: tz,
    tz_offset: 0,
    profile: profileView(call, u),
    is_admin: u.is_admin,
    is_owner: false,
    is_primary_owner: false,
    is_restricted: false,
    is_ultra_restricted: false,
    is_bot: u.is_bot,
    is_app_user: false,
    updated: 1700000000,
    is_email_confirmed: !u.is_bot,
    who_can_share_contact_card: "EVERYONE",
  };
}
