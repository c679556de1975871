import { describe, expect, it } from "vitest";
import { failure, sandboxWith, smallWorld, stateOf } from "./fixtures";

const repo = { owner: "acme", repo: "api" };
const main = { ...repo, branch: "main" };

type Octokit = Awaited<ReturnType<typeof sandboxWith>>["octokit"];

/**
 * Protect main the way an agent's setup script does: CI must pass and one approval is needed,
 * for admins too (the sandbox's user is one) unless `enforceAdmins` is false.
 */
async function protectMain(octokit: Octokit, reviews: number | null = 1, enforceAdmins = true) {
  return octokit.repos.updateBranchProtection({
    ...main,
    required_status_checks: { strict: true, contexts: ["ci"] },
    enforce_admins: enforceAdmins,
    required_pull_request_reviews: reviews === null ? null : { required_approving_review_count: reviews, dismiss_stale_reviews: true },
    restrictions: null,
  });
}

async function headSha(octokit: Octokit) {
  return (await octokit.pulls.get({ ...repo, pull_number: 4 })).data.head.sha;
}

describe("a branch's protection is set, read, changed and removed as on GitHub", () => {
  it("an unprotected branch answers 404 Branch not protected; after PUT it reads back its rules", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const before = await failure(octokit.repos.getBranchProtection(main));
    expect(before.status).toBe(404);
    expect(before.response.data.message).toBe("Branch not protected");
    const put = await protectMain(octokit);
    expect(put.data.required_status_checks).toMatchObject({ strict: true, contexts: ["ci"], checks: [{ context: "ci", app_id: null }] });
    const { data } = await octokit.repos.getBranchProtection(main);
    expect(data).toMatchObject({
      required_status_checks: { strict: true, contexts: ["ci"] },
      required_pull_request_reviews: { required_approving_review_count: 1, dismiss_stale_reviews: true, require_code_owner_reviews: false },
      enforce_admins: { enabled: true },
      allow_force_pushes: { enabled: false },
      allow_deletions: { enabled: false },
    });
    expect(data.restrictions).toBeUndefined();
    const branch = await octokit.repos.getBranch(main);
    expect(branch.data.protected).toBe(true);
    expect(branch.data.protection.required_status_checks).toMatchObject({ enforcement_level: "everyone", contexts: ["ci"] });
  });

  it("changes required status checks and reviews through their sub-resources, and deletes protection", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    await protectMain(octokit);
    const checks = await octokit.repos.updateStatusCheckProtection({ ...main, contexts: ["ci", "lint"] });
    expect(checks.data).toMatchObject({ strict: true, contexts: ["ci", "lint"] });
    expect((await octokit.repos.getStatusChecksProtection(main)).data.contexts).toEqual(["ci", "lint"]);
    const reviews = await octokit.repos.updatePullRequestReviewProtection({ ...main, required_approving_review_count: 2 });
    expect(reviews.data).toMatchObject({ required_approving_review_count: 2, dismiss_stale_reviews: true });
    await octokit.repos.deletePullRequestReviewProtection(main);
    const gone = await failure(octokit.repos.getPullRequestReviewProtection(main));
    expect(gone.status).toBe(404);
    await octokit.repos.deleteBranchProtection(main);
    expect((await failure(octokit.repos.getBranchProtection(main))).response.data.message).toBe("Branch not protected");
    expect((await octokit.repos.getBranch(main)).data.protected).toBe(false);
  });

  it("a missing branch is 404 Branch not found", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const missing = await failure(octokit.repos.getBranchProtection({ ...repo, branch: "nope" }));
    expect(missing.status).toBe(404);
    expect(missing.response.data.message).toBe("Branch not found");
  });
});

describe("merging into a protected branch waits for its required checks and approvals", () => {
  it("refuses with 405 while the required check is missing, and the pull request reads blocked", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    await protectMain(octokit, null);
    expect((await octokit.pulls.get({ ...repo, pull_number: 4 })).data.mergeable_state).toBe("blocked");
    const refused = await failure(octokit.pulls.merge({ ...repo, pull_number: 4 }));
    expect(refused.status).toBe(405);
    expect(refused.response.data.message).toBe('Required status check "ci" is expected.');
    expect((await octokit.pulls.get({ ...repo, pull_number: 4 })).data.merged).toBe(false);
  });

  it("a failing status does not satisfy the check; a successful status or check run does", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    await protectMain(octokit, null);
    const sha = await headSha(octokit);
    await octokit.repos.createCommitStatus({ ...repo, sha, state: "failure", context: "ci" });
    expect((await failure(octokit.pulls.merge({ ...repo, pull_number: 4 }))).status).toBe(405);
    await octokit.checks.create({ ...repo, name: "ci", head_sha: sha, status: "completed", conclusion: "success" });
    expect((await octokit.pulls.get({ ...repo, pull_number: 4 })).data.mergeable_state).not.toBe("blocked");
    expect((await octokit.pulls.merge({ ...repo, pull_number: 4 })).data.merged).toBe(true);
  });

  it("requires the approving reviews before merging", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    await protectMain(octokit, 1);
    const sha = await headSha(octokit);
    await octokit.repos.createCommitStatus({ ...repo, sha, state: "success", context: "ci" });
    const refused = await failure(octokit.pulls.merge({ ...repo, pull_number: 4 }));
    expect(refused.status).toBe(405);
    expect(refused.response.data.message).toBe("At least 1 approving review is required by reviewers with write access.");
    await octokit.pulls.createReview({ ...repo, pull_number: 4, event: "APPROVE" });
    expect((await octokit.pulls.get({ ...repo, pull_number: 4 })).data.mergeable_state).toBe("clean");
    expect((await octokit.pulls.merge({ ...repo, pull_number: 4 })).data.merged).toBe(true);
  });
});

