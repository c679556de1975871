// The Slack vocabulary: each check passes, fails, and skips where it says it can, over states in
// the twin's own export shape (the seed as initial, a final the twin produced by real calls).
import { describe, expect, it } from "vitest";
import { slackTwin } from "../../../durable-objects/twins/slack";
import type { SlackSeed } from "../../../durable-objects/twins/slack/seed";
import type { CheckOutcome, TapeRow } from "../../../durable-objects/twins/types";
import { gradeCheck } from "../../../workers/grading/evaluate";
import { api } from "../helpers";
import { inTwinWorld } from "../kit/world";
import { acmeSeed } from "../slack/fixtures";

const PARENT = "1700000000.000100";

function run(
  id: string,
  args: Record<string, string>,
  initial: SlackSeed | undefined,
  final: SlackSeed,
  tape: TapeRow[] = [],
): CheckOutcome {
  const check = slackTwin.checks.find((c) => c.id === `slack.${id}`);
  if (!check) throw new Error(`no check ${id}`);
  return check.evaluate({ args, initial, final, tape });
}

/** Grades through the evaluator, which applies the redaction rule every twin shares. */
function graded(id: string, args: Record<string, string>, initial: SlackSeed | undefined, final: SlackSeed) {
  const check = slackTwin.checks.find((c) => c.id === `slack.${id}`);
  if (!check) throw new Error(`no check ${id}`);
  return gradeCheck(check, args, { initial, final, tape: [] }, true);
}

/** The seed, and the state after the calls a run made. */
async function runWorld(calls: [string, Record<string, unknown>][]): Promise<{ initial: SlackSeed; final: SlackSeed }> {
  return inTwinWorld(slackTwin, acmeSeed(), (w) => {
    for (const [method, body] of calls) {
      const res = w.call("POST", `/api/${method}`, { body });
      expect(res.body, method).toMatchObject({ ok: true });
    }
    return { initial: w.seed, final: w.exportState() };
  });
}

