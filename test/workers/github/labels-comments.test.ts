import { describe, expect, it } from "vitest";
import { twinFetch } from "../helpers";
import { failure, sandboxWith, smallWorld, stateOf } from "./fixtures";

const repo = { owner: "acme", repo: "api" };

describe("repository labels", () => {
  it("lists, gets, creates (201), updates and deletes (204) labels", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    expect((await octokit.issues.listLabelsForRepo(repo)).data.map((l) => l.name)).toEqual(["bug", "enhancement"]);
    const created = await octokit.issues.createLabel({ ...repo, name: "needs triage", color: "#FBCA04", description: "New" });
    expect(created.status).toBe(201);
    expect(created.data).toMatchObject({ name: "needs triage", color: "fbca04", description: "New", default: false });
    expect(created.data.url).toMatch(/\/repos\/acme\/api\/labels\/needs%20triage$/);
    expect((await octokit.issues.getLabel({ ...repo, name: "needs triage" })).data.id).toBe(created.data.id);
    const updated = await octokit.issues.updateLabel({ ...repo, name: "needs triage", new_name: "triage", color: "000000" });
    expect(updated.data).toMatchObject({ name: "triage", color: "000000", description: "New" });
    expect((await octokit.issues.deleteLabel({ ...repo, name: "triage" })).status).toBe(204);
    expect((await failure(octokit.issues.getLabel({ ...repo, name: "triage" }))).status).toBe(404);
  });

  it("keeps names unique case-insensitively with 422 already_exists", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const err = await failure(octokit.issues.createLabel({ ...repo, name: "BUG", color: "ffffff" }));
    expect(err.status).toBe(422);
    expect(err.response.data).toMatchObject({
      message: "Validation Failed",
      errors: [{ resource: "Label", code: "already_exists", field: "name" }],
    });
    const rename = await failure(octokit.issues.updateLabel({ ...repo, name: "enhancement", new_name: "Bug" }));
    expect(rename.response.data.errors).toEqual([{ resource: "Label", code: "already_exists", field: "name" }]);
    const color = await failure(octokit.issues.createLabel({ ...repo, name: "x", color: "purple" }));
    expect(color.response.data.errors).toEqual([{ resource: "Label", code: "invalid", field: "color" }]);
  });

  it("finds a label by any case and deleting it takes it off its issues", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    expect((await octokit.issues.getLabel({ ...repo, name: "BuG" })).data.name).toBe("bug");
    await octokit.issues.deleteLabel({ ...repo, name: "bug" });
    expect((await octokit.issues.get({ ...repo, issue_number: 1 })).data.labels).toEqual([]);
  });
});

describe("labels on an issue", () => {
  it("adds labels and answers with every label now on the issue", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const { data, status } = await octokit.issues.addLabels({ ...repo, issue_number: 2, labels: ["enhancement", "BUG"] });
    expect(status).toBe(200);
    expect(data.map((l) => l.name)).toEqual(["enhancement", "bug"]);
    const again = await octokit.issues.addLabels({ ...repo, issue_number: 2, labels: ["bug"] });
    expect(again.data.map((l) => l.name)).toEqual(["enhancement", "bug"]);
    expect((await octokit.issues.listLabelsOnIssue({ ...repo, issue_number: 2 })).data.map((l) => l.name)).toEqual(["enhancement", "bug"]);
  });

  it("creates a label the repository does not define with color ededed, as GitHub does", async () => {
    const { octokit, sandbox } = await sandboxWith(smallWorld());
    const { data } = await octokit.issues.addLabels({ ...repo, issue_number: 1, labels: ["regression"] });
    expect(data.map((l) => [l.name, l.color])).toEqual([
      ["bug", "d73a4a"],
      ["regression", "ededed"],
    ]);
    const state = await stateOf<{
      repositories: { labels: { name: string; color: string }[]; issues: { number: number; labels: string[] }[] }[];
    }>(sandbox);
    expect(state.repositories[0].labels).toContainEqual(expect.objectContaining({ name: "regression", color: "ededed" }));
    expect(state.repositories[0].issues.find((i) => i.number === 1)?.labels).toEqual(["bug", "regression"]);
  });

  it("accepts a bare array body, as GitHub does", async () => {
    const { sandbox } = await sandboxWith(smallWorld());
    const res = await twinFetch(sandbox, "/repos/acme/api/issues/2/labels", { method: "POST", body: JSON.stringify(["bug"]) });
    expect(res.status).toBe(200);
    expect((await res.json<{ name: string }[]>()).map((l) => l.name)).toEqual(["bug"]);
  });

  it("sets (replaces) labels, removes one, and removes all (204)", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const set = await octokit.issues.setLabels({ ...repo, issue_number: 1, labels: ["enhancement"] });
    expect(set.data.map((l) => l.name)).toEqual(["enhancement"]);
    await octokit.issues.addLabels({ ...repo, issue_number: 1, labels: ["bug"] });
    const removed = await octokit.issues.removeLabel({ ...repo, issue_number: 1, name: "enhancement" });
    expect(removed.data.map((l) => l.name)).toEqual(["bug"]);
    expect((await octokit.issues.removeAllLabels({ ...repo, issue_number: 1 })).status).toBe(204);
    expect((await octokit.issues.get({ ...repo, issue_number: 1 })).data.labels).toEqual([]);
  });

  it("answers 404 Label does not exist when removing a label that is not applied", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const err = await failure(octokit.issues.removeLabel({ ...repo, issue_number: 2, name: "bug" }));
    expect(err.status).toBe(404);
    expect(err.response.data.message).toBe("Label does not exist");
  });

  it("bumps the issue's updated_at when its labels change", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    await octokit.issues.addLabels({ ...repo, issue_number: 2, labels: ["bug"] });
    const { data } = await octokit.issues.get({ ...repo, issue_number: 2 });
    expect(Date.parse(data.updated_at)).toBeGreaterThan(Date.parse(data.created_at));
  });
});

