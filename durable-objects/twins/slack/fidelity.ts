// The Slack twin's fidelity declaration (Node only: `npm run fidelity` reads it and writes
// FIDELITY.md beside it): where Slack's published description is, which of its operations agents
// use, and where the twin's answers knowingly differ from it, each with its reason. The
// schema-conformance test (test/node/fidelity/) fails on any difference not declared here.
import { type ConformanceTarget, type Json, type OpenApiOperation, responseSchemas } from "../kit/fidelity/conformance";
import { HTTP_METHODS, readJson, servedByRoutes } from "../kit/fidelity/measure";
import type { AgentRelevantSet, Divergence, VendorDescription } from "../kit/fidelity/types";
import { declaredByWebApi } from "./response-types";
import type { TwinFidelity } from "../kit/fidelity/declaration";

const DESCRIPTION = "test/fixtures/service-specs/slack/slack_web_openapi_v2.json";

function describe(root: string): VendorDescription {
  const spec = readJson<{ info: { version: string }; paths: Record<string, Record<string, unknown>> }>(root, DESCRIPTION);
  const operations = Object.keys(spec.paths).map((p) => {
    const method = Object.keys(spec.paths[p]).find((m) => HTTP_METHODS.includes(m)) ?? "post";
    return { id: p.slice(1), method: method.toUpperCase(), path: `/api${p}` };
  });
  return {
    name: "Slack Web API OpenAPI (Swagger 2.0) description",
    version: `slackapi/slack-api-specs web-api/slack_web_openapi_v2.json, info.version ${spec.info.version}`,
    source: "slackapi/slack-api-specs, MIT",
    operations,
  };
}

/** The methods behind Slack's reference MCP server's tools, and @slack/web-api's quickstart. */
const agentRelevant: AgentRelevantSet = {
  source:
    "Slack's hosted MCP server (mcp.slack.com/mcp, its 19 tools as captured 2026-08-10: test/fixtures/vendor-mcp/slack-hosted-server.json): the Web API methods its tools stand for in official-tools.ts. Its canvas tools' canvases.create/edit/sections.lookup and its file search's search.files are built too, but the 2020-21 description has no such methods to count; @slack/web-api README quickstart (chat.postMessage, conversations.list)",
  operations: [
    "chat.postMessage",
    "chat.getPermalink",
    "chat.scheduleMessage",
    "reactions.add",
    "reactions.get",
    "conversations.create",
    "conversations.invite",
    "conversations.open",
    "conversations.list",
    "conversations.history",
    "conversations.replies",
    "conversations.members",
    "users.conversations",
    "search.messages",
    "users.list",
    "users.info",
    "auth.test",
    "emoji.list",
    "files.info",
  ],
};

// The default world names its bot and team with short readable ids (B0BOT, T0ACME); Slack's are
// nine or more characters, which the description's id patterns require. A seed may use real-length ids.
const SHORT_IDS = "the default world's bot and team ids are short readable ones (B0BOT, T0ACME); Slack's have 9+ characters";
const NO_ICON_SIZES = "the twin's bot profile carries no image_36/48/72 icon URLs: the sandbox serves no bot avatars";

