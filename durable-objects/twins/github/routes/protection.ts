// Branch protection and the sub-resources agents use most (required status checks, required
// pull-request reviews, admin enforcement). Shapes follow @octokit/openapi's `branch-protection`,
// `status-check-policy` and `protected-branch-pull-request-review` schemas; an unprotected
// branch answers 404 "Branch not protected" as api.github.com does.
import { z } from "zod";
import type { Route, TwinContext } from "../../types";
import { ok } from "../context";
import { repoParams, route } from "../declare";
import { fail, ghError, ghNoContent } from "../errors";
import { requireRepo, requireWritableRepo, type RepoRow } from "../repos";
import { View } from "../serialize";
import { findBranch, type BranchRow } from "../store/git";
import {
  BARE_PROTECTION,
  findProtection,
  type Protection,
  type ReviewsRule,
  removeProtection,
  saveProtection,
  type StatusChecksRule,
} from "../store/protection";

const DOCS = "https://docs.github.com/rest/branches/branch-protection";
const branchParams = { ...repoParams, branch: z.string().min(1).describe("The branch name") };

function requireBranch(ctx: TwinContext, repo: RepoRow, name: string): BranchRow {
  return findBranch(ctx.db, repo.id, name) ?? fail(ghError(404, "Branch not found", {}, DOCS));
}

function requireProtection(ctx: TwinContext, repo: RepoRow, name: string): Protection {
  const branch = requireBranch(ctx, repo, name);
  return findProtection(ctx.db, repo.id, branch.name) ?? fail(ghError(404, "Branch not protected", {}, DOCS));
}

const protectionUrl = (v: View, r: RepoRow, branch: string) => v.repoApi(r, `/branches/${encodeURIComponent(branch)}/protection`);

export function statusChecksObject(v: View, r: RepoRow, branch: string, rule: StatusChecksRule) {
  const url = `${protectionUrl(v, r, branch)}/required_status_checks`;
  const checks = rule.contexts.map((context) => ({ context, app_id: null }));
  return { url, strict: rule.strict, contexts: rule.contexts, contexts_url: `${url}/contexts`, checks };
}

export function reviewsObject(v: View, r: RepoRow, branch: string, rule: ReviewsRule) {
  return { url: `${protectionUrl(v, r, branch)}/required_pull_request_reviews`, ...rule, require_last_push_approval: false };
}

export function protectionObject(v: View, r: RepoRow, branch: string, p: Protection) {
  const url = protectionUrl(v, r, branch);
  const restrictions = p.restrictions && {
    url: `${url}/restrictions`,
    users_url: `${url}/restrictions/users`,
    teams_url: `${url}/restrictions/teams`,
    apps_url: `${url}/restrictions/apps`,
    users: p.restrictions.users.map((login) => v.maybeUser(login)),
    teams: [],
    apps: [],
  };
  return {
    url,
    ...(p.required_status_checks ? { required_status_checks: statusChecksObject(v, r, branch, p.required_status_checks) } : {}),
    ...(p.required_pull_request_reviews
      ? { required_pull_request_reviews: reviewsObject(v, r, branch, p.required_pull_request_reviews) }
      : {}),
    enforce_admins: { url: `${url}/enforce_admins`, enabled: p.enforce_admins },
    ...(restrictions ? { restrictions } : {}),
    required_linear_history: { enabled: false },
    allow_force_pushes: { enabled: p.allow_force_pushes },
    allow_deletions: { enabled: p.allow_deletions },
    block_creations: { enabled: false },
    required_conversation_resolution: { enabled: false },
    lock_branch: { enabled: false },
    allow_fork_syncing: { enabled: false },
  };
}

const checkEntry = z.object({ context: z.string().min(1), app_id: z.number().int().nullable().optional() });
const statusChecksBody = {
  strict: z.boolean().describe("Require branches to be up to date before merging"),
  contexts: z.array(z.string()).describe("Status check contexts (or check run names) that must pass before merging"),
  checks: z.array(checkEntry).optional().describe("The same as contexts, each with the app that must report it"),
};
const reviewsBody = {
  required_approving_review_count: z.number().int().min(0).max(6).describe("Approving reviews a pull request needs (0-6)"),
  dismiss_stale_reviews: z.boolean().describe("Dismiss approvals when new commits are pushed"),
  require_code_owner_reviews: z.boolean().describe("Require a review from a code owner"),
};

const contextsOf = (b: { contexts?: string[]; checks?: { context: string }[] }): string[] =>
  b.checks ? b.checks.map((c) => c.context) : (b.contexts ?? []);

function reviewsRule(b: Partial<ReviewsRule> | null | undefined, old: ReviewsRule | null): ReviewsRule | null {
  if (!b) return null;
  return {
    required_approving_review_count: b.required_approving_review_count ?? old?.required_approving_review_count ?? 1,
    dismiss_stale_reviews: b.dismiss_stale_reviews ?? old?.dismiss_stale_reviews ?? false,
    require_code_owner_reviews: b.require_code_owner_reviews ?? old?.require_code_owner_reviews ?? false,
  };
}

