// Seeded faults on the platform's one mechanism: chosen calls of a root field answer Linear's
// error of that class (the SDK raises its own class for each) and change nothing.
import { ForbiddenLinearError, InternalLinearError, InvalidInputLinearError, RatelimitedLinearError } from "@linear/sdk";
import { beforeAll, describe, expect, it } from "vitest";
import { twinFetch } from "../helpers";
import { acmeWorld, linearFor, linearSandbox, routeFetchThroughSelf } from "./fixtures";

beforeAll(routeFetchThroughSelf);

describe("linear twin: seeded faults", () => {
  it("answers the seeded error classes for the chosen calls, then serves normally", async () => {
    const sb = await linearSandbox(
      acmeWorld({
        faults: [
          { operation: "issueCreate", error: "ratelimited", times: 1 },
          { operation: "issues", error: "internal", skip: 1, times: 1 },
          { operation: "commentCreate", error: "forbidden" },
        ],
      }),
    );
    const client = linearFor(sb);
    const team = (await client.teams()).nodes[0];
    const limited = await client.createIssue({ teamId: team.id, title: "First try" }).catch((e: unknown) => e);
    expect(limited).toBeInstanceOf(RatelimitedLinearError);
    expect((limited as RatelimitedLinearError).retryAfter).toBe(60);
    expect((limited as RatelimitedLinearError).requestsRemaining).toBe(0);
    expect((await client.createIssue({ teamId: team.id, title: "Second try" })).success).toBe(true);
    expect((await client.issues()).nodes.length).toBe(3);
    await expect(client.issues()).rejects.toBeInstanceOf(InternalLinearError);
    expect((await client.issues()).nodes.length).toBe(3);
    await expect(client.createComment({ issueId: "ENG-1", body: "x" })).rejects.toBeInstanceOf(ForbiddenLinearError);
    await expect(client.issue("ENG-404")).rejects.toBeInstanceOf(InvalidInputLinearError);
    const state = (await (await twinFetch(sb, "/_pome/state", {}, "linear")).json()) as { issues: { title: string }[] };
    expect(state.issues.map((i) => i.title)).toEqual(["Checkout fails with 500", "Refund flow times out", "Second try"]);
    const rows = (await (await twinFetch(sb, "/_pome/events", {}, "linear")).json()) as {
      operation: string;
      status: number;
      mutated: boolean;
    }[];
    expect(rows.map((r) => [r.operation, r.status, r.mutated])).toEqual([
      ["teams", 200, false],
      ["issueCreate", 429, false],
      ["issueCreate", 200, true],
      ["issues", 200, false],
      ["issues", 500, false],
      ["issues", 200, false],
      ["commentCreate", 403, false],
      ["issue", 400, false],
    ]);
  });
});
