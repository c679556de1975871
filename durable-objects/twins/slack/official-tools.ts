// The tool set of Slack's own hosted MCP server (`https://mcp.slack.com/mcp`): its 19 tools with
// the names, titles, descriptions, input schemas and annotations its `tools/list` answers, as
// captured on 2026-08-10 (test/fixtures/vendor-mcp/slack-hosted-server.json, with its provenance).
// Slack's server acts as the user who installed it (it takes only user tokens), so an agent built
// for it connects to `…/mcp/official` with the sandbox's user token (`xoxp-…`) and every call
// below is that user's; with the agent token the calls are the bot's, and the user-only methods
// (search.*) refuse it with `not_allowed_token_type`, as Slack refuses a bot.
//
// Each tool is carried out as the Web API calls it stands for (chat.postMessage,
// conversations.history, search.messages…), each taped like any MCP call. Slack publishes no
// output schema and its docs (docs.slack.dev/ai/slack-mcp-server) describe the tools' answers
// only in prose, so the answers are the twin's: a JSON text naming what the descriptions promise
// (a message link, `section_id_mapping`, `pagination_info`, `channel_link`…); see NOTES.md,
// "Slack's own MCP tool set". A Web API refusal is a tool error (`isError`) whose text is
// Slack's refusal (`{"ok":false,"error":"channel_not_found"}`), the error codes the descriptions
// name. Canvases are the twin's canvases.* methods (routes/canvases.ts). Message drafts are not
// modelled (Slack has no public Web API for them): slack_send_message_draft answers a tool error
// naming that area.
//
// The MCP project's archived reference server (`@modelcontextprotocol/server-slack`, 8 tools) is
// no longer served: its `slack_add_reaction` takes `timestamp`/`reaction` where Slack's takes
// `message_ts`/`emoji`, and one endpoint cannot list both under one name.
import published from "../../../test/fixtures/vendor-mcp/slack-hosted-server.json";
import { officialToolSet } from "../kit/official-tools";
import type {
  OfficialToolSet,
  OfficialToolArgs as Args,
  OfficialToolCaller as Call,
  OfficialToolResult as Result,
  OfficialToolRun as Run,
} from "../types";
import { sectionsOf, titleSectionId } from "./store/canvases";

type Answer = Record<string, unknown> & { ok?: boolean; error?: string };

const str = (v: unknown) => (typeof v === "string" ? v : "");
const num = (v: unknown, fallback: number) => (typeof v === "number" && Number.isFinite(v) ? Math.trunc(v) : fallback);
const clamp = (v: number, lo: number, hi: number) => Math.min(Math.max(v, lo), hi);

const done = (value: unknown): Result => ({ text: JSON.stringify(value), isError: false });
const refused = (value: unknown): Result => ({ text: JSON.stringify(value), isError: true });

/** Thrown by a step whose Web API call was refused: the tool answers that refusal. */
class Refusal extends Error {
  constructor(readonly answer: Answer) {
    super(String(answer.error));
  }
}

/** One Web API method, by POST with a JSON body, as the twin's dispatch takes it; a refusal throws. */
async function api(call: Call, method: string, body: Record<string, unknown>): Promise<Answer> {
  const res = await call({ method: "POST", path: `/api/${method}`, body });
  let answer: Answer;
  try {
    answer = JSON.parse(res.body) as Answer;
  } catch {
    throw new Refusal({ ok: false, error: "internal_error" });
  }
  if (answer.ok !== true) throw new Refusal(answer.ok === false ? answer : { ok: false, error: "internal_error" });
  return answer;
}

/** A tool body whose Web API refusals become the tool's error. */
const tool =
  (run: Run): Run =>
  async (a, call) => {
    try {
      return await run(a, call);
    } catch (err) {
      if (err instanceof Refusal) return refused(err.answer);
      throw err;
    }
  };

/** A tool error for an area of Slack the twin does not model, naming it. */
const unmodelled =
  (area: string): Run =>
  async () =>
    refused({ ok: false, error: "not_supported_by_twin", detail: `${area} are not modelled by this twin (FIDELITY.md)` });

const isUserId = (id: string) => /^[UW][A-Z0-9]+$/.test(id);

