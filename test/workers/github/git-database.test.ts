import { describe, expect, it } from "vitest";
import { SELF } from "cloudflare:test";
import { README, failure, sandboxWith, smallWorld } from "./fixtures";

const repo = { owner: "acme", repo: "api" };

/** The git blob id of a text, computed independently of the twin (Web Crypto). */
async function blobSha(text: string): Promise<string> {
  const body = new TextEncoder().encode(text);
  const data = new Uint8Array([...new TextEncoder().encode(`blob ${body.length}\0`), ...body]);
  return [...new Uint8Array(await crypto.subtle.digest("SHA-1", data))].map((b) => b.toString(16).padStart(2, "0")).join("");
}

const decode = (b64: string) => new TextDecoder().decode(Uint8Array.from(atob(b64.replace(/\n/g, "")), (c) => c.charCodeAt(0)));

type Octokit = Awaited<ReturnType<typeof sandboxWith>>["octokit"];

/** The agent's path to a multi-file commit: blobs, a tree over the branch's, a commit, the ref moved. */
async function commitFiles(octokit: Octokit, files: Record<string, string>, message: string, branch = "main") {
  const ref = await octokit.git.getRef({ ...repo, ref: `heads/${branch}` });
  const parent = await octokit.git.getCommit({ ...repo, commit_sha: ref.data.object.sha });
  const tree = await octokit.git.createTree({
    ...repo,
    base_tree: parent.data.tree.sha,
    tree: await Promise.all(
      Object.entries(files).map(async ([path, content]) => {
        const blob = await octokit.git.createBlob({ ...repo, content: btoa(content), encoding: "base64" });
        return { path, mode: "100644" as const, type: "blob" as const, sha: blob.data.sha };
      }),
    ),
  });
  const commit = await octokit.git.createCommit({ ...repo, message, tree: tree.data.sha, parents: [parent.data.sha] });
  const moved = await octokit.git.updateRef({ ...repo, ref: `heads/${branch}`, sha: commit.data.sha });
  return { tree, commit, moved };
}

describe("an agent writes several files in one commit through the git database", () => {
  it("blob -> tree -> commit -> ref, then sees the files through contents and the branch", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const { commit, moved } = await commitFiles(octokit, { "src/a.ts": "export const a = 1;\n", "docs/b.md": "# B\n" }, "Add a and b");
    expect(commit.status).toBe(201);
    expect(moved.data.object.sha).toBe(commit.data.sha);
    const branch = await octokit.repos.getBranch({ ...repo, branch: "main" });
    expect(branch.data.commit.sha).toBe(commit.data.sha);
    expect(branch.data.commit.commit.message).toBe("Add a and b");
    const a = await octokit.repos.getContent({ ...repo, path: "src/a.ts", mediaType: { format: "raw" } });
    expect(a.data as unknown as string).toBe("export const a = 1;\n");
    // The base tree's files are still there.
    const readme = await octokit.repos.getContent({ ...repo, path: "README.md", mediaType: { format: "raw" } });
    expect(readme.data as unknown as string).toBe(README);
    const full = await octokit.repos.getCommit({ ...repo, ref: commit.data.sha });
    expect(full.data.files?.map((f) => [f.filename, f.status])).toEqual([
      ["docs/b.md", "added"],
      ["src/a.ts", "added"],
    ]);
  });
});

describe("blobs", () => {
  it("creates from utf-8 or base64 with git's blob sha, and reads back as base64", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const utf8 = await octokit.git.createBlob({ ...repo, content: "héllo\n", encoding: "utf-8" });
    expect(utf8.status).toBe(201);
    expect(utf8.data.sha).toBe(await blobSha("héllo\n"));
    const b64 = await octokit.git.createBlob({ ...repo, content: btoa("plain\n"), encoding: "base64" });
    expect(b64.data.sha).toBe(await blobSha("plain\n"));
    const got = await octokit.git.getBlob({ ...repo, file_sha: utf8.data.sha });
    expect(got.data).toMatchObject({ sha: utf8.data.sha, encoding: "base64", size: 7 });
    expect(decode(got.data.content)).toBe("héllo\n");
    expect((await failure(octokit.git.getBlob({ ...repo, file_sha: "0".repeat(40) }))).status).toBe(404);
  });

  it("refuses a blob without content in GitHub's words", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const err = await failure(
      octokit.request("POST /repos/{owner}/{repo}/git/blobs", { ...repo, content: undefined as unknown as string }),
    );
    expect(err.status).toBe(422);
    expect(err.response.data.message).toBe('Invalid request.\n\n"content" wasn\'t supplied.');
  });
});

