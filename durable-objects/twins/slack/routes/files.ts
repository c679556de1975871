// Files: the three steps of files.uploadV2 (an upload URL, the bytes POSTed to it, completion
// that shares the file), files.info/list/delete, and the file's content at its url_private.
import { binaryString, fromBase64, fromBinaryString, toBase64, utf8OrUndefined } from "../../kit/bytes";
import { fileServingHeaders } from "../../kit/download-headers";
import type { Route, TwinContext, TwinRequest, TwinResponse } from "../../types";
import { multipartFields } from "../args";
import { type Call, method } from "../context";
import { fail, slackError } from "../errors";
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
function receiveUpload(ctx: TwinContext): TwinResponse {
  const row = fileRow(ctx.db, ctx.params.file_id);
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
function download(ctx: TwinContext): TwinResponse {
  if (!headerAuthorized(ctx.req)) return plain(403, "url_private needs the token in an Authorization: Bearer header");
  const id = ctx.params.ref.split("-").at(-1) ?? "";
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

interface CompleteItem {
  id: string;
  title?: string;
}

function completeItems(call: Call): CompleteItem[] {
  const raw = call.args.json("files");
  if (!Array.isArray(raw) || !raw.length) return fail("invalid_arguments", { detail: "files must be a JSON array of {id, title}" });
  return raw.map((item): CompleteItem => {
    const id = typeof item === "object" && item !== null ? Reflect.get(item, "id") : undefined;
    const title = typeof item === "object" && item !== null ? Reflect.get(item, "title") : undefined;
    if (typeof id !== "string") return fail("invalid_arguments", { detail: "each file needs an id" });
    return typeof title === "string" ? { id, title } : { id };
  });
}

export const fileRoutes: Route[] = [
  ...method({
    name: "files.getUploadURLExternal",
    summary: "Reserves a file id and the URL its bytes go to",
    scopes: ["files:write"],
    handler: (call) => {
      const filename = call.args.str("filename") ?? fail("invalid_arguments", { detail: "filename is required" });
      const length = call.args.int("length") ?? fail("invalid_arguments", { detail: "length is required" });
      if (length < 0) fail("invalid_arguments");
      const id = newFileId(call);
      const filetype = call.args.str("snippet_type") ?? filetypeOf(filename);
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
  {
    method: "POST",
    pattern: "/upload/v1/:file_id",
    operation: "files.uploadExternal",
    summary: "Receives the bytes of a file reserved with files.getUploadURLExternal",
    handler: receiveUpload,
  },
  ...method({
    name: "files.completeUploadExternal",
    summary: "Finishes uploads, sharing them to a channel with an optional comment",
    scopes: ["files:write"],
    handler: (call) => {
      const items = completeItems(call);
      const rows = items.map((item) => {
        const row = fileRow(call.db, item.id) ?? fail("file_not_found");
        if (row.complete || row.user !== call.actor.user) fail("file_not_found");
        if (row.content === null) fail("file_upload_not_found", { detail: `nothing was uploaded for ${item.id}` });
        return { row, item };
      });
      const channelId = call.args.str("channel_id") ?? call.args.list("channels")?.[0];
      const target = channelId === undefined ? undefined : postTarget(call, channelId);
      const threadTs = call.args.str("thread_ts");
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
      if (target) postAs(call, target.id, call.args.str("initial_comment") ?? "", { files: rows.map((r) => r.row.id) }, threadTs);
      return { files: rows.map(({ row }) => fileViewOf(call, fileRow(call.db, row.id) ?? row)) };
    },
  }),
  ...method({
    name: "files.info",
    summary: "One file",
    scopes: ["files:read"],
    handler: (call) => ({
      file: fileViewOf(call, completeFile(call, call.args.str("file"))),
      comments: [],
      response_metadata: { next_cursor: "" },
    }),
  }),
  ...method({
    name: "files.list",
    summary: "Files, newest first, by page",
    scopes: ["files:read"],
    handler: (call) => {
      const channel = call.args.str("channel") ?? null;
      const user = call.args.str("user") ?? null;
      const count = Math.min(Math.max(call.args.int("count") ?? 100, 1), 1000);
      // Bounded so the OFFSET stays an integer SQLite takes (a hostile page of 1e300 is just past the end).
      const page = Math.min(Math.max(call.args.int("page") ?? 1, 1), 1_000_000);
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
    handler: (call) => {
      const row = completeFile(call, call.args.str("file"));
      if (row.user !== call.actor.user) fail("cant_delete_file");
      unshare(call, row.id);
      call.db.run("DELETE FROM sl_files WHERE id = ?", row.id);
      call.db.run("INSERT OR REPLACE INTO sl_deleted_files (id, deleted) VALUES (?, ?)", row.id, nowSeconds(call.clock));
      return {};
    },
  }),
  {
    method: "GET",
    pattern: "/files-pri/:ref/:name",
    operation: "files.download",
    summary: "A file's content at its url_private",
    handler: download,
  },
  {
    method: "GET",
    pattern: "/files-pri/:ref/download/:name",
    operation: "files.download",
    summary: "A file's content at its url_private_download",
    handler: download,
  },
];