export const divergences: readonly Divergence[] = [
  // A file's shares are keyed by channel id: the description's id pattern refuses the default world's short ones.
  { operation: "*", path: "/**/shares/public/*", kind: "extra", reason: SHORT_IDS },
  { operation: "*", path: "/**/shares/private/*", kind: "extra", reason: SHORT_IDS },
  {
    operation: "chat.update",
    path: "/errors",
    kind: "extra",
    reason:
      "an invalid_blocks refusal lists its problems in `errors`, as chat.postMessage's does (@slack/web-api's ChatPostMessageResponse.errors); neither the description nor ChatUpdateResponse names it for chat.update",
  },
  {
    operation: "chat.postEphemeral",
    path: "/errors",
    kind: "extra",
    reason:
      "an invalid_blocks refusal lists its problems in `errors`, as chat.postMessage's does (@slack/web-api's ChatPostMessageResponse.errors); neither the description nor ChatPostEphemeralResponse names it for chat.postEphemeral",
  },
  {
    operation: "chat.unfurl",
    path: "/errors",
    kind: "extra",
    reason:
      "an invalid_blocks refusal of a preview's blocks lists its problems in `errors`, as chat.postMessage's does (@slack/web-api's ChatPostMessageResponse.errors); neither the description nor ChatUnfurlResponse names it for chat.unfurl",
  },
  {
    operation: "chat.scheduleMessage",
    path: "/errors",
    kind: "extra",
    reason:
      "an invalid_blocks refusal lists its problems in `errors`, as chat.postMessage's does (@slack/web-api's ChatPostMessageResponse.errors); neither the description nor ChatScheduleMessageResponse names it for chat.scheduleMessage",
  },
  {
    operation: "chat.scheduleMessage",
    path: "/post_at",
    kind: "type",
    reason:
      "the description's example answer writes post_at as a string, but its own schema says integer and @slack/web-api's ChatScheduleMessageResponse (generated from Slack's answers) has a number; the twin answers a number",
  },
  { operation: "auth.test", path: "/bot_id", kind: "type", reason: SHORT_IDS },
  { operation: "team.info", path: "/team/id", kind: "type", reason: SHORT_IDS },
  { operation: "users.profile.get", path: "/profile/bot_id", kind: "type", reason: SHORT_IDS },
  { operation: "users.profile.get", path: "/profile/team", kind: "type", reason: SHORT_IDS },
  { operation: "conversations.history", path: "/messages/*/team", kind: "type", reason: SHORT_IDS },
  { operation: "chat.postMessage", path: "/message/team", kind: "type", reason: SHORT_IDS },
  { operation: "chat.postMessage", path: "/message/bot_profile/id", kind: "type", reason: SHORT_IDS },
  { operation: "chat.postMessage", path: "/message/bot_profile/icons/image_36", kind: "missing", reason: NO_ICON_SIZES },
  { operation: "chat.postMessage", path: "/message/bot_profile/icons/image_48", kind: "missing", reason: NO_ICON_SIZES },
  { operation: "chat.postMessage", path: "/message/bot_profile/icons/image_72", kind: "missing", reason: NO_ICON_SIZES },
  // The bot's messages read back carry the same bot profile as the ones it posts.
  { operation: "conversations.history", path: "/messages/*/bot_profile/id", kind: "type", reason: SHORT_IDS },
  { operation: "conversations.history", path: "/messages/*/bot_profile/icons/image_36", kind: "missing", reason: NO_ICON_SIZES },
  { operation: "conversations.history", path: "/messages/*/bot_profile/icons/image_48", kind: "missing", reason: NO_ICON_SIZES },
  { operation: "conversations.history", path: "/messages/*/bot_profile/icons/image_72", kind: "missing", reason: NO_ICON_SIZES },
  { operation: "chat.scheduleMessage", path: "/message/bot_id", kind: "type", reason: SHORT_IDS },
  { operation: "chat.postMessage", path: "/channel", kind: "type", reason: SHORT_IDS },
  { operation: "users.profile.set", path: "/profile/team", kind: "type", reason: SHORT_IDS },
  {
    operation: "conversations.history",
    path: "/messages",
    kind: "type",
    reason: "the description requires at least one message; Slack answers an empty channel's history with an empty list",
  },
  {
    operation: "chat.update",
    path: "/message/blocks",
    kind: "type",
    reason: "the description types an edited message's blocks as an object; Slack answers the list of blocks, as chat.postMessage does",
  },
  { operation: "chat.scheduledMessages.list", path: "/scheduled_messages/*/id", kind: "type", reason: SHORT_IDS },
  {
    operation: "*",
    path: "/error",
    kind: "type",
    reason:
      "the description's per-method error enums date from 2020–21 and omit codes Slack answers today: invalid_blocks, missing_scope, not_allowed_token_type, ratelimited (HTTP 429, docs.slack.dev/apis/web-api/rate-limits), and newer method-specific ones such as chat.unfurl's cannot_find_message and files.upload's no_file_data",
  },
];

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The schema Slack publishes for a call's method. Strict: a field the description does not list
 * fails, unless @slack/web-api's response type for the method declares it (response-types.ts):
 * the description is from 2020–21, and Slack has added fields since.
 */