describe("trees", () => {
  it("lists one level, or every entry with recursive=1, and resolves a branch name", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const top = await octokit.git.getTree({ ...repo, tree_sha: "main" });
    expect(top.data.truncated).toBe(false);
    expect(top.data.tree.map((e) => [e.path, e.type, e.mode])).toEqual([
      ["README.md", "blob", "100644"],
      ["docs", "tree", "040000"],
      ["src", "tree", "040000"],
    ]);
    const all = await octokit.git.getTree({ ...repo, tree_sha: top.data.sha, recursive: "1" });
    expect(all.data.tree.map((e) => e.path)).toEqual(["README.md", "docs", "docs/guide.md", "src", "src/app.ts"]);
    expect(all.data.tree.find((e) => e.path === "README.md")).toMatchObject({ size: README.length, sha: await blobSha(README) });
    // A subtree is addressable by its own sha.
    const src = top.data.tree.find((e) => e.path === "src");
    const sub = await octokit.git.getTree({ ...repo, tree_sha: src?.sha ?? "" });
    expect(sub.data.tree.map((e) => e.path)).toEqual(["app.ts"]);
    expect((await failure(octokit.git.getTree({ ...repo, tree_sha: "f".repeat(40) }))).status).toBe(404);
  });

  it("creates a tree over base_tree: adds inline content, deletes with sha null, keeps the rest", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const base = await octokit.git.getTree({ ...repo, tree_sha: "main" });
    const created = await octokit.git.createTree({
      ...repo,
      base_tree: base.data.sha,
      tree: [
        { path: "bin/run", mode: "100755", type: "blob", content: "#!/bin/sh\n" },
        { path: "docs/guide.md", mode: "100644", type: "blob", sha: null },
      ],
    });
    expect(created.status).toBe(201);
    const all = await octokit.git.getTree({ ...repo, tree_sha: created.data.sha, recursive: "1" });
    expect(all.data.tree.map((e) => [e.path, e.mode])).toEqual([
      ["README.md", "100644"],
      ["bin", "040000"],
      ["bin/run", "100755"],
      ["src", "040000"],
      ["src/app.ts", "100644"],
    ]);
  });

  it("refuses unknown objects and a malformed path with GitHub's 422s", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const blob = await failure(
      octokit.git.createTree({ ...repo, tree: [{ path: "x", mode: "100644", type: "blob", sha: "a".repeat(40) }] }),
    );
    expect(blob.status).toBe(422);
    expect(blob.response.data.message).toBe(`tree.sha ${"a".repeat(40)} is not a valid blob`);
    const base = await failure(octokit.git.createTree({ ...repo, base_tree: "b".repeat(40), tree: [] }));
    expect(base.response.data.message).toBe("base_tree is not a valid tree oid");
    const path = await failure(octokit.git.createTree({ ...repo, tree: [{ path: "../x", mode: "100644", type: "blob", content: "x" }] }));
    expect(path.response.data.message).toBe("tree.path contains a malformed path component");
  });
});

