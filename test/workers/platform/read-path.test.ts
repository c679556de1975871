// Calls that only read are served without a transaction (Sandbox.answerReading): a GET, a GraphQL
// query, a Slack read method. The guard in Db.readingOnly refuses any write such a call attempts
// (a seeded fault's counter, a delivery counting calls) before it runs, and the call is served again
// inside a transaction: the tape, the world and the counters are as if there were one path.
import { env, runInDurableObject } from "cloudflare:test";
import { InternalLinearError } from "@linear/sdk";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Sandbox } from "../../../durable-objects/Sandbox";
import { Db } from "../../../durable-objects/sql";
import { sandboxStub } from "../../../workers/stubs";
import { createSandbox, octokitFor, twinFetch, type CreatedSandbox } from "../helpers";
import { acmeWorld, linearFor, linearSandbox, routeFetchThroughSelf } from "../linear/fixtures";

beforeAll(routeFetchThroughSelf);

const unwatchedReadingOnly = Db.prototype.readingOnly;
afterEach(() => {
  Db.prototype.readingOnly = unwatchedReadingOnly;
});

/**
 * Records, for each call the sandbox tries without a transaction, whether it was served or rerun.
 * The Sandbox's storage is private (`#db`), so the guard is watched on the shared Db class, for the
 * one Db that wraps this sandbox's SQL storage.
 */
async function watchReadPath(sandbox: CreatedSandbox): Promise<("served" | "rerun")[]> {
  const outcomes: ("served" | "rerun")[] = [];
  await runInDurableObject(sandboxStub(env, sandbox.session_id), (_instance: Sandbox, state) => {
    const readingOnly = unwatchedReadingOnly;
    const ours = state.storage.sql;
    Db.prototype.readingOnly = function <T>(this: Db, read: () => T) {
      const answer = readingOnly.call(this, read) as T | undefined;
      if (Reflect.get(this, "sql") === ours) outcomes.push(answer === undefined ? "rerun" : "served");
      return answer;
    };
  });
  return outcomes;
}

const tapeOf = async (sandbox: CreatedSandbox, twin = "github") =>
  (await twinFetch(sandbox, "/_pome/events", {}, twin)).json<{ seq: number; operation: string; status: number; mutated: boolean }[]>();

describe("the read path", () => {
  it("serves a REST read without a transaction after the first call, and tapes it in order", async () => {
    const sandbox = await createSandbox();
    const octokit = octokitFor(sandbox);
    const outcomes = await watchReadPath(sandbox);
    // The first call also moves the sandbox to running, so it takes a transaction.
    await octokit.repos.get({ owner: "acme", repo: "api" });
    await octokit.issues.get({ owner: "acme", repo: "api", issue_number: 1 });
    await octokit.issues.createComment({ owner: "acme", repo: "api", issue_number: 1, body: "On it." });
    const comments = await octokit.issues.listComments({ owner: "acme", repo: "api", issue_number: 1 });
    expect(comments.data.map((c) => c.body)).toContain("On it.");
    const missing = await octokit.issues.get({ owner: "acme", repo: "api", issue_number: 999 }).catch((e: { status: number }) => e.status);
    expect(missing).toBe(404);
    expect(outcomes).toEqual(["served", "served", "served"]);
    const tape = await tapeOf(sandbox);
    expect(tape.map((r) => [r.seq, r.operation, r.status, r.mutated])).toEqual([
      [1, "repos.get", 200, false],
      [2, "issues.get", 200, false],
      [3, "issues.createComment", 201, true],
      [4, "issues.listComments", 200, false],
      [5, "issues.get", 404, false],
    ]);
  });

  it("reruns a query that meets a seeded fault in a transaction, counting the fault once", async () => {
    const sandbox = await linearSandbox(acmeWorld({ faults: [{ operation: "issues", error: "internal", skip: 1, times: 1 }] }));
    const client = linearFor(sandbox);
    await client.teams();
    const outcomes = await watchReadPath(sandbox);
    expect((await client.issues()).nodes.length).toBe(2);
    await expect(client.issues()).rejects.toBeInstanceOf(InternalLinearError);
    expect((await client.issues()).nodes.length).toBe(2);
    await client.viewer;
    expect((await client.createIssue({ teamId: (await client.teams()).nodes[0].id, title: "Third" })).success).toBe(true);
    // Every `issues` call counts toward the fault, so each tried to write and was rerun; the
    // viewer and teams queries wrote nothing; the mutation never tried the read path.
    expect(outcomes).toEqual(["rerun", "rerun", "rerun", "served", "served"]);
    const tape = await tapeOf(sandbox, "linear");
    expect(tape.map((r) => [r.operation, r.status, r.mutated])).toEqual([
      ["teams", 200, false],
      ["issues", 200, false],
      ["issues", 500, false],
      ["issues", 200, false],
      ["viewer", 200, false],
      ["teams", 200, false],
      ["issueCreate", 200, true],
    ]);
  });
});
