// canvases.create, canvases.edit, canvases.sections.lookup, canvases.delete and
// conversations.canvases.create (a channel's one canvas, kept as the channel's `canvas`): a canvas is a file
// of filetype "quip" whose content is its canvas markdown (store/canvases.ts), so files.info,
// files.list, search.files and the file's url_private show it too, and the world's export keeps
// it in `files`. Arguments, answers and error codes as docs.slack.dev's method pages give them
// (machine-readable copy: slack-ruby/slack-api-ref docs.slack.dev/methods/canvases.*.json, and
// @slack/web-api 8.2.0's request types, types/request/canvas.d.ts).
import { z } from "zod";
import type { Route } from "../../types";
import { type Call, method } from "../context";
import { json, text } from "../declare";
import { fail } from "../errors";
import { type CanvasSection, headingOf, markdownOf, sectionsOf } from "../store/canvases";
import { fileRow, isDeletedFile } from "../store/files";
import { type ChannelData, type FileData, type FileRow, fileData, newId, nowSeconds } from "../store/rows";

/** Canvas markdown as Slack takes it: `{type: "markdown", markdown}`. */
const documentContent = z.object({ type: z.literal("markdown"), markdown: z.string() });
type DocumentContent = z.output<typeof documentContent>;

/** A canvas is at most this long here (Slack states no limit; the twin bounds what it keeps). */
const MAX_MARKDOWN = 200_000;
const MAX_TITLE = 255;

const change = z.object({
  operation: z.enum(["insert_after", "insert_before", "insert_at_start", "insert_at_end", "replace", "delete", "rename"]),
  section_id: z.string().optional(),
  document_content: documentContent.optional(),
  title_content: documentContent.optional(),
});
type Change = z.output<typeof change>;

const canvasId = () => text({ missing: "canvas_not_found" }).describe("A canvas id (F…)");

const newCanvasId = (call: Call) => newId(call.db, "F", (id) => fileRow(call.db, id) !== undefined || isDeletedFile(call.db, id));

/** The channel whose channel canvas this is, if it is one. */
const channelOfCanvas = (call: Call, id: string) =>
  call.db.one<{ id: string; data: string }>("SELECT id, data FROM sl_channels WHERE json_extract(data, '$.canvas') = ?", id);

const isMember = (call: Call, channel: string) =>
  call.db.one("SELECT 1 AS n FROM sl_members WHERE channel = ? AND user = ?", channel, call.actor.user) !== undefined;

/**
 * A canvas the caller may edit: one that exists and is theirs (a standalone canvas is its
 * creator's), or the channel canvas of a channel they are in.
 */
function canvasRow(call: Call, id: string, deletedCode = "canvas_not_found"): FileRow {
  const row = fileRow(call.db, id);
  if (!row && isDeletedFile(call.db, id)) fail(deletedCode);
  if (!row?.complete || fileData(row).filetype !== "quip") return fail("canvas_not_found");
  if (row.user === call.actor.user) return row;
  const channel = channelOfCanvas(call, id);
  return channel && isMember(call, channel.id) ? row : fail("canvas_not_found");
}

/** A new canvas file, the caller's. */
function insertCanvas(call: Call, title: string, markdown: string): string {
  const id = newCanvasId(call);
  const data: FileData = {
    id,
    name: title,
    title,
    filetype: "quip",
    user: call.actor.user,
    mimetype: "application/vnd.slack-docs",
    encoding: "utf8",
  };
  call.db.run(
    "INSERT INTO sl_files (id, complete, user, created, size, content, data) VALUES (?, 1, ?, ?, ?, ?, ?)",
    id,
    call.actor.user,
    nowSeconds(call.clock),
    new TextEncoder().encode(markdown).length,
    markdown,
    JSON.stringify(data),
  );
  return id;
}

/** Slack's refusal of content it cannot apply: `canvas_editing_failed` with the problem as `detail`. */
const editFailed = (detail: string): never => fail("canvas_editing_failed", { detail });

