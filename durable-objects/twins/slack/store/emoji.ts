// Emoji: the standard names (iamcal/emoji-data's short names, see data/standard-emoji.ts) and the
// workspace's custom emoji from the seed, kept whole in sl_meta (no Web API method a bot may call
// adds one: admin.emoji.add needs an admin's user token on Enterprise Grid).
import type { Db } from "../../types";
import { STANDARD_EMOJI_NAMES } from "../data/standard-emoji";

/** Skin-tone modifiers a reaction name may carry: `+1::skin-tone-3`. */
const SKIN_TONE = /^skin-tone-[2-6]$/;

/** The workspace's custom emoji: name → image URL or `alias:<name>`. A world booted before emoji were kept has none. */
export function customEmoji(db: Db): Record<string, string> {
  const row = db.one<{ value: string }>("SELECT value FROM sl_meta WHERE key = 'emoji'");
  return row ? (JSON.parse(row.value) as Record<string, string>) : {};
}

export function bootEmoji(db: Db, emoji: Record<string, string>): void {
  db.run("INSERT OR REPLACE INTO sl_meta (key, value) VALUES ('emoji', ?)", JSON.stringify(emoji));
}

/**
 * Whether Slack knows an emoji name: a standard one (with an optional skin tone, as Slack writes
 * it, `thumbsup::skin-tone-2`) or one of the workspace's custom emoji.
 */
export function knownEmoji(name: string, custom: Readonly<Record<string, string>>): boolean {
  const [base = "", tone, ...rest] = name.split("::");
  if (rest.length || (tone !== undefined && !SKIN_TONE.test(tone))) return false;
  return STANDARD_EMOJI_NAMES.has(base) || Object.hasOwn(custom, base);
}
