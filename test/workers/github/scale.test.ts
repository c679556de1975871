// Point reads and writes cost the same on a world of 10 issues as on one of 10,000. Measured as
// rows SQLite reads (deterministic), not as time.
import { describe, expect, it } from "vitest";
import { manyIssuesWorld } from "./fixtures";
import { inWorld } from "./world";

/** The calls an agent makes on one issue, each run in order against a fresh world. */
const POINT_CALLS: [string, string, unknown?][] = [
  ["GET", "/repos/acme/big"],
  ["GET", "/repos/acme/big/issues/5"],
  ["PATCH", "/repos/acme/big/issues/5", { title: "Renamed", state: "closed" }],
  ["POST", "/repos/acme/big/issues/5/labels", { labels: ["triage", "new-label"] }],
  ["DELETE", "/repos/acme/big/issues/5/labels/triage"],
  ["POST", "/repos/acme/big/issues/5/comments", { body: "On it" }],
  ["GET", "/repos/acme/big/issues/5/comments"],
  ["PUT", "/repos/acme/big/issues/5/lock", {}],
  ["POST", "/repos/acme/big/issues/5/assignees", { assignees: ["octo"] }],
  ["POST", "/repos/acme/big/issues", { title: "Fresh", labels: ["bug"] }],
  ["GET", "/repos/acme/big/labels/bug"],
  ["GET", "/repos/acme/big/contents/README.md"],
  ["GET", "/user"],
];

async function costs(issues: number): Promise<number[]> {
  const world = manyIssuesWorld(issues);
  const seed = {
    ...world,
    repositories: [{ ...world.repositories[0], branches: [{ name: "main", files: [{ path: "README.md", content: "# big\n" }] }] }],
  };
  return inWorld(seed, (w) => POINT_CALLS.map(([method, path, body]) => w.cost(method, path, { body })));
}

describe("point reads and writes are constant in the world's size", () => {
  it("reads the same number of rows for each call on 10 and on 10,000 issues", async () => {
    const small = await costs(10);
    const large = await costs(10_000);
    const table = POINT_CALLS.map(([method, path], i) => `${method} ${path}: ${small[i]} vs ${large[i]}`);
    // `GET /user` answers from facts fixed at boot (the acting login, its user row), read once per
    // sandbox and already read by the calls before it; every other call must show its reads.
    const measured = POINT_CALLS.map(([method, path], i) => ({ call: `${method} ${path}`, rows: small[i] }));
    expect(
      measured.filter((m) => m.call !== "GET /user" && !(m.rows > 0)),
      "every call is measured",
    ).toEqual([]);
    expect(large, table.join("\n")).toEqual(small);
  });
});
