// The Gmail seed's column maps: for each gm_ table a seed fills directly, which column keeps which
// field and how. Boot and export (world.ts) both go through these maps, so a field is declared
// once. Messages are not mapped here: a message row holds what Gmail derives from the mail
// (snippet, size, label index, history), so it is written and read by the message store
// (store/messages.ts `insertMessage`/`fromRow`), the same code the API's own writes go through.
import { assembled, col, tableMap } from "../kit/world-table";
import { decodeBase64 } from "../kit/bytes";
import type { GmailFilter, GmailLabel, GmailSeed } from "./seed";
import type { GmailUploadSession } from "./upload-sessions";

type ListVisibility = GmailLabel["labelListVisibility"];
type MessageVisibility = GmailLabel["messageListVisibility"];

/** A stored visibility Gmail does not name reads as its default, as export always read it. */
const listVisibility = col.custom<ListVisibility>(
  "list_visibility",
  (v) => v,
  (cell) => (cell === "labelShowIfUnread" || cell === "labelHide" ? cell : "labelShow"),
);
const messageVisibility = col.custom<MessageVisibility>(
  "message_visibility",
  (v) => v,
  (cell) => (cell === "hide" ? "hide" : "show"),
);

/** Where a seeded row sits in its list: label, draft and filter lists come back in seed order. */
type InList = number;

export const labels = tableMap<GmailLabel, unknown, InList>()({
  table: "gm_labels",
  fields: {
    id: col.text("id"),
    name: col.text("name"),
    labelListVisibility: listVisibility,
    messageListVisibility: messageVisibility,
    color: col.optional(col.json<NonNullable<GmailLabel["color"]>>("color")),
  },
  derived: { position: ({ place }) => place },
});

export type GmailDraft = GmailSeed["drafts"][number];

/** A draft row names its message; the message itself is a gm_messages row (assembled on export). */
export const drafts = tableMap<GmailDraft, unknown, InList>()({
  table: "gm_drafts",
  fields: { id: col.text("id"), message: assembled },
  derived: { message_id: ({ value }) => value.message.id, seq: ({ place }) => place },
});

export const filters = tableMap<GmailFilter, unknown, InList>()({
  table: "gm_filters",
  fields: {
    id: col.text("id"),
    criteria: col.json<GmailFilter["criteria"]>("criteria"),
    action: col.json<GmailFilter["action"]>("action"),
  },
  derived: { seq: ({ place }) => place },
});

/**
 * Resumable uploads under way (store/uploads.ts keeps and reads them the same way): the kept bytes
 * stay base64url in `received`, their count beside them; `createdAt` is a number in the table.
 */
export const uploadSessions = tableMap<GmailUploadSession>()({
  table: "gm_uploads",
  fields: {
    id: col.text("id"),
    method: col.text<GmailUploadSession["method"]>("method"),
    path: col.text("path"),
    query: col.text("query"),
    metadata: col.text("metadata"),
    total: col.optional(col.number("total")),
    received: col.text("received"),
    createdAt: col.custom<string>(
      "created_at",
      (v) => Number(v),
      (cell) => String(cell),
    ),
  },
  derived: { received_bytes: ({ value }) => decodeBase64(value.received)?.length ?? 0 },
});
