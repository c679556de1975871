// Reactions, pins, bookmarks, files (files.uploadV2 end to end) and search through WebClient.
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { slackErrorOf, slackSandbox, stateOf, webFor } from "./client";
import { acmeSeed } from "./fixtures";

const PARENT = "1700000000.000100";

describe("slack reactions, pins and bookmarks", () => {
  it("adds, reads, lists and removes reactions with Slack's refusals", async () => {
    const { sandbox, web } = await slackSandbox(acmeSeed());
    await web.reactions.add({ channel: "C0INCIDENT", timestamp: PARENT, name: "white_check_mark" });
    expect(await slackErrorOf(web.reactions.add({ channel: "C0INCIDENT", timestamp: PARENT, name: "white_check_mark" }))).toBe(
      "already_reacted",
    );
    expect(await slackErrorOf(web.reactions.add({ channel: "C0INCIDENT", timestamp: "1111111111.000001", name: "eyes" }))).toBe(
      "message_not_found",
    );
    expect(await slackErrorOf(web.reactions.add({ channel: "C0INCIDENT", timestamp: PARENT, name: "Not An Emoji" }))).toBe("invalid_name");
    const got = await web.reactions.get({ channel: "C0INCIDENT", timestamp: PARENT });
    expect(got.message?.reactions).toEqual([
      { name: "eyes", users: ["U0BOB"], count: 1 },
      { name: "white_check_mark", users: ["U0BOT"], count: 1 },
    ]);
    const list = await web.reactions.list({});
    expect(list.items?.map((i) => i.message?.ts)).toEqual([PARENT]);
    const state = await stateOf(sandbox);
    const incident = (state.channels as { id: string; messages: { ts: string; reactions?: unknown }[] }[]).find(
      (c) => c.id === "C0INCIDENT",
    );
    expect(incident?.messages[0]?.reactions).toEqual([
      { name: "eyes", users: ["U0BOB"] },
      { name: "white_check_mark", users: ["U0BOT"] },
    ]);
    await web.reactions.remove({ channel: "C0INCIDENT", timestamp: PARENT, name: "white_check_mark" });
    expect(await slackErrorOf(web.reactions.remove({ channel: "C0INCIDENT", timestamp: PARENT, name: "white_check_mark" }))).toBe(
      "no_reaction",
    );
  });

  it("pins and bookmarks", async () => {
    const { web } = await slackSandbox(acmeSeed());
    const pins = await web.pins.list({ channel: "C0INCIDENT" });
    expect(pins.items?.map((i) => (i as { message?: { ts?: string } }).message?.ts)).toEqual([PARENT]);
    expect(await slackErrorOf(web.pins.add({ channel: "C0INCIDENT", timestamp: PARENT }))).toBe("already_pinned");
    await web.pins.add({ channel: "C0INCIDENT", timestamp: "1700000000.000400" });
    await web.pins.remove({ channel: "C0INCIDENT", timestamp: PARENT });
    expect(await slackErrorOf(web.pins.remove({ channel: "C0INCIDENT", timestamp: PARENT }))).toBe("no_pin");
    expect(await slackErrorOf(web.pins.add({ channel: "C0RANDOM", timestamp: "1700000001.000100" }))).toBe("not_in_channel");
    const added = await web.bookmarks.add({
      channel_id: "C0INCIDENT",
      title: "Dashboard",
      type: "link",
      link: "https://grafana.acme.test",
    });
    expect(added.bookmark).toMatchObject({ title: "Dashboard", link: "https://grafana.acme.test", channel_id: "C0INCIDENT" });
    const marks = await web.bookmarks.list({ channel_id: "C0INCIDENT" });
    expect(marks.bookmarks?.map((b) => b.title)).toEqual(["Runbook", "Dashboard"]);
  });
});

