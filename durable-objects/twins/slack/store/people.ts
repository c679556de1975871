// What calls change about people: a user's status, presence and do-not-disturb (kept in
// sl_user_state over the boot-constant sl_users row, and merged into the user wherever it is
// read or exported), user groups and reminders.
import type { Db } from "../../types";
import type { SlackReminder, SlackUser, SlackUsergroup } from "../seed";
import { usergroupData } from "./rows";

/** The parts of a user a call may change. */
export interface UserState {
  presence?: SlackUser["presence"];
  profile?: Partial<
    Pick<SlackUser["profile"], "status_text" | "status_emoji" | "status_expiration" | "title" | "display_name" | "real_name">
  >;
  dnd?: SlackUser["dnd"];
}

export function userState(db: Db, id: string): UserState | undefined {
  const row = db.one<{ data: string }>("SELECT data FROM sl_user_state WHERE user = ?", id);
  return row ? (JSON.parse(row.data) as UserState) : undefined;
}

/** Every user's state, for a page of users or the export. */
export function allUserStates(db: Db): Map<string, UserState> {
  return new Map(
    db.all<{ user: string; data: string }>("SELECT user, data FROM sl_user_state").map((r) => [r.user, JSON.parse(r.data) as UserState]),
  );
}

export function writeUserState(db: Db, id: string, change: UserState): void {
  const before = userState(db, id) ?? {};
  const next: UserState = { ...before, ...change, profile: { ...before.profile, ...change.profile } };
  db.run("INSERT OR REPLACE INTO sl_user_state (user, data) VALUES (?, ?)", id, JSON.stringify(next));
}

/** A user as it is now: its seeded self with what calls changed. */
export function withState(u: SlackUser, state: UserState | undefined): SlackUser {
  if (!state) return u;
  const out: SlackUser = { ...u, profile: { ...u.profile, ...state.profile } };
  if (state.presence !== undefined) out.presence = state.presence;
  if (state.dnd !== undefined) out.dnd = state.dnd;
  return out;
}

export const usergroupRow = (db: Db, id: string): SlackUsergroup | undefined => {
  const row = db.one<{ data: string }>("SELECT data FROM sl_usergroups WHERE id = ?", id);
  return row ? usergroupData(row.data) : undefined;
};

export const allUsergroups = (db: Db): SlackUsergroup[] =>
  db.all<{ data: string }>("SELECT data FROM sl_usergroups ORDER BY rowid").map((r) => usergroupData(r.data));

export function saveUsergroup(db: Db, g: SlackUsergroup): void {
  db.run("INSERT INTO sl_usergroups (id, data) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET data = excluded.data", g.id, JSON.stringify(g));
}

export const reminderRow = (db: Db, id: string): SlackReminder | undefined => {
  const row = db.one<{ data: string }>("SELECT data FROM sl_reminders WHERE id = ?", id);
  return row ? (JSON.parse(row.data) as SlackReminder) : undefined;
};

export function saveReminder(db: Db, r: SlackReminder): void {
  db.run(
    "INSERT INTO sl_reminders (id, user, data) VALUES (?, ?, ?) ON CONFLICT (id) DO UPDATE SET data = excluded.data",
    r.id,
    r.creator,
    JSON.stringify(r),
  );
}

export const allReminders = (db: Db): SlackReminder[] =>
  db.all<{ data: string }>("SELECT data FROM sl_reminders ORDER BY rowid").map((r) => JSON.parse(r.data) as SlackReminder);