function checkedMarkdown(content: DocumentContent | undefined, failing: (detail: string) => never): string {
  if (!content) return failing("'document_content' is required for this operation");
  if (content.markdown.length > MAX_MARKDOWN) return failing(`'content' error: longer than ${MAX_MARKDOWN} characters`);
  return content.markdown;
}

function save(call: Call, row: FileRow, data: FileData, markdown: string): void {
  call.db.run(
    "UPDATE sl_files SET content = ?, size = ?, data = ? WHERE id = ?",
    markdown,
    new TextEncoder().encode(markdown).length,
    JSON.stringify(data),
    row.id,
  );
}

/** One change applied to a canvas's sections, or `canvas_editing_failed`. */
function applied(sections: CanvasSection[], ch: Change): CanvasSection[] {
  const at = () => {
    if (ch.section_id === undefined) return editFailed(`'section_id' is required for ${ch.operation}`);
    const i = sections.findIndex((s) => s.id === ch.section_id);
    return i < 0 ? editFailed(`section ${ch.section_id} not found`) : i;
  };
  const content = () => ({ id: "", markdown: checkedMarkdown(ch.document_content, editFailed) });
  const out = [...sections];
  switch (ch.operation) {
    case "insert_at_start":
      return [content(), ...out];
    case "insert_at_end":
      return [...out, content()];
    case "insert_before":
      out.splice(at(), 0, content());
      return out;
    case "insert_after":
      out.splice(at() + 1, 0, content());
      return out;
    case "replace":
      if (ch.section_id === undefined) return [content()];
      out.splice(at(), 1, content());
      return out;
    case "delete":
      out.splice(at(), 1);
      return out;
    default:
      return out;
  }
}

