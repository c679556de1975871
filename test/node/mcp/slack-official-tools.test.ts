// The tool set of Slack's own hosted MCP server (mcp.slack.com/mcp) at a sandbox's `…/mcp/official`:
// listed exactly as its tools/list answered on 2026-08-10 (test/fixtures/vendor-mcp/
// slack-hosted-server.json, with its provenance), each tool carried out as the Web API calls it
// stands for, as the user whose token the agent connects with (Slack's server takes only user
// tokens), changing the world as those calls would, and taped. The MCP project's archived
// reference server (`@modelcontextprotocol/server-slack`) is no longer served: its
// `slack_add_reaction` takes other arguments than Slack's tool of that name.
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { WebClient } from "@slack/web-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, createSandbox, jsonOf, type Sandbox, type TapeRow, textOf } from "./helpers";

const published = JSON.parse(
  readFileSync(path.resolve(import.meta.dirname, "../../fixtures/vendor-mcp/slack-hosted-server.json"), "utf8"),
) as {
  source: string;
  version: string;
  license: string;
  provenance: Record<string, string>;
  tools: { name: string; description: string; inputSchema: unknown }[];
};

const USER_SCOPES = [
  "channels:history,groups:history,im:history,mpim:history,channels:read,groups:read,im:read,mpim:read",
  "channels:write,groups:write,im:write,mpim:write,chat:write,reactions:read,reactions:write",
  "users:read,users:read.email,search:read,emoji:read,files:read,files:write,canvases:read,canvases:write",
].join(",");

/** Alice installed the app; public, private and archived channels, a file, custom emoji. */
const WORLD = {
  team: { id: "T0ACME", name: "Acme", domain: "acme" },
  installation: { app_id: "A0DEPLOY", bot_user_id: "U0BOT", authed_user: { id: "U0ALICE", scope: USER_SCOPES } },
  users: [
    { id: "U0BOT", name: "deploybot", is_bot: true, profile: { bot_id: "B0BOT", real_name: "Deploy Bot" } },
    {
      id: "U0ALICE",
      name: "alice",
      real_name: "Alice Smith",
      profile: { title: "SRE", real_name: "Alice Smith", display_name: "alice", email: "alice@acme.test" },
    },
    {
      id: "U0BOB",
      name: "bob",
      real_name: "Bob Jones",
      profile: { title: "Engineering intern", real_name: "Bob Jones", email: "bob@acme.test" },
    },
    { id: "U0CAROL", name: "carol", real_name: "Carol White", profile: { title: "Engineering lead", real_name: "Carol White" } },
  ],
  channels: [
    {
      id: "C0GENERAL",
      name: "general",
      is_general: true,
      created: 1700000000,
      topic: { value: "Company-wide announcements" },
      members: ["U0BOT", "U0ALICE", "U0BOB"],
      messages: [
        { ts: "1700000000.000100", user: "U0BOB", text: "Welcome to Acme!" },
        {
          ts: "1700000100.000100",
          user: "U0BOB",
          text: "Deploy is planned for Friday",
          reactions: [{ name: "eyes", users: ["U0BOB"] }],
        },
        { ts: "1700000200.000100", user: "U0BOB", text: "Runbook attached", files: ["F0RUNBOOK"] },
      ],
    },
    { id: "C0RANDOM", name: "random", created: 1700000000, members: ["U0ALICE"] },
    { id: "C0OLD", name: "old-deploys", created: 1700000000, is_archived: true, members: ["U0ALICE"] },
    {
      id: "C0LEADS",
      name: "deploy-leads",
      is_private: true,
      created: 1700000000,
      members: ["U0ALICE", "U0CAROL"],
      messages: [{ ts: "1700000300.000100", user: "U0CAROL", text: "Deploy budget is approved" }],
    },
  ],
  files: [{ id: "F0RUNBOOK", name: "runbook.md", title: "Deploy runbook", user: "U0BOB", content: "1. Tag the release\n2. Deploy" }],
  emoji: { shipit: "https://emoji.test/shipit.png", squirrel: "alias:shipit", partyparrot: "https://emoji.test/parrot.gif" },
};

let sandbox: Sandbox;
let client: Client;
/** Alice's own WebClient (her user token), and the bot's. */
let alice: WebClient;
let bot: WebClient;

const webClient = (token: string) =>
  new WebClient(token, { slackApiUrl: `${sandbox.per_twin.slack.api_url}/api/`, retryConfig: { retries: 0 } });