describe("without enforce_admins, a repository admin merges through unmet rules (as on GitHub)", () => {
  it("lets the sandbox's user, an admin, merge with the required check missing and no approval", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    await protectMain(octokit, 1, false);
    expect((await octokit.repos.getBranchProtection(main)).data.enforce_admins?.enabled).toBe(false);
    // Unmet required checks read unstable to an admin who may bypass them, not blocked.
    expect((await octokit.pulls.get({ ...repo, pull_number: 4 })).data.mergeable_state).toBe("unstable");
    const merged = await octokit.pulls.merge({ ...repo, pull_number: 4 });
    expect(merged.data.merged).toBe(true);
    expect((await octokit.pulls.get({ ...repo, pull_number: 4 })).data.merged).toBe(true);
  });

  it("holds the admin to the same rules once enforce_admins is turned on", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    await protectMain(octokit, 1, false);
    await octokit.repos.setAdminBranchProtection(main);
    expect((await octokit.repos.getAdminBranchProtection(main)).data.enabled).toBe(true);
    expect((await octokit.pulls.get({ ...repo, pull_number: 4 })).data.mergeable_state).toBe("blocked");
    expect((await failure(octokit.pulls.merge({ ...repo, pull_number: 4 }))).status).toBe(405);
    await octokit.repos.deleteAdminBranchProtection(main);
    expect((await octokit.pulls.merge({ ...repo, pull_number: 4 })).data.merged).toBe(true);
  });
});

describe("a protected branch cannot be deleted unless its protection allows deletions", () => {
  it("answers 422 to DELETE /git/refs/heads/<branch>, and deletes once allowed", async () => {
    const { octokit } = await sandboxWith(smallWorld());
    const feature = { ...repo, branch: "feature" };
    await octokit.repos.updateBranchProtection({
      ...feature,
      required_status_checks: null,
      enforce_admins: null,
      required_pull_request_reviews: null,
      restrictions: null,
    });
    const refused = await failure(octokit.git.deleteRef({ ...repo, ref: "heads/feature" }));
    expect(refused.status).toBe(422);
    expect((await octokit.repos.getBranch(feature)).data.name).toBe("feature");
    await octokit.repos.updateBranchProtection({
      ...feature,
      required_status_checks: null,
      enforce_admins: null,
      required_pull_request_reviews: null,
      restrictions: null,
      allow_deletions: true,
    });
    await octokit.git.deleteRef({ ...repo, ref: "heads/feature" });
    expect((await failure(octokit.repos.getBranch(feature))).status).toBe(404);
  });
});

describe("a seed can declare a branch's protection", () => {
  it("boots with the rules in force and exports them back", async () => {
    const world = smallWorld() as { repositories: { branches: Record<string, unknown>[] }[] };
    world.repositories[0].branches[0].protection = {
      required_status_checks: ["ci"],
      required_approving_review_count: 1,
      enforce_admins: true,
    };
    const { sandbox, octokit } = await sandboxWith(world);
    const { data } = await octokit.repos.getBranchProtection(main);
    expect(data.required_status_checks?.contexts).toEqual(["ci"]);
    expect(data.required_pull_request_reviews?.required_approving_review_count).toBe(1);
    expect((await octokit.pulls.get({ ...repo, pull_number: 4 })).data.mergeable_state).toBe("blocked");
    const state = await stateOf<{ repositories: { branches: { name: string; protected: boolean; protection?: unknown }[] }[] }>(sandbox);
    expect(state.repositories[0].branches[0]).toMatchObject({
      name: "main",
      protected: true,
      protection: { required_status_checks: ["ci"], required_approving_review_count: 1, enforce_admins: true, allow_deletions: false },
    });
  });
});