/** A channel id, or a user id standing for the DM with that user (conversations.open). */
async function conversationOf(call: Call, id: string): Promise<string> {
  if (!isUserId(id)) return id;
  const opened = await api(call, "conversations.open", { users: id });
  return str((opened.channel as { id?: unknown } | undefined)?.id);
}

/** Who the token is, and the workspace: auth.test. */
async function whoAmI(call: Call): Promise<{ user: string; team: string; url: string }> {
  const me = await api(call, "auth.test", {});
  return { user: str(me.user_id), team: str(me.team_id), url: str(me.url) };
}

// ---- cursors of lists the twin pages itself (searches that filter what a Web API call answers)

/** An opaque cursor for an offset into a list the tool pages itself. */
const cursorAt = (tool: string, offset: number) => btoa(JSON.stringify({ t: tool, o: offset }));

function offsetOf(tool: string, cursor: unknown): number {
  const raw = str(cursor);
  if (raw === "") return 0;
  try {
    const parsed = JSON.parse(atob(raw)) as { t?: unknown; o?: unknown };
    if (parsed.t === tool && typeof parsed.o === "number" && Number.isInteger(parsed.o) && parsed.o >= 0) return parsed.o;
  } catch {
    // falls through to the refusal
  }
  throw new Refusal({ ok: false, error: "invalid_cursor" });
}

/** A page of `items` from the cursor's offset, with the next cursor ("" on the last page). */
function pageOf<T>(tool: string, items: readonly T[], a: Args, max: number, fallback: number) {
  const start = offsetOf(tool, a.cursor);
  const limit = clamp(num(a.limit, fallback), 1, max);
  const next = start + limit < items.length ? cursorAt(tool, start + limit) : "";
  return { items: items.slice(start, start + limit), next_cursor: next };
}

/** Every page of a cursor-paged Web API list (bounded: at most 50 pages). */
async function everyPage(call: Call, method: string, body: Record<string, unknown>, key: string): Promise<Answer[]> {
  const all: Answer[] = [];
  let cursor = "";
  for (let page = 0; page < 50; page++) {
    const answer = await api(call, method, { ...body, limit: 200, ...(cursor ? { cursor } : {}) });
    all.push(...((answer[key] as Answer[] | undefined) ?? []));
    cursor = str((answer.response_metadata as { next_cursor?: unknown } | undefined)?.next_cursor);
    if (!cursor) break;
  }
  return all;
}

/** The query's terms: space-separated words, a leading `-` excluding one. */
function termsOf(query: string) {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  return {
    include: words.filter((w) => !w.startsWith("-")),
    exclude: words.filter((w) => w.startsWith("-") && w.length > 1).map((w) => w.slice(1)),
  };
}

const matches = (haystack: string, terms: ReturnType<typeof termsOf>) =>
  terms.include.every((w) => haystack.includes(w)) && !terms.exclude.some((w) => haystack.includes(w));

// ---- messages

/** A message as the read tools answer it; `concise` keeps who, when and what. */
function messageOut(m: Answer, concise: boolean) {
  if (concise) return { ts: m.ts, user: m.user ?? m.bot_id, text: m.text, ...(m.thread_ts ? { thread_ts: m.thread_ts } : {}) };
  return m;
}

const conciseOf = (a: Args) => str(a.response_format) === "concise";

async function send(a: Args, call: Call): Promise<Result> {
  const channel = await conversationOf(call, str(a.channel_id));
  const body: Record<string, unknown> = { channel, text: str(a.message) };
  if (a.thread_ts !== undefined) body.thread_ts = a.thread_ts;
  if (a.reply_broadcast !== undefined) body.reply_broadcast = a.reply_broadcast;
  if (a.unfurl_app_links !== undefined) body.unfurl_links = a.unfurl_app_links;
  const posted = await api(call, "chat.postMessage", body);
  const link = await api(call, "chat.getPermalink", { channel: posted.channel, message_ts: posted.ts });
  return done({ ok: true, channel_id: posted.channel, message_ts: posted.ts, message_link: link.permalink, message: posted.message });
}

