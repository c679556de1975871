// The parts of a Slack seed that are not the workspace's content: the trigger ids an app may
// exchange for a modal (a user's click hands the app one; a seed or a test mints them), the views
// open or published (views.*), the link_shared events the app was sent (chat.unfurl's unfurl ids),
// people's saved items (stars.*), and the opt-in rate limits (ratelimit.ts).
import { z } from "zod";

/** A trigger id as Slack hands one out: `12345.98765.abcd2358fdea` (views.open's own example). */
export const TRIGGER_ID = /^\d+\.\d+\.[0-9a-f]+$/;

export const triggerIdSeed = z.strictObject({
  id: z.string().regex(TRIGGER_ID, "Invalid trigger id: digits, a dot, digits, a dot, lower-case hex (12345.98765.abcd2358fdea)"),
  /** Who clicked: the modal opens for this user. */
  user: z.string(),
  /**
   * Unix seconds after which it is `expired_trigger_id`. Slack's expire 3 seconds after the click;
   * a seeded one has no click, so it lasts the sandbox's life unless the seed says otherwise.
   */
  expires_at: z.number().int().nonnegative().optional(),
  /** Whether a view was already opened with it (a second use is `exchanged_trigger_id`). */
  exchanged: z.boolean().default(false),
});

/** A view as the twin keeps it: the payload the app sent and what Slack adds to it. */
export const viewSeed = z.strictObject({
  id: z.string().regex(/^V[A-Z0-9]{2,}$/, "Invalid view id: V followed by capital letters or digits"),
  /** The user it is shown to (a modal's clicker, an App Home's owner). */
  user: z.string(),
  /** The view payload: type, title, blocks, submit, close, callback_id, private_metadata, external_id… */
  view: z.record(z.string(), z.unknown()),
  hash: z.string().min(1),
  /** The modal at the bottom of its stack (itself for a root view); absent for an App Home. */
  root_view_id: z.string().optional(),
  previous_view_id: z.string().optional(),
});

/** An app's preview of one URL, as chat.unfurl takes it: a legacy attachment or `{blocks}`. */
const unfurlSeed = z.record(z.string(), z.unknown());

/**
 * A link_shared event Slack sent the app: a person shared links on one of the app's registered
 * domains, in a posted message (`source: "conversations_history"`, with the message's `channel`
 * and `message_ts`) or while still typing it (`source: "composer"`: no message yet). Its
 * `unfurl_id` is what chat.unfurl takes with `source` (docs.slack.dev/reference/events/link_shared;
 * api.slack.com/changelog/2021-08-changes-to-unfurls). The twin sends no events, so a task hands the
 * agent the event's fields and the seed records that Slack sent it.
 */
export const linkShareSeed = z.strictObject({
  unfurl_id: z.string().min(1).max(255),
  source: z.enum(["conversations_history", "composer"]),
  /** Who shared the links. */
  user: z.string(),
  channel: z.string().optional(),
  message_ts: z.string().optional(),
  thread_ts: z.string().optional(),
  links: z
    .array(z.strictObject({ domain: z.string().min(1).max(255), url: z.string().min(1).max(3000) }))
    .min(1)
    .max(50),
  /** For a composer share, the previews the app gave (chat.unfurl) while the message was typed. */
  unfurls: z.record(z.string(), unfurlSeed).optional(),
});

/**
 * An item a person saved for later (Slack's saved items, formerly stars: stars.add/list/remove):
 * a message (`channel` + `ts`), a file (`file`), or a conversation (`channel` alone).
 */
export const starSeed = z.strictObject({
  user: z.string(),
  channel: z.string().optional(),
  ts: z.string().optional(),
  file: z.string().optional(),
  /** When it was saved (Unix seconds); boot's time when absent. */
  date_create: z.number().int().nonnegative().optional(),
});

/**
 * Opt-in: calls beyond a method's tier in a minute are answered 429 with `Retry-After`, as Slack
 * does. `per_minute` overrides a method's tier limit (to reach it in a short test, say).
 */
export const rateLimitsSeed = z.strictObject({
  per_minute: z.record(z.string().regex(/^[a-z][A-Za-z.]+$/, "Invalid method name"), z.number().int().min(1).max(100_000)).default({}),
});

export type SlackTriggerId = z.infer<typeof triggerIdSeed>;
export type SlackView = z.infer<typeof viewSeed>;
export type SlackRateLimits = z.infer<typeof rateLimitsSeed>;
export type SlackLinkShare = z.infer<typeof linkShareSeed>;
export type SlackStar = z.infer<typeof starSeed>;

/** What a saved item is saved under, one per person: `C…/ts` for a message, else the file or conversation id. */
export const starKey = (s: { channel?: string; ts?: string; file?: string }): string =>
  s.file ?? (s.ts === undefined ? (s.channel ?? "") : `${s.channel ?? ""}/${s.ts}`);