export const protectionRoutes: readonly Route[] = [
  route({
    method: "GET",
    pattern: "/repos/:owner/:repo/branches/:branch/protection",
    operation: "repos.getBranchProtection",
    summary: "Get branch protection",
    params: branchParams,
    tool: {
      name: "get_branch_protection",
      description: "Get a branch's protection rules: required status checks, required approving reviews, admin enforcement, deletions.",
    },
    handler(ctx, { params }) {
      const repo = requireRepo(ctx);
      const p = requireProtection(ctx, repo, params.branch);
      return ok(protectionObject(new View(ctx), repo, params.branch, p));
    },
  }),
  route({
    method: "PUT",
    pattern: "/repos/:owner/:repo/branches/:branch/protection",
    operation: "repos.updateBranchProtection",
    summary: "Update branch protection",
    resource: "Branch",
    params: branchParams,
    body: {
      required_status_checks: z.object(statusChecksBody).partial().nullable().describe("Checks that must pass before merging, or null"),
      enforce_admins: z.boolean().nullable().describe("Enforce the rules for administrators too"),
      required_pull_request_reviews: z.object(reviewsBody).partial().nullable().describe("Reviews required before merging, or null"),
      restrictions: z
        .object({ users: z.array(z.string()), teams: z.array(z.string()), apps: z.array(z.string()).optional() })
        .nullable()
        .describe("Who may push, or null for everyone with write access"),
      allow_force_pushes: z.boolean().nullable().optional().describe("Allow force pushes"),
      allow_deletions: z.boolean().nullable().optional().describe("Allow deleting the branch"),
    },
    tool: {
      name: "update_branch_protection",
      description:
        "Protect a branch (replacing its rules): required status checks (`contexts`), required approving reviews, admin enforcement, push restrictions.",
    },
    handler(ctx, { params, body }) {
      const repo = requireWritableRepo(ctx);
      const branch = requireBranch(ctx, repo, params.branch);
      const checks = body.required_status_checks;
      const p: Protection = {
        ...BARE_PROTECTION,
        required_status_checks: checks ? { strict: checks.strict ?? false, contexts: contextsOf(checks) } : null,
        required_pull_request_reviews: reviewsRule(body.required_pull_request_reviews, null),
        enforce_admins: body.enforce_admins ?? false,
        restrictions: body.restrictions ? { users: body.restrictions.users, teams: body.restrictions.teams } : null,
        allow_force_pushes: body.allow_force_pushes ?? false,
        allow_deletions: body.allow_deletions ?? false,
      };
      saveProtection(ctx.db, repo.id, branch.name, p);
      return ok(protectionObject(new View(ctx), repo, branch.name, p));
    },
  }),
  route({
    method: "DELETE",
    pattern: "/repos/:owner/:repo/branches/:branch/protection",
    operation: "repos.deleteBranchProtection",
    summary: "Delete branch protection",
    params: branchParams,
    tool: { name: "delete_branch_protection", description: "Remove every protection rule from a branch." },
    handler(ctx, { params }) {
      const repo = requireWritableRepo(ctx);
      requireProtection(ctx, repo, params.branch);
      removeProtection(ctx.db, repo.id, params.branch);
      return ghNoContent();
    },
  }),
  ...statusCheckRoutes(),
  ...reviewRuleRoutes(),
  ...adminEnforcementRoutes(),
];

/**
 * Whether the rules bind repository admins too (`protected-branch-admin-enforced`: url, enabled).
 * Off, the sandbox's user, an admin, merges through unmet rules (store/protection.ts).
 */
function adminEnforcementRoutes(): Route[] {
  const path = "/repos/:owner/:repo/branches/:branch/protection/enforce_admins";
  const answer = (ctx: TwinContext, repo: RepoRow, branch: string, enabled: boolean) =>
    ok({ url: `${protectionUrl(new View(ctx), repo, branch)}/enforce_admins`, enabled });
  const set = (ctx: TwinContext, branch: string, enabled: boolean) => {
    const repo = requireWritableRepo(ctx);
    const p = requireProtection(ctx, repo, branch);
    saveProtection(ctx.db, repo.id, branch, { ...p, enforce_admins: enabled });
    return repo;
  };
  return [
    route({
      method: "GET",
      pattern: path,
      operation: "repos.getAdminBranchProtection",
      summary: "Get admin branch protection",
      params: branchParams,
      tool: { name: "get_admin_branch_protection", description: "Get whether a branch's protection rules bind repository admins too." },
      handler(ctx, { params }) {
        const repo = requireRepo(ctx);
        return answer(ctx, repo, params.branch, requireProtection(ctx, repo, params.branch).enforce_admins);
      },
    }),
    route({
      method: "POST",
      pattern: path,
      operation: "repos.setAdminBranchProtection",
      summary: "Set admin branch protection",
      params: branchParams,
      tool: { name: "set_admin_branch_protection", description: "Make a branch's protection rules bind repository admins too." },
      handler: (ctx, { params }) => answer(ctx, set(ctx, params.branch, true), params.branch, true),
    }),
    route({
      method: "DELETE",
      pattern: path,
      operation: "repos.deleteAdminBranchProtection",
      summary: "Delete admin branch protection",
      params: branchParams,
      tool: {
        name: "delete_admin_branch_protection",
        description: "Let repository admins merge without meeting a branch's protection rules.",
      },
      handler(ctx, { params }) {
        set(ctx, params.branch, false);
        return ghNoContent();
      },
    }),
  ];
}