async function schedule(a: Args, call: Call): Promise<Result> {
  const channel = await conversationOf(call, str(a.channel_id));
  const body: Record<string, unknown> = { channel, text: str(a.message), post_at: a.post_at };
  if (a.thread_ts !== undefined) body.thread_ts = a.thread_ts;
  if (a.reply_broadcast !== undefined) body.reply_broadcast = a.reply_broadcast;
  const scheduled = await api(call, "chat.scheduleMessage", body);
  return done({
    ok: true,
    channel_id: scheduled.channel,
    scheduled_message_id: scheduled.scheduled_message_id,
    post_at: scheduled.post_at,
  });
}

async function addReaction(a: Args, call: Call): Promise<Result> {
  const body = { channel: a.channel_id, timestamp: a.message_ts, name: str(a.emoji).replace(/^:|:$/g, "") };
  try {
    await api(call, "reactions.add", body);
  } catch (err) {
    // "Adding a duplicate reaction succeeds silently" (the tool's description).
    if (!(err instanceof Refusal && err.answer.error === "already_reacted")) throw err;
  }
  return done({ ok: true, channel_id: a.channel_id, message_ts: a.message_ts, emoji: body.name });
}

/** A channel name as the tool's description says it is "auto-sanitized": lowercase, hyphens, 80 characters. */
const sanitized = (name: string) =>
  name
    .toLowerCase()
    .trim()
    .replace(/\s+/g, "-")
    .replace(/[^a-z0-9_-]/g, "")
    .slice(0, 80);

async function createConversation(a: Args, call: Call): Promise<Result> {
  const users = Array.isArray(a.user_ids) ? a.user_ids.map(str).filter(Boolean) : [];
  if (a.channel_name !== undefined) {
    const created = await api(call, "conversations.create", { name: sanitized(str(a.channel_name)), is_private: a.is_private ?? false });
    const channel = created.channel as Answer;
    let invite: Answer | undefined;
    if (users.length) {
      if (users.length > 1000) throw new Refusal({ ok: false, error: "too_many_users" });
      try {
        await api(call, "conversations.invite", { channel: channel.id, users: users.join(",") });
      } catch (err) {
        if (!(err instanceof Refusal)) throw err;
        invite = err.answer;
      }
    }
    return done({
      ok: true,
      channel_id: channel.id,
      channel_name: channel.name,
      is_private: channel.is_private,
      ...(invite ? { invite_error: invite.error } : {}),
    });
  }
  if (!users.length) throw new Refusal({ ok: false, error: "invalid_arguments" });
  if (users.length > 8) throw new Refusal({ ok: false, error: "too_many_users" });
  const opened = await api(call, "conversations.open", { users: users.join(","), return_im: true });
  const channel = opened.channel as Answer;
  return done({ ok: true, channel_id: channel.id, is_im: channel.is_im ?? false, is_mpim: channel.is_mpim ?? false });
}

async function readChannel(a: Args, call: Call): Promise<Result> {
  const channel = await conversationOf(call, str(a.channel_id));
  const body: Record<string, unknown> = { channel, limit: clamp(num(a.limit, 100), 1, 100) };
  for (const k of ["cursor", "latest", "oldest"]) if (a[k] !== undefined && a[k] !== "") body[k] = a[k];
  const history = await api(call, "conversations.history", body);
  const messages = ((history.messages as Answer[] | undefined) ?? []).map((m) => messageOut(m, conciseOf(a)));
  return done({
    ok: true,
    channel_id: channel,
    messages,
    has_more: history.has_more ?? false,
    pagination_info: { next_cursor: str((history.response_metadata as Answer | undefined)?.next_cursor) },
  });
}

async function readThread(a: Args, call: Call): Promise<Result> {
  const body: Record<string, unknown> = { channel: a.channel_id, ts: a.message_ts, limit: clamp(num(a.limit, 100), 1, 1000) };
  for (const k of ["cursor", "latest", "oldest"]) if (a[k] !== undefined && a[k] !== "") body[k] = a[k];
  const replies = await api(call, "conversations.replies", body);
  const messages = ((replies.messages as Answer[] | undefined) ?? []).map((m) => messageOut(m, conciseOf(a)));
  return done({
    ok: true,
    channel_id: a.channel_id,
    thread_ts: a.message_ts,
    messages,
    has_more: replies.has_more ?? false,
    pagination_info: { next_cursor: str((replies.response_metadata as Answer | undefined)?.next_cursor) },
  });
}