export function conformance(root: string) {
  const spec = readJson<{ paths: Record<string, Record<string, OpenApiOperation>>; definitions: Json }>(root, DESCRIPTION);
  const schemas = responseSchemas("https://schemas.pome.invalid/slack.json", "definitions", { definitions: spec.definitions }, true);
  return (_method: string, concretePath: string, status: number, body: unknown): ConformanceTarget | undefined => {
    const name = /^\/api\/([\w.]+)$/.exec(concretePath)?.[1];
    const item = name ? spec.paths[`/${name}`] : undefined;
    if (!name || !item) return undefined;
    const op = Object.values(item)[0];
    // Slack answers 200 with ok:false for a refusal; the description's `default` response is that shape.
    const which = status === 200 && isObject(body) && body.ok === true ? "200" : "default";
    const response = op.responses?.[which] as { schema?: Json; examples?: Record<string, Json> } | undefined;
    return {
      operation: name,
      validate: schemas(`${name} ${which}`, response?.schema),
      checkBranch: schemas.checkBranch,
      example: response?.examples?.["application/json"],
    };
  };
}

/** Why Slack's other methods are not served, by family. */
const notImplemented: TwinFidelity["notImplemented"] = {
  byPrefix: {
    "admin.": "Enterprise Grid administration methods need an org-level admin token; not modelled",
    "apps.": "app manifests and event authorizations belong to app management, outside a workspace sandbox",
    "oauth.": "OAuth installation flows: a sandbox's token stands in for an installed app",
    "migration.": "workspace migration is not modelled",
    "rtm.": "the RTM API is retired by Slack for new apps",
    "calls.": "Calls are not modelled",
    "workflows.": "Workflow Builder steps are not modelled",
    "dialog.": "dialogs are superseded by modals (views)",
    "files.": "remote files (an external service's files listed in Slack) and file comments are not built",
    "users.": "profile photos, users.setActive and Sign in with Slack identity are not built",
    "team.": "team billing, access logs and integration logs are admin data not modelled",
  },
  otherwise: "not built yet",
  answer: 'HTTP 200 `{"ok":false,"error":"method_not_supported"}` (@slack/web-api retries any other status for half an hour)',
};

export const fidelity: TwinFidelity = {
  describe,
  answers: (root) => {
    const declared = declaredByWebApi(root);
    return { by: "schema", target: conformance(root), explained: (difference) => declared(difference) };
  },
  agentRelevant,
  divergences,
  notImplemented,
  mcp: "`\u2026/mcp` serves the twin's own tools, one per Web API method; `\u2026/mcp/official` serves Slack's own hosted MCP server's tool set (`https://mcp.slack.com/mcp`, 19 tools: `slack_send_message`, `slack_read_channel`, `slack_search_public`, `slack_create_canvas`\u2026), listed exactly as its `tools/list` answered on 2026-08-10 (captured by pome-sh/digital-twins; the definitions are Slack's, under no licence Slack states: test/fixtures/vendor-mcp/slack-hosted-server.json). Connect with the sandbox's user token to act as the user, as Slack's server does. Each tool runs as the Web API calls it stands for (canvases are the twin's canvases.* methods); `slack_send_message_draft` answers a tool error, since drafts have no public Web API and are not modelled. Slack publishes no output schema, so the answers' JSON is the twin's (NOTES.md). The MCP project's archived reference server (`@modelcontextprotocol/server-slack`) is no longer served: its `slack_add_reaction` collides with Slack's tool of that name (test/node/mcp/slack-official-tools.test.ts).",
  // Slack's methods answer GET and POST alike: a route serves the method its path names.
  served: (routes, vendor) => servedByRoutes(routes, vendor, (r) => r.pattern.replace(/^\/api\//, "")),
  callPattern: (op) => {
    const esc = op.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    return new RegExp(`\\.${esc}\\(|["'\`]${esc}["'\`]`);
  },
};
