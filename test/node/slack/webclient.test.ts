// @slack/web-api exactly as an agent configures it, with Node's own fetch (no adapter), against
// the running server: slackApiUrl = api_url + "/api/" and the sandbox's token, nothing else.
import { WebClient } from "@slack/web-api";
import { describe, expect, it } from "vitest";
import { createSandbox } from "../mcp/helpers";

describe("an unmodified WebClient against the Slack twin", () => {
  it("posts, threads, paginates and uploads", async () => {
    const sandbox = await createSandbox({ twins: ["slack"] });
    const web = new WebClient(sandbox.provider_credentials.slack.token, { slackApiUrl: `${sandbox.per_twin.slack.api_url}/api/`, retryConfig: { retries: 0 } });
    const me = await web.auth.test();
    expect(me).toMatchObject({ ok: true, user_id: "U0BOT", bot_id: "B0BOT", team: "Acme" });
    const parent = await web.chat.postMessage({ channel: "#general", text: "release train leaves at 5" });
    await web.chat.postMessage({ channel: "C0GENERAL", thread_ts: String(parent.ts), text: "on board" });
    const thread = await web.conversations.replies({ channel: "C0GENERAL", ts: String(parent.ts) });
    expect(thread.messages?.map((m) => m.text)).toEqual(["release train leaves at 5", "on board"]);
    const texts: string[] = [];
    for await (const page of web.paginate("conversations.history", { channel: "C0GENERAL", limit: 2 })) {
      texts.push(...((page as { messages?: { text?: string }[] }).messages ?? []).map((m) => m.text ?? ""));
    }
    // The default world's #general history (its thread reply left out), newest first.
    expect(texts).toEqual(["release train leaves at 5", "Deploy of api v2 is planned for Friday", "Welcome to Acme!"]);
    const up = await web.filesUploadV2({ channel_id: "C0GENERAL", content: "notes", filename: "notes.txt" });
    expect(up.ok).toBe(true);
    const refused = await web.chat.postMessage({ channel: "C0RANDOM", text: "hi" }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: "slack_webapi_platform_error", data: { error: "not_in_channel" } });
  });

  it("keeps a binary upload byte for byte: size, download and export as content_base64", async () => {
    const sandbox = await createSandbox({ twins: ["slack"] });
    const web = new WebClient(sandbox.provider_credentials.slack.token, { slackApiUrl: `${sandbox.per_twin.slack.api_url}/api/`, retryConfig: { retries: 0 } });
    const bytes = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
    const up = await web.filesUploadV2({ channel_id: "C0GENERAL", file: bytes, filename: "blob.bin" });
    const file = (up as unknown as { files: { files: { id: string; size: number; url_private: string }[] }[] }).files[0]?.files[0];
    expect(file?.size).toBe(256);
    const auth = { authorization: `Bearer ${sandbox.provider_credentials.slack.token}` };
    const download = await fetch(String(file?.url_private), { headers: auth });
    expect(Buffer.from(await download.arrayBuffer()).equals(bytes)).toBe(true);
    const state = (await (await fetch(`${sandbox.per_twin.slack.api_url}/_pome/state`, { headers: auth })).json()) as { files: { id: string; content_base64?: string; content?: string }[] };
    const exported = state.files.find((f) => f.id === file?.id);
    expect(exported?.content_base64).toBe(bytes.toString("base64"));
    expect(exported?.content).toBeUndefined();
  });
});