beforeAll(async () => {
  sandbox = await createSandbox({ twins: ["slack"], seed: WORLD });
  const userToken = (sandbox.provider_credentials.slack as { user_token?: string }).user_token ?? "";
  client = await connect(`${sandbox.per_twin.slack.mcp_url}/official`, userToken);
  alice = webClient(userToken);
  bot = webClient(sandbox.provider_credentials.slack.token);
});
afterAll(async () => {
  await client?.close();
});

const call = (name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args });
/** A tool's answer: one JSON text item, not an error. */
async function answer<T>(name: string, args: Record<string, unknown>): Promise<T> {
  const result = await call(name, args);
  expect(result.isError ?? false, `${name} ${textOf(result)}`).toBe(false);
  return jsonOf<T>(result);
}
/** A tool's error: flagged `isError`, its text Slack's refusal. */
async function refusal(name: string, args: Record<string, unknown>): Promise<{ ok: false; error: string; detail?: string }> {
  const result = await call(name, args);
  expect(result.isError, `${name} ${textOf(result)}`).toBe(true);
  return jsonOf(result);
}
const operations = async () => (await wholeTape()).map((r) => r.operation);

/** The whole tape, page after page (the events API answers a bounded page and where the next starts). */
async function wholeTape(): Promise<TapeRow[]> {
  const rows: TapeRow[] = [];
  let after = "0";
  for (;;) {
    const res = await fetch(`${sandbox.per_twin.slack.api_url}/_pome/events?after_seq=${after}`, {
      headers: { authorization: `Bearer ${sandbox.agent_token}` },
    });
    rows.push(...((await res.json()) as TapeRow[]));
    const next = res.headers.get("x-pome-next-after-seq");
    if (!next) return rows;
    after = next;
  }
}

describe("the tool set is served exactly as Slack's hosted MCP server lists it", () => {
  it("lists its 19 tools in its order, each exactly as captured (title, description, schema, annotations, _meta)", async () => {
    expect(published.version).toMatch(/^captured 2026-08-10, MCP protocol version 2025-06-18 /);
    expect(published.license).toMatch(/^none stated: the tool definitions are Slack's/);
    expect(published.provenance).toMatchObject({
      endpoint: "https://mcp.slack.com/mcp",
      captureCommit: "396393a7e6a05518d99fcdab5c9b42a2e3eadf3c",
      rawFileSha256: "c6b29aba1d382175ca560228d10cc2665a0710b68298895721f7fcb4bcc25974",
    });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      "slack_send_message",
      "slack_schedule_message",
      "slack_add_reaction",
      "slack_create_conversation",
      "slack_create_canvas",
      "slack_update_canvas",
      "slack_search_public",
      "slack_search_public_and_private",
      "slack_search_channels",
      "slack_search_users",
      "slack_read_channel",
      "slack_read_thread",
      "slack_read_canvas",
      "slack_read_user_profile",
      "slack_list_channel_members",
      "slack_read_file",
      "slack_send_message_draft",
      "slack_search_emojis",
      "slack_get_reactions",
    ]);
    // Byte for byte as JSON: nothing added, dropped or reordered.
    expect(JSON.stringify(tools)).toBe(JSON.stringify(published.tools));
    // The reference server's tools are gone (one name collides with other arguments).
    expect(tools.map((t) => t.name)).not.toContain("slack_post_message");
  });

  it("refuses arguments the published schema refuses, and an unknown tool, without touching the world", async () => {
    const before = await operations();
    const noMessage = await call("slack_send_message", { channel_id: "C0GENERAL" });
    expect(noMessage.isError).toBe(true);
    expect(textOf(noMessage)).toMatch(/message/);
    const wrongType = await call("slack_read_channel", { channel_id: "C0GENERAL", limit: "five" });
    expect(wrongType.isError).toBe(true);
    expect(textOf(wrongType)).toMatch(/limit/);
    await expect(call("slack_post_message", { channel_id: "C0GENERAL", text: "x" })).resolves.toMatchObject({ isError: true });
    const history = await bot.conversations.history({ channel: "C0GENERAL" });
    expect(history.messages?.map((m) => m.text)).toEqual(["Runbook attached", "Deploy is planned for Friday", "Welcome to Acme!"]);
    const added = (await operations()).slice(before.length);
    expect(added).toEqual(expect.arrayContaining(["mcp.slack_send_message", "mcp.slack_read_channel", "mcp.unknown_tool"]));
    expect(added).not.toContain("chat.postMessage");
  });
});

