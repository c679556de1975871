// Files: the three steps of files.uploadV2 (an upload URL, the bytes POSTed to it, completion
// that shares the file), files.info/list/delete, and the file's content at its url_private.
import { z } from "zod";
import { binaryString, fromBase64, fromBinaryString, toBase64, utf8OrUndefined } from "../../kit/bytes";
import { fileServingHeaders } from "../../kit/download-headers";
import type { Route, TwinContext, TwinRequest, TwinResponse } from "../../types";
import { multipartFields } from "../args";
import { type Call, method } from "../context";
import { type Refusal, TS_TEXT, USER_TEXT, int, json, list, said, slackRoute, text } from "../declare";
import { explained, fail, slackError } from "../errors";
import { filetypeOf } from "../seed";
import { fileRow, fileViewOf, isDeletedFile, mimetypeOf } from "../store/files";
import { type FileData, type FileRow, type MessageRow, fileData, messageData, newId, nowSeconds } from "../store/rows";
import { postAs, postTarget } from "./chat";

const newFileId = (call: Call) => newId(call.db, "F", (id) => fileRow(call.db, id) !== undefined || isDeletedFile(call.db, id));

/** A complete file; a deleted one is `file_deleted` (Slack keeps a tombstone), an unknown one `file_not_found`. */
function completeFile(call: Call, id: string | undefined): FileRow {
  const row = id === undefined ? undefined : fileRow(call.db, id);
  if (!row && id !== undefined && isDeletedFile(call.db, id)) fail("file_deleted");
  if (!row?.complete) return fail("file_not_found");
  return row;
}

/**
 * The bytes of an upload: a multipart part (`@slack/web-api` sends the file as a part named
 * `body`), `{content}` as JSON (the MCP tool), or the raw body. The platform hands this path's
 * body over base64-encoded (`binaryBody`), so binary files arrive byte for byte.
 */
function uploadedBytes(req: TwinRequest): Uint8Array {
  const type = (req.headers["content-type"] ?? "").toLowerCase();
  const bytes = req.bodyEncoding === "base64" ? fromBase64(req.body) : new TextEncoder().encode(req.body);
  if (type.startsWith("multipart/form-data")) {
    const fields = multipartFields(binaryString(bytes), type);
    return fromBinaryString(fields.file ?? fields.body ?? Object.values(fields)[0] ?? "");
  }
  if (type.startsWith("application/json")) {
    try {
      const parsed: unknown = JSON.parse(new TextDecoder().decode(bytes));
      const content = typeof parsed === "object" && parsed !== null ? Reflect.get(parsed, "content") : undefined;
      if (typeof content === "string") return new TextEncoder().encode(content);
    } catch {
      // Not JSON after all: the body is the content.
    }
  }
  return bytes;
}

/** The upload step: the bytes of a pending file, kept as text when they are UTF-8, else as base64. */
function receiveUpload(ctx: TwinContext, fileId: string): TwinResponse {
  const row = fileRow(ctx.db, fileId);
  // Not a 404: the client would retry it for half an hour. Completing the upload then refuses.
  if (!row || row.complete) return slackError("file_not_found");
  const bytes = uploadedBytes(ctx.req);
  const text = utf8OrUndefined(bytes);
  const data: FileData = { ...fileData(row), encoding: text === undefined ? "base64" : "utf8" };
  ctx.db.run(
    "UPDATE sl_files SET content = ?, size = ?, data = ? WHERE id = ?",
    text ?? toBase64(bytes),
    bytes.length,
    JSON.stringify(data),
    row.id,
  );
  return { status: 200, headers: { "content-type": "text/plain; charset=utf-8" }, body: `OK - ${bytes.length}` };
}

/**
 * Slack serves url_private(_download) only to a request carrying `Authorization: Bearer <token>`
 * with files:read ("Important Changes to Files in the Web API", Slack Platform Blog, 2015-11-18,
 * and the file object's docs); a token in the query string opens nothing there (Slack answers
 * its sign-in page, not the file). The twin refuses it in plain text rather than serving a
 * sign-in page of its own.
 */
const headerAuthorized = (req: TwinRequest) => /^bearer\s+\S/i.test(req.headers.authorization ?? "");

const plain = (status: number, body: string): TwinResponse => ({
  status,
  headers: { "content-type": "text/plain; charset=utf-8", "x-content-type-options": "nosniff" },
  body,
});

/**
 * A file's content at its url_private, to a caller with `files:read`: always as an attachment
 * that cannot run on the platform's origin (see kit/download-headers.ts), whatever its type.
 */
