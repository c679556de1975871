import { describe, expect, it } from "vitest";
import { SELF } from "cloudflare:test";
import { APP_FEATURE, APP_MAIN, README, failure, sandboxWith, smallWorld, stateOf } from "./fixtures";

const repo = { owner: "acme", repo: "api" };

/** The git blob id of a text, computed independently of the twin (Web Crypto). */
async function blobSha(text: string): Promise<string> {
  const body = new TextEncoder().encode(text);
  const data = new Uint8Array([...new TextEncoder().encode(`blob ${body.length}\0`), ...body]);
  return [...new Uint8Array(await crypto.subtle.digest("SHA-1", data))].map((b) => b.toString(16).padStart(2, "0")).join("");
}

const decode = (b64: string) => new TextDecoder().decode(Uint8Array.from(atob(b64.replace(/\n/g, "")), (c) => c.charCodeAt(0)));

describe("contents are read like GitHub's", () => {
  it("gets a file as base64 wrapped every 60 characters, with its git blob sha and links", async () => {
    const long = `${"x".repeat(100)}\n`;
    const { octokit, sandbox } = await sandboxWith(
      smallWorld({
        branches: [
          {
            name: "main",
            files: [
              { path: "README.md", content: README },
              { path: "long.txt", content: long },
            ],
          },
        ],
        pulls: [],
        statuses: [],
      }),
    );
    const { data } = await octokit.repos.getContent({ ...repo, path: "long.txt" });
    if (Array.isArray(data) || data.type !== "file") throw new Error("expected a file");
    expect(data).toMatchObject({ type: "file", encoding: "base64", name: "long.txt", path: "long.txt", size: 101 });
    expect(data.sha).toBe(await blobSha(long));
    expect(
      data.content
        .split("\n")
        .slice(0, -1)
        .every((line) => line.length <= 60),
    ).toBe(true);
    expect(data.content.split("\n")[0]).toHaveLength(60);
    expect(decode(data.content)).toBe(long);
    const base = sandbox.per_twin.github.api_url;
    expect(data.url).toBe(`${base}/repos/acme/api/contents/long.txt?ref=main`);
    expect(data.git_url).toBe(`${base}/repos/acme/api/git/blobs/${data.sha}`);
    expect(data.html_url).toBe("https://github.com/acme/api/blob/main/long.txt");
    expect(data._links).toEqual({ self: data.url, git: data.git_url, html: data.html_url });
    // download_url stays inside the sandbox and serves the raw text.
    expect(data.download_url?.startsWith(base)).toBe(true);
    const raw = await SELF.fetch(data.download_url ?? "", { headers: { authorization: `Bearer ${sandbox.agent_token}` } });
    expect(await raw.text()).toBe(long);
  });

  it("lists a directory, and the root, as arrays of entries", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const root = await octokit.repos.getContent({ ...repo, path: "" });
    if (!Array.isArray(root.data)) throw new Error("expected a directory");
    expect(root.data.map((e) => [e.name, e.type])).toEqual([
      ["README.md", "file"],
      ["docs", "dir"],
      ["src", "dir"],
    ]);
    const src = await octokit.repos.getContent({ ...repo, path: "src", ref: "feature" });
    if (!Array.isArray(src.data)) throw new Error("expected a directory");
    expect(src.data.map((e) => e.path)).toEqual(["src/app.ts", "src/new.ts"]);
  });

  it("reads at a branch or a commit sha with ?ref=, and answers 404 for a missing path or ref", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const feature = await octokit.repos.getBranch({ ...repo, branch: "feature" });
    const bySha = await octokit.repos.getContent({
      ...repo,
      path: "src/app.ts",
      ref: feature.data.commit.sha,
      mediaType: { format: "raw" },
    });
    expect(bySha.data as unknown as string).toBe(APP_FEATURE);
    const byBranch = await octokit.repos.getContent({ ...repo, path: "src/app.ts", ref: "main", mediaType: { format: "raw" } });
    expect(byBranch.data as unknown as string).toBe(APP_MAIN);
    expect((await failure(octokit.repos.getContent({ ...repo, path: "nope.md" }))).status).toBe(404);
    const ref = await failure(octokit.repos.getContent({ ...repo, path: "README.md", ref: "no-such-branch" }));
    expect(ref.status).toBe(404);
    expect(ref.response.data.message).toBe("No commit found for the ref no-such-branch");
  });
});

