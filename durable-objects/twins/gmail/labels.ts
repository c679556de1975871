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
