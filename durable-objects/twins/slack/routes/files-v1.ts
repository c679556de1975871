// The one-call v1 upload, files.upload, still sent by older SDKs and scripts (Slack retired it
// for new apps in favour of files.uploadV2's three steps, but the wire form is widely used): the
// file as a multipart part named `file` or as `content` text, with `filename`, `filetype`,
// `title`, shared to `channels` (a comma list) with an `initial_comment`, in `thread_ts`. And the
// public-link pair files.sharedPublicURL / files.revokePublicURL: docs.slack.dev gives
// sharedPublicURL a user scope only (a bot token is `not_allowed_token_type`; the error lists'
// `user_is_bot` left Slack's docs in 2019), revokePublicURL `files:write` for both token kinds
// (slack-ruby/slack-api-ref docs.slack.dev/methods/files.{shared,revoke}PublicURL.json, 2026-08).
import type { Route } from "../../types";
import { fromBinaryString, toBase64, utf8OrUndefined } from "../../kit/bytes";
import { argValues } from "../args";
import { type Call, method } from "../context";
import { TS_TEXT, list, text } from "../declare";
import { fail } from "../errors";
import { filetypeOf } from "../seed";
import { canSee, findChannel } from "../store/channels";
import { fileRow, fileViewOf, isDeletedFile, mimetypeOf } from "../store/files";
import { requireMessage } from "../store/messages";
import { type ChannelRow, type FileData, fileData, newId, nowSeconds } from "../store/rows";
import { postAs, postTarget } from "./chat";

/** The file's bytes: the multipart `file` part (kept byte for byte, args.ts), else `content` as UTF-8. */
function uploadBytes(call: Call, content: string | undefined): Uint8Array {
  const part = argValues(call.ctx).file;
  if (typeof part === "string" && part !== "") return fromBinaryString(part);
  // An empty file is no file (wee-slack/wee-slack#695: an empty upload is `no_file_data`).
  if (content !== undefined && content !== "") return new TextEncoder().encode(content);
  return fail("no_file_data");
}

/** Where the file is shared: each named channel the caller can post in; an unknown one is `invalid_channel`. */
function shareTargets(call: Call, names: readonly string[]): ChannelRow[] {
  return names.map((name) => {
    const row = findChannel(call, name, true);
    if (!row || !canSee(call, row)) fail("invalid_channel");
    return postTarget(call, name);
  });
}

interface Upload {
  bytes: Uint8Array;
  filename?: string;
  filetype?: string;
  title?: string;
}

/** Stores a complete file and answers its id. */
function storeFile(call: Call, u: Upload): string {
  const id = newId(call.db, "F", (f) => fileRow(call.db, f) !== undefined || isDeletedFile(call.db, f));
  const name = u.filename ?? "-";
  const filetype = u.filetype ?? filetypeOf(name);
  const text = utf8OrUndefined(u.bytes);
  const data: FileData = {
    id,
    name,
    title: u.title ?? name,
    filetype,
    user: call.actor.user,
    mimetype: mimetypeOf(filetype),
    encoding: text === undefined ? "base64" : "utf8",
  };
  call.db.run(
    "INSERT INTO sl_files (id, complete, user, created, size, content, data) VALUES (?, 1, ?, ?, ?, ?, ?)",
    id,
    call.actor.user,
    nowSeconds(call.clock),
    u.bytes.length,
    text ?? toBase64(u.bytes),
    JSON.stringify(data),
  );
  return id;
}

/** A file the caller made, for the public-link pair; a deleted one is `file_deleted`. */
function ownFile(call: Call, id: string) {
  const row = fileRow(call.db, id);
  if (!row && isDeletedFile(call.db, id)) fail("file_deleted");
  if (!row?.complete) return fail("file_not_found");
  if (row.user !== call.actor.user) fail("not_allowed");
  return row;
}

/** Sets or clears a file's public link (one the caller made). */
function setPublic(call: Call, id: string, shared: boolean) {
  const row = ownFile(call, id);
  const data: FileData = { ...fileData(row), public_url_shared: shared };
  call.db.run("UPDATE sl_files SET data = ? WHERE id = ?", JSON.stringify(data), row.id);
  return { file: fileViewOf(call, { ...row, data: JSON.stringify(data) }) };
}

export const fileV1Routes: Route[] = [
  ...method({
    name: "files.upload",
    summary: "Uploads a file in one call (multipart `file` or `content`), shared to `channels` with an optional comment",
    scopes: ["files:write"],
    args: {
      content: text().optional().describe("The file's content as text (instead of a multipart `file` part)"),
      filename: text().optional().describe("The file's name"),
      filetype: text().optional().describe("Slack's file type (default: from the name's extension)"),
      title: text().optional().describe("The file's title (default: its name)"),
      channels: list().optional().describe("Comma list of conversations (ids or names) to share it in"),
      initial_comment: text().optional().describe("A message posted with the file"),
      thread_ts: text().optional().describe(`Share it in this thread (${TS_TEXT})`),
    },
    tool: { description: "Uploads a text file in one call (content, filename), optionally shared to channels with a comment." },
    handler: (call, args) => {
      const bytes = uploadBytes(call, args.content);
      const targets = shareTargets(call, args.channels ?? []);
      if (args.thread_ts !== undefined) for (const t of targets) requireMessage(call.db, t.id, args.thread_ts, "thread_not_found");
      const id = storeFile(call, { bytes, filename: args.filename, filetype: args.filetype, title: args.title });
      for (const t of targets) postAs(call, t.id, args.initial_comment ?? "", { files: [id] }, args.thread_ts);
      const row = fileRow(call.db, id) ?? fail("file_not_found");
      return { file: fileViewOf(call, row) };
    },
  }),
  ...method({
    name: "files.sharedPublicURL",
    summary: "Makes one of the user's files public by link",
    scopes: ["files:write"],
    token: "user",
    args: { file: text({ missing: "file_not_found" }).describe("A file id (F…)") },
    tool: { description: "Makes one of the user's files public by link (permalink_public); needs a user token." },
    handler: (call, args) => setPublic(call, args.file, true),
  }),
  ...method({
    name: "files.revokePublicURL",
    summary: "Takes a file's public link back",
    scopes: ["files:write"],
    args: { file: text({ missing: "file_not_found" }).describe("A file id (F…)") },
    tool: { description: "Revokes the public link of a file the caller made.", destructive: true },
    handler: (call, args) => setPublic(call, args.file, false),
  }),
];
