// The repository, pull request and tape checks of the GitHub vocabulary.
import { describe, expect, it } from "vitest";
import { issue, repo, row, runCheck, without, world } from "./fixtures";

const ACME = { repo: "acme/api" };

describe("github.no-new-labels", () => {
  it("passes when an issue gets a label the seed already defined", () => {
    const seed = world();
    const final = world();
    issue(final, 1).labels.push("bug");
    expect(runCheck("no-new-labels", ACME, final, { initial: seed })).toEqual({
      status: "passed",
      reason: "acme/api defines no label beyond the 5 in the seed",
    });
  });
  it("fails on a label GitHub created (color ededed) when it was added to an issue", () => {
    const seed = world();
    const final = world();
    repo(final).labels.push({ id: 901, name: "triage", color: "ededed", description: null });
    issue(final, 1).labels.push("triage");
    expect(runCheck("no-new-labels", ACME, final, { initial: seed })).toEqual({
      status: "failed",
      reason: "acme/api gained label the seed did not define: `triage`",
    });
  });
  it("fails when a label is applied that no definition lists", () => {
    const final = world();
    issue(final, 1).labels.push("wontfix");
    expect(runCheck("no-new-labels", ACME, final, { initial: world() }).status).toBe("failed");
  });
  it("compares label names case-insensitively", () => {
    const final = world();
    repo(final).labels[0].name = "BUG";
    expect(runCheck("no-new-labels", ACME, final, { initial: world() }).status).toBe("passed");
  });
  it("skips seed_missing without the initial state", () => {
    expect(runCheck("no-new-labels", ACME, world())).toMatchObject({ status: "skipped", reason: "seed_missing" });
  });
  it("skips field_absent when the final export has no label definitions", () => {
    const final = world();
    without(repo(final), "labels");
    expect(runCheck("no-new-labels", ACME, final, { initial: world() })).toMatchObject({ status: "skipped", reason: "field_absent" });
  });
});

describe("github.pr-state", () => {
  const merge = () => {
    const state = world();
    const pr = repo(state).pulls[0];
    Object.assign(pr, { state: "closed", merged: true });
    return state;
  };
  it("passes `merged` on a merged pull request", () => {
    expect(runCheck("pr-state", { ...ACME, pr: "4", state: "merged" }, merge())).toEqual({
      status: "passed",
      reason: "pull request #4 is merged",
    });
  });
  it("fails `merged` on an open pull request", () => {
    expect(runCheck("pr-state", { ...ACME, pr: "4", state: "merged" }, world())).toEqual({
      status: "failed",
      reason: "pull request #4 is not merged",
    });
  });
  it("reads open and closed from the state field, not the merged flag", () => {
    const closed = world();
    repo(closed).pulls[0].state = "closed";
    expect(runCheck("pr-state", { ...ACME, pr: "4", state: "closed" }, closed).status).toBe("passed");
    expect(runCheck("pr-state", { ...ACME, pr: "4", state: "not merged" }, closed).status).toBe("passed");
    expect(runCheck("pr-state", { ...ACME, pr: "4", state: "open" }, closed).reason).toBe("pull request #4 is closed, not open");
  });
  it("fails on a missing pull request", () => {
    expect(runCheck("pr-state", { ...ACME, pr: "9", state: "open" }, world()).reason).toBe("acme/api has no pull request #9");
  });
  it("skips field_absent when the merged flag is missing, instead of reading it as false", () => {
    const state = world();
    without(repo(state).pulls[0], "merged");
    expect(runCheck("pr-state", { ...ACME, pr: "4", state: "not merged" }, state)).toMatchObject({
      status: "skipped",
      reason: "field_absent",
    });
    expect(runCheck("pr-state", { ...ACME, pr: "4", state: "open" }, state).status).toBe("passed");
  });
  it("skips field_absent when the state field is missing", () => {
    const state = world();
    without(repo(state).pulls[0], "state");
    expect(runCheck("pr-state", { ...ACME, pr: "4", state: "open" }, state).status).toBe("skipped");
  });
});

