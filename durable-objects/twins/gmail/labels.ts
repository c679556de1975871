// Gmail's system labels: fixed ids, names equal to ids, not stored per mailbox.

export const SYSTEM_LABELS = [
  "INBOX",
  "SENT",
  "DRAFT",
  "SPAM",
  "TRASH",
  "UNREAD",
  "STARRED",
  "IMPORTANT",
  "CHAT",
  "CATEGORY_PERSONAL",
  "CATEGORY_SOCIAL",
  "CATEGORY_PROMOTIONS",
  "CATEGORY_UPDATES",
  "CATEGORY_FORUMS",
] as const;

export type SystemLabel = (typeof SYSTEM_LABELS)[number];
export const isSystemLabel = (id: string): id is SystemLabel => (SYSTEM_LABELS as readonly string[]).includes(id);

/**
 * Names Gmail keeps for its own folders besides the system label ids (the names its UI shows for
 * them); a user label cannot take one, case aside. Measured at `labels.create`: `Muted`
 * (GAM-team/got-your-back#350, #264, #323), `Drafts` (#95, #109), `Migrated` (#82) and `archive`
 * (gauteh/lieer#109, got-your-back#324); the others are the twin's reading of Gmail's folders.
 */
const RESERVED_NAMES = [
  "drafts",
  "sent mail",
  "all mail",
  "chats",
  "bin",
  "snoozed",
  "scheduled",
  "muted",
  "outbox",
  "migrated",
  "archive",
];

/**
 * A name Gmail keeps for itself (a system label's, or one of its folders'), case aside. Gmail
 * refuses it as an invalid name, 400 `Invalid label name` (reason `invalidArgument`), not as a
 * conflict: GAM-team/got-your-back#350 and #264 (`Creating label Muted` → `400: Invalid label name
 * - invalidArgument`), #95 (`Drafts`), #135; the body as gauteh/lieer#284 quotes it.
 */
export function reservedName(name: string): boolean {
  const lower = name.toLowerCase();
  return SYSTEM_LABELS.some((s) => s.toLowerCase() === lower) || RESERVED_NAMES.includes(lower);
}

/** System labels Gmail hides from label lists in its UI, and so marks `labelHide`. */
const HIDDEN = new Set(["CHAT", "CATEGORY_PERSONAL", "CATEGORY_SOCIAL", "CATEGORY_PROMOTIONS", "CATEGORY_UPDATES", "CATEGORY_FORUMS"]);

/** The fields Gmail serves for a system label (counts are added by the view). */
export function systemLabel(id: SystemLabel): Record<string, unknown> {
  const out: Record<string, unknown> = { id, name: id, type: "system" };
  if (HIDDEN.has(id)) {
    out.messageListVisibility = "hide";
    out.labelListVisibility = "labelHide";
  } else if (id !== "UNREAD" && id !== "DRAFT" && id !== "SENT" && id !== "INBOX") {
    out.labelListVisibility = "labelShow";
    out.messageListVisibility = "show";
  }
  return out;
}

/** Labels a message leaves every list by default. */
export const SPAM_TRASH = ["SPAM", "TRASH"] as const;