async function getReactions(a: Args, call: Call): Promise<Result> {
  const got = await api(call, "reactions.get", { channel: a.channel_id, timestamp: a.message_ts, full: true });
  const message = (got.message as Answer | undefined) ?? {};
  const reactions = (message.reactions as { name: string; count: number; users: string[] }[] | undefined) ?? [];
  if (!reactions.length) return done({ ok: true, channel_id: a.channel_id, message_ts: a.message_ts, message: "no reactions" });
  const people = await directory(call);
  return done({
    ok: true,
    channel_id: a.channel_id,
    message_ts: a.message_ts,
    reactions: reactions.map((r) => ({
      emoji: r.name,
      count: r.count,
      users: r.users.slice(0, 50).map((id) => ({ user_id: id, display_name: displayName(people.get(id)) })),
    })),
  });
}

// ---- people

/** Every user of the workspace by id (users.list). */
async function directory(call: Call): Promise<Map<string, Answer>> {
  return new Map((await everyPage(call, "users.list", {}, "members")).map((u) => [str(u.id), u]));
}

function displayName(u: Answer | undefined): string {
  const profile = (u?.profile as Answer | undefined) ?? {};
  return str(profile.display_name) || str(profile.real_name) || str(u?.real_name) || str(u?.name);
}

/** A user as the people tools answer them: `concise` is the @name and display name. */
function userOut(u: Answer, concise: boolean) {
  const profile = (u.profile as Answer | undefined) ?? {};
  if (concise) return { user_id: u.id, username: `@${str(u.name)}`, display_name: displayName(u) };
  return {
    user_id: u.id,
    username: u.name,
    real_name: profile.real_name ?? u.real_name ?? "",
    display_name: profile.display_name ?? "",
    title: profile.title ?? "",
    email: profile.email ?? "",
    status_text: profile.status_text ?? "",
    status_emoji: profile.status_emoji ?? "",
    tz: u.tz ?? "",
    is_admin: u.is_admin ?? false,
    is_owner: u.is_owner ?? false,
    is_bot: u.is_bot ?? false,
    deleted: u.deleted ?? false,
  };
}

async function searchUsers(a: Args, call: Call): Promise<Result> {
  const terms = termsOf(str(a.query));
  const users = [...(await directory(call)).values()].filter((u) => {
    if (u.deleted === true) return false;
    const p = (u.profile as Answer | undefined) ?? {};
    const hay = [u.name, u.real_name, p.real_name, p.display_name, p.email, p.title].map(str).join(" ").toLowerCase();
    return matches(hay, terms);
  });
  const page = pageOf("slack_search_users", users, a, 20, 20);
  return done({
    ok: true,
    users: page.items.map((u) => userOut(u, conciseOf(a))),
    pagination_info: { next_cursor: page.next_cursor },
  });
}

async function readUserProfile(a: Args, call: Call): Promise<Result> {
  const id = str(a.user_id) || (await whoAmI(call)).user;
  const info = await api(call, "users.info", { user: id, include_locale: a.include_locale ?? false });
  const user = info.user as Answer;
  const out = userOut(user, conciseOf(a));
  return done({ ok: true, user: a.include_locale === true ? { ...out, locale: user.locale ?? "" } : out });
}

async function listMembers(a: Args, call: Call): Promise<Result> {
  const format = str(a.response_format) || "detailed";
  const limit = clamp(num(a.limit, 30), 1, 30);
  const body: Record<string, unknown> = { channel: a.channel_id, limit };
  if (str(a.cursor)) body.cursor = a.cursor;
  const got = await api(call, "conversations.members", body);
  const ids = (got.members as string[] | undefined) ?? [];
  const pagination_info = { next_cursor: str((got.response_metadata as Answer | undefined)?.next_cursor) };
  if (format === "ids_only") return done({ ok: true, channel_id: a.channel_id, members: ids, pagination_info });
  const people = await directory(call);
  const members = ids
    .map((id) => people.get(id))
    .filter((u): u is Answer => u !== undefined)
    .filter((u) => (a.include_deleted === true || u.deleted !== true) && (a.include_bots === true || u.is_bot !== true))
    .map((u) => userOut(u, format === "concise"));
  return done({ ok: true, channel_id: a.channel_id, members, pagination_info });
}

// ---- search

/** The channel types a search may return, from the tool's `channel_types`. */
function channelTypesOf(raw: string, fallback: string): Set<string> {
  return new Set(
    (raw || fallback)
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean),
  );
}

