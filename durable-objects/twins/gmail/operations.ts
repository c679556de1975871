// Gmail's discovery method ids: what the tape names each call, what googleapis calls the method,
// and what a seeded fault may target.
export const GMAIL_OPERATIONS: readonly string[] = [
  "gmail.users.getProfile",
  "gmail.users.messages.list", "gmail.users.messages.get", "gmail.users.messages.send", "gmail.users.messages.insert",
  "gmail.users.messages.import", "gmail.users.messages.modify", "gmail.users.messages.batchModify", "gmail.users.messages.trash",
  "gmail.users.messages.untrash", "gmail.users.messages.delete", "gmail.users.messages.batchDelete",
  "gmail.users.messages.attachments.get",
  "gmail.users.threads.list", "gmail.users.threads.get", "gmail.users.threads.modify", "gmail.users.threads.trash",
  "gmail.users.threads.untrash", "gmail.users.threads.delete",
  "gmail.users.labels.list", "gmail.users.labels.get", "gmail.users.labels.create", "gmail.users.labels.update",
  "gmail.users.labels.patch", "gmail.users.labels.delete",
  "gmail.users.drafts.list", "gmail.users.drafts.get", "gmail.users.drafts.create", "gmail.users.drafts.update",
  "gmail.users.drafts.delete", "gmail.users.drafts.send",
  "gmail.users.history.list",
  "gmail.users.settings.sendAs.list", "gmail.users.settings.filters.list", "gmail.users.settings.filters.get",
  "gmail.users.settings.filters.create", "gmail.users.settings.filters.delete",
  "gmail.users.settings.getVacation", "gmail.users.settings.updateVacation",
];
