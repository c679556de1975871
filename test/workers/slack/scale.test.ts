// Point reads and writes cost the same on a workspace of 10 messages as on one of 10,000, and a
// page of history costs its page: measured as rows SQLite reads (deterministic), not as time.
import { describe, expect, it } from "vitest";
import { slackTwin } from "../../../durable-objects/twins/slack";
import { inTwinWorld } from "../kit/world";

/** The calls an agent makes around one message, run in order; `$ts` is the newest seeded message. */
const CALLS: [string, Record<string, unknown>][] = [
  ["auth.test", {}],
  ["conversations.info", { channel: "C0GENERAL" }],
  ["users.info", { user: "U0ALICE" }],
  ["chat.postMessage", { channel: "C0GENERAL", text: "hello" }],
  ["chat.postMessage", { channel: "C0GENERAL", text: "reply", thread_ts: "$ts" }],
  ["conversations.history", { channel: "C0GENERAL", limit: 10 }],
  ["conversations.replies", { channel: "C0GENERAL", ts: "$ts" }],
  ["reactions.add", { channel: "C0GENERAL", timestamp: "$ts", name: "eyes" }],
  ["reactions.get", { channel: "C0GENERAL", timestamp: "$ts" }],
  ["pins.add", { channel: "C0GENERAL", timestamp: "$ts" }],
  ["chat.getPermalink", { channel: "C0GENERAL", message_ts: "$ts" }],
  ["conversations.setTopic", { channel: "C0GENERAL", topic: "busy" }],
];

async function costs(count: number): Promise<number[]> {
  const seed = slackTwin.generateSeed?.(count);
  return inTwinWorld(slackTwin, seed, (w) => {
    const general = w.seed.channels.find((c) => c.id === "C0GENERAL");
    const newest = general?.messages.at(-1)?.ts ?? "";
    return CALLS.map(([method, args]) => {
      const body = Object.fromEntries(Object.entries(args).map(([k, v]) => [k, v === "$ts" ? newest : v]));
      const before = w.rowsRead();
      const res = w.call("POST", `/api/${method}`, { body });
      expect(res.body, method).toMatchObject({ ok: true });
      return w.rowsRead() - before;
    });
  });
}

describe("slack point reads and writes are constant in the workspace's size", () => {
  it("reads the same number of rows for each call on 10 and on 10,000 messages", async () => {
    const small = await costs(10);
    const large = await costs(10_000);
    const table = CALLS.map(([method], i) => `${method}: ${small[i]} vs ${large[i]}`);
    expect(small.every((n) => n > 0), "every call is measured").toBe(true);
    expect(large, table.join("\n")).toEqual(small);
  });
});