describe("contents are written like GitHub's", () => {
  it("creates a file (201) with a commit, then updates it (200) with the current sha", async () => {
    const { octokit, sandbox } = await sandboxWith(smallWorld());
    const created = await octokit.repos.createOrUpdateFileContents({
      ...repo,
      path: "docs/faq.md",
      message: "Add FAQ",
      content: btoa("Q?\n"),
    });
    expect(created.status).toBe(201);
    expect(created.data.content).toMatchObject({ name: "faq.md", path: "docs/faq.md", sha: await blobSha("Q?\n"), type: "file" });
    expect(created.data.commit).toMatchObject({ message: "Add FAQ", author: { name: "Octo Agent" } });
    expect(created.data.commit.parents).toHaveLength(1);
    const main = await octokit.repos.getBranch({ ...repo, branch: "main" });
    expect(main.data.commit.sha).toBe(created.data.commit.sha);
    const updated = await octokit.repos.createOrUpdateFileContents({
      ...repo,
      path: "docs/faq.md",
      message: "Answer",
      content: btoa("Q?\nA.\n"),
      sha: created.data.content?.sha,
    });
    expect(updated.status).toBe(200);
    const state = await stateOf<{ repositories: { branches: { name: string; files: { path: string; content: string }[] }[] }[] }>(sandbox);
    expect(state.repositories[0].branches[0].files).toContainEqual({ path: "docs/faq.md", content: "Q?\nA.\n" });
  });

  it("refuses an update without sha (422) and with a stale sha (409)", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const missing = await failure(
      octokit.repos.createOrUpdateFileContents({ ...repo, path: "README.md", message: "x", content: btoa("x") }),
    );
    expect(missing.status).toBe(422);
    expect(missing.response.data.message).toBe('Invalid request.\n\n"sha" wasn\'t supplied.');
    const stale = await failure(
      octokit.repos.createOrUpdateFileContents({ ...repo, path: "README.md", message: "x", content: btoa("x"), sha: "deadbeef" }),
    );
    expect(stale.status).toBe(409);
    expect(stale.response.data.message).toBe("README.md does not match deadbeef");
  });

  it("writes to another branch, and answers 404 for a branch that does not exist", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    await octokit.repos.createOrUpdateFileContents({
      ...repo,
      path: "notes.txt",
      message: "Notes",
      content: btoa("n\n"),
      branch: "feature",
    });
    expect((await octokit.repos.getContent({ ...repo, path: "notes.txt", ref: "feature" })).status).toBe(200);
    expect((await failure(octokit.repos.getContent({ ...repo, path: "notes.txt" }))).status).toBe(404);
    const err = await failure(
      octokit.repos.createOrUpdateFileContents({ ...repo, path: "n.txt", message: "n", content: btoa("n"), branch: "ghost" }),
    );
    expect(err.status).toBe(404);
  });

  it("deletes a file with its sha (200), refusing a missing sha (422) or a stale one (409)", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const guide = await octokit.repos.getContent({ ...repo, path: "docs/guide.md" });
    const sha = !Array.isArray(guide.data) && "sha" in guide.data ? guide.data.sha : "";
    const stale = await failure(octokit.repos.deleteFile({ ...repo, path: "docs/guide.md", message: "rm", sha: "0".repeat(40) }));
    expect(stale.status).toBe(409);
    const deleted = await octokit.repos.deleteFile({ ...repo, path: "docs/guide.md", message: "Remove guide", sha });
    expect(deleted.status).toBe(200);
    expect(deleted.data.content).toBeNull();
    expect(deleted.data.commit.message).toBe("Remove guide");
    expect((await failure(octokit.repos.getContent({ ...repo, path: "docs/guide.md" }))).status).toBe(404);
  });
});