function download(ctx: TwinContext, ref: string): TwinResponse {
  if (!headerAuthorized(ctx.req)) return plain(403, "url_private needs the token in an Authorization: Bearer header");
  const id = ref.split("-").at(-1) ?? "";
  const row = fileRow(ctx.db, id);
  if (!row?.complete) return plain(404, "file not found");
  const data = fileData(row);
  const headers = { "content-type": data.mimetype, ...fileServingHeaders(data.name) };
  // Text is served as is; anything else as its exact bytes.
  if (data.encoding === "utf8") return { status: 200, headers, body: row.content ?? "" };
  return { status: 200, headers, body: row.content ?? "", bodyEncoding: "base64" };
}

/** Takes a file's id off the messages that list it, so no message points at a deleted file. */
function unshare(call: Call, file: string): void {
  const shares = call.db.all<{ channel: string; ts: string }>("SELECT channel, ts FROM sl_file_shares WHERE file = ?", file);
  for (const s of shares) {
    const msg = call.db.one<MessageRow>("SELECT * FROM sl_messages WHERE channel = ? AND ts = ?", s.channel, s.ts);
    if (!msg) continue;
    const data = messageData(msg);
    const files = (data.files ?? []).filter((f) => f !== file);
    const { files: _old, ...rest } = data;
    call.db.run(
      "UPDATE sl_messages SET data = ? WHERE channel = ? AND ts = ?",
      JSON.stringify(files.length ? { ...rest, files } : rest),
      s.channel,
      s.ts,
    );
  }
  call.db.run("DELETE FROM sl_file_shares WHERE file = ?", file);
}

/** Slack's refusal of a `files` argument that is not a non-empty list of `{id, title}`. */
const NOT_FILES: Refusal = { error: "invalid_arguments", ...explained("files must be a JSON array of {id, title}") };

/** What files.completeUploadExternal finishes; an empty list is refused as any other wrong one. */
const uploadedFiles = z
  .array(z.object({ id: z.string().describe("A file id from files.getUploadURLExternal"), title: z.string().optional() }))
  .min(1, { error: () => said(NOT_FILES) });

const fileId = () => text({ missing: "file_not_found" }).describe("A file id (F…)");

/** A file's url_private: `/files-pri/<team>-<file id>/<name>`. */
const fileUrl = {
  ref: z.string().describe("The team id and the file id, joined by -"),
  name: z.string().describe("The file's name (any: the id names the file)"),
};

