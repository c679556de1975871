// The Slack twin's figures: a point read (reactions.get on one message), a point write
// (chat.postMessage) and a page of conversations.history against a bare Node round trip, and the
// same calls on a workspace of `bigWorld` messages against one of 10. Measured side by side in one
// shuffled loop, like the latency section, so machine drift hits every series alike.
import { describeFailure, jsonOf, request } from "../lib/http.mjs";
import { PAGE, measureTwin, twinSandbox, twinSpecs } from "../lib/twin-section.mjs";

/** A workspace with `count` messages in #general, in the seed's own shape. */
function slackWorld(count) {
  const messages = [];
  for (let i = 0; i < count; i++) {
    const micros = String((i % 1000) * 100 + 1).padStart(6, "0");
    messages.push({ ts: `${1600000000 + Math.floor(i / 1000)}.${micros}`, user: i % 2 ? "U0ALICE" : "U0BOB", text: `Message ${i + 1}` });
  }
  return {
    team: { id: "T0BENCH", name: "Bench", domain: "bench" },
    installation: { bot_user_id: "U0BOT" },
    users: [
      { id: "U0BOT", name: "benchbot", is_bot: true, profile: { bot_id: "B0BOT" } },
      { id: "U0ALICE", name: "alice" },
      { id: "U0BOB", name: "bob" },
    ],
    channels: [{ id: "C0GENERAL", name: "general", is_general: true, members: ["U0BOT", "U0ALICE", "U0BOB"], messages }],
  };
}

/** A Slack sandbox of `count` messages with the calls the section makes (the profiler uses it too). */
export async function create(baseUrl, count) {
  const sandbox = await twinSandbox(baseUrl, "slack", slackWorld(count));
  const api = `${sandbox.body.per_twin.slack.api_url}/api`;
  const headers = {
    authorization: `Bearer ${sandbox.body.provider_credentials.slack.token}`,
    "content-type": "application/x-www-form-urlencoded",
  };
  const call = (method, form) => request(`${api}/${method}`, { method: "POST", headers, body: new URLSearchParams(form).toString() });
  const added = await call("bookmarks.add", {
    channel_id: "C0GENERAL",
    title: "Runbook",
    type: "link",
    link: "https://example.com/runbook",
  });
  const bookmark = jsonOf(added)?.bookmark?.id;
  if (!bookmark) throw new Error(describeFailure("bookmarks.add", added));
  return {
    ...sandbox,
    read: (ts) => call("reactions.get", { channel: "C0GENERAL", timestamp: ts }),
    write: () => call("chat.postMessage", { channel: "C0GENERAL", text: "bench message" }),
    list: () => call("conversations.history", { channel: "C0GENERAL", limit: String(PAGE) }),
    // People and the rest of the workspace, areas of round 3: a profile, and a channel bookmark.
    profile: () => call("users.profile.get", { user: "U0ALICE" }),
    bookmark: (i) => call("bookmarks.edit", { channel_id: "C0GENERAL", bookmark_id: bookmark, title: `Runbook ${i}` }),
  };
}

export const tsOf = (i) => `${1600000000 + Math.floor(i / 1000)}.${String((i % 1000) * 100 + 1).padStart(6, "0")}`;
/** A Slack answer counts when it is HTTP 200 and `ok: true`. */
const okReply = (reply) => reply.status === 200 && jsonOf(reply)?.ok === true;

/** Point calls in profiles and bookmarks, judged like the twin's own read and write. */
const AREAS = [
  { key: "profile", kind: "read", name: "users.profile.get", label: "users.profile.get", call: (s) => s.profile() },
  { key: "bookmark", kind: "write", name: "bookmarks.edit", label: "bookmarks.edit", call: (s, at) => s.bookmark(at()) },
];

export const measureSlack = (ctx) =>
  measureTwin(ctx, {
    name: "slack",
    areas: AREAS,
    specs: twinSpecs({
      twin: "slack",
      display: "Slack",
      big: ctx.sizes.bigWorld,
      read: "reactions.get",
      write: "chat.postMessage",
      list: "history page",
      objects: "messages",
      world: "message world",
      areas: AREAS,
    }),
    create: (count) => create(ctx.platform.baseUrl, count),
    pick: (random, max) => tsOf(Math.floor(random() * max)),
    labels: { read: "reactions.get", write: "chat.postMessage", list: "conversations.history" },
    ok: okReply,
  });
