// What the platform's timed mechanism delivers for this twin: a scripted teammate's reply, and a
// scheduled message whose post_at has passed.
import type { Db } from "../types";
import type { Clock } from "../types";
import { writeMessage } from "./store/messages";
import { SCHEDULED_KIND, readInstallation, scheduledData } from "./store/rows";
import { SCRIPTED_KIND, deliverScripted } from "./store/scripted";
import { userById } from "./store/users";

function deliverScheduled(db: Db, clock: Clock, payload: unknown): void {
  const id = typeof payload === "object" && payload !== null ? Reflect.get(payload, "id") : undefined;
  if (typeof id !== "string") return;
  const row = db.one<{ data: string }>("SELECT data FROM sl_scheduled WHERE id = ?", id);
  // Cancelled meanwhile (chat.deleteScheduledMessage): nothing to post.
  if (!row) return;
  const s = scheduledData(row.data);
  db.run("DELETE FROM sl_scheduled WHERE id = ?", id);
  if (!db.one("SELECT 1 AS n FROM sl_channels WHERE id = ?", s.channel_id)) return;
  const user = s.user ?? readInstallation(db).bot_user_id;
  const botId = userById(db, user)?.profile.bot_id;
  const parent =
    s.thread_ts === undefined
      ? undefined
      : db.one<{ ts: string }>("SELECT ts FROM sl_messages WHERE channel = ? AND ts = ?", s.channel_id, s.thread_ts);
  writeMessage(db, clock, { channel: s.channel_id, user, text: s.text, data: botId ? { bot_id: botId } : {}, threadTs: parent?.ts });
}

export function deliverSlack(db: Db, clock: Clock, kind: string, payload: unknown): void {
  if (kind === SCRIPTED_KIND) deliverScripted(db, clock, payload);
  else if (kind === SCHEDULED_KIND) deliverScheduled(db, clock, payload);
}