describe("an agent written for Slack's MCP server works against the twin unchanged", () => {
  it("sends as the user, in a thread and to a DM by user id; the workspace shows it through the Web API", async () => {
    const sent = await answer<{ channel_id: string; message_ts: string; message_link: string }>("slack_send_message", {
      channel_id: "C0GENERAL",
      message: "Release is **green**",
    });
    expect(sent.message_link).toBe(`https://acme.slack.com/archives/C0GENERAL/p${sent.message_ts.replace(".", "")}`);
    const reply = await answer<{ message_ts: string }>("slack_send_message", {
      channel_id: "C0GENERAL",
      message: "Shipping now",
      thread_ts: sent.message_ts,
      reply_broadcast: true,
    });
    const dm = await answer<{ channel_id: string }>("slack_send_message", { channel_id: "U0BOB", message: "Can you review?" });
    expect(dm.channel_id).toMatch(/^D/);

    const history = await bot.conversations.history({ channel: "C0GENERAL", limit: 2 });
    expect(history.messages?.map((m) => [m.text, m.user])).toEqual([
      ["Shipping now", "U0ALICE"],
      ["Release is **green**", "U0ALICE"],
    ]);
    const thread = await bot.conversations.replies({ channel: "C0GENERAL", ts: sent.message_ts });
    expect(thread.messages?.map((m) => m.ts)).toEqual([sent.message_ts, reply.message_ts]);
    const opened = await alice.conversations.info({ channel: dm.channel_id });
    expect(opened.channel?.is_im).toBe(true);

    const read = await answer<{ messages: { text: string }[]; pagination_info: { next_cursor: string } }>("slack_read_channel", {
      channel_id: "C0GENERAL",
      limit: 2,
      response_format: "concise",
    });
    expect(read.messages.map((m) => m.text)).toEqual(["Shipping now", "Release is **green**"]);
    const next = await answer<{ messages: { text: string }[] }>("slack_read_channel", {
      channel_id: "C0GENERAL",
      limit: 2,
      cursor: read.pagination_info.next_cursor,
    });
    expect(next.messages.map((m) => m.text)).toEqual(["Runbook attached", "Deploy is planned for Friday"]);
    // The DM read by the user id, as the description says.
    const inDm = await answer<{ messages: { text: string }[] }>("slack_read_channel", { channel_id: "U0BOB" });
    expect(inDm.messages.map((m) => m.text)).toEqual(["Can you review?"]);
    const replies = await answer<{ messages: { text: string }[] }>("slack_read_thread", {
      channel_id: "C0GENERAL",
      message_ts: sent.message_ts,
    });
    expect(replies.messages.map((m) => m.text)).toEqual(["Release is **green**", "Shipping now"]);
    expect(await refusal("slack_read_channel", { channel_id: "C0NOPE" })).toEqual({ ok: false, error: "channel_not_found" });
  });

  it("schedules a message, which chat.scheduledMessages.list shows", async () => {
    const postAt = Math.floor(Date.now() / 1000) + 3600;
    const scheduled = await answer<{ scheduled_message_id: string; post_at: number }>("slack_schedule_message", {
      channel_id: "C0RANDOM",
      message: "Standup in an hour",
      post_at: postAt,
    });
    expect(scheduled).toMatchObject({ post_at: postAt, scheduled_message_id: expect.stringMatching(/^Q/) });
    const list = await alice.chat.scheduledMessages.list({ channel: "C0RANDOM" });
    expect(list.scheduled_messages?.map((m) => [m.id, m.text])).toEqual([[scheduled.scheduled_message_id, "Standup in an hour"]]);
    expect((await refusal("slack_schedule_message", { channel_id: "C0RANDOM", message: "late", post_at: 1 })).error).toBe("time_in_past");
  });

  it("reacts (a duplicate succeeds silently) and reads the reactions with display names", async () => {
    const args = { channel_id: "C0GENERAL", message_ts: "1700000100.000100", emoji: "shipit" };
    await answer("slack_add_reaction", args);
    await answer("slack_add_reaction", args);
    const got = await bot.reactions.get({ channel: "C0GENERAL", timestamp: "1700000100.000100" });
    expect(got.message?.reactions?.map((r) => [r.name, r.users])).toEqual([
      ["eyes", ["U0BOB"]],
      ["shipit", ["U0ALICE"]],
    ]);
    const reactions = await answer<{ reactions: { emoji: string; count: number; users: { user_id: string; display_name: string }[] }[] }>(
      "slack_get_reactions",
      { channel_id: "C0GENERAL", message_ts: "1700000100.000100" },
    );
    expect(reactions.reactions).toEqual([
      { emoji: "eyes", count: 1, users: [{ user_id: "U0BOB", display_name: "Bob Jones" }] },
      { emoji: "shipit", count: 1, users: [{ user_id: "U0ALICE", display_name: "alice" }] },
    ]);
    expect(await answer("slack_get_reactions", { channel_id: "C0GENERAL", message_ts: "1700000000.000100" })).toMatchObject({
      message: "no reactions",
    });
    expect((await refusal("slack_add_reaction", { ...args, emoji: "not-an-emoji-here" })).error).toBe("invalid_name");
  });

  it("creates a channel with invites, a DM and a group DM; refuses what the description lists", async () => {
    const created = await answer<{ channel_id: string; channel_name: string }>("slack_create_conversation", {
      channel_name: "Project X",
      user_ids: ["U0BOB"],
    });
    expect(created.channel_name).toBe("project-x");
    const members = await bot.conversations.members({ channel: created.channel_id });
    expect(members.members?.sort()).toEqual(["U0ALICE", "U0BOB"]);
    const group = await answer<{ channel_id: string; is_mpim: boolean }>("slack_create_conversation", { user_ids: ["U0BOB", "U0CAROL"] });
    expect(group.is_mpim).toBe(true);
    expect((await alice.conversations.info({ channel: group.channel_id })).channel?.is_mpim).toBe(true);
    expect((await refusal("slack_create_conversation", { channel_name: "project-x" })).error).toBe("name_taken");
    expect((await refusal("slack_create_conversation", {})).error).toBe("invalid_arguments");
    const nine = Array.from({ length: 9 }, (_, i) => `U0X${i}`);
    expect((await refusal("slack_create_conversation", { user_ids: nine })).error).toBe("too_many_users");
  });

  it("searches messages in public channels only, or everywhere the user can see, and files", async () => {
    const pub = await answer<{ results: { type: string; channel_id?: string; text?: string; file_id?: string }[] }>("slack_search_public", {
      query: "deploy",
    });
    expect(pub.results.filter((r) => r.type === "message").map((r) => r.text)).toEqual(["Deploy is planned for Friday"]);
    expect(pub.results.filter((r) => r.type === "file").map((r) => r.file_id)).toEqual(["F0RUNBOOK"]);
    const all = await answer<{ results: { type: string; channel_id?: string; text?: string }[] }>("slack_search_public_and_private", {
      query: "deploy",
      content_types: "messages",
      sort: "timestamp",
    });
    expect(all.results.map((r) => r.text)).toEqual(["Deploy budget is approved", "Deploy is planned for Friday"]);
    const first = await answer<{ results: unknown[]; pagination_info: { next_cursor: string } }>("slack_search_public_and_private", {
      query: "deploy",
      content_types: "messages",
      limit: 1,
    });
    expect(first.results).toHaveLength(1);
    const second = await answer<{ results: unknown[]; pagination_info: { next_cursor: string } }>("slack_search_public_and_private", {
      query: "deploy",
      content_types: "messages",
      limit: 1,
      cursor: first.pagination_info.next_cursor,
    });
    expect(second.results).toHaveLength(1);
    expect(second.pagination_info.next_cursor).toBe("");
    expect((await refusal("slack_search_public", { query: "deploy", cursor: "bogus" })).error).toBe("invalid_cursor");
  });

  it("finds channels, users and custom emoji", async () => {
    const channels = await answer<{ channels: { channel_id: string; topic: string }[] }>("slack_search_channels", { query: "deploy" });
    expect(channels.channels.map((c) => c.channel_id)).toEqual([]);
    const withPrivate = await answer<{ channels: { channel_id: string }[] }>("slack_search_channels", {
      query: "deploy",
      channel_types: "public_channel,private_channel",
      include_archived: true,
    });
    expect(withPrivate.channels.map((c) => c.channel_id).sort()).toEqual(["C0LEADS", "C0OLD"]);
    const byTopic = await answer<{ channels: { channel_id: string; topic: string }[] }>("slack_search_channels", {
      query: "announcements",
    });
    expect(byTopic.channels).toEqual([expect.objectContaining({ channel_id: "C0GENERAL", topic: "Company-wide announcements" })]);

    const engineers = await answer<{ users: { user_id: string }[] }>("slack_search_users", { query: "engineering -intern" });
    expect(engineers.users.map((u) => u.user_id)).toEqual(["U0CAROL"]);
    const byEmail = await answer<{ users: { user_id: string; email: string }[] }>("slack_search_users", { query: "alice@acme" });
    expect(byEmail.users).toEqual([expect.objectContaining({ user_id: "U0ALICE", email: "alice@acme.test" })]);

    const emojis = await answer<{ emojis: unknown[] }>("slack_search_emojis", { query: "SHIP,parrot" });
    expect(emojis.emojis).toEqual([
      { name: "shipit", url: "https://emoji.test/shipit.png" },
      { name: "partyparrot", url: "https://emoji.test/parrot.gif" },
    ]);
  });

  it("reads profiles (the current user by default) and a channel's members without bots", async () => {
    const me = await answer<{ user: { user_id: string; title: string } }>("slack_read_user_profile", {});
    expect(me.user).toMatchObject({ user_id: "U0ALICE", title: "SRE" });
    const bob = await answer<{ user: { user_id: string; real_name: string } }>("slack_read_user_profile", { user_id: "U0BOB" });
    expect(bob.user).toMatchObject({ user_id: "U0BOB", real_name: "Bob Jones" });
    const ids = await answer<{ members: string[] }>("slack_list_channel_members", { channel_id: "C0GENERAL", response_format: "ids_only" });
    expect(ids.members.sort()).toEqual(["U0ALICE", "U0BOB", "U0BOT"]);
    const people = await answer<{ members: { user_id: string }[] }>("slack_list_channel_members", { channel_id: "C0GENERAL" });
    expect(people.members.map((m) => m.user_id).sort()).toEqual(["U0ALICE", "U0BOB"]);
    const paged = await answer<{ members: unknown[]; pagination_info: { next_cursor: string } }>("slack_list_channel_members", {
      channel_id: "C0GENERAL",
      limit: 1,
      response_format: "ids_only",
    });
    expect(paged.members).toHaveLength(1);
    expect(paged.pagination_info.next_cursor).not.toBe("");
  });

  it("reads a file's text inside a per-answer <file_content_…> wrapper", async () => {
    const file = await answer<{ name: string; mimeType: string; content: string }>("slack_read_file", { file_id: "F0RUNBOOK" });
    expect(file).toMatchObject({ name: "runbook.md", mimeType: "text/markdown" });
    expect(file.content).toMatch(/^<(file_content_[0-9a-f]{16})>\n1\. Tag the release\n2\. Deploy\n<\/\1>$/);
    expect((await refusal("slack_read_file", { file_id: "F0NOPE" })).error).toBe("file_not_found");
  });

  it("creates, reads and updates a canvas; the Web API's canvases.* and files.info see the same canvas", async () => {
    const created = await answer<{ canvas_id: string; canvas_url: string }>("slack_create_canvas", {
      title: "Launch plan",
      content: "# Status\n:large_green_circle: On track\n\n- Tag\n- Deploy\n\n## Owners\n![](@U0ALICE)",
    });
    expect(created.canvas_url).toBe(`https://acme.slack.com/docs/T0ACME/${created.canvas_id}`);
    const info = await alice.files.info({ file: created.canvas_id });
    expect(info.file).toMatchObject({ filetype: "quip", title: "Launch plan", user: "U0ALICE" });

    const read = await answer<{ title: string; section_id_mapping: Record<string, string> }>("slack_read_canvas", {
      canvas_id: created.canvas_id,
    });
    const entries = Object.entries(read.section_id_mapping);
    expect(entries.map(([, md]) => md)).toEqual([
      "# Launch plan",
      "# Status",
      ":large_green_circle: On track",
      "- Tag\n- Deploy",
      "## Owners",
      "![](@U0ALICE)",
    ]);
    expect(entries.every(([id]) => /^temp:C:[0-9a-fA-F]{28}$/.test(id))).toBe(true);
    const [[titleId], , [statusBody], [list], [owners]] = entries as [string, string][];

    // The Web API finds the same sections.
    const headers = await alice.canvases.sections.lookup({ canvas_id: created.canvas_id, criteria: { section_types: ["h2"] } });
    expect(headers.sections).toEqual([{ id: owners }]);

    await answer("slack_update_canvas", {
      canvas_id: created.canvas_id,
      sections: [
        { edit_type: "replace", section_id: titleId, content: "# Launch plan v2" },
        { edit_type: "replace", section_id: statusBody, content: ":warning: At risk" },
        { edit_type: "append", section_id: list, content: "- Announce" },
        { edit_type: "delete", section_id: owners },
      ],
    });
    const after = await answer<{ title: string; section_id_mapping: Record<string, string> }>("slack_read_canvas", {
      canvas_id: created.canvas_id,
    });
    expect(after.title).toBe("Launch plan v2");
    expect(Object.values(after.section_id_mapping)).toEqual([
      "# Launch plan v2",
      "# Status",
      ":warning: At risk",
      "- Tag\n- Deploy",
      "- Announce",
      "![](@U0ALICE)",
    ]);
    // An unchanged section keeps its id; a replaced one does not.
    expect(Object.keys(after.section_id_mapping)).toContain(list);
    expect(Object.keys(after.section_id_mapping)).not.toContain(statusBody);
    // A stale id is refused and changes nothing.
    const stale = await refusal("slack_update_canvas", {
      canvas_id: created.canvas_id,
      sections: [{ edit_type: "replace", section_id: statusBody, content: "x" }],
    });
    expect(stale.error).toBe("canvas_editing_failed");
    // More than the 100 operations the description allows: refused before any edit.
    const tooMany = Array.from({ length: 101 }, () => ({ edit_type: "append", section_id: list, content: "- more" }));
    expect((await refusal("slack_update_canvas", { canvas_id: created.canvas_id, sections: tooMany })).error).toBe("invalid_arguments");
    const unchanged = await answer<{ section_id_mapping: Record<string, string> }>("slack_read_canvas", { canvas_id: created.canvas_id });
    expect(unchanged.section_id_mapping).toEqual(after.section_id_mapping);
    // slack_read_file reads a canvas as its markdown.
    const asFile = await answer<{ content: string }>("slack_read_file", { file_id: created.canvas_id });
    expect(asFile.content).toContain(":warning: At risk");
    expect((await refusal("slack_read_canvas", { canvas_id: "F0RUNBOOK" })).error).toBe("canvas_not_found");
  });

  it("answers the draft tool with an error naming the area the twin does not model, and writes nothing", async () => {
    const before = await alice.conversations.history({ channel: "C0RANDOM" });
    const draft = await refusal("slack_send_message_draft", { channel_id: "C0RANDOM", message: "later" });
    expect(draft.detail).toMatch(/drafts/i);
    expect((await alice.conversations.history({ channel: "C0RANDOM" })).messages).toEqual(before.messages);
  });

  it("tapes every tool's Web API calls with transport mcp, under the methods it called", async () => {
    const tape = await wholeTape();
    const mcp = tape.filter((r) => r.transport === "mcp").map((r) => r.operation);
    expect(mcp).toEqual(
      expect.arrayContaining([
        "chat.postMessage",
        "chat.getPermalink",
        "conversations.open",
        "chat.scheduleMessage",
        "reactions.add",
        "reactions.get",
        "conversations.create",
        "conversations.invite",
        "conversations.history",
        "conversations.replies",
        "search.messages",
        "search.files",
        "conversations.list",
        "users.list",
        "users.info",
        "emoji.list",
        "conversations.members",
        "files.info",
        "files.download",
        "canvases.create",
        "canvases.edit",
      ]),
    );
  });
});

describe("with the agent token the tools act as the bot", () => {
  it("posts as the bot, and a search (a user-token method on Slack) is refused", async () => {
    const asBot = await connect(`${sandbox.per_twin.slack.mcp_url}/official`, sandbox.agent_token);
    try {
      const sent = await asBot.callTool({ name: "slack_send_message", arguments: { channel_id: "C0GENERAL", message: "from the bot" } });
      expect(sent.isError ?? false).toBe(false);
      const latest = await bot.conversations.history({ channel: "C0GENERAL", limit: 1 });
      expect(latest.messages?.[0]).toMatchObject({ text: "from the bot", user: "U0BOT" });
      const search = await asBot.callTool({ name: "slack_search_public", arguments: { query: "deploy" } });
      expect(search.isError).toBe(true);
      expect(jsonOf(search)).toMatchObject({ ok: false, error: "not_allowed_token_type" });
    } finally {
      await asBot.close();
    }
  });
});