export const canvasRoutes: Route[] = [
  ...method({
    name: "canvases.create",
    summary: "Creates a standalone canvas owned by the caller",
    scopes: ["canvases:write"],
    args: {
      title: text().optional().describe("The canvas's title"),
      document_content: json(documentContent).optional().describe('Its content: {"type":"markdown","markdown":"…"}'),
      channel_id: text().optional().describe("A channel the canvas is tabbed in (accepted; the twin keeps no tabs)"),
    },
    tool: { description: "Creates a canvas from canvas markdown; answers its id (F…)." },
    handler: (call, args) => {
      const markdown = args.document_content
        ? checkedMarkdown(args.document_content, (detail) => fail("canvas_creation_failed", { detail }))
        : "";
      const title = (args.title ?? "").slice(0, MAX_TITLE) || "Untitled";
      if (args.channel_id !== undefined && !call.db.one("SELECT 1 AS n FROM sl_channels WHERE id = ?", args.channel_id))
        fail("channel_not_found");
      return { canvas_id: insertCanvas(call, title, markdown) };
    },
  }),
  ...method({
    name: "conversations.canvases.create",
    summary: "Creates a channel's canvas; a channel has at most one",
    scopes: ["canvases:write"],
    args: {
      channel_id: text({ missing: "channel_not_found" }).describe("The channel the canvas belongs to (C…, G…)"),
      document_content: json(documentContent).optional().describe('Its content: {"type":"markdown","markdown":"…"}'),
      title: text().optional().describe("The canvas's title"),
    },
    tool: { description: "Creates the channel canvas of a channel the caller is in; answers its id (F…)." },
    handler: (call, args) => {
      const channel = call.db.one<{ id: string; data: string; is_im: number }>(
        "SELECT id, data, is_im FROM sl_channels WHERE id = ?",
        args.channel_id,
      );
      if (!channel || channel.is_im === 1 || !isMember(call, channel.id)) return fail("channel_not_found");
      const data = JSON.parse(channel.data) as ChannelData;
      if (data.canvas !== undefined) fail("channel_canvas_already_exists");
      const markdown = args.document_content
        ? checkedMarkdown(args.document_content, (detail) => fail("canvas_creation_failed", { detail }))
        : "";
      const id = insertCanvas(call, (args.title ?? "").slice(0, MAX_TITLE) || "Untitled", markdown);
      call.db.run("UPDATE sl_channels SET data = ? WHERE id = ?", JSON.stringify({ ...data, canvas: id }), channel.id);
      return { canvas_id: id };
    },
  }),
  ...method({
    name: "canvases.edit",
    summary: "Applies one change to one of the caller's canvases",
    scopes: ["canvases:write"],
    args: {
      canvas_id: canvasId(),
      changes: json(z.array(change)).describe("Exactly one change: {operation, section_id?, document_content?, title_content?}"),
    },
    tool: { description: "Edits a canvas: insert, replace or delete a section, or rename it.", destructive: true },
    handler: (call, args) => {
      const row = canvasRow(call, args.canvas_id);
      // docs.slack.dev's canvases.edit: `changes` has minItems 1 and maxItems 1.
      if (args.changes.length !== 1) fail("invalid_arguments");
      const [ch] = args.changes as [Change];
      const data = fileData(row);
      if (ch.operation === "rename") {
        const title = checkedMarkdown(ch.title_content, editFailed)
          .replace(/^#+\s*/, "")
          .trim();
        if (title === "" || title.includes("\n") || new TextEncoder().encode(title).length > MAX_TITLE)
          editFailed("'title_content' must be one line of at most 255 bytes");
        save(call, row, { ...data, title, name: title }, row.content ?? "");
        return {};
      }
      const next = markdownOf(applied(sectionsOf(row.id, row.content ?? ""), ch));
      if (next.length > MAX_MARKDOWN) editFailed(`'content' error: longer than ${MAX_MARKDOWN} characters`);
      save(call, row, data, next);
      return {};
    },
  }),
  ...method({
    name: "canvases.sections.lookup",
    summary: "The ids of a canvas's sections that match the criteria",
    scopes: ["canvases:read"],
    args: {
      canvas_id: canvasId(),
      criteria: json(
        z.object({
          section_types: z
            .array(z.enum(["h1", "h2", "h3", "any_header"]))
            .min(1)
            .max(3)
            .optional(),
          contains_text: z.string().optional(),
        }),
      ).describe('{"section_types":["any_header"],"contains_text":"…"}: at least one'),
    },
    tool: { description: "Finds the sections of a canvas by heading level and text.", readOnly: true },
    handler: (call, args) => {
      const row = canvasRow(call, args.canvas_id, "canvas_deleted");
      const { section_types: types, contains_text: contains } = args.criteria;
      if (!types && contains === undefined) fail("invalid_arguments");
      const needle = contains?.toLowerCase();
      const sections = sectionsOf(row.id, row.content ?? "").filter((s) => {
        const level = headingOf(s.markdown);
        if (types && !(level && (types.includes(level) || types.includes("any_header")))) return false;
        return needle === undefined || s.markdown.toLowerCase().includes(needle);
      });
      return { sections: sections.map((s) => ({ id: s.id })) };
    },
  }),
  ...method({
    name: "canvases.delete",
    summary: "Deletes one of the caller's canvases",
    scopes: ["canvases:write"],
    args: { canvas_id: canvasId() },
    tool: { description: "Deletes a canvas.", destructive: true },
    handler: (call, args) => {
      // canvases.delete's page lists no canvas_deleted: a deleted canvas is canvas_not_found.
      const row = canvasRow(call, args.canvas_id);
      const channel = channelOfCanvas(call, row.id);
      if (channel) {
        const { canvas: _gone, ...rest } = JSON.parse(channel.data) as ChannelData;
        call.db.run("UPDATE sl_channels SET data = ? WHERE id = ?", JSON.stringify(rest), channel.id);
      }
      call.db.run("DELETE FROM sl_file_shares WHERE file = ?", row.id);
      call.db.run("DELETE FROM sl_files WHERE id = ?", row.id);
      call.db.run("INSERT OR REPLACE INTO sl_deleted_files (id, deleted) VALUES (?, ?)", row.id, nowSeconds(call.clock));
      return {};
    },
  }),
];