describe("commits", () => {
  it("creates a commit with the author and committer it is given, and gets it back", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const main = await octokit.git.getRef({ ...repo, ref: "heads/main" });
    const parent = await octokit.git.getCommit({ ...repo, commit_sha: main.data.object.sha });
    const created = await octokit.git.createCommit({
      ...repo,
      message: "Release prep",
      tree: parent.data.tree.sha,
      parents: [parent.data.sha],
      author: { name: "Alice Smith", email: "alice@example.com", date: "2026-02-01T10:00:00Z" },
      committer: { name: "Release Bot", email: "bot@example.com", date: "2026-02-01T11:00:00Z" },
    });
    expect(created.data).toMatchObject({
      message: "Release prep",
      author: { name: "Alice Smith", email: "alice@example.com", date: "2026-02-01T10:00:00Z" },
      committer: { name: "Release Bot", email: "bot@example.com", date: "2026-02-01T11:00:00Z" },
      tree: { sha: parent.data.tree.sha },
      parents: [{ sha: parent.data.sha }],
    });
    const got = await octokit.git.getCommit({ ...repo, commit_sha: created.data.sha });
    expect(got.data).toEqual(created.data);
    // The REST commit links the author to the account with that email.
    await octokit.git.updateRef({ ...repo, ref: "heads/main", sha: created.data.sha });
    const rest = await octokit.repos.getCommit({ ...repo, ref: created.data.sha });
    expect(rest.data.author?.login).toBe("alice");
    expect(rest.data.committer).toBeNull();
  });

  it("refuses an unknown tree or parent with GitHub's messages", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const tree = await failure(octokit.git.createCommit({ ...repo, message: "x", tree: "c".repeat(40) }));
    expect(tree.status).toBe(422);
    expect(tree.response.data.message).toBe("Tree SHA does not exist");
    const main = await octokit.git.getTree({ ...repo, tree_sha: "main" });
    const parent = await failure(octokit.git.createCommit({ ...repo, message: "x", tree: main.data.sha, parents: ["d".repeat(40)] }));
    expect(parent.response.data.message).toBe("Parent SHA does not exist or is not a commit object");
  });
});

describe("refs follow git's rules", () => {
  it("refuses a non-fast-forward update without force, and takes it with force", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const first = await commitFiles(octokit, { "one.txt": "1\n" }, "one");
    const root = await octokit.git.getTree({ ...repo, tree_sha: "main" });
    // A sibling commit on the old head's parent is not a fast-forward of main.
    const sibling = await octokit.git.createCommit({
      ...repo,
      message: "sibling",
      tree: root.data.sha,
      parents: first.commit.data.parents.map((p) => p.sha),
    });
    const refused = await failure(octokit.git.updateRef({ ...repo, ref: "heads/main", sha: sibling.data.sha }));
    expect(refused.status).toBe(422);
    expect(refused.response.data.message).toBe("Update is not a fast forward");
    const forced = await octokit.git.updateRef({ ...repo, ref: "heads/main", sha: sibling.data.sha, force: true });
    expect(forced.data.object.sha).toBe(sibling.data.sha);
  });

  it("creates, lists, and deletes branch refs; refuses a short name and a duplicate", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const main = await octokit.git.getRef({ ...repo, ref: "heads/main" });
    const created = await octokit.git.createRef({ ...repo, ref: "refs/heads/fix-1", sha: main.data.object.sha });
    expect(created.data).toMatchObject({ ref: "refs/heads/fix-1", object: { type: "commit", sha: main.data.object.sha } });
    const matching = await octokit.git.listMatchingRefs({ ...repo, ref: "heads/f" });
    expect(matching.data.map((r) => r.ref)).toEqual(["refs/heads/feature", "refs/heads/fix-1"]);
    const dup = await failure(octokit.git.createRef({ ...repo, ref: "refs/heads/fix-1", sha: main.data.object.sha }));
    expect(dup.response.data.message).toBe("Reference already exists");
    const short = await failure(octokit.git.createRef({ ...repo, ref: "heads/x", sha: main.data.object.sha }));
    expect(short.response.data.message).toBe("Reference name must contain at least three slash-separated components.");
    expect((await octokit.git.deleteRef({ ...repo, ref: "heads/fix-1" })).status).toBe(204);
    expect((await failure(octokit.git.getRef({ ...repo, ref: "heads/fix-1" }))).status).toBe(404);
  });
});