describe("issue comments", () => {
  it("lists, creates (201), gets, updates and deletes (204) comments, keeping the count", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    expect((await octokit.issues.listComments({ ...repo, issue_number: 3 })).data.map((c) => c.body)).toEqual(["Confirmed fixed."]);
    const created = await octokit.issues.createComment({ ...repo, issue_number: 1, body: "Looking into it." });
    expect(created.status).toBe(201);
    expect(created.data).toMatchObject({ body: "Looking into it.", user: { login: "octo" }, author_association: "MEMBER" });
    expect(created.data.html_url).toBe(`https://github.com/acme/api/issues/1#issuecomment-${created.data.id}`);
    expect((await octokit.issues.get({ ...repo, issue_number: 1 })).data.comments).toBe(1);
    const got = await octokit.issues.getComment({ ...repo, comment_id: created.data.id });
    expect(got.data.issue_url).toMatch(/\/repos\/acme\/api\/issues\/1$/);
    const updated = await octokit.issues.updateComment({ ...repo, comment_id: created.data.id, body: "Fixed in #4." });
    expect(updated.data.body).toBe("Fixed in #4.");
    expect((await octokit.issues.deleteComment({ ...repo, comment_id: created.data.id })).status).toBe(204);
    expect((await octokit.issues.get({ ...repo, issue_number: 1 })).data.comments).toBe(0);
    expect((await failure(octokit.issues.getComment({ ...repo, comment_id: created.data.id }))).status).toBe(404);
  });

  it("comments on pull requests through the issues API and lists a repository's comments", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const c = await octokit.issues.createComment({ ...repo, issue_number: 4, body: "LGTM" });
    expect(c.data.html_url).toContain("/pull/4#issuecomment-");
    const all = await octokit.issues.listCommentsForRepo(repo);
    expect(all.data.map((x) => x.body)).toEqual(["Confirmed fixed.", "LGTM"]);
  });

  it("refuses an empty comment with 422 and a comment on a missing issue with 404", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    expect((await failure(octokit.issues.createComment({ ...repo, issue_number: 1, body: "" }))).status).toBe(422);
    expect((await failure(octokit.issues.createComment({ ...repo, issue_number: 42, body: "hi" }))).status).toBe(404);
  });
});

describe("assignees", () => {
  it("adds assignees (201) and silently skips users who cannot be assigned", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const { data, status } = await octokit.issues.addAssignees({ ...repo, issue_number: 2, assignees: ["alice", "mallory"] });
    expect(status).toBe(201);
    expect(data.assignees?.map((a) => a.login)).toEqual(["alice"]);
  });

  it("removes assignees (200), sending them in a DELETE body as Octokit does", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const { data, status } = await octokit.issues.removeAssignees({ ...repo, issue_number: 1, assignees: ["bob"] });
    expect(status).toBe(200);
    expect(data.assignees).toEqual([]);
    expect(data.assignee).toBeNull();
  });

  it("lists assignable users and checks one with 204 or 404", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    expect((await octokit.issues.listAssignees(repo)).data.map((u) => u.login)).toEqual(["alice", "bob", "octo"]);
    expect((await octokit.issues.checkUserCanBeAssigned({ ...repo, assignee: "alice" })).status).toBe(204);
    expect((await failure(octokit.issues.checkUserCanBeAssigned({ ...repo, assignee: "mallory" }))).status).toBe(404);
    expect((await octokit.issues.checkUserCanBeAssignedToIssue({ ...repo, issue_number: 1, assignee: "bob" })).status).toBe(204);
  });
});

describe("milestones", () => {
  it("lists, creates (201), gets, updates and deletes milestones with issue counts", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    expect((await octokit.issues.listMilestones(repo)).data.map((m) => m.title)).toEqual(["v1.0"]);
    const created = await octokit.issues.createMilestone({ ...repo, title: "v2.0", description: "Next", due_on: "2027-01-01T00:00:00Z" });
    expect(created.status).toBe(201);
    expect(created.data).toMatchObject({
      number: 2,
      title: "v2.0",
      state: "open",
      open_issues: 0,
      closed_issues: 0,
      creator: { login: "octo" },
      due_on: "2027-01-01T00:00:00Z",
    });
    await octokit.issues.update({ ...repo, issue_number: 2, milestone: 2 });
    expect((await octokit.issues.getMilestone({ ...repo, milestone_number: 2 })).data.open_issues).toBe(1);
    const closed = await octokit.issues.updateMilestone({ ...repo, milestone_number: 2, state: "closed" });
    expect(closed.data.state).toBe("closed");
    expect(closed.data.closed_at).toBeTruthy();
    expect((await octokit.issues.listMilestones({ ...repo, state: "all" })).data.map((m) => m.number)).toEqual([2, 1]);
    expect((await octokit.issues.deleteMilestone({ ...repo, milestone_number: 2 })).status).toBe(204);
    expect((await octokit.issues.get({ ...repo, issue_number: 2 })).data.milestone).toBeNull();
    expect((await failure(octokit.issues.getMilestone({ ...repo, milestone_number: 2 }))).status).toBe(404);
  });

  it("refuses a duplicate title with 422 already_exists", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const err = await failure(octokit.issues.createMilestone({ ...repo, title: "v1.0" }));
    expect(err.status).toBe(422);
    expect(err.response.data.errors).toEqual([{ resource: "Milestone", code: "already_exists", field: "title" }]);
  });
});
