// The mailbox settings beside send-as, filters and vacation, in Gmail's own resource shapes
// (users.settings: ForwardingAddress, AutoForwarding, Delegate, ImapSettings, PopSettings,
// LanguageSettings; field names and enums as googleapis 188.0.0 types them). They are seed
// fields and export fields, so a task can start from them and grading can see them.
import { z } from "zod";

export const EXPUNGE_BEHAVIORS = ["archive", "trash", "deleteForever"] as const;
/** Gmail's IMAP folder size limits: 0 (no limit), 1000, 2000, 5000 or 10000 messages. */
export const IMAP_FOLDER_SIZES = [0, 1000, 2000, 5000, 10000] as const;
export const POP_WINDOWS = ["disabled", "fromNowOn", "allMail"] as const;
/** What happens to mail once forwarded or fetched over POP (AutoForwarding and PopSettings `disposition`). */
export const DISPOSITIONS = ["leaveInInbox", "archive", "trash", "markRead"] as const;
export const DELEGATE_STATUSES = ["accepted", "pending", "rejected", "expired"] as const;

export const forwardingAddressSchema = z.strictObject({
  forwardingEmail: z.string().min(3),
  // A seeded address is one the mailbox's owner already confirmed, unless the seed says otherwise.
  verificationStatus: z.enum(["accepted", "pending"]).default("accepted"),
});
export const autoForwardingSchema = z.strictObject({
  enabled: z.boolean().default(false),
  emailAddress: z.string().optional(),
  disposition: z.enum(DISPOSITIONS).optional(),
});
export const delegateSchema = z.strictObject({
  delegateEmail: z.string().min(3),
  verificationStatus: z.enum(DELEGATE_STATUSES).default("accepted"),
});
export const imapSchema = z.strictObject({
  enabled: z.boolean().default(true),
  autoExpunge: z.boolean().default(true),
  expungeBehavior: z.enum(EXPUNGE_BEHAVIORS).default("archive"),
  maxFolderSize: z
    .number()
    .int()
    .refine((n) => (IMAP_FOLDER_SIZES as readonly number[]).includes(n), "0, 1000, 2000, 5000 or 10000")
    .default(0),
});
export const popSchema = z.strictObject({
  accessWindow: z.enum(POP_WINDOWS).default("disabled"),
  disposition: z.enum(DISPOSITIONS).default("leaveInInbox"),
});
export const languageSchema = z.strictObject({ displayLanguage: z.string().min(2).default("en") });

export type GmailForwardingAddress = z.infer<typeof forwardingAddressSchema>;
export type GmailAutoForwarding = z.infer<typeof autoForwardingSchema>;
export type GmailDelegate = z.infer<typeof delegateSchema>;
export type GmailImap = z.infer<typeof imapSchema>;
export type GmailPop = z.infer<typeof popSchema>;
export type GmailLanguage = z.infer<typeof languageSchema>;

export const DEFAULT_IMAP: GmailImap = { enabled: true, autoExpunge: true, expungeBehavior: "archive", maxFolderSize: 0 };
export const DEFAULT_POP: GmailPop = { accessWindow: "disabled", disposition: "leaveInInbox" };
export const DEFAULT_LANGUAGE: GmailLanguage = { displayLanguage: "en" };

/** The domain of an address, lower case ("" when it has none). */
export const domainOf = (address: string): string => address.slice(address.lastIndexOf("@") + 1).toLowerCase();