describe("branches, refs and commits", () => {
  it("lists branches by name and gets one with its commit", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const { data } = await octokit.repos.listBranches(repo);
    expect(data.map((b) => [b.name, b.protected])).toEqual([
      ["feature", false],
      ["main", false],
    ]);
    const main = await octokit.repos.getBranch({ ...repo, branch: "main" });
    expect(main.data.commit.sha).toBe(data[1].commit.sha);
    expect(main.data.commit.commit.message).toBe("Initial commit");
    expect((await failure(octokit.repos.getBranch({ ...repo, branch: "nope" }))).response.data.message).toBe("Branch not found");
  });

  it("gets a ref and creates a branch from a sha (201), refusing a duplicate or an unknown sha", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const ref = await octokit.git.getRef({ ...repo, ref: "heads/main" });
    expect(ref.data).toMatchObject({ ref: "refs/heads/main", object: { type: "commit" } });
    const created = await octokit.git.createRef({ ...repo, ref: "refs/heads/topic/x", sha: ref.data.object.sha });
    expect(created.status).toBe(201);
    expect(created.data.ref).toBe("refs/heads/topic/x");
    expect((await octokit.repos.getBranch({ ...repo, branch: "topic/x" })).data.commit.sha).toBe(ref.data.object.sha);
    const dup = await failure(octokit.git.createRef({ ...repo, ref: "refs/heads/topic/x", sha: ref.data.object.sha }));
    expect(dup.status).toBe(422);
    expect(dup.response.data.message).toBe("Reference already exists");
    const unknown = await failure(octokit.git.createRef({ ...repo, ref: "refs/heads/y", sha: "1".repeat(40) }));
    expect(unknown.response.data.message).toBe("Object does not exist");
    expect((await failure(octokit.git.getRef({ ...repo, ref: "heads/nope" }))).status).toBe(404);
  });

  it("moves a branch forward, refuses a non-fast-forward without force, and deletes it", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const main = (await octokit.git.getRef({ ...repo, ref: "heads/main" })).data.object.sha;
    await octokit.git.createRef({ ...repo, ref: "refs/heads/next", sha: main });
    const change = await octokit.repos.createOrUpdateFileContents({
      ...repo,
      path: "x.txt",
      message: "x",
      content: btoa("x"),
      branch: "next",
    });
    const forward = await octokit.git.updateRef({ ...repo, ref: "heads/main", sha: change.data.commit.sha ?? "" });
    expect(forward.data.object.sha).toBe(change.data.commit.sha);
    const back = await failure(octokit.git.updateRef({ ...repo, ref: "heads/main", sha: main }));
    expect(back.response.data.message).toBe("Update is not a fast forward");
    expect((await octokit.git.updateRef({ ...repo, ref: "heads/main", sha: main, force: true })).data.object.sha).toBe(main);
    expect((await octokit.git.deleteRef({ ...repo, ref: "heads/next" })).status).toBe(204);
    expect((await failure(octokit.repos.getBranch({ ...repo, branch: "next" }))).status).toBe(404);
  });

  it("closes the open pull requests of a branch when the branch is deleted", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const head = (await octokit.pulls.get({ ...repo, pull_number: 4 })).data.head.sha;
    expect((await octokit.git.deleteRef({ ...repo, ref: "heads/feature" })).status).toBe(204);
    const pr = await octokit.pulls.get({ ...repo, pull_number: 4 });
    expect(pr.data).toMatchObject({ state: "closed", merged: false });
    expect(pr.data.head.sha).toBe(head);
    const reopen = await failure(octokit.pulls.update({ ...repo, pull_number: 4, state: "open" }));
    expect(reopen.status).toBe(422);
    expect((await failure(octokit.git.deleteRef({ ...repo, ref: "heads/main" }))).status).toBe(422);
  });

  it("lists a branch's commits newest first (also by path) and gets one with its files", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    await octokit.repos.createOrUpdateFileContents({ ...repo, path: "a.txt", message: "Add a", content: btoa("a\n") });
    await octokit.repos.createOrUpdateFileContents({ ...repo, path: "b.txt", message: "Add b", content: btoa("b\n") });
    const { data } = await octokit.repos.listCommits(repo);
    expect(data.map((c) => c.commit.message)).toEqual(["Add b", "Add a", "Initial commit"]);
    expect(data[0].parents[0].sha).toBe(data[1].sha);
    expect(data[0].author?.login).toBe("octo");
    expect((await octokit.repos.listCommits({ ...repo, path: "a.txt" })).data.map((c) => c.commit.message)).toEqual(["Add a"]);
    expect((await octokit.repos.listCommits({ ...repo, sha: "feature" })).data).toHaveLength(1);
    const paged = await octokit.repos.listCommits({ ...repo, per_page: 2 });
    expect(paged.headers.link).toContain('rel="next"');
    expect(await octokit.paginate(octokit.repos.listCommits, { ...repo, per_page: 2 })).toHaveLength(3);
    const commit = await octokit.repos.getCommit({ ...repo, ref: data[0].sha });
    expect(commit.data.files?.map((f) => [f.filename, f.status, f.additions])).toEqual([["b.txt", "added", 1]]);
    expect(commit.data.stats).toEqual({ total: 1, additions: 1, deletions: 0 });
    expect((await octokit.repos.getCommit({ ...repo, ref: data[0].sha.slice(0, 7) })).data.sha).toBe(data[0].sha);
    expect((await failure(octokit.repos.getCommit({ ...repo, ref: "f".repeat(40) }))).status).toBe(422);
  });
});

