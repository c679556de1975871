import { describe, expect, it } from "vitest";
import { failure, sandboxWith, smallWorld } from "./fixtures";

const repo = { owner: "acme", repo: "api" };

describe("releases", () => {
  it("creates a release (and its tag), reads it by id, tag and as the latest, and lists it", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const created = await octokit.repos.createRelease({ ...repo, tag_name: "v1.0.0", name: "One", body: "First." });
    expect(created.status).toBe(201);
    expect(created.data).toMatchObject({
      tag_name: "v1.0.0",
      target_commitish: "main",
      draft: false,
      prerelease: false,
      author: { login: "octo" },
    });
    const main = await octokit.repos.getBranch({ ...repo, branch: "main" });
    expect((await octokit.git.getRef({ ...repo, ref: "tags/v1.0.0" })).data.object.sha).toBe(main.data.commit.sha);
    expect((await octokit.repos.getRelease({ ...repo, release_id: created.data.id })).data.name).toBe("One");
    expect((await octokit.repos.getReleaseByTag({ ...repo, tag: "v1.0.0" })).data.id).toBe(created.data.id);
    await octokit.repos.createRelease({ ...repo, tag_name: "v1.1.0-rc", prerelease: true });
    await octokit.repos.createRelease({ ...repo, tag_name: "v2.0.0", draft: true });
    expect((await octokit.repos.getLatestRelease(repo)).data.tag_name).toBe("v1.0.0");
    const all = await octokit.repos.listReleases(repo);
    expect(all.data.map((r) => r.tag_name)).toEqual(["v2.0.0", "v1.1.0-rc", "v1.0.0"]);
    // A draft makes no tag until it is published.
    expect((await failure(octokit.git.getRef({ ...repo, ref: "tags/v2.0.0" }))).status).toBe(404);
    const tags = await octokit.repos.listTags(repo);
    expect(tags.data.map((t) => t.name)).toEqual(["v1.1.0-rc", "v1.0.0"]);
  });

  it("refuses a second release of one tag, publishes a draft on update, and deletes", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const draft = await octokit.repos.createRelease({ ...repo, tag_name: "v1", draft: true });
    const dup = await failure(octokit.repos.createRelease({ ...repo, tag_name: "v1" }));
    expect(dup.status).toBe(422);
    expect(dup.response.data.errors).toEqual([{ resource: "Release", code: "already_exists", field: "tag_name" }]);
    const published = await octokit.repos.updateRelease({ ...repo, release_id: draft.data.id, draft: false, name: "Version 1" });
    expect(published.data).toMatchObject({ draft: false, name: "Version 1" });
    expect(published.data.published_at).not.toBeNull();
    expect((await octokit.repos.getLatestRelease(repo)).data.id).toBe(draft.data.id);
    expect((await octokit.repos.deleteRelease({ ...repo, release_id: draft.data.id })).status).toBe(204);
    expect((await failure(octokit.repos.getLatestRelease(repo))).status).toBe(404);
  });
});

describe("generated release notes list the pull requests merged since the previous release", () => {
  it("names each merged pull request and links the full changelog", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    await octokit.repos.createRelease({ ...repo, tag_name: "v0.1.0" });
    await octokit.pulls.merge({ ...repo, pull_number: 4 });
    const notes = await octokit.repos.generateReleaseNotes({ ...repo, tag_name: "v0.2.0" });
    expect(notes.data.name).toBe("v0.2.0");
    expect(notes.data.body).toBe(
      [
        "## What's Changed",
        "* Raise the timeout by @bob in https://github.com/acme/api/pull/4",
        "",
        "**Full Changelog**: https://github.com/acme/api/compare/v0.1.0...v0.2.0",
      ].join("\n"),
    );
    const release = await octokit.repos.createRelease({ ...repo, tag_name: "v0.2.0", generate_release_notes: true });
    expect(release.data.body).toContain("Raise the timeout by @bob");
  });
});
