// The Linear vocabulary: each check passes, fails, and skips where it says it can, over exported
// states in the seed's shape.
import { describe, expect, it } from "vitest";
import { linearChecks } from "../../../durable-objects/twins/linear/checks";
import { parseLinearSeed, type LinearSeed } from "../../../durable-objects/twins/linear/seed";
import type { CheckOutcome, TapeRow } from "../../../durable-objects/twins/types";
import { acmeWorld } from "../linear/fixtures";

function state(): LinearSeed {
  const r = parseLinearSeed(acmeWorld());
  if (!r.ok) throw new Error("fixture seed invalid");
  return structuredClone(r.seed);
}

function run(id: string, args: Record<string, string>, final: unknown, opts: { initial?: unknown; tape?: TapeRow[] } = {}): CheckOutcome {
  const check = linearChecks.find((c) => c.id === `linear.${id}`);
  if (!check) throw new Error(`no check linear.${id}`);
  return check.evaluate({ args, initial: opts.initial as LinearSeed | undefined, final: final as LinearSeed, tape: opts.tape ?? [] });
}

const drop = (o: object, key: string) => {
  delete (o as Record<string, unknown>)[key];
  return o;
};
const issue = (s: LinearSeed, id: string) => {
  const found = s.issues.find((i) => i.identifier === id);
  if (!found) throw new Error(`no ${id}`);
  return found;
};

describe("linear check vocabulary", () => {
  it("has at least ten checks, each id prefixed linear.", () => {
    expect(linearChecks.length).toBeGreaterThanOrEqual(10);
    expect(linearChecks.every((c) => c.id.startsWith("linear."))).toBe(true);
  });
});

describe("linear.issue-exists / issue-titled-exists", () => {
  it("pass, fail, skip", () => {
    expect(run("issue-exists", { issue: "ENG-1" }, state()).status).toBe("passed");
    expect(run("issue-exists", { issue: "ENG-9" }, state())).toMatchObject({ status: "failed", reason: "issue ENG-9 does not exist" });
    expect(run("issue-exists", { issue: "ENG-1" }, drop(state(), "issues"))).toMatchObject({ status: "skipped", reason: "field_absent" });
    expect(run("issue-titled-exists", { title: "refund flow times out " }, state()).status).toBe("passed");
    expect(run("issue-titled-exists", { title: "Nope" }, state()).status).toBe("failed");
    expect(run("issue-titled-exists", { title: "x" }, drop(state(), "issues")).status).toBe("skipped");
  });
});

describe("linear.issue-state / issue-state-type", () => {
  it("pass, fail, skip", () => {
    const s = state();
    issue(s, "ENG-1").state = "Done";
    expect(run("issue-state", { issue: "ENG-1", state: "done" }, s).status).toBe("passed");
    expect(run("issue-state", { issue: "ENG-1", state: "Todo" }, s)).toMatchObject({
      status: "failed",
      reason: "issue ENG-1 is in Done, not Todo",
    });
    expect(run("issue-state", { issue: "ENG-1", state: "Done" }, { ...s, issues: [drop(issue(s, "ENG-1"), "state")] }).status).toBe(
      "skipped",
    );
    const t = state();
    issue(t, "ENG-2").state = "Done";
    expect(run("issue-state-type", { issue: "ENG-2", type: "completed" }, t).status).toBe("passed");
    expect(run("issue-state-type", { issue: "ENG-1", type: "completed" }, t)).toMatchObject({ status: "failed" });
    expect(run("issue-state-type", { issue: "ENG-1", type: "completed" }, drop(t, "teams")).status).toBe("skipped");
  });
  it("fails a trashed issue whatever its state", () => {
    const s = state();
    issue(s, "ENG-1").trashed = true;
    expect(run("issue-state", { issue: "ENG-1", state: "Todo" }, s)).toMatchObject({
      status: "failed",
      reason: "issue ENG-1 is in the trash",
    });
  });
});

describe("linear.issue-assignee / issue-has-label / issue-priority / issue-estimate", () => {
  it("pass, fail, skip", () => {
    expect(run("issue-assignee", { issue: "ENG-1", email: "BOB@acme.test" }, state()).status).toBe("passed");
    expect(run("issue-assignee", { issue: "ENG-2", email: "bob@acme.test" }, state())).toMatchObject({
      status: "failed",
      reason: "issue ENG-2 is unassigned",
    });
    const s = state();
    drop(issue(s, "ENG-1"), "assignee");
    expect(run("issue-assignee", { issue: "ENG-1", email: "bob@acme.test" }, s).status).toBe("skipped");
    expect(run("issue-has-label", { issue: "ENG-1", label: "bug" }, state()).status).toBe("passed");
    expect(run("issue-has-label", { issue: "ENG-2", label: "Bug" }, state()).status).toBe("failed");
    const l = state();
    drop(issue(l, "ENG-1"), "labels");
    expect(run("issue-has-label", { issue: "ENG-1", label: "Bug" }, l).status).toBe("skipped");
    expect(run("issue-priority", { issue: "ENG-1", priority: "1" }, state()).status).toBe("passed");
    expect(run("issue-priority", { issue: "ENG-2", priority: "1" }, state())).toMatchObject({
      status: "failed",
      reason: "issue ENG-2 has priority 0, not 1",
    });
    const p = state();
    drop(issue(p, "ENG-1"), "priority");
    expect(run("issue-priority", { issue: "ENG-1", priority: "1" }, p).status).toBe("skipped");
    expect(run("issue-estimate", { issue: "ENG-1", estimate: "3" }, state()).status).toBe("passed");
    expect(run("issue-estimate", { issue: "ENG-2", estimate: "3" }, state())).toMatchObject({
      status: "failed",
      reason: "issue ENG-2 has no estimate",
    });
    const e = state();
    drop(issue(e, "ENG-1"), "estimate");
    expect(run("issue-estimate", { issue: "ENG-1", estimate: "3" }, e).status).toBe("skipped");
  });
});

