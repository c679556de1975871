// A loose contract from Slack's own (stale) OpenAPI description: every successful answer of a
// method the spec describes carries the keys its 200 schema requires.
import { describe, expect, it } from "vitest";
import spec from "../../fixtures/service-specs/slack/required-keys.json";
import { slackTwin } from "../../../durable-objects/twins/slack";
import { inTwinWorld } from "../kit/world";
import { ACME_SCOPES, acmeSeed } from "./fixtures";

const PARENT = "1700000000.000100";
const methods: Record<string, { required: string[] }> = spec.methods;

/** One successful call per method, in an order that makes each possible. */
const CALLS: [string, Record<string, unknown>, Record<string, string>?][] = [
  ["auth.test", {}],
  ["team.info", {}],
  ["users.list", {}],
  ["users.info", { user: "U0ALICE" }],
  ["users.lookupByEmail", { email: "bob@acme.test" }],
  ["users.conversations", {}],
  ["users.profile.get", {}],
  ["users.getPresence", { user: "U0BOB" }],
  ["conversations.list", {}],
  ["conversations.info", { channel: "C0INCIDENT" }],
  ["conversations.history", { channel: "C0INCIDENT" }],
  ["conversations.replies", { channel: "C0INCIDENT", ts: PARENT }],
  ["conversations.members", { channel: "C0INCIDENT" }],
  ["conversations.create", { name: "spec-check" }],
  ["conversations.join", { channel: "C0RANDOM" }],
  ["conversations.invite", { channel: "C0RANDOM", users: "U0CAROL" }],
  ["conversations.kick", { channel: "C0RANDOM", user: "U0CAROL" }],
  ["conversations.rename", { channel: "C0RANDOM", name: "random-2" }],
  ["conversations.setTopic", { channel: "C0RANDOM", topic: "t" }],
  ["conversations.setPurpose", { channel: "C0RANDOM", purpose: "p" }],
  ["conversations.archive", { channel: "C0RANDOM" }],
  // A bot token cannot unarchive (docs.slack.dev): the authed user does.
  ["conversations.unarchive", { channel: "C0RANDOM" }, { authorization: "Bearer xoxp-unit" }],
  ["conversations.leave", { channel: "C0RANDOM" }],
  ["conversations.open", { users: "U0BOB" }],
  ["conversations.mark", { channel: "C0INCIDENT", ts: PARENT }],
  ["chat.postMessage", { channel: "C0INCIDENT", text: "spec" }],
  ["chat.meMessage", { channel: "C0INCIDENT", text: "waves" }],
  ["chat.postEphemeral", { channel: "C0INCIDENT", user: "U0ALICE", text: "psst" }],
  ["chat.getPermalink", { channel: "C0INCIDENT", message_ts: PARENT }],
  ["chat.scheduleMessage", { channel: "C0INCIDENT", text: "later", post_at: Math.floor(Date.now() / 1000) + 600 }],
  ["chat.scheduledMessages.list", {}],
  ["chat.deleteScheduledMessage", { channel: "C0INCIDENT", scheduled_message_id: "Q0REMIND" }],
  ["reactions.add", { channel: "C0INCIDENT", timestamp: PARENT, name: "tada" }],
  ["reactions.get", { channel: "C0INCIDENT", timestamp: PARENT }],
  ["reactions.list", {}],
  ["reactions.remove", { channel: "C0INCIDENT", timestamp: PARENT, name: "tada" }],
  ["pins.add", { channel: "C0INCIDENT", timestamp: "1700000000.000400" }],
  ["pins.list", { channel: "C0INCIDENT" }],
  ["pins.remove", { channel: "C0INCIDENT", timestamp: "1700000000.000400" }],
  ["files.info", { file: "F0RUNBOOK" }],
  ["files.list", {}],
  ["usergroups.list", {}],
  ["emoji.list", {}],
];

describe("slack answers carry the keys Slack's spec requires", () => {
  it("covers every method the spec describes except search (user token) and the delete calls run elsewhere", () => {
    const covered = new Set(CALLS.map(([m]) => m));
    const uncovered = Object.keys(methods).filter((m) => !covered.has(m));
    expect(uncovered.sort()).toEqual(["chat.delete", "chat.update", "files.delete", "search.messages"]);
  });

  it("each successful answer has its method's required keys", async () => {
    const installation = {
      app_id: "A0DEPLOY",
      bot_user_id: "U0BOT",
      scope: ACME_SCOPES,
      authed_user: { id: "U0ALICE", scope: "channels:write" },
    };
    await inTwinWorld(slackTwin, acmeSeed({ installation }), (w) => {
      for (const [method, body, headers] of CALLS) {
        const res = w.call("POST", `/api/${method}`, { body, ...(headers ? { headers } : {}) });
        expect(res.status, method).toBe(200);
        expect(res.body, method).toMatchObject({ ok: true });
        const required = methods[method]?.required ?? [];
        for (const key of required) expect(res.body, `${method} lacks ${key}`).toHaveProperty(key);
      }
    });
  });
});