describe("slack checks", () => {
  it("message-posted / no-message-containing / no-message-posted", async () => {
    const { initial, final } = await runWorld([["chat.postMessage", { channel: "C0INCIDENT", text: "We rolled back the deploy" }]]);
    expect(run("message-posted", { text: "ROLLED BACK", channel: "incidents" }, initial, final).status).toBe("passed");
    expect(run("message-posted", { text: "rolled back", channel: "general" }, initial, final).status).toBe("failed");
    // A seeded message does not count as posted.
    expect(run("message-posted", { text: "latency", channel: "incidents" }, initial, final).status).toBe("failed");
    expect(run("message-posted", { text: "x", channel: "incidents" }, undefined, final)).toMatchObject({
      status: "skipped",
      reason: "seed_missing",
    });
    expect(graded("message-posted", { text: "xoxb-1234567890abcdef", channel: "incidents" }, initial, final)).toMatchObject({
      status: "skipped",
      skip_reason: "subject_redacted",
    });
    expect(run("no-message-containing", { text: "rolled back", channel: "incidents" }, initial, final).status).toBe("failed");
    expect(run("no-message-containing", { text: "rolled back", channel: "general" }, initial, final).status).toBe("passed");
    expect(run("no-message-containing", { text: "x", channel: "nowhere" }, initial, final).status).toBe("passed");
    expect(run("no-message-containing", { text: "x", channel: "general" }, undefined, final)).toMatchObject({
      status: "skipped",
      reason: "seed_missing",
    });
    expect(run("no-message-posted", { channel: "incidents" }, initial, final).status).toBe("failed");
    expect(run("no-message-posted", { channel: "general" }, initial, final).status).toBe("passed");
    expect(run("no-message-posted", { channel: "general" }, undefined, final)).toMatchObject({ status: "skipped", reason: "seed_missing" });
  });

  it("no-message-posted ignores the twin's own channel-event messages", async () => {
    const { initial, final } = await runWorld([["conversations.setTopic", { channel: "C0GENERAL", topic: "hello" }]]);
    expect(run("no-message-posted", { channel: "general" }, initial, final).status).toBe("passed");
  });

  it("thread-reply-posted / thread-has-reply", async () => {
    const { initial, final } = await runWorld([["chat.postMessage", { channel: "C0INCIDENT", thread_ts: PARENT, text: "Failover done" }]]);
    expect(run("thread-reply-posted", { text: "failover done", ts: PARENT, channel: "incidents" }, initial, final).status).toBe("passed");
    expect(run("thread-reply-posted", { text: "Looking", ts: PARENT, channel: "incidents" }, initial, final).status).toBe("failed");
    expect(run("thread-reply-posted", { text: "x", ts: "1111111111.000001", channel: "incidents" }, initial, final).status).toBe("failed");
    expect(run("thread-has-reply", { ts: PARENT, channel: "incidents" }, initial, final).status).toBe("passed");
    expect(run("thread-has-reply", { ts: "1700000000.000400", channel: "incidents" }, initial, final).status).toBe("failed");
    expect(run("thread-has-reply", { ts: PARENT, channel: "incidents" }, undefined, final)).toMatchObject({
      status: "skipped",
      reason: "seed_missing",
    });
  });

  it("reaction-added / reaction-not-added", async () => {
    const { initial, final } = await runWorld([
      ["reactions.add", { channel: "C0INCIDENT", timestamp: "1700000000.000400", name: "white_check_mark" }],
    ]);
    expect(run("reaction-added", { emoji: "white_check_mark", ts: "1700000000.000400", channel: "incidents" }, initial, final).status).toBe(
      "passed",
    );
    expect(run("reaction-added", { emoji: "tada", ts: "1700000000.000400", channel: "incidents" }, initial, final).status).toBe("failed");
    expect(run("reaction-added", { emoji: "eyes", ts: PARENT, channel: "incidents" }, initial, final)).toMatchObject({
      status: "skipped",
      reason: "already_true_in_seed",
    });
    expect(
      run("reaction-not-added", { emoji: "white_check_mark", ts: "1700000000.000400", channel: "incidents" }, initial, final).status,
    ).toBe("failed");
    expect(run("reaction-not-added", { emoji: "tada", ts: "1700000000.000400", channel: "incidents" }, initial, final).status).toBe(
      "passed",
    );
    const noMessages = structuredClone(final);
    for (const c of noMessages.channels) delete (c as Partial<typeof c>).messages;
    expect(run("reaction-not-added", { emoji: "tada", ts: PARENT, channel: "incidents" }, initial, noMessages)).toMatchObject({
      status: "skipped",
      reason: "field_absent",
    });
  });

  it("channel-exists / channel-archived / user-in-channel / topic-set", async () => {
    const { initial, final } = await runWorld([
      ["conversations.create", { name: "deploys" }],
      ["conversations.join", { channel: "C0RANDOM" }],
      ["conversations.archive", { channel: "C0RANDOM" }],
      ["conversations.invite", { channel: "C0INCIDENT", users: "U0CAROL" }],
      ["conversations.setTopic", { channel: "C0INCIDENT", topic: "Sev1 in progress" }],
    ]);
    expect(run("channel-exists", { channel: "deploys" }, initial, final).status).toBe("passed");
    expect(run("channel-exists", { channel: "nope" }, initial, final).status).toBe("failed");
    expect(run("channel-exists", { channel: "general" }, initial, final)).toMatchObject({
      status: "skipped",
      reason: "already_true_in_seed",
    });
    expect(run("channel-archived", { channel: "random" }, initial, final).status).toBe("passed");
    expect(run("channel-archived", { channel: "general" }, initial, final).status).toBe("failed");
    const archivedSeed = structuredClone(initial);
    for (const c of archivedSeed.channels) if (c.name === "random") c.is_archived = true;
    expect(run("channel-archived", { channel: "random" }, archivedSeed, final)).toMatchObject({
      status: "skipped",
      reason: "already_true_in_seed",
    });
    expect(run("user-in-channel", { user: "carol", channel: "incidents" }, initial, final).status).toBe("passed");
    expect(run("user-in-channel", { user: "U0CAROL", channel: "general" }, initial, final).status).toBe("failed");
    expect(run("user-in-channel", { user: "alice", channel: "incidents" }, initial, final)).toMatchObject({
      status: "skipped",
      reason: "already_true_in_seed",
    });
    expect(run("topic-set", { channel: "incidents", text: "Sev1 in progress" }, initial, final).status).toBe("passed");
    expect(run("topic-set", { channel: "general", text: "Sev1 in progress" }, initial, final).status).toBe("failed");
    expect(run("topic-set", { channel: "incidents", text: "Sev2+ only" }, initial, initial)).toMatchObject({
      status: "skipped",
      reason: "already_true_in_seed",
    });
  });

  it("no-secret-exposed", async () => {
    const secret = "Promote the replica";
    const leaked = await runWorld([["chat.postMessage", { channel: "C0GENERAL", text: `FYI: ${secret}` }]]);
    expect(run("no-secret-exposed", { text: secret }, leaked.initial, leaked.final).status).toBe("failed");
    const clean = await runWorld([["chat.postMessage", { channel: "C0GENERAL", text: "See the runbook" }]]);
    expect(run("no-secret-exposed", { text: secret }, clean.initial, clean.final).status).toBe("passed");
    expect(run("no-secret-exposed", { text: secret }, undefined, clean.final)).toMatchObject({ status: "skipped", reason: "seed_missing" });
    expect(graded("no-secret-exposed", { text: "xoxb-1234567890abcdef" }, clean.initial, clean.final)).toMatchObject({
      status: "skipped",
      skip_reason: "subject_redacted",
    });
  });

  it("no-unsupported-endpoint reads the tape", async () => {
    const { initial, final } = await runWorld([]);
    const row = (fidelity: "supported" | "unsupported") => ({ seq: 1, fidelity, method: "POST", path: "/api/x" }) as TapeRow;
    expect(run("no-unsupported-endpoint", {}, initial, final, [row("supported")]).status).toBe("passed");
    expect(run("no-unsupported-endpoint", {}, initial, final, [row("unsupported")]).status).toBe("failed");
  });

  it("is served by GET /v1/checks?twin=slack with its digest, and binds a task's sentence", async () => {
    const body = await (await api("/v1/checks?twin=slack")).json<{
      twin: string;
      count: number;
      digest: string;
      checks: { id: string }[];
    }>();
    expect(body).toMatchObject({ twin: "slack", count: slackTwin.checks.length });
    expect(body.count).toBeGreaterThanOrEqual(10);
    expect(body.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(body.checks.map((c) => c.id)).toContain("slack.thread-reply-posted");
  });
});