describe("github.pr-review-exists", () => {
  const reviewed = (...states: ("APPROVED" | "CHANGES_REQUESTED" | "COMMENTED")[]) => {
    const state = world();
    repo(state).pulls[0].reviews = states.map((s, i) => ({ id: 700 + i, user: "alice", state: s, body: "", submitted_at: null }));
    return state;
  };
  it("passes when a review with that state exists, even beside a disagreeing one", () => {
    const state = reviewed("CHANGES_REQUESTED", "APPROVED");
    expect(runCheck("pr-review-exists", { ...ACME, pr: "4", review: "APPROVED" }, state)).toEqual({
      status: "passed",
      reason: "pull request #4 has a APPROVED review by alice",
    });
    expect(runCheck("pr-review-exists", { ...ACME, pr: "4", review: "CHANGES_REQUESTED" }, state).status).toBe("passed");
  });
  it("fails when no review has that state", () => {
    expect(runCheck("pr-review-exists", { ...ACME, pr: "4", review: "APPROVED" }, reviewed("COMMENTED"))).toEqual({
      status: "failed",
      reason: "pull request #4 has no APPROVED review (reviews: COMMENTED)",
    });
  });
  it("skips field_absent when the export has no reviews section", () => {
    const state = world();
    without(repo(state).pulls[0], "reviews");
    expect(runCheck("pr-review-exists", { ...ACME, pr: "4", review: "APPROVED" }, state)).toMatchObject({
      status: "skipped",
      reason: "field_absent",
    });
  });
});

describe("github.file-exists", () => {
  it("passes for a file on any branch", () => {
    const state = world();
    repo(state).branches[1].files.push({ path: "docs/timeouts.md", content: "# Timeouts\n" });
    expect(runCheck("file-exists", { ...ACME, path: "docs/timeouts.md" }, state)).toEqual({
      status: "passed",
      reason: "`docs/timeouts.md` exists on branch fix-timeout of acme/api",
    });
  });
  it("compares the path exactly and case-sensitively", () => {
    expect(runCheck("file-exists", { ...ACME, path: "readme.md" }, world())).toEqual({
      status: "failed",
      reason: "no branch of acme/api has a file `readme.md` (2 branches searched)",
    });
  });
  it("skips field_absent when the export has no branches", () => {
    const state = world();
    without(repo(state), "branches");
    expect(runCheck("file-exists", { ...ACME, path: "README.md" }, state)).toMatchObject({ status: "skipped", reason: "field_absent" });
  });
});

describe("github.commit-status", () => {
  it("passes when a status under the context has the state", () => {
    expect(runCheck("commit-status", { ...ACME, context: "ci/build", state: "success" }, world())).toEqual({
      status: "passed",
      reason: 'status "ci/build" is success on fix-timeout',
    });
  });
  it("fails when the context never has that state", () => {
    expect(runCheck("commit-status", { ...ACME, context: "ci/build", state: "failure" }, world())).toEqual({
      status: "failed",
      reason: 'status "ci/build" is never failure (seen: success)',
    });
  });
  it("fails when no status has that context", () => {
    expect(runCheck("commit-status", { ...ACME, context: "ci/lint", state: "success" }, world()).reason).toBe(
      'acme/api has no commit status "ci/lint"',
    );
  });
  it("skips field_absent when the export has no statuses", () => {
    const state = world();
    without(repo(state), "statuses");
    expect(runCheck("commit-status", { ...ACME, context: "ci/build", state: "success" }, state).status).toBe("skipped");
  });
});

describe("github.no-unsupported-endpoint", () => {
  it("passes when every call was supported, including rejected ones", () => {
    const tape = [row(), row({ status: 404 }), row({ method: "POST", status: 422, operation: "issues.create" })];
    expect(runCheck("no-unsupported-endpoint", {}, world(), { tape })).toEqual({
      status: "passed",
      reason: "none of the 3 GitHub calls hit an unsupported endpoint",
    });
  });
  it("fails naming the unsupported calls", () => {
    const bad = row({ method: "PUT", path: "/repos/acme/api/pages", status: 501, fidelity: "unsupported", operation: "unsupported" });
    const outcome = runCheck("no-unsupported-endpoint", {}, world(), { tape: [row(), bad] });
    expect(outcome).toEqual({ status: "failed", reason: `1 call hit an unsupported endpoint: PUT /repos/acme/api/pages (seq ${bad.seq})` });
  });
});
