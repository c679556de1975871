// Slack's rate limits by method tier, an opt-in fault a seed turns on (`rate_limits`): each Web
// API method allows so many calls a minute "per API method per workspace per app" (here per
// token kind: the bot's and the user's), and chat.postMessage one message a second per channel.
// A call past its limit is answered HTTP 429 with `Retry-After` (seconds) and
// `{"ok":false,"error":"ratelimited"}`, which @slack/web-api reads: it waits and retries, or with
// `rejectRateLimitedCalls` throws a WebAPIRateLimitedError. Measured on the sandbox clock over a
// sliding window. Source: docs.slack.dev/apis/web-api/rate-limits ("Tier 1 1+ per minute, Tier 2
// 20+, Tier 3 50+, Tier 4 100+; chat.postMessage generally allows one message per second per
// channel"; "a HTTP 429 Too Many Requests error, and a Retry-After HTTP header containing the
// number of seconds until you can retry"), and each method's page for its tier.
import type { Db, TwinResponse } from "../types";
import { perStorage } from "../kit/boot-constants";
import type { SlackRateLimits } from "./seed-surfaces";

/** Calls a minute of each tier: the floor of Slack's "N+ per minute". */
export const TIER_PER_MINUTE = { 1: 1, 2: 20, 3: 50, 4: 100 } as const;
type Tier = keyof typeof TIER_PER_MINUTE;

/** Each method's tier, as its page on docs.slack.dev gives it; "Special" ones at the tier they behave as. */
const TIERS: Record<string, Tier> = {
  "auth.test": 4,
  "chat.delete": 3,
  "chat.deleteScheduledMessage": 3,
  "chat.getPermalink": 4,
  "chat.meMessage": 3,
  "chat.postEphemeral": 4,
  "chat.scheduleMessage": 3,
  "chat.scheduledMessages.list": 3,
  "chat.unfurl": 3,
  "chat.update": 3,
  "conversations.history": 3,
  "conversations.info": 3,
  "conversations.invite": 3,
  "conversations.join": 3,
  "conversations.kick": 3,
  "conversations.leave": 3,
  "conversations.list": 2,
  "conversations.mark": 3,
  "conversations.members": 4,
  "conversations.open": 3,
  "conversations.replies": 3,
  "files.completeUploadExternal": 4,
  "files.getUploadURLExternal": 4,
  "files.info": 4,
  "files.list": 3,
  "files.delete": 3,
  "reactions.add": 3,
  "reactions.get": 3,
  "team.info": 3,
  "users.conversations": 3,
  "users.getPresence": 3,
  "users.info": 4,
  "users.lookupByEmail": 3,
  "users.profile.get": 4,
  "users.profile.set": 3,
  "views.open": 4,
  "views.publish": 4,
  "views.push": 4,
  "views.update": 4,
  "dnd.info": 3,
};

/** Tier 2, "most methods": conversations.create/archive/rename, pins.*, bookmarks.*, search.*, usergroups.*, reminders.*, emoji.list, files.upload… */
const DEFAULT_TIER: Tier = 2;

export const tierOf = (method: string): Tier => TIERS[method] ?? DEFAULT_TIER;

const MINUTE_MS = 60_000;
const SECOND_MS = 1_000;

export interface Window {
  /** What the count is kept under: the method, the token kind, and for a post its channel. */
  key: string;
  limit: number;
  ms: number;
}

/** The window a call of `method` counts in, under the seed's limits. */
export function windowOf(limits: SlackRateLimits, method: string, tokenKind: string, channel: string | undefined): Window {
  const override = limits.per_minute[method];
  if (method === "chat.postMessage" && override === undefined) {
    return { key: `${method}|${tokenKind}|${channel ?? ""}`, limit: 1, ms: SECOND_MS };
  }
  return { key: `${method}|${tokenKind}`, limit: override ?? TIER_PER_MINUTE[tierOf(method)], ms: MINUTE_MS };
}

/**
 * Seconds to wait if a call now would pass its window's limit (the oldest call in it must leave
 * first), else undefined. Pure: `calls` are the times of the calls counted so far.
 */
export function retryAfter(calls: readonly number[], window: Window, now: number): number | undefined {
  const inWindow = calls.filter((at) => at > now - window.ms).sort((a, b) => a - b);
  if (inWindow.length < window.limit) return undefined;
  const oldest = inWindow[inWindow.length - window.limit] ?? now;
  return Math.max(1, Math.ceil((oldest + window.ms - now) / 1000));
}

/** The seed's rate limits, if it turned them on. */
export function rateLimitsOf(db: Db): SlackRateLimits | undefined {
  const row = db.one<{ value: string }>("SELECT value FROM sl_meta WHERE key = 'rate_limits'");
  return row ? (JSON.parse(row.value) as SlackRateLimits) : undefined;
}

const limitsOf = perStorage<SlackRateLimits | null>();

/**
 * Counts a call against its window, or answers Slack's 429 if it is over. Nothing is counted
 * without the seed's `rate_limits`; a refused call is not counted (its answer changes nothing).
 */
export function rateLimited(db: Db, now: number, method: string, tokenKind: string, channel: string | undefined): TwinResponse | undefined {
  const limits = limitsOf(db).get("", () => rateLimitsOf(db) ?? null);
  if (!limits) return undefined;
  const window = windowOf(limits, method, tokenKind, channel);
  db.run("DELETE FROM sl_rate_calls WHERE key = ? AND at <= ?", window.key, now - window.ms);
  const calls = db.all<{ at: number }>("SELECT at FROM sl_rate_calls WHERE key = ?", window.key).map((r) => r.at);
  const wait = retryAfter(calls, window, now);
  if (wait !== undefined) {
    return {
      status: 429,
      headers: { "content-type": "application/json; charset=utf-8", "retry-after": String(wait) },
      body: JSON.stringify({ ok: false, error: "ratelimited" }),
    };
  }
  db.run("INSERT INTO sl_rate_calls (key, at) VALUES (?, ?)", window.key, now);
  return undefined;
}
