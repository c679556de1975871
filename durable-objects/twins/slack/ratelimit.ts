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

/**
 * Slack's "Special" tier where it means "hundreds of requests per minute" (auth.test,
 * chat.getPermalink): 600 a minute, the figure Slack's own Java SDK assumes for them
 * (slackapi/java-slack-sdk MethodsRateLimitTier.java, SpecialTier_auth_test / _chat_getPermalink).
 * chat.postMessage's Special tier is its own window (one a second per channel, `windowOf`).
 */
const SPECIAL_PER_MINUTE = 600;

/**
 * Each method the twin serves, at the tier its docs.slack.dev page gives ("Facts → Rate limits"),
 * read from the machine-readable copy of those pages in slack-ruby/slack-api-ref
 * (docs.slack.dev/methods/<method>.json, `rate_limits`: t1…t4, t5 = Special; commit f4837c0,
 * "Updated from Slack docs" 2026-08) and checked against slackapi/java-slack-sdk
 * MethodsRateLimits.java. Where the two disagree the docs win: users.conversations is Tier 3 on
 * docs.slack.dev, Tier 2 in the Java SDK. Every method the twin serves is listed, so a method
 * missing here is one the twin does not serve (it falls to Tier 2, Slack's "most methods").
 */
const TIERS: Record<string, Tier | "special"> = {
  "auth.test": "special",
  "bookmarks.add": 2,
  "bookmarks.edit": 2,
  "bookmarks.list": 3,
  "bookmarks.remove": 2,
  "canvases.create": 2,
  "canvases.delete": 3,
  "canvases.edit": 3,
  "canvases.sections.lookup": 3,
  "chat.delete": 3,
  "chat.deleteScheduledMessage": 3,
  "chat.getPermalink": "special",
  "chat.meMessage": 3,
  "chat.postEphemeral": 4,
  "chat.postMessage": "special",
  "chat.scheduleMessage": 3,
  "chat.scheduledMessages.list": 3,
  "chat.unfurl": 3,
  "chat.update": 3,
  "conversations.archive": 2,
  "conversations.canvases.create": 2,
  "conversations.close": 2,
  "conversations.create": 2,
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
  "conversations.rename": 2,
  "conversations.replies": 3,
  "conversations.setPurpose": 2,
  "conversations.setTopic": 2,
  "conversations.unarchive": 2,
  "dnd.endDnd": 2,
  "dnd.endSnooze": 2,
  "dnd.info": 3,
  "dnd.setSnooze": 2,
  "dnd.teamInfo": 2,
  "emoji.list": 2,
  "files.completeUploadExternal": 4,
  "files.delete": 3,
  "files.getUploadURLExternal": 4,
  "files.info": 4,
  "files.list": 3,
  "files.revokePublicURL": 3,
  "files.sharedPublicURL": 3,
  "files.upload": 2,
  "pins.add": 2,
  "pins.list": 2,
  "pins.remove": 2,
  "reactions.add": 3,
  "reactions.get": 3,
  "reactions.list": 2,
  "reactions.remove": 2,
  "reminders.add": 2,
  "reminders.complete": 2,
  "reminders.delete": 2,
  "reminders.info": 2,
  "reminders.list": 2,
  "search.all": 2,
  "search.files": 2,
  "search.messages": 2,
  "stars.add": 2,
  "stars.list": 3,
  "stars.remove": 2,
  "team.info": 3,
  "usergroups.create": 2,
  "usergroups.disable": 2,
  "usergroups.enable": 2,
  "usergroups.list": 2,
  "usergroups.update": 2,
  "usergroups.users.list": 2,
  "usergroups.users.update": 2,
  "users.conversations": 3,
  "users.getPresence": 3,
  "users.info": 4,
  "users.list": 2,
  "users.lookupByEmail": 3,
  "users.profile.get": 4,
  "users.profile.set": 3,
  "users.setPresence": 2,
  "views.open": 4,
  "views.publish": 4,
  "views.push": 4,
  "views.update": 4,
};

/** Tier 2, "most methods", for a method the twin does not list. */
const DEFAULT_TIER: Tier = 2;

export const tierOf = (method: string): Tier | "special" => TIERS[method] ?? DEFAULT_TIER;

/** The methods the tier map lists (a test holds it to the methods the twin serves). */
export const tieredMethods = (): string[] => Object.keys(TIERS);

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
  const tier = tierOf(method);
  const perMinute = tier === "special" ? SPECIAL_PER_MINUTE : TIER_PER_MINUTE[tier];
  return { key: `${method}|${tokenKind}`, limit: override ?? perMinute, ms: MINUTE_MS };
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
