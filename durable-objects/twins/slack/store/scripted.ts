// Simulated teammates (our extension): a seeded scripted reply arms on a channel (optionally one
// thread); the first message the agent posts there whose text contains `match` triggers it, and
// the platform's timed mechanism delivers the reply after N calls or S seconds.
import type { Db } from "../../types";
import type { Clock } from "../../types";
import type { Call } from "../context";
import { writeMessage } from "./messages";
import { type MessageRow, scriptedData } from "./rows";

export const SCRIPTED_KIND = "scripted_reply";

export interface ScriptedPayload {
  rule: number;
  channel: string;
  /** The thread the reply goes in, or absent for the channel itself. */
  thread_ts?: string;
}

/** Arms the delivery of every rule the agent's new message matches. */
export function triggerScripted(call: Call, posted: MessageRow): void {
  const rules = call.db.all<{ id: number; data: string }>(
    "SELECT id, data FROM sl_scripted WHERE channel = ? AND triggered = 0 ORDER BY id",
    posted.channel,
  );
  const text = posted.text.toLowerCase();
  const replyThread = posted.thread_ts ?? posted.ts;
  for (const r of rules) {
    const rule = scriptedData(r.data);
    if (rule.thread_ts !== undefined && posted.thread_ts !== rule.thread_ts) continue;
    if (!text.includes(rule.match.toLowerCase())) continue;
    call.db.run("UPDATE sl_scripted SET triggered = 1 WHERE id = ?", r.id);
    const payload: ScriptedPayload = { rule: r.id, channel: posted.channel };
    if (rule.reply_in === "thread") payload.thread_ts = replyThread;
    call.ctx.schedule(SCRIPTED_KIND, payload, rule.after);
  }
}

const isPayload = (p: unknown): p is ScriptedPayload =>
  typeof p === "object" && p !== null && typeof Reflect.get(p, "rule") === "number" && typeof Reflect.get(p, "channel") === "string";

/** Writes a triggered rule's reply as an ordinary message and retires the rule. */
export function deliverScripted(db: Db, clock: Clock, payload: unknown): void {
  if (!isPayload(payload)) return;
  const row = db.one<{ data: string }>("SELECT data FROM sl_scripted WHERE id = ?", payload.rule);
  if (!row) return;
  const rule = scriptedData(row.data);
  db.run("DELETE FROM sl_scripted WHERE id = ?", payload.rule);
  // The thread may have been deleted meanwhile: then the reply lands in the channel.
  const parent =
    payload.thread_ts === undefined
      ? undefined
      : db.one<{ ts: string }>("SELECT ts FROM sl_messages WHERE channel = ? AND ts = ?", payload.channel, payload.thread_ts);
  const channel = db.one<{ id: string }>("SELECT id FROM sl_channels WHERE id = ?", payload.channel);
  if (!channel) return;
  writeMessage(db, clock, { channel: payload.channel, user: rule.user, text: rule.text, data: {}, threadTs: parent?.ts });
}
