// Simulated teammates: a scripted reply fires just before the N-th call after the agent's
// matching message (that call sees it, the ones before do not), or before the first call S
// seconds later on the sandbox clock; it is an ordinary message, not a tape row, and fires once.
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { slackTwin } from "../../../durable-objects/twins/slack";
import type { TapeRow } from "../../../durable-objects/twins/types";
import { inTwinWorld } from "../kit/world";
import { slackSandbox, stateOf } from "./client";
import { acmeSeed } from "./fixtures";

const PARENT = "1700000000.000100";

describe("slack scripted replies", () => {
  it("replies in the thread just before the second call after the trigger, once", async () => {
    const { sandbox, web } = await slackSandbox(acmeSeed());
    // Not a match, and not in the rule's thread: nothing is armed.
    await web.chat.postMessage({ channel: "C0INCIDENT", text: "rollback?" });
    await web.chat.postMessage({ channel: "C0INCIDENT", thread_ts: PARENT, text: "Shall we ROLLBACK the deploy?" });
    const first = await web.conversations.replies({ channel: "C0INCIDENT", ts: PARENT });
    expect(first.messages?.map((m) => m.text)).not.toContain("Approved, roll back.");
    const second = await web.conversations.replies({ channel: "C0INCIDENT", ts: PARENT });
    const last = second.messages?.at(-1);
    expect(last).toMatchObject({ text: "Approved, roll back.", user: "U0ALICE", thread_ts: PARENT });
    expect(String(last?.ts) > String(second.messages?.at(-2)?.ts)).toBe(true);
    expect(second.messages?.[0]?.reply_count).toBe(4);
    // Fires once: a second trigger does nothing.
    await web.chat.postMessage({ channel: "C0INCIDENT", thread_ts: PARENT, text: "rollback again" });
    await web.auth.test();
    await web.auth.test();
    const after = await web.conversations.replies({ channel: "C0INCIDENT", ts: PARENT });
    expect(after.messages?.filter((m) => m.text === "Approved, roll back.")).toHaveLength(1);
    const state = await stateOf(sandbox);
    expect(state.scripted_replies).toEqual([]);
    const tape = await (await SELF.fetch(`${sandbox.per_twin.slack.api_url}/_pome/events`, { headers: { authorization: `Bearer ${sandbox.agent_token}` } })).json<TapeRow[]>();
    // Only the agent's calls are taped; the delivery is not a call and leaves the read unmutated.
    expect(tape).toHaveLength(8);
    expect(tape[3]).toMatchObject({ operation: "conversations.replies", mutated: false });
  });

  it("replies in the channel after S seconds of the sandbox clock", async () => {
    let now = Date.UTC(2026, 0, 1);
    const seed = acmeSeed({
      scripted_replies: [{ channel: "C0GENERAL", match: "anyone", user: "U0BOB", text: "I can help", reply_in: "channel", after: { seconds: 60 } }],
    });
    await inTwinWorld(
      slackTwin,
      seed,
      (w) => {
        const post = w.call("POST", "/api/chat.postMessage", { body: { channel: "C0GENERAL", text: "Is anyone around?" } });
        expect(post.body).toMatchObject({ ok: true });
        now += 59_000;
        const early = w.call("POST", "/api/conversations.history", { body: { channel: "C0GENERAL" } }).body as { messages: { text: string }[] };
        expect(early.messages.map((m) => m.text)).not.toContain("I can help");
        now += 2_000;
        const late = w.call("POST", "/api/conversations.history", { body: { channel: "C0GENERAL" } }).body as { messages: { text: string; user: string; thread_ts?: string }[] };
        expect(late.messages[0]).toMatchObject({ text: "I can help", user: "U0BOB" });
        expect(late.messages[0]?.thread_ts).toBeUndefined();
      },
      { now: () => now },
    );
  });

  it("a message the twin writes itself does not trigger, and the rule stays in the export until it fires", async () => {
    const { sandbox, web } = await slackSandbox(
      acmeSeed({ scripted_replies: [{ channel: "C0INCIDENT", match: "topic", user: "U0ALICE", text: "nice topic", after: { calls: 1 } }] }),
    );
    await web.conversations.setTopic({ channel: "C0INCIDENT", topic: "new topic" });
    await web.auth.test();
    const history = await web.conversations.history({ channel: "C0INCIDENT" });
    expect(history.messages?.map((m) => m.text)).not.toContain("nice topic");
    expect((await stateOf(sandbox)).scripted_replies).toHaveLength(1);
  });
});
