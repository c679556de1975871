// The issue checks of the GitHub vocabulary: each passes, fails, and skips where it says it can.
import { describe, expect, it } from "vitest";
import { githubTwin } from "../../../durable-objects/twins/github";
import { gradeCheck } from "../../../workers/grading/evaluate";
import { issue, repo, runCheck, without, world } from "./fixtures";

const ACME = { repo: "acme/api" };

describe("github.issue-exists", () => {
  it("passes when the issue is in the final state", () => {
    expect(runCheck("issue-exists", { ...ACME, issue: "3" }, world())).toEqual({ status: "passed", reason: "issue #3 exists in acme/api" });
  });
  it("fails when the repository has no issue with that number", () => {
    expect(runCheck("issue-exists", { ...ACME, issue: "99" }, world())).toMatchObject({
      status: "failed",
      reason: "acme/api has no issue #99",
    });
  });
  it("fails when the repository itself is missing", () => {
    expect(runCheck("issue-exists", { repo: "acme/web", issue: "1" }, world())).toMatchObject({
      status: "failed",
      reason: "repository acme/web does not exist",
    });
  });
  it("finds the repository case-insensitively, as GitHub does", () => {
    expect(runCheck("issue-exists", { repo: "ACME/Api", issue: "1" }, world()).status).toBe("passed");
  });
  it("skips field_absent when the export carries no issues list", () => {
    const state = world();
    without(repo(state), "issues");
    expect(runCheck("issue-exists", { ...ACME, issue: "1" }, state)).toMatchObject({ status: "skipped", reason: "field_absent" });
  });
});

describe("github.issue-state", () => {
  it("passes when the state matches", () => {
    expect(runCheck("issue-state", { ...ACME, issue: "1", state: "open" }, world())).toEqual({
      status: "passed",
      reason: "issue #1 is open",
    });
  });
  it("fails when the state differs, naming both", () => {
    const state = world();
    issue(state, 1).state = "closed";
    expect(runCheck("issue-state", { ...ACME, issue: "1", state: "open" }, state)).toEqual({
      status: "failed",
      reason: "issue #1 is closed, not open",
    });
  });
  it("fails when the issue is missing", () => {
    expect(runCheck("issue-state", { ...ACME, issue: "42", state: "closed" }, world()).status).toBe("failed");
  });
  it("skips field_absent when the issue has no state in the export, rather than reading it as open", () => {
    const state = world();
    without(issue(state, 1), "state");
    expect(runCheck("issue-state", { ...ACME, issue: "1", state: "open" }, state)).toMatchObject({
      status: "skipped",
      reason: "field_absent",
    });
  });
});

describe("github.issue-has-label", () => {
  it("passes when the label is applied, comparing case-insensitively", () => {
    expect(runCheck("issue-has-label", { ...ACME, issue: "3", label: "BUG" }, world())).toEqual({
      status: "passed",
      reason: "issue #3 has the `bug` label",
    });
  });
  it("passes alongside other labels", () => {
    const state = world();
    issue(state, 3).labels.push("duplicate", "enhancement");
    expect(runCheck("issue-has-label", { ...ACME, issue: "3", label: "bug" }, state).status).toBe("passed");
  });
  it("fails when the label is not applied, listing the labels it has", () => {
    expect(runCheck("issue-has-label", { ...ACME, issue: "2", label: "bug" }, world())).toEqual({
      status: "failed",
      reason: "issue #2 does not have the `bug` label (labels: `documentation`)",
    });
  });
  it("reads GitHub's label objects as well as names", () => {
    const state = world();
    (issue(state, 1) as { labels: unknown }).labels = [{ name: "bug", color: "d73a4a" }];
    expect(runCheck("issue-has-label", { ...ACME, issue: "1", label: "bug" }, state).status).toBe("passed");
  });
  it("skips field_absent when the issue has no labels field", () => {
    const state = world();
    without(issue(state, 3), "labels");
    expect(runCheck("issue-has-label", { ...ACME, issue: "3", label: "bug" }, state)).toMatchObject({
      status: "skipped",
      reason: "field_absent",
    });
  });
});

