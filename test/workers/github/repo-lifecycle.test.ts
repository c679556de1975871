// Repository lifecycle through @octokit/rest: create, update, archive, delete, fork, transfer.
import { describe, expect, it } from "vitest";
import { checkedName, repositoryName } from "../../../durable-objects/twins/github/store/repo-admin";
import { failure, sandboxWith, smallWorld, stateOf } from "./fixtures";

const repo = { owner: "acme", repo: "api" };

describe("creating a repository", () => {
  it("creates one for the authenticated user, with a README commit on main when auto_init is asked", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const created = await octokit.repos.createForAuthenticatedUser({
      name: "notes",
      description: "My notes",
      private: true,
      auto_init: true,
      has_wiki: false,
    });
    expect(created.status).toBe(201);
    expect(created.data).toMatchObject({
      name: "notes",
      full_name: "octo/notes",
      owner: { login: "octo" },
      private: true,
      visibility: "private",
      description: "My notes",
      default_branch: "main",
      has_wiki: false,
      fork: false,
    });
    const readme = await octokit.repos.getContent({ owner: "octo", repo: "notes", path: "README.md" });
    expect(Buffer.from((readme.data as { content: string }).content, "base64").toString()).toBe("# notes\nMy notes\n");
    const commits = await octokit.repos.listCommits({ owner: "octo", repo: "notes" });
    expect(commits.data.map((c) => c.commit.message)).toEqual(["Initial commit"]);
    const mine = await octokit.repos.listForAuthenticatedUser();
    expect(mine.data.map((r) => r.full_name)).toContain("octo/notes");
  });

  it("creates one in an organization, public unless asked otherwise, and empty without auto_init", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const created = await octokit.repos.createInOrg({ org: "acme", name: "web", visibility: "public" });
    expect(created.data).toMatchObject({ full_name: "acme/web", private: false, organization: { login: "acme" } });
    expect((await octokit.repos.listBranches({ owner: "acme", repo: "web" })).data).toEqual([]);
    // An empty repository takes its first file on its default branch, as GitHub's does.
    const first = await octokit.repos.createOrUpdateFileContents({
      owner: "acme",
      repo: "web",
      path: "index.html",
      message: "First page",
      content: Buffer.from("<h1>hi</h1>\n").toString("base64"),
    });
    expect(first.status).toBe(201);
    expect((await octokit.repos.listBranches({ owner: "acme", repo: "web" })).data.map((b) => b.name)).toEqual(["main"]);
    const history = await octokit.repos.listCommits({ owner: "acme", repo: "web" });
    expect(history.data.map((c) => [c.commit.message, c.parents.length])).toEqual([["First page", 0]]);
    expect((await failure(octokit.repos.createInOrg({ org: "nobody-here", name: "x" }))).status).toBe(404);
  });

  it("refuses a name the account already uses, in GitHub's words", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const taken = await failure(octokit.repos.createInOrg({ org: "acme", name: "API" }));
    expect(taken.status).toBe(422);
    expect(taken.response.data).toMatchObject({
      message: "Repository creation failed.",
      errors: [{ resource: "Repository", code: "custom", field: "name", message: "name already exists on this account" }],
    });
    const empty = await failure(octokit.repos.createForAuthenticatedUser({ name: "" }));
    expect(empty.status).toBe(422);
    expect(empty.response.data.errors).toEqual([{ resource: "Repository", code: "missing_field", field: "name" }]);
  });

  it("turns characters GitHub does not allow into hyphens", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const created = await octokit.repos.createForAuthenticatedUser({ name: "my new repo!" });
    expect(created.data.name).toBe("my-new-repo-");
    expect(repositoryName("a/b c")).toEqual({ ok: true, name: "a-b-c" });
    expect(repositoryName("..")).toMatchObject({ ok: false, error: { code: "custom", field: "name" } });
    expect(repositoryName("x".repeat(101))).toMatchObject({ ok: false });
    expect(checkedName("fine.name_1")).toBe("fine.name_1");
  });

  it("keeps a created repository in the exported state, so it can seed a new sandbox", async () => {
    const { sandbox, octokit } = await sandboxWith(smallWorld());
    await octokit.repos.createForAuthenticatedUser({ name: "kept", auto_init: true });
    const state = await stateOf<{ repositories: { owner: string; name: string; branches: { name: string }[] }[] }>(sandbox);
    const kept = state.repositories.find((r) => r.name === "kept");
    expect(kept).toMatchObject({ owner: "octo", branches: [{ name: "main" }] });
    const again = await sandboxWith(state);
    expect((await again.octokit.repos.get({ owner: "octo", repo: "kept" })).data.default_branch).toBe("main");
  });
});