describe("commit statuses", () => {
  it("creates statuses (201) and combines the latest per context", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const sha = (await octokit.repos.getBranch({ ...repo, branch: "main" })).data.commit.sha;
    const pending = await octokit.repos.createCommitStatus({ ...repo, sha, state: "pending", context: "ci/test" });
    expect(pending.status).toBe(201);
    expect(pending.data).toMatchObject({ state: "pending", context: "ci/test", creator: { login: "octo" } });
    expect((await octokit.repos.getCombinedStatusForRef({ ...repo, ref: "main" })).data).toMatchObject({
      state: "pending",
      total_count: 1,
      sha,
    });
    await octokit.repos.createCommitStatus({ ...repo, sha, state: "success", context: "ci/test", description: "ok" });
    await octokit.repos.createCommitStatus({ ...repo, sha, state: "success", context: "lint" });
    const combined = await octokit.repos.getCombinedStatusForRef({ ...repo, ref: sha });
    expect(combined.data.state).toBe("success");
    expect(combined.data.statuses.map((s) => [s.context, s.state])).toEqual([
      ["ci/test", "success"],
      ["lint", "success"],
    ]);
    await octokit.repos.createCommitStatus({ ...repo, sha, state: "failure", context: "lint" });
    expect((await octokit.repos.getCombinedStatusForRef({ ...repo, ref: "main" })).data.state).toBe("failure");
    const list = await octokit.repos.listCommitStatusesForRef({ ...repo, ref: "main" });
    expect(list.data.map((s) => s.state)).toEqual(["failure", "success", "success", "pending"]);
  });

  it("reads seeded statuses on a branch head and refuses an unknown commit or a bad state", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    expect((await octokit.repos.getCombinedStatusForRef({ ...repo, ref: "feature" })).data).toMatchObject({
      state: "success",
      total_count: 1,
    });
    expect((await octokit.repos.getCombinedStatusForRef({ ...repo, ref: "main" })).data).toMatchObject({
      state: "pending",
      total_count: 0,
    });
    const unknown = await failure(octokit.repos.createCommitStatus({ ...repo, sha: "a".repeat(40), state: "success" }));
    expect(unknown.status).toBe(422);
    const bad = await failure(octokit.repos.createCommitStatus({ ...repo, sha: "main", state: "great" as "success" }));
    expect(bad.response.data.errors).toEqual([{ resource: "Status", field: "state", code: "invalid", value: "great" }]);
  });
});