describe("github.issue-exactly-one-label", () => {
  it("passes when the only applied label is this one", () => {
    expect(runCheck("issue-exactly-one-label", { ...ACME, issue: "3", label: "bug" }, world())).toEqual({
      status: "passed",
      reason: "issue #3 has exactly one label, `bug`",
    });
  });
  it("fails when the right label sits on top of a wrong one", () => {
    const state = world();
    issue(state, 3).labels.push("enhancement");
    expect(runCheck("issue-exactly-one-label", { ...ACME, issue: "3", label: "bug" }, state)).toEqual({
      status: "failed",
      reason: "issue #3 has 2 labels: `bug`, `enhancement`",
    });
  });
  it("fails when the issue has no label at all", () => {
    expect(runCheck("issue-exactly-one-label", { ...ACME, issue: "1", label: "bug" }, world()).reason).toBe("issue #1 has 0 labels: none");
  });
  it("skips field_absent when the issue has no labels field", () => {
    const state = world();
    without(issue(state, 3), "labels");
    expect(runCheck("issue-exactly-one-label", { ...ACME, issue: "3", label: "bug" }, state).status).toBe("skipped");
  });
});

describe("github.issue-assignee", () => {
  it("passes when the login is among the assignees", () => {
    const state = world();
    issue(state, 1).assignees = ["bob", "alice"];
    expect(runCheck("issue-assignee", { ...ACME, issue: "1", login: "alice" }, state)).toEqual({
      status: "passed",
      reason: "issue #1 is assigned to `alice`",
    });
  });
  it("compares logins case-sensitively", () => {
    const state = world();
    issue(state, 1).assignees = ["alice"];
    expect(runCheck("issue-assignee", { ...ACME, issue: "1", login: "Alice" }, state)).toEqual({
      status: "failed",
      reason: "issue #1 is not assigned to `Alice` (assignees: `alice`)",
    });
  });
  it("fails on an unassigned issue", () => {
    expect(runCheck("issue-assignee", { ...ACME, issue: "1", login: "alice" }, world()).reason).toContain("assignees: none");
  });
  it("skips field_absent when the issue has no assignees field", () => {
    const state = world();
    without(issue(state, 1), "assignees");
    expect(runCheck("issue-assignee", { ...ACME, issue: "1", login: "alice" }, state)).toMatchObject({
      status: "skipped",
      reason: "field_absent",
    });
  });
});

describe("github.issue-comment-contains", () => {
  it("passes when a comment holds the text, naming its author", () => {
    expect(runCheck("issue-comment-contains", { ...ACME, issue: "3", needle: "reproduce" }, world())).toEqual({
      status: "passed",
      reason: 'issue #3 has a comment containing "reproduce" (by bob)',
    });
  });
  it("matches case-sensitively", () => {
    expect(runCheck("issue-comment-contains", { ...ACME, issue: "3", needle: "Reproduce" }, world())).toEqual({
      status: "failed",
      reason: 'none of the 1 comment on issue #3 contains "Reproduce"',
    });
  });
  it("fails when the issue has no comments", () => {
    expect(runCheck("issue-comment-contains", { ...ACME, issue: "1", needle: "triaged" }, world()).status).toBe("failed");
  });
  it("skips subject_redacted when the needle is a secret redaction erases", () => {
    const needle = "ghp_abcdefghijklmnopqrstuvwxyz0123";
    const state = world();
    issue(state, 1).comments.push({
      id: 900,
      user: "bob",
      body: `token ${needle}`,
      created_at: "2026-01-01T00:00:00Z",
      updated_at: "2026-01-01T00:00:00Z",
    });
    // The evaluator applies the one redaction rule of every twin before the check runs.
    const check = githubTwin.checks.find((c) => c.id === "github.issue-comment-contains");
    if (!check) throw new Error("no github.issue-comment-contains");
    expect(gradeCheck(check, { ...ACME, issue: "1", needle }, { initial: state, final: state, tape: [] }, true)).toMatchObject({
      status: "skipped",
      skip_reason: "subject_redacted",
    });
  });
  it("skips field_absent when the issue has no comments field", () => {
    const state = world();
    without(issue(state, 3), "comments");
    expect(runCheck("issue-comment-contains", { ...ACME, issue: "3", needle: "x" }, state)).toMatchObject({
      status: "skipped",
      reason: "field_absent",
    });
  });
});
