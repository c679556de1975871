// Sub-issues through @octokit/rest: add, list, reprioritize, remove, the parent, and GitHub's rules.
import { describe, expect, it } from "vitest";
import { failure, sandboxWith, smallWorld } from "./fixtures";

const repo = { owner: "acme", repo: "api" };

/** smallWorld with a second repository of the same owner and one of another owner. */
function world() {
  const base = smallWorld();
  return {
    ...base,
    repositories: [
      ...base.repositories,
      { owner: "acme", name: "web", issues: [{ number: 1, title: "Web task" }] },
      { owner: "alice", name: "side", issues: [{ number: 1, title: "Elsewhere" }] },
    ],
  };
}

async function setUp() {
  const { octokit } = await sandboxWith(world());
  const id = async (owner: string, name: string, issue_number: number) =>
    (await octokit.issues.get({ owner, repo: name, issue_number })).data.id;
  return { octokit, ids: { two: await id("acme", "api", 2), three: await id("acme", "api", 3), web: await id("acme", "web", 1) }, id };
}

describe("adding and listing sub-issues", () => {
  it("adds sub-issues by id (201 with the parent), lists them in order, and summarizes them on the parent", async () => {
    const { octokit, ids } = await setUp();
    const added = await octokit.issues.addSubIssue({ ...repo, issue_number: 1, sub_issue_id: ids.two });
    expect(added.status).toBe(201);
    expect(added.data.number).toBe(1);
    await octokit.issues.addSubIssue({ ...repo, issue_number: 1, sub_issue_id: ids.three });
    // A sub-issue may live in another repository of the same owner.
    await octokit.issues.addSubIssue({ ...repo, issue_number: 1, sub_issue_id: ids.web });
    const list = await octokit.issues.listSubIssues({ ...repo, issue_number: 1 });
    expect(list.data.map((i) => i.title)).toEqual(["Document pagination", "Old crash", "Web task"]);
    const parent = await octokit.issues.get({ ...repo, issue_number: 1 });
    expect(parent.data.sub_issues_summary).toEqual({ total: 3, completed: 1, percent_completed: 33 });
    const child = await octokit.issues.get({ ...repo, issue_number: 2 });
    expect(child.data.parent_issue_url).toMatch(/\/repos\/acme\/api\/issues\/1$/);
    const up = await octokit.issues.getParent({ owner: "acme", repo: "web", issue_number: 1 });
    expect(up.data.number).toBe(1);
    expect(up.data.repository_url).toMatch(/\/repos\/acme\/api$/);
    expect((await failure(octokit.issues.getParent({ ...repo, issue_number: 1 }))).status).toBe(404);
  });
});

describe("GitHub's sub-issue rules", () => {
  it("refuses a second parent unless replace_parent, a cycle, itself, a pull request and another owner's issue", async () => {
    const { octokit, ids, id } = await setUp();
    await octokit.issues.addSubIssue({ ...repo, issue_number: 1, sub_issue_id: ids.two });
    const second = await failure(octokit.issues.addSubIssue({ ...repo, issue_number: 3, sub_issue_id: ids.two }));
    expect(second.status).toBe(422);
    expect(JSON.stringify(second.response.data.errors)).toContain("Sub issue may only have one parent");
    const moved = await octokit.issues.addSubIssue({ ...repo, issue_number: 3, sub_issue_id: ids.two, replace_parent: true });
    expect(moved.status).toBe(201);
    expect((await octokit.issues.listSubIssues({ ...repo, issue_number: 1 })).data).toEqual([]);
    // #3 is #2's parent now: #3 cannot become #2's sub-issue.
    expect((await failure(octokit.issues.addSubIssue({ ...repo, issue_number: 2, sub_issue_id: ids.three }))).status).toBe(422);
    expect((await failure(octokit.issues.addSubIssue({ ...repo, issue_number: 2, sub_issue_id: ids.two }))).status).toBe(422);
    const pull = await id("acme", "api", 4);
    expect((await failure(octokit.issues.addSubIssue({ ...repo, issue_number: 1, sub_issue_id: pull }))).status).toBe(422);
    const foreign = await id("alice", "side", 1);
    expect((await failure(octokit.issues.addSubIssue({ ...repo, issue_number: 1, sub_issue_id: foreign }))).status).toBe(422);
    expect((await failure(octokit.issues.addSubIssue({ ...repo, issue_number: 1, sub_issue_id: 987654 }))).status).toBe(422);
    expect((await failure(octokit.issues.addSubIssue({ ...repo, issue_number: 99, sub_issue_id: ids.three }))).status).toBe(404);
  });
});

describe("reprioritizing and removing sub-issues", () => {
  it("moves a sub-issue after or before another, and removes one (200 with the parent)", async () => {
    const { octokit, ids } = await setUp();
    for (const sub of [ids.two, ids.three, ids.web]) await octokit.issues.addSubIssue({ ...repo, issue_number: 1, sub_issue_id: sub });
    const order = async () => (await octokit.issues.listSubIssues({ ...repo, issue_number: 1 })).data.map((i) => i.id);
    await octokit.issues.reprioritizeSubIssue({ ...repo, issue_number: 1, sub_issue_id: ids.web, before_id: ids.two });
    expect(await order()).toEqual([ids.web, ids.two, ids.three]);
    await octokit.issues.reprioritizeSubIssue({ ...repo, issue_number: 1, sub_issue_id: ids.web, after_id: ids.three });
    expect(await order()).toEqual([ids.two, ids.three, ids.web]);
    const neither = await failure(octokit.issues.reprioritizeSubIssue({ ...repo, issue_number: 1, sub_issue_id: ids.web }));
    expect(neither.status).toBe(422);
    const removed = await octokit.issues.removeSubIssue({ ...repo, issue_number: 1, sub_issue_id: ids.three });
    expect(removed.status).toBe(200);
    expect(removed.data.sub_issues_summary).toEqual({ total: 2, completed: 0, percent_completed: 0 });
    expect(await order()).toEqual([ids.two, ids.web]);
    expect((await failure(octokit.issues.removeSubIssue({ ...repo, issue_number: 1, sub_issue_id: ids.three }))).status).toBe(404);
  });
});