function kindOfChannel(c: Answer): string {
  if (c.is_im === true) return "im";
  if (c.is_mpim === true) return "mpim";
  return c.is_private === true ? "private_channel" : "public_channel";
}

/** The query's `after:`/`before:` arguments as Unix seconds bounds on a ts. */
function inWindow(ts: unknown, a: Args): boolean {
  const t = Number(ts);
  if (str(a.after) && t < Number(a.after)) return false;
  if (str(a.before) && t > Number(a.before)) return false;
  return true;
}

/** search.messages / search.files through every page (100 a page, at most 10), filtered by kind. */
async function searchAll(call: Call, method: "search.messages" | "search.files", a: Args, kinds: Set<string>): Promise<Answer[]> {
  const key = method === "search.messages" ? "messages" : "files";
  const hits: Answer[] = [];
  for (let page = 1; page <= 10; page++) {
    const answer = await api(call, method, {
      query: str(a.query),
      count: 100,
      page,
      sort: str(a.sort) === "timestamp" ? "timestamp" : "score",
      sort_dir: str(a.sort_dir) === "asc" ? "asc" : "desc",
    });
    const set = (answer[key] as { matches?: Answer[]; paging?: { pages?: number } } | undefined) ?? {};
    hits.push(...(set.matches ?? []));
    if (page >= (set.paging?.pages ?? 1)) break;
  }
  if (method === "search.files") return hits;
  return hits.filter((m) => kinds.has(kindOfChannel((m.channel as Answer | undefined) ?? {})) && inWindow(m.ts, a));
}

/** A message hit without the bot's own messages unless asked for, cut to `max_context_length`. */
function hitOut(m: Answer, a: Args) {
  const max = num(a.max_context_length, 0);
  const text = str(m.text);
  const channel = (m.channel as Answer | undefined) ?? {};
  return {
    channel_id: channel.id,
    channel_name: channel.name,
    user: m.user,
    username: m.username,
    ts: m.ts,
    text: max > 0 && text.length > max ? text.slice(0, max) : text,
    permalink: m.permalink,
  };
}

const search =
  (name: string, fallbackTypes: string): Run =>
  async (a, call) => {
    const kinds = channelTypesOf(str(a.channel_types), fallbackTypes);
    const content = channelTypesOf(str(a.content_types), "messages,files");
    const me = a.only_my_channels === true ? await whoAmI(call) : undefined;
    let messages = content.has("messages") ? await searchAll(call, "search.messages", a, kinds) : [];
    if (a.include_bots !== true && messages.length) {
      const people = await directory(call);
      messages = messages.filter((m) => people.get(str(m.user))?.is_bot !== true);
    }
    if (me) {
      const mine = new Set((await everyPage(call, "users.conversations", { types: [...kinds].join(",") }, "channels")).map((c) => c.id));
      messages = messages.filter((m) => mine.has((m.channel as Answer | undefined)?.id));
    }
    const files = content.has("files") ? await searchAll(call, "search.files", a, kinds) : [];
    const results = [
      ...messages.map((m) => ({ type: "message", ...hitOut(m, a) })),
      ...files.map((f) => ({ type: "file", file_id: f.id, name: f.name, title: f.title, user: f.user, permalink: f.permalink })),
    ];
    const page = pageOf(name, results, a, 20, 20);
    return done({ ok: true, query: str(a.query), results: page.items, pagination_info: { next_cursor: page.next_cursor } });
  };

async function searchChannels(a: Args, call: Call): Promise<Result> {
  const kinds = channelTypesOf(str(a.channel_types), "public_channel");
  const types = [...kinds].filter((k) => k === "public_channel" || k === "private_channel").join(",") || "public_channel";
  const channels = await everyPage(call, "conversations.list", { types, exclude_archived: a.include_archived !== true }, "channels");
  const terms = termsOf(str(a.query));
  const found = channels.filter((c) => {
    const topic = str((c.topic as Answer | undefined)?.value);
    const purpose = str((c.purpose as Answer | undefined)?.value);
    return matches(`${str(c.name)} ${topic} ${purpose}`.toLowerCase(), terms);
  });
  const page = pageOf("slack_search_channels", found, a, 20, 20);
  const concise = conciseOf(a);
  return done({
    ok: true,
    channels: page.items.map((c) =>
      concise
        ? { channel_id: c.id, name: c.name }
        : {
            channel_id: c.id,
            name: c.name,
            topic: str((c.topic as Answer | undefined)?.value),
            purpose: str((c.purpose as Answer | undefined)?.value),
            is_private: c.is_private ?? false,
            is_archived: c.is_archived ?? false,
            num_members: c.num_members,
          },
    ),
    pagination_info: { next_cursor: page.next_cursor },
  });
}

