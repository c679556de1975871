// Files: the file object Slack answers with (where it is shared is derived from the messages
// that list it), uploads that are pending until completed, and content served back.
import type { Db } from "../../types";
import type { Call } from "../context";
import { type FileRow, fileData } from "./rows";

const MIMETYPES: Record<string, string> = {
  markdown: "text/markdown",
  // A canvas (canvases.create): Slack files it as filetype "quip".
  quip: "application/vnd.slack-docs",
  text: "text/plain",
  json: "application/json",
  csv: "text/csv",
  png: "image/png",
  jpg: "image/jpeg",
  gif: "image/gif",
  pdf: "application/pdf",
  html: "text/html",
  javascript: "text/javascript",
  typescript: "text/plain",
  python: "text/plain",
  yaml: "text/plain",
  binary: "application/octet-stream",
};

export const mimetypeOf = (filetype: string) => MIMETYPES[filetype] ?? "text/plain";

export const fileRow = (db: Db, id: string) => db.one<FileRow>("SELECT * FROM sl_files WHERE id = ?", id);
/** Whether a file was deleted: its tombstone outlives it, so Slack can say `file_deleted`. */
export const isDeletedFile = (db: Db, id: string) =>
  db.one<{ n: number }>("SELECT 1 AS n FROM sl_deleted_files WHERE id = ?", id) !== undefined;

/** The secret part of a public file link: stable per file, as Slack's permalink_public is. */
const publicSecret = (id: string) =>
  [...id]
    .reduce((h, c) => (h * 33 + c.charCodeAt(0)) >>> 0, 5381)
    .toString(16)
    .padStart(10, "0");

export function fileViewOf(call: Call, row: FileRow): Record<string, unknown> {
  const data = fileData(row);
  const shares = call.db.all<{ channel: string; ts: string; is_private: number; is_im: number }>(
    "SELECT s.channel, s.ts, c.is_private, c.is_im FROM sl_file_shares s JOIN sl_channels c ON c.id = s.channel WHERE s.file = ? ORDER BY s.ts",
    row.id,
  );
  const pub: Record<string, { ts: string; team_id: string }[]> = {};
  const priv: Record<string, { ts: string; team_id: string }[]> = {};
  for (const s of shares) {
    const list = s.is_private ? priv : pub;
    const entries = list[s.channel] ?? [];
    entries.push({ ts: s.ts, team_id: call.team.id });
    list[s.channel] = entries;
  }
  const pathBase = `${call.baseUrl}/files-pri/${call.team.id}-${row.id}`;
  return {
    id: row.id,
    created: row.created,
    timestamp: row.created,
    name: data.name,
    title: data.title ?? data.name,
    mimetype: data.mimetype,
    filetype: data.filetype ?? "text",
    pretty_type: data.filetype ?? "text",
    user: row.user,
    user_team: call.team.id,
    editable: false,
    size: row.size,
    mode: "hosted",
    is_external: false,
    external_type: "",
    is_public: shares.some((s) => !s.is_private),
    public_url_shared: data.public_url_shared ?? false,
    ...(data.public_url_shared ? { permalink_public: `https://slack-files.com/${call.team.id}-${row.id}-${publicSecret(row.id)}` } : {}),
    display_as_bot: false,
    username: "",
    url_private: `${pathBase}/${encodeURIComponent(data.name)}`,
    url_private_download: `${pathBase}/download/${encodeURIComponent(data.name)}`,
    permalink: `https://${call.team.domain}.slack.com/files/${row.user}/${row.id}/${encodeURIComponent(data.name)}`,
    channels: shares
      .filter((s) => !s.is_private)
      .map((s) => s.channel)
      .filter((c, i, all) => all.indexOf(c) === i),
    groups: shares
      .filter((s) => s.is_private && !s.is_im)
      .map((s) => s.channel)
      .filter((c, i, all) => all.indexOf(c) === i),
    ims: shares
      .filter((s) => s.is_im)
      .map((s) => s.channel)
      .filter((c, i, all) => all.indexOf(c) === i),
    shares: { ...(Object.keys(pub).length ? { public: pub } : {}), ...(Object.keys(priv).length ? { private: priv } : {}) },
    comments_count: 0,
  };
}

export function fileView(call: Call, id: string): Record<string, unknown> | undefined {
  const row = fileRow(call.db, id);
  return row?.complete ? fileViewOf(call, row) : undefined;
}