describe("slack files", () => {
  it("uploads with files.uploadV2 end to end: URL in the sandbox, bytes, completion sharing to a channel", async () => {
    const { sandbox, web } = await slackSandbox(acmeSeed());
    const res = await web.filesUploadV2({
      channel_id: "C0INCIDENT",
      content: "line one\nline two\n",
      filename: "notes.txt",
      title: "Notes",
      initial_comment: "Here are the notes",
    });
    expect(res.ok).toBe(true);
    const completion = (
      res as unknown as { files: { files: { id: string; name: string; title: string; size: number; channels: string[] }[] }[] }
    ).files;
    const file = completion[0]?.files[0];
    expect(file).toMatchObject({ name: "notes.txt", title: "Notes", size: 18, channels: ["C0INCIDENT"] });
    const history = await web.conversations.history({ channel: "C0INCIDENT", limit: 1 });
    expect(history.messages?.[0]).toMatchObject({ text: "Here are the notes", user: "U0BOT" });
    expect(history.messages?.[0]?.files?.[0]?.id).toBe(file?.id);
    const info = await web.files.info({ file: String(file?.id) });
    expect(info.file?.mimetype).toBe("text/plain");
    // The content is served back at url_private, inside the sandbox.
    const url = String(info.file?.url_private);
    expect(url.startsWith(sandbox.per_twin.slack.api_url)).toBe(true);
    const download = await SELF.fetch(url, { headers: { authorization: `Bearer ${sandbox.provider_credentials.slack.token}` } });
    expect(await download.text()).toBe("line one\nline two\n");
    const state = await stateOf(sandbox);
    expect((state.files as { id: string; content?: string }[]).find((f) => f.id === file?.id)?.content).toBe("line one\nline two\n");
  });

  it("the upload URL points into the sandbox; lists, reads and deletes files", async () => {
    const { sandbox, web } = await slackSandbox(acmeSeed());
    const reserved = await web.files.getUploadURLExternal({ filename: "a.md", length: 3 });
    expect(reserved.upload_url).toBe(`${sandbox.per_twin.slack.api_url}/upload/v1/${reserved.file_id}`);
    // Not completed: not a file yet.
    expect(await slackErrorOf(web.files.info({ file: String(reserved.file_id) }))).toBe("file_not_found");
    expect(await slackErrorOf(web.files.completeUploadExternal({ files: [{ id: String(reserved.file_id) }] }))).toBe(
      "file_upload_not_found",
    );
    const list = await web.files.list({});
    expect(list.files?.map((f) => f.id)).toEqual(["F0RUNBOOK"]);
    expect(list.files?.[0]).toMatchObject({ size: 31, filetype: "markdown", channels: ["C0INCIDENT"] });
    expect(await slackErrorOf(web.files.delete({ file: "F0RUNBOOK" }))).toBe("cant_delete_file");
    const up = await web.filesUploadV2({ content: "bye", filename: "bye.txt" });
    const id = (up as unknown as { files: { files: { id: string }[] }[] }).files[0]?.files[0]?.id ?? "";
    await web.files.delete({ file: id });
    // Slack keeps a tombstone: a deleted file is file_deleted, not file_not_found.
    expect(await slackErrorOf(web.files.info({ file: id }))).toBe("file_deleted");
  });
});

describe("slack search", () => {
  it("searches with the user token and refuses the bot token with not_allowed_token_type", async () => {
    const { sandbox, web } = await slackSandbox(acmeSeed());
    expect(await slackErrorOf(web.search.messages({ query: "latency" }))).toBe("not_allowed_token_type");
    const userToken = sandbox.provider_credentials.slack.user_token ?? "";
    expect(userToken).toMatch(/^xoxp-/);
    const asAlice = webFor(sandbox, { token: userToken });
    expect((await asAlice.auth.test()).user_id).toBe("U0ALICE");
    const found = await asAlice.search.messages({ query: "latency" });
    expect(found.messages?.matches?.map((m) => m.text)).toEqual(["DB latency high"]);
    const scoped = await asAlice.search.messages({ query: "from:@bob in:#incidents" });
    expect(scoped.messages?.matches?.map((m) => m.text)).toEqual(["Failing over", "Looking"]);
    expect(scoped.messages?.total).toBe(2);
  });
});
