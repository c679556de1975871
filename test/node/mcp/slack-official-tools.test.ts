// The tool set of `@modelcontextprotocol/server-slack` (the MCP project's reference Slack server,
// not one Slack publishes) at a sandbox's `…/mcp/official`: listed exactly as its ListTools handler
// returns it (test/fixtures/vendor-mcp/server-slack.json, with its version and license), and each
// tool carried out as the Web API call the server makes, answering the server's text (the Web API
// JSON, refusals included, never `isError`), changing the world as that call would, and taped.
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { WebClient } from "@slack/web-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, createSandbox, jsonOf, type Sandbox, tapeOf, textOf } from "./helpers";

const published = JSON.parse(readFileSync(path.resolve(import.meta.dirname, "../../fixtures/vendor-mcp/server-slack.json"), "utf8")) as {
  source: string;
  version: string;
  license: string;
  tools: { name: string; description: string; inputSchema: unknown }[];
};

/** Public channels the bot is in and not, an archived one, and a private one the bot is in. */
const WORLD = {
  team: { id: "T0ACME", name: "Acme", domain: "acme" },
  installation: { app_id: "A0DEPLOY", bot_user_id: "U0BOT" },
  users: [
    { id: "U0BOT", name: "deploybot", is_bot: true, profile: { bot_id: "B0BOT", real_name: "Deploy Bot" } },
    { id: "U0ALICE", name: "alice", real_name: "Alice Smith", profile: { title: "SRE", real_name: "Alice Smith" } },
  ],
  channels: [
    {
      id: "C0GENERAL",
      name: "general",
      is_general: true,
      created: 1700000000,
      members: ["U0BOT", "U0ALICE"],
      messages: [
        { ts: "1700000000.000100", user: "U0ALICE", text: "Welcome to Acme!" },
        { ts: "1700000100.000100", user: "U0ALICE", text: "Deploy is planned for Friday" },
      ],
    },
    { id: "C0RANDOM", name: "random", created: 1700000000, members: ["U0ALICE"] },
    { id: "C0OLD", name: "old-launch", created: 1700000000, is_archived: true, members: ["U0ALICE"] },
    { id: "C0LEADS", name: "leads", is_private: true, created: 1700000000, members: ["U0BOT", "U0ALICE"] },
  ],
};

let sandbox: Sandbox;
let client: Client;
let web: WebClient;

beforeAll(async () => {
  sandbox = await createSandbox({ twins: ["slack"], seed: WORLD });
  client = await connect(`${sandbox.per_twin.slack.mcp_url}/official`, sandbox.agent_token);
  web = new WebClient(sandbox.provider_credentials.slack.token, {
    slackApiUrl: `${sandbox.per_twin.slack.api_url}/api/`,
    retryConfig: { retries: 0 },
  });
});
afterAll(async () => {
  await client?.close();
});

const call = (name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args });
/** A tool's answer as the server gives it: one text item, never flagged as an error. */
async function answer<T>(name: string, args: Record<string, unknown>): Promise<T> {
  const result = await call(name, args);
  expect(result.isError ?? false, `${name} ${textOf(result)}`).toBe(false);
  return jsonOf<T>(result);
}
const operations = async () => (await tapeOf(sandbox, "slack")).map((r) => r.operation);

describe("the tool set is served exactly as the reference Slack MCP server publishes it", () => {
  it("lists its eight tools in its order, each with its name, description and input schema", async () => {
    expect(published.version).toMatch(/^2025\.4\.25 /);
    expect(published.license).toMatch(/^MIT/);
    expect(published.source).toMatch(/not a server Slack publishes/);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      "slack_list_channels",
      "slack_post_message",
      "slack_reply_to_thread",
      "slack_add_reaction",
      "slack_get_channel_history",
      "slack_get_thread_replies",
      "slack_get_users",
      "slack_get_user_profile",
    ]);
    expect(tools).toEqual(published.tools);
  });

  it("refuses arguments the published schema refuses, and an unknown tool, without touching the world", async () => {
    const before = await operations();
    const noText = await call("slack_post_message", { channel_id: "C0GENERAL" });
    expect(noText.isError).toBe(true);
    expect(textOf(noText)).toMatch(/text/);
    const wrongType = await call("slack_get_channel_history", { channel_id: "C0GENERAL", limit: "five" });
    expect(wrongType.isError).toBe(true);
    expect(textOf(wrongType)).toMatch(/limit/);
    await expect(call("slack_search_messages", { query: "x" })).resolves.toMatchObject({ isError: true });
    // An empty string passes the schema; the server's own check answers it, before any call.
    expect(await answer("slack_post_message", { channel_id: "", text: "hi" })).toEqual({
      error: "Missing required arguments: channel_id and text",
    });
    const history = await web.conversations.history({ channel: "C0GENERAL" });
    expect(history.messages?.map((m) => m.text)).toEqual(["Deploy is planned for Friday", "Welcome to Acme!"]);
    // The refusals are taped as refused MCP calls; none reached chat.postMessage.
    const added = (await operations()).slice(before.length);
    expect(added).toEqual(expect.arrayContaining(["mcp.slack_post_message", "mcp.slack_get_channel_history", "mcp.unknown_tool"]));
    expect(added).not.toContain("chat.postMessage");
  });
});