async function searchEmojis(a: Args, call: Call): Promise<Result> {
  const terms = str(a.query)
    .toLowerCase()
    .split(",")
    .map((t) => t.trim().replace(/^:|:$/g, ""))
    .filter(Boolean);
  const listed = (await api(call, "emoji.list", {})).emoji as Record<string, string> | undefined;
  const emojis = Object.entries(listed ?? {})
    .filter(([name]) => terms.some((t) => name.toLowerCase().includes(t)))
    .slice(0, 200)
    .map(([name, value]) => (value.startsWith("alias:") ? { name, alias_for: value.slice("alias:".length) } : { name, url: value }));
  return done({ ok: true, emojis });
}

// ---- files

/** A random hex suffix for the `<file_content_…>` wrapper, new for each answer. */
function suffix(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

const TEN_MB = 10 * 1024 * 1024;

async function readFile(a: Args, call: Call): Promise<Result> {
  const info = await api(call, "files.info", { file: a.file_id });
  const file = info.file as Answer;
  const url = str(file.url_private);
  const at = url.indexOf("/files-pri/");
  if (at < 0) throw new Refusal({ ok: false, error: "file_not_found" });
  if (Number(file.size) > TEN_MB) throw new Refusal({ ok: false, error: "file_too_large" });
  const res = await call({ method: "GET", path: url.slice(at) });
  if (res.status !== 200) throw new Refusal({ ok: false, error: "file_not_found" });
  const meta = { file_id: file.id, name: file.name, title: file.title, mimeType: file.mimetype, size: file.size };
  if (res.bodyEncoding === "base64") return done({ ok: true, ...meta, encoding: "base64", data: res.body });
  const tag = `file_content_${suffix()}`;
  return done({ ok: true, ...meta, content: `<${tag}>\n${res.body}\n</${tag}>` });
}

// ---- canvases (routes/canvases.ts)

/** A canvas's link, as Slack's web client opens it: `https://<workspace>.slack.com/docs/<team>/<id>`. */
async function canvasUrl(call: Call, id: string): Promise<string> {
  const me = await whoAmI(call);
  return `${me.url.replace(/\/$/, "")}/docs/${me.team}/${id}`;
}

/** A canvas read whole: its title, its markdown and its sections, the title first. */
async function canvasOf(call: Call, id: string) {
  let file: Answer;
  try {
    file = (await api(call, "files.info", { file: id })).file as Answer;
  } catch (err) {
    if (err instanceof Refusal) throw new Refusal({ ok: false, error: "canvas_not_found" });
    throw err;
  }
  if (file.filetype !== "quip") throw new Refusal({ ok: false, error: "canvas_not_found" });
  const url = str(file.url_private);
  const res = await call({ method: "GET", path: url.slice(Math.max(url.indexOf("/files-pri/"), 0)) });
  if (res.status !== 200) throw new Refusal({ ok: false, error: "canvas_not_found" });
  const title = str(file.title);
  return { id, title, markdown: res.body, titleId: titleSectionId(id, title), sections: sectionsOf(id, res.body) };
}

async function createCanvas(a: Args, call: Call): Promise<Result> {
  if (str(a.content).trim() === "")
    throw new Refusal({ ok: false, error: "canvas_creation_failed", detail: "'content' must not be empty" });
  const created = await api(call, "canvases.create", {
    title: str(a.title),
    document_content: { type: "markdown", markdown: str(a.content) },
  });
  const id = str(created.canvas_id);
  return done({ ok: true, canvas_id: id, canvas_url: await canvasUrl(call, id) });
}

async function readCanvas(a: Args, call: Call): Promise<Result> {
  const canvas = await canvasOf(call, str(a.canvas_id));
  const section_id_mapping: Record<string, string> = { [canvas.titleId]: `# ${canvas.title}` };
  for (const s of canvas.sections) section_id_mapping[s.id] = s.markdown;
  return done({
    ok: true,
    canvas_id: canvas.id,
    title: canvas.title,
    markdown: canvas.markdown,
    section_id_mapping,
    canvas_url: await canvasUrl(call, canvas.id),
  });
}

type Edit = { edit_type: string; section_id?: string; content?: string };

/** The tool's operations: `sections`, or the legacy single `action`/`section_id`/`content`. */
function editsOf(a: Args): Edit[] {
  if (Array.isArray(a.sections) && a.sections.length) return a.sections as Edit[];
  if (a.action !== undefined) return [{ edit_type: str(a.action), section_id: str(a.section_id) || undefined, content: str(a.content) }];
  throw new Refusal({ ok: false, error: "invalid_arguments", detail: "give `sections` (at least one operation)" });
}

const WEB_OPERATION: Record<string, string> = { append: "insert_after", prepend: "insert_before", replace: "replace", delete: "delete" };

/**
 * The batch against one snapshot: every section id must be in it (the title's included), and none
 * is the target of a change after it was replaced or deleted; then each operation is one
 * canvases.edit (which takes one change a call). Unchanged sections keep their ids, so the later
 * operations still find theirs.
 */
async function updateCanvas(a: Args, call: Call): Promise<Result> {
  const edits = editsOf(a);
  if (edits.length > 100) throw new Refusal({ ok: false, error: "invalid_arguments", detail: "at most 100 operations" });
  const canvas = await canvasOf(call, str(a.canvas_id));
  const known = new Set(canvas.sections.map((s) => s.id));
  const gone = new Set<string>();
  const fail = (detail: string): never => {
    throw new Refusal({ ok: false, error: "canvas_editing_failed", detail });
  };
  const changes = edits.map((e) => {
    const op = WEB_OPERATION[e.edit_type] ?? fail(`unknown edit_type ${e.edit_type}`);
    const id = str(e.section_id);
    if (id === canvas.titleId) {
      if (e.edit_type !== "replace") fail("the title section can only be replaced");
      const title = str(e.content)
        .replace(/^#+\s*/, "")
        .trim();
      if (!title || title.includes("\n")) fail("the title section takes a single-line title");
      return { operation: "rename", title_content: { type: "markdown", markdown: title } };
    }
    if (!known.has(id) || gone.has(id)) fail(`section ${id || "(none)"} is not in the canvas; read it again with slack_read_canvas`);
    if (e.edit_type === "replace" || e.edit_type === "delete") gone.add(id);
    if (e.edit_type === "delete") return { operation: op, section_id: id };
    if (str(e.content).trim() === "") fail("`content` must be a non-empty string");
    return { operation: op, section_id: id, document_content: { type: "markdown", markdown: str(e.content) } };
  });
  for (const ch of changes) await api(call, "canvases.edit", { canvas_id: canvas.id, changes: [ch] });
  return done({ ok: true, canvas_id: canvas.id, canvas_url: await canvasUrl(call, canvas.id) });
}

const RUNS: Record<string, Run> = {
  slack_send_message: tool(send),
  slack_schedule_message: tool(schedule),
  slack_add_reaction: tool(addReaction),
  slack_create_conversation: tool(createConversation),
  slack_create_canvas: tool(createCanvas),
  slack_update_canvas: tool(updateCanvas),
  slack_search_public: tool(search("slack_search_public", "public_channel")),
  slack_search_public_and_private: tool(search("slack_search_public_and_private", "public_channel,private_channel,mpim,im")),
  slack_search_channels: tool(searchChannels),
  slack_search_users: tool(searchUsers),
  slack_read_channel: tool(readChannel),
  slack_read_thread: tool(readThread),
  slack_read_canvas: tool(readCanvas),
  slack_read_user_profile: tool(readUserProfile),
  slack_list_channel_members: tool(listMembers),
  slack_read_file: tool(readFile),
  slack_send_message_draft: unmodelled("Message drafts (Slack has no public Web API for them)"),
  slack_search_emojis: tool(searchEmojis),
  slack_get_reactions: tool(getReactions),
};

export const slackOfficialTools: OfficialToolSet = officialToolSet(published, RUNS);