describe("updating a repository", () => {
  it("changes description, homepage, visibility, features and the default branch", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const updated = await octokit.repos.update({
      ...repo,
      description: "New words",
      homepage: "https://acme.example",
      private: true,
      has_issues: false,
      allow_squash_merge: false,
      default_branch: "feature",
    });
    expect(updated.data).toMatchObject({
      description: "New words",
      homepage: "https://acme.example",
      private: true,
      has_issues: false,
      allow_squash_merge: false,
      default_branch: "feature",
    });
    expect((await octokit.repos.get(repo)).data).toMatchObject({ homepage: "https://acme.example", allow_merge_commit: true });
  });

  it("refuses a default branch that does not exist and changes nothing", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const refused = await failure(octokit.repos.update({ ...repo, default_branch: "nope", description: "changed" }));
    expect(refused.status).toBe(422);
    expect((await octokit.repos.get(repo)).data).toMatchObject({ default_branch: "main", description: "Acme's API" });
  });

  it("renames, after which the old name is gone", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const renamed = await octokit.repos.update({ ...repo, name: "service" });
    expect(renamed.data.full_name).toBe("acme/service");
    expect((await octokit.issues.get({ owner: "acme", repo: "service", issue_number: 1 })).data.title).toBe("Requests time out");
    expect((await failure(octokit.repos.get(repo))).status).toBe(404);
  });
});

describe("an archived repository is read-only", () => {
  it("refuses writes with GitHub's 403 until it is unarchived, and still serves reads", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    expect((await octokit.repos.update({ ...repo, archived: true })).data.archived).toBe(true);
    const refused = await failure(octokit.issues.create({ ...repo, title: "Too late" }));
    expect(refused.status).toBe(403);
    expect(refused.response.data.message).toBe("Repository was archived so is read-only.");
    expect((await failure(octokit.issues.createComment({ ...repo, issue_number: 1, body: "x" }))).status).toBe(403);
    expect((await failure(octokit.repos.update({ ...repo, description: "still archived" }))).status).toBe(403);
    expect((await octokit.issues.get({ ...repo, issue_number: 1 })).status).toBe(200);
    // Forking an archived repository is allowed.
    expect((await octokit.repos.createFork(repo)).status).toBe(202);
    await octokit.repos.update({ ...repo, archived: false });
    expect((await octokit.issues.create({ ...repo, title: "Now fine" })).status).toBe(201);
  });
});

describe("deleting a repository", () => {
  it("answers 204 and the repository, its issues and its branches answer 404 afterwards", async () => {
    const { sandbox, octokit } = await sandboxWith(smallWorld());
    await octokit.activity.starRepoForAuthenticatedUser(repo);
    const deleted = await octokit.repos.delete(repo);
    expect(deleted.status).toBe(204);
    expect((await failure(octokit.repos.get(repo))).status).toBe(404);
    expect((await failure(octokit.issues.get({ ...repo, issue_number: 1 }))).status).toBe(404);
    expect((await failure(octokit.repos.delete(repo))).status).toBe(404);
    expect((await octokit.activity.listReposStarredByAuthenticatedUser()).data).toEqual([]);
    const state = await stateOf<{ repositories: unknown[] }>(sandbox);
    expect(state.repositories).toEqual([]);
    // The name is free again.
    expect((await octokit.repos.createInOrg({ org: "acme", name: "api" })).status).toBe(201);
    expect((await octokit.issues.listForRepo(repo)).data).toEqual([]);
  });
});

