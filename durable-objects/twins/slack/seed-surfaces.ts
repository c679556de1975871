// The parts of a Slack seed that are not the workspace's content: the trigger ids an app may
// exchange for a modal (a user's click hands the app one; a seed or a test mints them), the views
// open or published (views.*), and the opt-in rate limits (ratelimit.ts).
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
