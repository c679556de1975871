// Messages and threads through WebClient: posting by id or name, bot user vs bot id, thread
// semantics (reply counts, history without replies unless broadcast, replies parent-first),
// edits, deletes, ephemeral, permalinks, /me, scheduled messages, and the errors Slack gives.
import { describe, expect, it } from "vitest";
import { slackErrorOf, slackSandbox, stateOf } from "./client";
import { acmeSeed } from "./fixtures";

describe("slack messages", () => {
  it("posts by id, #name and name; the bot's message carries user U… and bot_id B…; ts increase", async () => {
    const { web } = await slackSandbox(acmeSeed());
    const a = await web.chat.postMessage({ channel: "C0INCIDENT", text: "one" });
    const b = await web.chat.postMessage({ channel: "#incidents", text: "two" });
    const c = await web.chat.postMessage({ channel: "incidents", text: "three" });
    expect([a.channel, b.channel, c.channel]).toEqual(["C0INCIDENT", "C0INCIDENT", "C0INCIDENT"]);
    expect(a.message).toMatchObject({ type: "message", user: "U0BOT", bot_id: "B0BOT", text: "one", ts: a.ts });
    expect(a.message?.user).not.toBe(a.message?.bot_id);
    const tss = [a.ts, b.ts, c.ts].map(String);
    expect(tss.every((t) => /^\d{10}\.\d{6}$/.test(t))).toBe(true);
    expect([...tss].sort()).toEqual(tss);
    expect(new Set(tss).size).toBe(3);
    // Later than everything seeded, whatever the seed's dates.
    expect(tss[0] > "1700000001.000100").toBe(true);
  });

  it("keeps thread semantics: parent counts, history without replies except broadcasts, replies parent first", async () => {
    const { web } = await slackSandbox(acmeSeed());
    const parent = "1700000000.000100";
    const reply = await web.chat.postMessage({ channel: "C0INCIDENT", text: "on it", thread_ts: parent });
    expect(reply.message?.thread_ts).toBe(parent);
    const broadcast = await web.chat.postMessage({ channel: "C0INCIDENT", text: "fixed", thread_ts: parent, reply_broadcast: true });
    expect(broadcast.message?.subtype).toBe("thread_broadcast");

    const history = await web.conversations.history({ channel: "C0INCIDENT" });
    const texts = history.messages?.map((m) => m.text);
    expect(texts).toEqual(["fixed", "Runbook attached", "Failing over", "DB latency high"]);
    const top = history.messages?.find((m) => m.ts === parent);
    expect(top).toMatchObject({ thread_ts: parent, reply_count: 4, reply_users: ["U0BOB", "U0BOT"], reply_users_count: 2, latest_reply: broadcast.ts });
    expect(top?.reactions).toEqual([{ name: "eyes", users: ["U0BOB"], count: 1 }]);

    const replies = await web.conversations.replies({ channel: "C0INCIDENT", ts: parent });
    expect(replies.messages?.map((m) => m.text)).toEqual(["DB latency high", "Looking", "Failing over", "on it", "fixed"]);
    // A reply's ts leads to the same thread.
    const viaReply = await web.conversations.replies({ channel: "C0INCIDENT", ts: String(reply.ts) });
    expect(viaReply.messages?.[0]?.ts).toBe(parent);
    expect(await slackErrorOf(web.conversations.replies({ channel: "C0INCIDENT", ts: "1111111111.000001" }))).toBe("thread_not_found");
  });

  it("paginates history and replies with opaque cursors (paginate collects every page)", async () => {
    const { web } = await slackSandbox(acmeSeed());
    for (let i = 0; i < 7; i++) await web.chat.postMessage({ channel: "C0GENERAL", text: `m${i}` });
    const first = await web.conversations.history({ channel: "C0GENERAL", limit: 3 });
    expect(first.messages?.map((m) => m.text)).toEqual(["m6", "m5", "m4"]);
    expect(first.has_more).toBe(true);
    const cursor = first.response_metadata?.next_cursor ?? "";
    expect(cursor).not.toMatch(/^\d/);
    const pages: string[][] = [];
    for await (const page of web.paginate("conversations.history", { channel: "C0GENERAL", limit: 3 })) {
      pages.push(((page as { messages?: { text?: string }[] }).messages ?? []).map((m) => m.text ?? ""));
    }
    expect(pages).toEqual([["m6", "m5", "m4"], ["m3", "m2", "m1"], ["m0"]]);
    expect(await slackErrorOf(web.conversations.history({ channel: "C0GENERAL", cursor: "bm9wZQ==" }))).toBe("invalid_cursor");

    const oldest = await web.conversations.history({ channel: "C0GENERAL", oldest: String(first.messages?.[1]?.ts), inclusive: true });
    expect(oldest.messages?.map((m) => m.text)).toEqual(["m6", "m5"]);
  });

  it("enforces membership: not_in_channel to post or read where the bot is not, channel_not_found for private ones", async () => {
    const { web } = await slackSandbox(acmeSeed());
    expect(await slackErrorOf(web.chat.postMessage({ channel: "C0RANDOM", text: "hi" }))).toBe("not_in_channel");
    expect(await slackErrorOf(web.conversations.history({ channel: "C0RANDOM" }))).toBe("not_in_channel");
    expect(await slackErrorOf(web.conversations.replies({ channel: "C0RANDOM", ts: "1700000001.000100" }))).toBe("not_in_channel");
    expect(await slackErrorOf(web.chat.postMessage({ channel: "C0LEADS", text: "hi" }))).toBe("channel_not_found");
    expect(await slackErrorOf(web.conversations.info({ channel: "C0LEADS" }))).toBe("channel_not_found");
    expect(await slackErrorOf(web.chat.postMessage({ channel: "C0NOPE", text: "hi" }))).toBe("channel_not_found");
    expect(await slackErrorOf(web.chat.postMessage({ channel: "C0GENERAL", text: "" }))).toBe("no_text");
  });

  it("with chat:write.public the bot posts to a public channel it is not in, but still cannot read it", async () => {
    const seed = acmeSeed();
    const { web } = await slackSandbox({ ...seed, installation: { ...seed.installation, scope: `${seed.installation.scope},chat:write.public` } });
    const posted = await web.chat.postMessage({ channel: "random", text: "hello from outside" });
    expect(posted.channel).toBe("C0RANDOM");
    expect(await slackErrorOf(web.conversations.history({ channel: "C0RANDOM" }))).toBe("not_in_channel");
    expect(await slackErrorOf(web.chat.postMessage({ channel: "C0LEADS", text: "hi" }))).toBe("channel_not_found");
  });

  it("updates and deletes its own messages only", async () => {
    const { sandbox, web } = await slackSandbox(acmeSeed());
    const posted = await web.chat.postMessage({ channel: "C0INCIDENT", text: "draft" });
    const ts = String(posted.ts);
    const updated = await web.chat.update({ channel: "C0INCIDENT", ts, text: "final" });
    expect(updated).toMatchObject({ ok: true, channel: "C0INCIDENT", ts, text: "final" });
    expect(updated.message?.edited?.user).toBe("U0BOT");
    expect(await slackErrorOf(web.chat.update({ channel: "C0INCIDENT", ts: "1700000000.000100", text: "x" }))).toBe("cant_update_message");
    expect(await slackErrorOf(web.chat.update({ channel: "C0INCIDENT", ts: "1111111111.000001", text: "x" }))).toBe("message_not_found");
    expect(await slackErrorOf(web.chat.delete({ channel: "C0INCIDENT", ts: "1700000000.000100" }))).toBe("cant_delete_message");
    const state = await stateOf(sandbox);
    const incident = (state.channels as { id: string; messages: { ts: string; text: string; edited?: unknown }[] }[]).find((c) => c.id === "C0INCIDENT");
    expect(incident?.messages.find((m) => m.ts === ts)).toMatchObject({ text: "final", edited: { user: "U0BOT" } });
    await web.chat.delete({ channel: "C0INCIDENT", ts });
    expect(await slackErrorOf(web.chat.delete({ channel: "C0INCIDENT", ts }))).toBe("message_not_found");
  });

  it("serves ephemeral messages, permalinks and /me messages", async () => {
    const { web } = await slackSandbox(acmeSeed());
    const eph = await web.chat.postEphemeral({ channel: "C0INCIDENT", user: "U0ALICE", text: "psst" });
    expect(eph.message_ts).toMatch(/^\d{10}\.\d{6}$/);
    expect(await slackErrorOf(web.chat.postEphemeral({ channel: "C0INCIDENT", user: "U0CAROL", text: "psst" }))).toBe("user_not_in_channel");
    const link = await web.chat.getPermalink({ channel: "C0INCIDENT", message_ts: "1700000000.000100" });
    expect(link.permalink).toBe("https://acme.slack.com/archives/C0INCIDENT/p1700000000000100");
    const me = await web.chat.meMessage({ channel: "C0GENERAL", text: "waves" });
    const history = await web.conversations.history({ channel: "C0GENERAL", limit: 1 });
    expect(history.messages?.[0]).toMatchObject({ ts: me.ts, subtype: "me_message", text: "waves" });
  });

  it("schedules, lists and cancels messages; time_in_past for the past", async () => {
    const { web } = await slackSandbox(acmeSeed());
    const postAt = Math.floor(Date.now() / 1000) + 3600;
    const s = await web.chat.scheduleMessage({ channel: "C0GENERAL", text: "later", post_at: postAt });
    expect(s.scheduled_message_id).toMatch(/^Q/);
    const list = await web.chat.scheduledMessages.list({});
    expect(list.scheduled_messages?.map((m) => m.id).sort()).toEqual([s.scheduled_message_id, "Q0REMIND"].sort());
    await web.chat.deleteScheduledMessage({ channel: "C0GENERAL", scheduled_message_id: String(s.scheduled_message_id) });
    expect(await slackErrorOf(web.chat.deleteScheduledMessage({ channel: "C0GENERAL", scheduled_message_id: String(s.scheduled_message_id) }))).toBe(
      "invalid_scheduled_message_id",
    );
    expect(await slackErrorOf(web.chat.scheduleMessage({ channel: "C0GENERAL", text: "x", post_at: 1000000000 }))).toBe("time_in_past");
  });

  it("posts a seeded scheduled message once its post_at has passed, before the next call", async () => {
    const { sandbox, web } = await slackSandbox(acmeSeed({ scheduled_messages: [{ id: "Q0PAST", channel_id: "C0GENERAL", post_at: 1600000000, text: "Stand-up!" }] }));
    const history = await web.conversations.history({ channel: "C0GENERAL" });
    expect(history.messages?.[0]).toMatchObject({ text: "Stand-up!", user: "U0BOT", bot_id: "B0BOT" });
    const state = await stateOf(sandbox);
    expect(state.scheduled_messages).toEqual([]);
  });
});