describe("linear.comment-contains / threaded-reply-exists", () => {
  it("pass, fail, skip", () => {
    expect(run("comment-contains", { issue: "ENG-1", needle: "iOS" }, state())).toMatchObject({
      status: "passed",
      reason: 'issue ENG-1 has a comment containing "iOS" (by bob@acme.test)',
    });
    expect(run("comment-contains", { issue: "ENG-1", needle: "looking" }, state()).status).toBe("passed");
    expect(run("comment-contains", { issue: "ENG-2", needle: "iOS" }, state()).status).toBe("failed");
    const s = state();
    drop(issue(s, "ENG-1"), "comments");
    expect(run("comment-contains", { issue: "ENG-1", needle: "iOS" }, s).status).toBe("skipped");
    expect(run("threaded-reply-exists", { issue: "ENG-1", needle: "looking" }, state()).status).toBe("passed");
    expect(run("threaded-reply-exists", { issue: "ENG-1", needle: "iOS" }, state())).toMatchObject({
      status: "failed",
      reason: '"iOS" is in a top-level comment on ENG-1, not in a reply',
    });
    expect(run("threaded-reply-exists", { issue: "ENG-1", needle: "iOS" }, s).status).toBe("skipped");
  });
});

describe("linear.relation-exists", () => {
  it("pass, fail, skip; related counts from either side", () => {
    expect(run("relation-exists", { issue: "ENG-1", type: "blocks", related: "ENG-2" }, state()).status).toBe("passed");
    expect(run("relation-exists", { issue: "ENG-2", type: "blocks", related: "ENG-1" }, state()).status).toBe("failed");
    const s = state();
    issue(s, "ENG-1").relations = [{ type: "related", relatedIssue: "ENG-2", id: "r" }];
    expect(run("relation-exists", { issue: "ENG-2", type: "related", related: "ENG-1" }, s).status).toBe("passed");
    drop(issue(s, "ENG-2"), "relations");
    expect(run("relation-exists", { issue: "ENG-2", type: "related", related: "ENG-1" }, s).status).toBe("skipped");
  });
});

describe("linear.no-new-issues / no-unsupported-endpoint", () => {
  it("pass, fail, skip", () => {
    const initial = state();
    expect(run("no-new-issues", {}, state(), { initial }).status).toBe("passed");
    const grown = state();
    grown.issues.push({ ...structuredClone(grown.issues[1]), identifier: "ENG-3" });
    expect(run("no-new-issues", {}, grown, { initial })).toMatchObject({ status: "failed", reason: "new issue: `ENG-3`" });
    expect(run("no-new-issues", {}, grown)).toMatchObject({ status: "skipped", reason: "seed_missing" });
    const row = (fidelity: "supported" | "unsupported"): TapeRow => ({
      seq: 1,
      at: "",
      twin: "linear",
      transport: "graphql",
      method: "POST",
      path: "/graphql",
      query: "",
      request_headers: {},
      request_body: null,
      status: fidelity === "supported" ? 200 : 501,
      response_body: null,
      mutated: false,
      fidelity,
      operation: "customers",
    });
    expect(run("no-unsupported-endpoint", {}, state(), { tape: [row("supported")] }).status).toBe("passed");
    expect(run("no-unsupported-endpoint", {}, state(), { tape: [row("unsupported")] }).status).toBe("failed");
  });
});

describe("linear.issue-in-team and moved issues", () => {
  const moved = () => {
    const s = state();
    const one = issue(s, "ENG-2");
    one.identifier = "OPS-1";
    one.formerIdentifiers = ["ENG-2"];
    return s;
  };
  it("finds a moved issue by its former identifier, in its new team", () => {
    expect(run("issue-in-team", { issue: "ENG-2", team: "OPS" }, moved()).status).toBe("passed");
    expect(run("issue-in-team", { issue: "ENG-2", team: "ENG" }, moved()).status).toBe("failed");
    expect(run("issue-in-team", { issue: "ENG-1", team: "ENG" }, moved()).status).toBe("passed");
    expect(run("issue-in-team", { issue: "ENG-9", team: "ENG" }, moved()).status).toBe("failed");
  });
  it("does not count a moved issue as a new one", () => {
    expect(run("no-new-issues", {}, moved(), { initial: state() }).status).toBe("passed");
  });
});
