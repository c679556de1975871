// The tool set of `@modelcontextprotocol/server-slack` 2025.4.25: the Model Context Protocol
// project's reference Slack server (author Anthropic, PBC; source modelcontextprotocol/servers,
// src/slack, since moved to the project's archive, modelcontextprotocol/servers-archived). It is
// not a server Slack publishes; it is the open Slack MCP server agents were most often built
// against. Its eight tools, with the names, descriptions and input schemas its ListTools handler
// returns (test/fixtures/vendor-mcp/server-slack.json), are each carried out here as the Web API
// call its `SlackClient` makes (package/dist/index.js), with the same method, arguments and HTTP
// verb, and answer what the server answers: the Web API's JSON, re-serialised compactly
// (`JSON.stringify(await response.json())`), as the tool's one text item.
//
// The server never sets `isError`: Slack's own refusals (`{"ok":false,"error":…}`) and the errors
// it throws itself (`{"error":"Missing required arguments: …"}`) are ordinary text results, so
// they are here too. Every tool is one the twin implements; none answers the twin's refusal.
//
// Its two settings, as the twin has them:
// - SLACK_TEAM_ID (required by the server): sent as `team_id` on conversations.list and
//   users.list. Slack ignores `team_id` from a workspace-level token ("only relevant when using
//   an org-level token", docs.slack.dev/reference/methods/conversations.list); a sandbox's token
//   is a workspace token of its one workspace, so the twin sends none and answers that workspace.
// - SLACK_CHANNEL_IDS (optional): when set, slack_list_channels reads each listed channel with
//   conversations.info instead of listing. A sandbox has no such setting: the twin runs as the
//   server does without it, listing every unarchived public channel with conversations.list.
import published from "../../../test/fixtures/vendor-mcp/server-slack.json";
import { officialToolSet } from "../kit/official-tools";
import type { OfficialToolSet, ToolCall, TwinResponse } from "../types";

type Args = Record<string, unknown>;
type Call = (req: ToolCall) => Promise<TwinResponse>;
type Result = { text: string; isError: boolean };
type Run = (a: Args, call: Call) => Promise<Result>;

const str = (v: unknown) => (typeof v === "string" ? v : typeof v === "number" ? String(v) : "");
/** A number argument, or the server's default when the agent left it out. */
const num = (v: unknown, fallback: number) => (typeof v === "number" ? v : fallback);

/** A text result, as the server answers every call. */
const text = (value: unknown): Result => ({ text: JSON.stringify(value), isError: false });

/**
 * The server's answer to a Web API call: `response.json()` stringified. A body that is not JSON
 * makes `response.json()` throw, which the server answers as `{"error": message}`.
 */
function resultOf(res: TwinResponse): Result {
  try {
    return text(JSON.parse(res.body));
  } catch (err) {
    return text({ error: err instanceof Error ? err.message : String(err) });
  }
}

/**
 * The server checks its required arguments itself before calling Slack (an empty string passes
 * the schema but not this check), and answers a missing one as an error text.
 */
const missing = (a: Args, names: readonly string[]) => names.some((n) => !a[n]);

const get = (method: string, query: Record<string, string>): ToolCall => ({ method: "GET", path: `/api/${method}`, query });
const post = (method: string, body: Record<string, unknown>): ToolCall => ({ method: "POST", path: `/api/${method}`, body });

/** A tool whose required arguments the server checks, then one Web API call. */
function checked(required: readonly string[], message: string, toCall: (a: Args) => ToolCall): Run {
  return async (a, call) => (missing(a, required) ? text({ error: message }) : resultOf(await call(toCall(a))));
}

/** `limit` capped at 200 as the server caps it, and `cursor` only when given. */
function page(a: Args): Record<string, string> {
  const q: Record<string, string> = { limit: String(Math.min(num(a.limit, 100), 200)) };
  if (a.cursor) q.cursor = str(a.cursor);
  return q;
}

const RUNS: Record<string, Run> = {
  // SlackClient.getChannels without SLACK_CHANNEL_IDS (see the header); team_id left out.
  slack_list_channels: async (a, call) =>
    resultOf(await call(get("conversations.list", { types: "public_channel", exclude_archived: "true", ...page(a) }))),
  slack_post_message: checked(["channel_id", "text"], "Missing required arguments: channel_id and text", (a) =>
    post("chat.postMessage", { channel: a.channel_id, text: a.text }),
  ),
  slack_reply_to_thread: checked(["channel_id", "thread_ts", "text"], "Missing required arguments: channel_id, thread_ts, and text", (a) =>
    post("chat.postMessage", { channel: a.channel_id, thread_ts: a.thread_ts, text: a.text }),
  ),
  slack_add_reaction: checked(
    ["channel_id", "timestamp", "reaction"],
    "Missing required arguments: channel_id, timestamp, and reaction",
    (a) => post("reactions.add", { channel: a.channel_id, timestamp: a.timestamp, name: a.reaction }),
  ),
  // The server does not cap this limit (only the two list tools cap theirs at 200).
  slack_get_channel_history: checked(["channel_id"], "Missing required argument: channel_id", (a) =>
    get("conversations.history", { channel: str(a.channel_id), limit: String(num(a.limit, 10)) }),
  ),
  slack_get_thread_replies: checked(["channel_id", "thread_ts"], "Missing required arguments: channel_id and thread_ts", (a) =>
    get("conversations.replies", { channel: str(a.channel_id), ts: str(a.thread_ts) }),
  ),
  // SlackClient.getUsers; team_id left out (see the header).
  slack_get_users: async (a, call) => resultOf(await call(get("users.list", page(a)))),
  slack_get_user_profile: checked(["user_id"], "Missing required argument: user_id", (a) =>
    get("users.profile.get", { user: str(a.user_id), include_labels: "true" }),
  ),
};

export const slackOfficialTools: OfficialToolSet = officialToolSet(published, RUNS);