describe("an agent written for the reference Slack MCP server works against the twin unchanged", () => {
  it("lists unarchived public channels a page at a time, as conversations.list with the server's arguments", async () => {
    const all = await answer<{ ok: boolean; channels: { id: string }[] }>("slack_list_channels", {});
    expect(all.ok).toBe(true);
    expect(all.channels.map((c) => c.id)).toEqual(["C0GENERAL", "C0RANDOM"]);
    const first = await answer<{ channels: { id: string }[]; response_metadata: { next_cursor: string } }>("slack_list_channels", {
      limit: 1,
    });
    expect(first.channels.map((c) => c.id)).toEqual(["C0GENERAL"]);
    const second = await answer<{ channels: { id: string }[] }>("slack_list_channels", {
      limit: 1,
      cursor: first.response_metadata.next_cursor,
    });
    expect(second.channels.map((c) => c.id)).toEqual(["C0RANDOM"]);
    const tape = (await tapeOf(sandbox, "slack")).filter((r) => r.operation === "conversations.list");
    const query = (tape[0] as unknown as { method: string; query: string }).query;
    expect(tape[0]?.method).toBe("GET");
    expect(new URLSearchParams(query).get("types")).toBe("public_channel");
    expect(new URLSearchParams(query).get("exclude_archived")).toBe("true");
    expect(new URLSearchParams(query).get("limit")).toBe("100");
  });

  it("posts, replies in a thread and reacts; the workspace shows it through the Web API", async () => {
    const posted = await answer<{ ok: boolean; ts: string; channel: string }>("slack_post_message", {
      channel_id: "C0GENERAL",
      text: "Release is green",
    });
    expect(posted).toMatchObject({ ok: true, channel: "C0GENERAL" });
    const reply = await answer<{ ok: boolean; message: { thread_ts: string } }>("slack_reply_to_thread", {
      channel_id: "C0GENERAL",
      thread_ts: posted.ts,
      text: "Shipping now",
    });
    expect(reply).toMatchObject({ ok: true, message: { thread_ts: posted.ts } });
    expect(await answer("slack_add_reaction", { channel_id: "C0GENERAL", timestamp: posted.ts, reaction: "tada" })).toEqual({ ok: true });
    // Slack's refusal is the tool's text, as the server answers it (not flagged as an error).
    expect(await answer("slack_add_reaction", { channel_id: "C0GENERAL", timestamp: posted.ts, reaction: "tada" })).toEqual({
      ok: false,
      error: "already_reacted",
    });

    const thread = await web.conversations.replies({ channel: "C0GENERAL", ts: posted.ts });
    expect(thread.messages?.map((m) => m.text)).toEqual(["Release is green", "Shipping now"]);
    expect(thread.messages?.[0]?.reactions).toEqual([expect.objectContaining({ name: "tada", users: ["U0BOT"] })]);

    const history = await answer<{ messages: { text: string }[] }>("slack_get_channel_history", { channel_id: "C0GENERAL", limit: 2 });
    expect(history.messages.map((m) => m.text)).toEqual(["Release is green", "Deploy is planned for Friday"]);
    const replies = await answer<{ messages: { text: string }[] }>("slack_get_thread_replies", {
      channel_id: "C0GENERAL",
      thread_ts: posted.ts,
    });
    expect(replies.messages.map((m) => m.text)).toEqual(["Release is green", "Shipping now"]);
    // A channel the bot is not in: Slack's own refusal, as text.
    expect(await answer("slack_post_message", { channel_id: "C0RANDOM", text: "hi" })).toEqual({ ok: false, error: "not_in_channel" });
  });

  it("reads the people: users.list and users.profile.get", async () => {
    const users = await answer<{ ok: boolean; members: { id: string }[] }>("slack_get_users", { limit: 500 });
    expect(users.ok).toBe(true);
    expect(users.members.map((u) => u.id)).toEqual(expect.arrayContaining(["U0BOT", "U0ALICE"]));
    const profile = await answer<{ ok: boolean; profile: { title: string; real_name: string } }>("slack_get_user_profile", {
      user_id: "U0ALICE",
    });
    expect(profile).toMatchObject({ ok: true, profile: { title: "SRE", real_name: "Alice Smith" } });
    const tape = await tapeOf(sandbox, "slack");
    const usersList = tape.find((r) => r.operation === "users.list") as unknown as { query: string } | undefined;
    expect(new URLSearchParams(usersList?.query).get("limit")).toBe("200"); // capped as the server caps it
    const profileGet = tape.find((r) => r.operation === "users.profile.get") as unknown as { query: string } | undefined;
    expect(new URLSearchParams(profileGet?.query).get("include_labels")).toBe("true");
  });

  it("tapes every tool's Web API call with transport mcp, under the method it called", async () => {
    const tape = await tapeOf(sandbox, "slack");
    const mcp = tape.filter((r) => r.transport === "mcp").map((r) => r.operation);
    expect(mcp).toEqual(
      expect.arrayContaining([
        "conversations.list",
        "chat.postMessage",
        "reactions.add",
        "conversations.history",
        "conversations.replies",
        "users.list",
        "users.profile.get",
      ]),
    );
    const posts = tape.filter((r) => r.operation === "chat.postMessage");
    expect(posts.map((r) => r.request_body)).toEqual(
      expect.arrayContaining([
        { channel: "C0GENERAL", text: "Release is green" },
        { channel: "C0GENERAL", thread_ts: expect.any(String), text: "Shipping now" },
      ]),
    );
  });
});