describe("forking a repository", () => {
  it("answers 202 with the fork, its parent and source, and the branches copied", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const fork = await octokit.repos.createFork(repo);
    expect(fork.status).toBe(202);
    expect(fork.data).toMatchObject({
      full_name: "octo/api",
      fork: true,
      parent: { full_name: "acme/api" },
      source: { full_name: "acme/api" },
      default_branch: "main",
    });
    const branches = await octokit.repos.listBranches({ owner: "octo", repo: "api" });
    const upstream = await octokit.repos.listBranches(repo);
    expect(branches.data.map((b) => [b.name, b.commit.sha])).toEqual(upstream.data.map((b) => [b.name, b.commit.sha]));
    const file = await octokit.repos.getContent({ owner: "octo", repo: "api", path: "src/app.ts", ref: "feature" });
    expect(file.status).toBe(200);
    const forks = await octokit.repos.listForks(repo);
    expect(forks.data.map((f) => f.full_name)).toEqual(["octo/api"]);
    expect((await octokit.repos.get(repo)).data.forks_count).toBe(1);
    // A second fork into the same account is the same fork.
    expect((await octokit.repos.createFork(repo)).data.id).toBe(fork.data.id);
    // GraphQL reads the same repository.
    const viaGraphql = await octokit.graphql<{ repository: { isFork: boolean } }>(
      'query { repository(owner: "octo", name: "api") { isFork } }',
    );
    expect(viaGraphql.repository.isFork).toBe(true);
  });

  it("forks into an organization under another name, with only the default branch when asked", async () => {
    const { octokit } = await sandboxWith(smallWorld({ owner: "alice" }));
    const fork = await octokit.repos.createFork({
      owner: "alice",
      repo: "api",
      organization: "acme",
      name: "api-fork",
      default_branch_only: true,
    });
    expect(fork.data).toMatchObject({ full_name: "acme/api-fork", parent: { full_name: "alice/api" } });
    expect((await octokit.repos.listBranches({ owner: "acme", repo: "api-fork" })).data.map((b) => b.name)).toEqual(["main"]);
    // A commit to the fork leaves its parent alone.
    await octokit.repos.createOrUpdateFileContents({
      owner: "acme",
      repo: "api-fork",
      path: "FORK.md",
      message: "Fork only",
      content: Buffer.from("fork\n").toString("base64"),
    });
    expect((await failure(octokit.repos.getContent({ owner: "alice", repo: "api", path: "FORK.md" }))).status).toBe(404);
    const bad = await failure(octokit.repos.createFork({ owner: "alice", repo: "api", organization: "bob" }));
    expect(bad.status).toBe(422);
  });

  it("keeps forks when their parent is deleted", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    await octokit.repos.createFork(repo);
    await octokit.repos.delete(repo);
    const orphan = await octokit.repos.get({ owner: "octo", repo: "api" });
    expect(orphan.data.fork).toBe(false);
    expect(orphan.data.parent).toBeUndefined();
  });
});

describe("transferring a repository", () => {
  it("moves it to another account, answering 202", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const moved = await octokit.repos.transfer({ ...repo, new_owner: "octo", new_name: "api-moved" });
    expect(moved.status).toBe(202);
    expect(moved.data.full_name).toBe("octo/api-moved");
    expect((await octokit.issues.get({ owner: "octo", repo: "api-moved", issue_number: 1 })).status).toBe(200);
    expect((await failure(octokit.repos.get(repo))).status).toBe(404);
  });
});
