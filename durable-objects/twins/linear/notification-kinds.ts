// The notification types the twin makes, apart from notifications.ts (which derives them from the
// world) so the seed's schema can name them without reaching the code that serves calls.

/** What Linear's `Notification.type` says for the events the twin makes, and their category. */
export const NOTIFICATION_KINDS = {
  issueAssignedToYou: "assignments",
  issueMention: "mentions",
  issueCommentMention: "mentions",
  issueNewComment: "commentsAndReplies",
  issueReminder: "reminders",
} as const;
export type NotificationKind = keyof typeof NOTIFICATION_KINDS;
