// Point reads and writes cost the same in a mailbox of 10 messages as in one of 10,000, and a
// list page at most twice as much. Measured as rows SQLite reads (deterministic), not as time.
import { describe, expect, it } from "vitest";
import { gmailTwin } from "../../../durable-objects/twins/gmail";
import { inTwinWorld } from "../kit/world";

const M = "/gmail/v1/users/me";
const ID = "19a0000000000005";

const POINT_CALLS: [string, string, { body?: unknown; query?: string }?][] = [
  ["GET", `${M}/profile`],
  ["GET", `${M}/messages/${ID}`],
  ["GET", `${M}/messages/${ID}`, { query: "format=metadata&metadataHeaders=Subject" }],
  ["POST", `${M}/messages/${ID}/modify`, { body: { removeLabelIds: ["UNREAD"], addLabelIds: ["Label_1"] } }],
  ["POST", `${M}/messages/${ID}/trash`],
  ["POST", `${M}/messages/${ID}/untrash`],
  ["GET", `${M}/threads/${ID}`],
  ["POST", `${M}/labels`, { body: { name: "Fresh" } }],
  ["GET", `${M}/settings/sendAs`],
];

const LIST_CALLS: [string, string, { query?: string }][] = [
  ["GET", `${M}/messages`, { query: "maxResults=10" }],
  ["GET", `${M}/messages`, { query: "maxResults=10&labelIds=INBOX" }],
  ["GET", `${M}/messages`, { query: `maxResults=3&pageToken=${Date.UTC(2026, 0, 5, 9) + 8 * 60_000}:19a0000000000009` }],
  ["GET", `${M}/messages`, { query: `maxResults=3&labelIds=INBOX&pageToken=${Date.UTC(2026, 0, 5, 9) + 8 * 60_000}:19a0000000000009` }],
  ["GET", `${M}/threads`, { query: "maxResults=10" }],
  // A later page walks on from its token's position: it does not re-read the pages before it.
  ["GET", `${M}/threads`, { query: `maxResults=3&pageToken=${Date.UTC(2026, 0, 5, 9) + 8 * 60_000}:19a0000000000009` }],
];

async function costs(count: number, calls: typeof POINT_CALLS): Promise<number[]> {
  return inTwinWorld(gmailTwin, gmailTwin.generateSeed?.(count), (w) => calls.map(([method, path, opts]) => w.cost(method, path, opts)));
}

describe("the Gmail twin's cost does not grow with the mailbox", () => {
  it("reads the same rows for each point call on 10 and on 10,000 messages", async () => {
    const small = await costs(10, POINT_CALLS);
    const large = await costs(10_000, POINT_CALLS);
    const table = POINT_CALLS.map(([method, path], i) => `${method} ${path}: ${small[i]} vs ${large[i]}`);
    expect(
      small.every((n) => n > 0),
      "every call is measured",
    ).toBe(true);
    expect(large, table.join("\n")).toEqual(small);
  });

  it("reads at most twice the rows for a list page", async () => {
    const small = await costs(10, LIST_CALLS);
    const large = await costs(10_000, LIST_CALLS);
    LIST_CALLS.forEach((c, i) =>
      expect(large[i] ?? 0, `${c[2].query}: ${small[i]} vs ${large[i]}`).toBeLessThanOrEqual(2 * (small[i] ?? 0)),
    );
  });
});
