// repos.listReleaseAssets through @octokit/rest: GET /repos/{owner}/{repo}/releases/{release_id}/assets.
// GitHub's reference (docs.github.com/rest/releases/assets#list-release-assets): 200 with an array
// of release-asset objects, paged by per_page and page. The twin does not take uploads
// (repos/upload-release-asset is not implemented), so every release it holds has no assets: the
// list is empty and agrees with the release's own `assets` and `assets_url`.
import { describe, expect, it } from "vitest";
import { failure, sandboxWith, smallWorld } from "./fixtures";

const repo = { owner: "acme", repo: "api" };

describe("repos.listReleaseAssets", () => {
  it("lists a release's assets: none, as the release's assets and assets_url say", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const release = await octokit.repos.createRelease({ ...repo, tag_name: "v1.0.0", name: "One" });
    expect(release.data.assets).toEqual([]);
    expect(release.data.assets_url).toMatch(new RegExp(`/repos/acme/api/releases/${release.data.id}/assets$`));

    const assets = await octokit.repos.listReleaseAssets({ ...repo, release_id: release.data.id });
    expect(assets.status).toBe(200);
    expect(assets.data).toEqual([]);
    expect(assets.headers.link).toBeUndefined();
    expect((await octokit.request(`GET ${release.data.assets_url}`)).data).toEqual([]);
    const paged = await octokit.repos.listReleaseAssets({ ...repo, release_id: release.data.id, per_page: 1, page: 2 });
    expect(paged.data).toEqual([]);
  });

  it("lists a draft release's assets too, by the id the draft was given", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const draft = await octokit.repos.createRelease({ ...repo, tag_name: "v2.0.0", draft: true });
    expect((await octokit.repos.listReleaseAssets({ ...repo, release_id: draft.data.id })).data).toEqual([]);
  });

  it("answers GitHub's 404 for an unknown release and for a deleted one", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const unknown = await failure(octokit.repos.listReleaseAssets({ ...repo, release_id: 999999 }));
    expect(unknown.status).toBe(404);
    expect(unknown.response.data).toMatchObject({ message: "Not Found", documentation_url: expect.any(String) });
    const release = await octokit.repos.createRelease({ ...repo, tag_name: "v1.0.0" });
    await octokit.repos.deleteRelease({ ...repo, release_id: release.data.id });
    expect((await failure(octokit.repos.listReleaseAssets({ ...repo, release_id: release.data.id }))).status).toBe(404);
  });
});