describe("annotated tags and tag refs", () => {
  it("creates a tag object, points refs/tags at it, and reads both back", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const main = await octokit.git.getRef({ ...repo, ref: "heads/main" });
    const tag = await octokit.git.createTag({
      ...repo,
      tag: "v1.0.0",
      message: "First release",
      object: main.data.object.sha,
      type: "commit",
      tagger: { name: "Alice Smith", email: "alice@example.com", date: "2026-03-01T00:00:00Z" },
    });
    expect(tag.status).toBe(201);
    expect(tag.data).toMatchObject({
      tag: "v1.0.0",
      message: "First release",
      object: { type: "commit", sha: main.data.object.sha },
      tagger: { name: "Alice Smith", date: "2026-03-01T00:00:00Z" },
    });
    expect((await octokit.git.getTag({ ...repo, tag_sha: tag.data.sha })).data).toEqual(tag.data);
    const ref = await octokit.git.createRef({ ...repo, ref: "refs/tags/v1.0.0", sha: tag.data.sha });
    expect(ref.data.object).toMatchObject({ type: "tag", sha: tag.data.sha });
    const light = await octokit.git.createRef({ ...repo, ref: "refs/tags/latest", sha: main.data.object.sha });
    expect(light.data.object.type).toBe("commit");
    const tags = await octokit.git.listMatchingRefs({ ...repo, ref: "tags" });
    expect(tags.data.map((r) => r.ref)).toEqual(["refs/tags/latest", "refs/tags/v1.0.0"]);
    expect((await octokit.git.getRef({ ...repo, ref: "tags/v1.0.0" })).data.object.sha).toBe(tag.data.sha);
    await octokit.git.deleteRef({ ...repo, ref: "tags/latest" });
    expect((await octokit.git.listMatchingRefs({ ...repo, ref: "tags" })).data).toHaveLength(1);
  });
});

/** Every `url` and `git_url` in an answer, however deep. */
function urlsIn(value: unknown, out: Set<string> = new Set()): Set<string> {
  if (Array.isArray(value)) for (const v of value) urlsIn(v, out);
  else if (value && typeof value === "object")
    for (const [key, v] of Object.entries(value)) {
      if ((key === "url" || key === "git_url") && typeof v === "string") out.add(v);
      else urlsIn(v, out);
    }
  return out;
}

describe("every URL the git answers name is one the twin serves", () => {
  it("GETs each url and git_url of contents, commits, trees, refs and tags with 200", async () => {
    const { octokit, sandbox } = await sandboxWith(smallWorld());
    const { tree, commit } = await commitFiles(octokit, { "src/deep/x.ts": "x\n" }, "deep");
    const tag = await octokit.git.createTag({ ...repo, tag: "v1", message: "v1", object: commit.data.sha, type: "commit" });
    const tagRef = await octokit.git.createRef({ ...repo, ref: "refs/tags/v1", sha: tag.data.sha });
    const answers = [
      tree.data,
      commit.data,
      tag.data,
      tagRef.data,
      (await octokit.git.getTree({ ...repo, tree_sha: "main", recursive: "1" })).data,
      (await octokit.git.getRef({ ...repo, ref: "heads/main" })).data,
      (await octokit.repos.getContent({ ...repo, path: "" })).data,
      (await octokit.repos.getContent({ ...repo, path: "src/deep/x.ts" })).data,
      (await octokit.repos.getCommit({ ...repo, ref: "main" })).data,
      (await octokit.repos.listCommits({ ...repo })).data,
      (await octokit.repos.getBranch({ ...repo, branch: "main" })).data,
    ];
    const urls = [...urlsIn(answers)];
    expect(urls.length).toBeGreaterThan(15);
    const base = sandbox.per_twin.github.api_url;
    for (const url of urls) {
      expect(url.startsWith(base), url).toBe(true);
      const res = await SELF.fetch(url, { headers: { authorization: `Bearer ${sandbox.agent_token}` } });
      expect(res.status, url).toBe(200);
      await res.arrayBuffer();
    }
  });
});