const checksOf = (ctx: TwinContext, repo: RepoRow, branch: string) => {
  const p = requireProtection(ctx, repo, branch);
  return { p, rule: p.required_status_checks ?? fail(ghError(404, "Required status checks not enabled", {}, DOCS)) };
};

const reviewsOf = (ctx: TwinContext, repo: RepoRow, branch: string) => {
  const p = requireProtection(ctx, repo, branch);
  return { p, rule: p.required_pull_request_reviews ?? fail(ghError(404, "Required pull request reviews not enabled", {}, DOCS)) };
};

/** A protected branch's required status checks, read and changed on their own. */
function statusCheckRoutes(): Route[] {
  const checksPath = "/repos/:owner/:repo/branches/:branch/protection/required_status_checks";
  return [
    route({
      method: "GET",
      pattern: checksPath,
      operation: "repos.getStatusChecksProtection",
      summary: "Get status checks protection",
      params: branchParams,
      tool: { name: "get_required_status_checks", description: "Get the status checks a branch requires before merging." },
      handler(ctx, { params }) {
        const repo = requireRepo(ctx);
        return ok(statusChecksObject(new View(ctx), repo, params.branch, checksOf(ctx, repo, params.branch).rule));
      },
    }),
    route({
      method: "PATCH",
      pattern: checksPath,
      operation: "repos.updateStatusCheckProtection",
      summary: "Update status check protection",
      resource: "Branch",
      params: branchParams,
      body: z.object(statusChecksBody).partial().shape,
      tool: {
        name: "update_required_status_checks",
        description: "Change which status checks a branch requires, or whether it must be up to date.",
      },
      handler(ctx, { params, body }) {
        const repo = requireWritableRepo(ctx);
        const { p, rule } = checksOf(ctx, repo, params.branch);
        const next: StatusChecksRule = {
          strict: body.strict ?? rule.strict,
          contexts: body.checks || body.contexts ? contextsOf(body) : rule.contexts,
        };
        saveProtection(ctx.db, repo.id, params.branch, { ...p, required_status_checks: next });
        return ok(statusChecksObject(new View(ctx), repo, params.branch, next));
      },
    }),
  ];
}

/** A protected branch's required reviews, read, changed and removed on their own. */
function reviewRuleRoutes(): Route[] {
  const reviewsPath = "/repos/:owner/:repo/branches/:branch/protection/required_pull_request_reviews";
  return [
    route({
      method: "GET",
      pattern: reviewsPath,
      operation: "repos.getPullRequestReviewProtection",
      summary: "Get pull request review protection",
      params: branchParams,
      tool: { name: "get_required_reviews", description: "Get the approving reviews a branch requires before merging." },
      handler(ctx, { params }) {
        const repo = requireRepo(ctx);
        return ok(reviewsObject(new View(ctx), repo, params.branch, reviewsOf(ctx, repo, params.branch).rule));
      },
    }),
    route({
      method: "PATCH",
      pattern: reviewsPath,
      operation: "repos.updatePullRequestReviewProtection",
      summary: "Update pull request review protection",
      resource: "Branch",
      params: branchParams,
      body: z.object(reviewsBody).partial().shape,
      tool: {
        name: "update_required_reviews",
        description: "Change how many approving reviews a branch requires, or whether stale ones are dismissed.",
      },
      handler(ctx, { params, body }) {
        const repo = requireWritableRepo(ctx);
        const { p, rule } = reviewsOf(ctx, repo, params.branch);
        const next = reviewsRule(body, rule) ?? rule;
        saveProtection(ctx.db, repo.id, params.branch, { ...p, required_pull_request_reviews: next });
        return ok(reviewsObject(new View(ctx), repo, params.branch, next));
      },
    }),
    route({
      method: "DELETE",
      pattern: reviewsPath,
      operation: "repos.deletePullRequestReviewProtection",
      summary: "Delete pull request review protection",
      params: branchParams,
      tool: { name: "delete_required_reviews", description: "Stop requiring approving reviews on a branch." },
      handler(ctx, { params }) {
        const repo = requireWritableRepo(ctx);
        const { p } = reviewsOf(ctx, repo, params.branch);
        saveProtection(ctx.db, repo.id, params.branch, { ...p, required_pull_request_reviews: null });
        return ghNoContent();
      },
    }),
  ];
}