export const fileRoutes: Route[] = [
  ...method({
    name: "files.getUploadURLExternal",
    summary: "Reserves a file id and the URL its bytes go to",
    scopes: ["files:write"],
    args: {
      filename: text({ missing: { error: "invalid_arguments", ...explained("missing required field: filename") } }).describe(
        "The file's name",
      ),
      length: int({ missing: { error: "invalid_arguments", ...explained("missing required field: length") } }).describe(
        "Size of the content in bytes",
      ),
      snippet_type: text().optional().describe("The file's type (default: from the file name's extension)"),
    },
    tool: {
      description:
        "Step 1 of an upload: reserves a file id and its upload URL. Then send the content with files_upload_content and finish with files_completeUploadExternal.",
    },
    handler: (call, args) => {
      const { filename, length } = args;
      if (length < 0) fail("invalid_arguments");
      const id = newFileId(call);
      const filetype = args.snippet_type ?? filetypeOf(filename);
      const data: FileData = {
        id,
        name: filename,
        title: filename,
        filetype,
        user: call.actor.user,
        mimetype: mimetypeOf(filetype),
        encoding: "utf8",
      };
      call.db.run(
        "INSERT INTO sl_files (id, complete, user, created, size, content, data) VALUES (?, 0, ?, ?, ?, NULL, ?)",
        id,
        call.actor.user,
        nowSeconds(call.clock),
        length,
        JSON.stringify(data),
      );
      return { upload_url: `${call.baseUrl}/upload/v1/${id}`, file_id: id };
    },
  }),
  // The body is the file's bytes however they come (a multipart part, raw, or `{content}` as
  // JSON): read by uploadedBytes, not declared. Its tool is files_upload_content (tools.ts).
  slackRoute({
    method: "POST",
    pattern: "/upload/v1/:file_id",
    operation: "files.uploadExternal",
    summary: "Receives the bytes of a file reserved with files.getUploadURLExternal",
    params: { file_id: z.string().describe("The file id files.getUploadURLExternal answered") },
    handler: (ctx, input) => receiveUpload(ctx, input.params.file_id),
  }),
  ...method({
    name: "files.completeUploadExternal",
    summary: "Finishes uploads, sharing them to a channel with an optional comment",
    scopes: ["files:write"],
    args: {
      files: json(uploadedFiles, { missing: NOT_FILES, wrong: NOT_FILES }).describe("The uploaded files: [{id, title}]"),
      channel_id: text().optional().describe("Where to share them: a conversation id, a channel name, or a user id for the DM with them"),
      channels: list().optional().describe("Older form of channel_id: a comma list, of which the first is used"),
      initial_comment: text().optional().describe("A message posted with the files"),
      thread_ts: text().optional().describe(`Share them in this thread (${TS_TEXT})`),
    },
    tool: { description: "Step 3 of an upload: finishes it, sharing the files to a channel with an optional comment." },
    handler: (call, args) => {
      const rows = args.files.map((item) => {
        const row = fileRow(call.db, item.id) ?? fail("file_not_found");
        if (row.complete || row.user !== call.actor.user) fail("file_not_found");
        if (row.content === null) fail("file_upload_not_found");
        return { row, item };
      });
      const shareTo = args.channel_id ?? args.channels?.[0];
      const target = shareTo === undefined ? undefined : postTarget(call, shareTo);
      const threadTs = args.thread_ts;
      if (
        target &&
        threadTs !== undefined &&
        !call.db.one("SELECT 1 AS n FROM sl_messages WHERE channel = ? AND ts = ?", target.id, threadTs)
      )
        fail("thread_not_found");
      for (const { row, item } of rows) {
        const data = fileData(row);
        const next: FileData = { ...data, title: item.title ?? data.title };
        call.db.run(
          "UPDATE sl_files SET complete = 1, created = ?, data = ? WHERE id = ?",
          nowSeconds(call.clock),
          JSON.stringify(next),
          row.id,
        );
      }
      if (target) postAs(call, target.id, args.initial_comment ?? "", { files: rows.map((r) => r.row.id) }, threadTs);
      return { files: rows.map(({ row }) => fileViewOf(call, fileRow(call.db, row.id) ?? row)) };
    },
  }),
  ...method({
    name: "files.info",
    summary: "One file",
    scopes: ["files:read"],
    args: { file: fileId() },
    tool: { description: "One file's metadata.", readOnly: true },
    handler: (call, args) => ({
      file: fileViewOf(call, completeFile(call, args.file)),
      comments: [],
      response_metadata: { next_cursor: "" },
    }),
  }),
  ...method({
    name: "files.list",
    summary: "Files, newest first, by page",
    scopes: ["files:read"],
    args: {
      channel: text().optional().describe("Only files shared in this conversation (C…, G…, D…)"),
      user: text().optional().describe(`Only this user's files (${USER_TEXT})`),
      count: int().optional().describe("Files per page (1-1000, default 100)"),
      page: int().optional().describe("The page, from 1"),
    },
    tool: { description: "Files, newest first.", readOnly: true },
    handler: (call, args) => {
      const channel = args.channel ?? null;
      const user = args.user ?? null;
      const count = Math.min(Math.max(args.count ?? 100, 1), 1000);
      // Bounded so the OFFSET stays an integer SQLite takes (a hostile page of 1e300 is just past the end).
      const page = Math.min(Math.max(args.page ?? 1, 1), 1_000_000);
      const where = `complete = 1 AND (? IS NULL OR user = ?) AND (? IS NULL OR EXISTS (SELECT 1 FROM sl_file_shares s WHERE s.file = sl_files.id AND s.channel = ?))`;
      const total = call.db.one<{ n: number }>(`SELECT count(*) AS n FROM sl_files WHERE ${where}`, user, user, channel, channel)?.n ?? 0;
      const rows = call.db.all<FileRow>(
        `SELECT * FROM sl_files WHERE ${where} ORDER BY created DESC, id DESC LIMIT ? OFFSET ?`,
        user,
        user,
        channel,
        channel,
        count,
        (page - 1) * count,
      );
      return { files: rows.map((r) => fileViewOf(call, r)), paging: { count, total, page, pages: Math.max(1, Math.ceil(total / count)) } };
    },
  }),
  ...method({
    name: "files.delete",
    summary: "Deletes one of the caller's files",
    scopes: ["files:write"],
    args: { file: fileId() },
    tool: { description: "Deletes one of the bot's files.", destructive: true },
    handler: (call, args) => {
      const row = completeFile(call, args.file);
      if (row.user !== call.actor.user) fail("cant_delete_file");
      unshare(call, row.id);
      call.db.run("DELETE FROM sl_files WHERE id = ?", row.id);
      call.db.run("INSERT OR REPLACE INTO sl_deleted_files (id, deleted) VALUES (?, ?)", row.id, nowSeconds(call.clock));
      return {};
    },
  }),
  // Its tool is files_download (tools.ts): one `file` argument, not these two path segments.
  slackRoute({
    method: "GET",
    pattern: "/files-pri/:ref/:name",
    operation: "files.download",
    summary: "A file's content at its url_private",
    params: fileUrl,
    handler: (ctx, input) => download(ctx, input.params.ref),
  }),
  slackRoute({
    method: "GET",
    pattern: "/files-pri/:ref/download/:name",
    operation: "files.download",
    summary: "A file's content at its url_private_download",
    params: fileUrl,
    handler: (ctx, input) => download(ctx, input.params.ref),
  }),
];
