// The twin's answers, fetched with @octokit/rest in Node from the real dev server (`npm start`),
// validated against GitHub's own OpenAPI schemas.
import { Octokit } from "@octokit/rest";
import { beforeAll, describe, expect, it, inject } from "vitest";
import { LOCAL_KEY } from "../server";
import { githubSchemas, type ShapeCheck } from "./openapi";
import { EVERYDAY_WORLD as WORLD } from "./world";

const check = githubSchemas();

interface Sandbox {
  per_twin: { github: { api_url: string } };
  provider_credentials: { github: { token: string } };
}

let octokit: Octokit;
const repo = { owner: "acme", repo: "api" };

beforeAll(async () => {
  const res = await fetch(`${inject("pomeUrl")}/v1/sandboxes`, {
    method: "POST",
    headers: { authorization: `Bearer ${LOCAL_KEY}`, "content-type": "application/json" },
    body: JSON.stringify({ twins: ["github"], task_source: "IyAuLgo=", seed: WORLD }),
  });
  if (res.status !== 201) throw new Error(`create sandbox: ${res.status} ${await res.text()}`);
  const sandbox = (await res.json()) as Sandbox;
  octokit = new Octokit({
    baseUrl: sandbox.per_twin.github.api_url,
    auth: sandbox.provider_credentials.github.token,
    log: { debug() {}, info() {}, warn() {}, error() {} },
  });
});

const valid = (result: ShapeCheck) => expect(result.errors).toEqual([]);

describe("the schema check itself", () => {
  it("rejects an object that lacks what GitHub's schema requires", () => {
    const result = check("issue", { id: 1, number: "one" });
    expect(result.valid).toBe(false);
    expect(result.errors).toContain("/number must be integer");
    expect(result.errors).toContain("/ must have required property 'user'");
  });
});

describe("the GitHub twin's answers match GitHub's OpenAPI schemas", () => {
  it("repository (repos.get) is a full-repository", async () => {
    valid(check("full-repository", (await octokit.repos.get(repo)).data));
  });

  it("authenticated user is a private-user; another user is a public-user", async () => {
    valid(check("private-user", (await octokit.users.getAuthenticated()).data));
    valid(check("public-user", (await octokit.users.getByUsername({ username: "bob" })).data));
  });

  it("issues (get, list, create, update) are issues", async () => {
    valid(check("issue", (await octokit.issues.get({ ...repo, issue_number: 1 })).data));
    for (const issue of (await octokit.issues.listForRepo({ ...repo, state: "all" })).data) valid(check("issue", issue));
    const created = await octokit.issues.create({ ...repo, title: "New", labels: ["fresh"], milestone: 1 });
    valid(check("issue", created.data));
    valid(check("issue", (await octokit.issues.update({ ...repo, issue_number: created.data.number, state: "closed" })).data));
  });

  it("labels are labels, comments are issue-comments, milestones are milestones", async () => {
    for (const label of (await octokit.issues.listLabelsForRepo(repo)).data) valid(check("label", label));
    valid(check("label", (await octokit.issues.createLabel({ ...repo, name: "docs", color: "0075ca" })).data));
    for (const label of (await octokit.issues.addLabels({ ...repo, issue_number: 1, labels: ["docs"] })).data) valid(check("label", label));
    for (const c of (await octokit.issues.listComments({ ...repo, issue_number: 1 })).data) valid(check("issue-comment", c));
    valid(check("issue-comment", (await octokit.issues.createComment({ ...repo, issue_number: 1, body: "On it" })).data));
    for (const m of (await octokit.issues.listMilestones(repo)).data) valid(check("milestone", m));
  });

  it("pull requests: get is a pull-request, list items are pull-request-simple, files are diff-entries", async () => {
    valid(check("pull-request", (await octokit.pulls.get({ ...repo, pull_number: 2 })).data));
    for (const p of (await octokit.pulls.list(repo)).data) valid(check("pull-request-simple", p));
    for (const f of (await octokit.pulls.listFiles({ ...repo, pull_number: 2 })).data) valid(check("diff-entry", f));
    for (const c of (await octokit.pulls.listCommits({ ...repo, pull_number: 2 })).data) valid(check("commit", c));
    valid(check("pull-request-simple", (await octokit.pulls.requestReviewers({ ...repo, pull_number: 2, reviewers: ["octo"] })).data));
  });

  it("reviews are pull-request-reviews and a merge answers a pull-request-merge-result", async () => {
    const review = await octokit.pulls.createReview({ ...repo, pull_number: 2, event: "APPROVE" });
    valid(check("pull-request-review", review.data));
    for (const r of (await octokit.pulls.listReviews({ ...repo, pull_number: 2 })).data) valid(check("pull-request-review", r));
    const merged = await octokit.pulls.merge({ ...repo, pull_number: 2 });
    valid(check("pull-request-merge-result", merged.data));
    valid(check("pull-request", (await octokit.pulls.get({ ...repo, pull_number: 2 })).data));
  });

  it("a file is a content-file; a write answers a file-commit", async () => {
    const file = await octokit.repos.getContent({ ...repo, path: "README.md" });
    valid(check("content-file", file.data));
    const dir = await octokit.repos.getContent({ ...repo, path: "src" });
    valid(check("content-directory", dir.data));
    const written = await octokit.repos.createOrUpdateFileContents({
      ...repo,
      path: "docs/new.md",
      message: "Add",
      content: Buffer.from("new\n").toString("base64"),
    });
    valid(check("file-commit", written.data));
  });

  it("branches, refs and commits match short-branch, git-ref and commit", async () => {
    for (const b of (await octokit.repos.listBranches(repo)).data) valid(check("short-branch", b));
    const ref = await octokit.git.getRef({ ...repo, ref: "heads/main" });
    valid(check("git-ref", ref.data));
    valid(check("git-ref", (await octokit.git.createRef({ ...repo, ref: "refs/heads/topic", sha: ref.data.object.sha })).data));
    for (const c of (await octokit.repos.listCommits(repo)).data) valid(check("commit", c));
    valid(check("commit", (await octokit.repos.getCommit({ ...repo, ref: ref.data.object.sha })).data));
  });

  it("search items are issue-search-result-items", async () => {
    const { data } = await octokit.search.issuesAndPullRequests({ q: "repo:acme/api" });
    expect(data.items.length).toBeGreaterThan(0);
    for (const item of data.items) {
      // The description types a search item's body as a plain string; GitHub's issue serializer
      // (and so the twin) sends null for an issue without a body, as the issues endpoints do.
      const errors = check("issue-search-result-item", item).errors.filter((e) => !(e === "/body must be string" && item.body === null));
      expect(errors).toEqual([]);
    }
  });

  it("errors are basic-error and validation-error", async () => {
    const notFound = await octokit.issues
      .get({ ...repo, issue_number: 999 })
      .catch((e: { response: { data: unknown } }) => e.response.data);
    valid(check("basic-error", notFound));
    const invalid = await octokit.issues
      .createLabel({ ...repo, name: "bug" })
      .catch((e: { response: { data: unknown } }) => e.response.data);
    valid(check("validation-error", invalid));
  });
});
