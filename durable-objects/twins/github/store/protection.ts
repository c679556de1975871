// Branch protection: one row per protected branch holding GitHub's settings as one JSON object,
// and the rules a merge into that branch must pass (required status checks by context or check
// run name on the head commit, required approving reviews). GitHub's refusal wording:
// 405 'Required status check "<context>" is expected.' (documentation_url about-protected-branches),
// as seen on api.github.com in PennyDreadfulMTG/Penny-Dreadful-Tools#6226; a branch without
// protection reads 404 "Branch not protected" (cooneycw/claude-power-pack#610).
import type { Db } from "../../types";
import type { GithubBranchProtection } from "../seed";
import { findRepoById } from "../repos";
import { authenticatedLogin } from "./base";
import { collaboratorOf } from "./collaborators";
import type { IssueRow } from "./rows";

export interface StatusChecksRule {
  strict: boolean;
  contexts: string[];
}

export interface ReviewsRule {
  required_approving_review_count: number;
  dismiss_stale_reviews: boolean;
  require_code_owner_reviews: boolean;
}

export interface Protection {
  required_status_checks: StatusChecksRule | null;
  required_pull_request_reviews: ReviewsRule | null;
  enforce_admins: boolean;
  restrictions: { users: string[]; teams: string[] } | null;
  allow_force_pushes: boolean;
  allow_deletions: boolean;
}

/** What a branch marked protected (a seed's `protected: true`) has before anyone sets rules. */
export const BARE_PROTECTION: Protection = {
  required_status_checks: null,
  required_pull_request_reviews: null,
  enforce_admins: false,
  restrictions: null,
  allow_force_pushes: false,
  allow_deletions: false,
};

function parse(text: string): Protection {
  try {
    return { ...BARE_PROTECTION, ...(JSON.parse(text) as Partial<Protection>) };
  } catch {
    return BARE_PROTECTION;
  }
}

/** The protection of a branch, or undefined when the branch is not protected. */
export function findProtection(db: Db, repoId: number, branch: string): Protection | undefined {
  const row = db.one<{ protected: number; settings: string | null }>(
    `SELECT b.protected, p.settings FROM gh_branches b
     LEFT JOIN gh_branch_protection p ON p.repo_id = b.repo_id AND p.branch = b.name
     WHERE b.repo_id = ? AND b.name = ?`,
    repoId,
    branch,
  );
  if (!row || row.protected !== 1) return undefined;
  return row.settings ? parse(row.settings) : BARE_PROTECTION;
}

export function saveProtection(db: Db, repoId: number, branch: string, p: Protection): void {
  db.run(
    "INSERT INTO gh_branch_protection (repo_id, branch, settings) VALUES (?, ?, ?) ON CONFLICT (repo_id, branch) DO UPDATE SET settings = excluded.settings",
    repoId,
    branch,
    JSON.stringify(p),
  );
  db.run("UPDATE gh_branches SET protected = 1 WHERE repo_id = ? AND name = ?", repoId, branch);
}

export function removeProtection(db: Db, repoId: number, branch: string): void {
  db.run("DELETE FROM gh_branch_protection WHERE repo_id = ? AND branch = ?", repoId, branch);
  db.run("UPDATE gh_branches SET protected = 0 WHERE repo_id = ? AND name = ?", repoId, branch);
}

/** Whether a required context passed on a commit: its latest status or latest check run of that name succeeded. */
function contextPassed(db: Db, repoId: number, sha: string, context: string): boolean {
  const status = db.one<{ state: string }>(
    "SELECT state FROM gh_statuses WHERE repo_id = ? AND sha = ? AND context = ? ORDER BY id DESC LIMIT 1",
    repoId,
    sha,
    context,
  );
  if (status?.state === "success") return true;
  const run = db.one<{ status: string; conclusion: string | null }>(
    "SELECT status, conclusion FROM gh_check_runs WHERE repo_id = ? AND head_sha = ? AND name = ? ORDER BY id DESC LIMIT 1",
    repoId,
    sha,
    context,
  );
  return run?.status === "completed" && (run.conclusion === "success" || run.conclusion === "neutral" || run.conclusion === "skipped");
}

/** Approvals that count: each reviewer's latest submitted review, not the author's, approving (the head commit when stale ones are dismissed). */
function approvals(db: Db, pull: IssueRow, headSha: string, rule: ReviewsRule): number {
  const latest = db.all<{ user: string; state: string; commit_id: string | null }>(
    `SELECT r.user, r.state, r.commit_id FROM gh_reviews r
     WHERE r.repo_id = ? AND r.pull_number = ? AND r.state IN ('APPROVED', 'CHANGES_REQUESTED', 'DISMISSED')
       AND r.id = (SELECT max(id) FROM gh_reviews t WHERE t.repo_id = r.repo_id AND t.pull_number = r.pull_number
                   AND t.user = r.user AND t.state IN ('APPROVED', 'CHANGES_REQUESTED', 'DISMISSED'))`,
    pull.repo_id,
    pull.number,
  );
  return latest.filter(
    (r) =>
      r.state === "APPROVED" &&
      r.user.toLowerCase() !== pull.user.toLowerCase() &&
      (!rule.dismiss_stale_reviews || r.commit_id === null || r.commit_id === headSha),
  ).length;
}

/** A rule the merge of a pull request does not meet, and whether the one merging may bypass it. */
export interface ProtectionVerdict {
  message: string;
  rule: "checks" | "reviews";
  /**
   * The sandbox's user is a repository admin (collaborators.ts), and GitHub applies a branch's rules
   * to admins only when `enforce_admins` is on: without it an admin's merge through the API goes
   * through unmet checks and reviews (division-sh/swarm#2253: merged at REVIEW_REQUIRED;
   * tsouza/cerberus#1830: merged with required checks pending, both with enforce_admins false).
   */
  bypassed: boolean;
}

/** Whether the sandbox's user (who merges) holds admin on the repository. */
function actorIsAdmin(db: Db, repoId: number): boolean {
  const repo = findRepoById(db, repoId);
  const actor = authenticatedLogin(db);
  return repo !== undefined && collaboratorOf(db, repo, actor, actor)?.role === "admin";
}

/** The first rule of the base branch's protection that merging `pull` (head at `headSha`) would break. */
export function protectionRefusal(db: Db, pull: IssueRow, headSha: string): ProtectionVerdict | undefined {
  const p = findProtection(db, pull.repo_id, pull.base ?? "");
  if (!p) return undefined;
  const verdict = (rule: ProtectionVerdict["rule"], message: string): ProtectionVerdict => ({
    message,
    rule,
    bypassed: !p.enforce_admins && actorIsAdmin(db, pull.repo_id),
  });
  for (const context of p.required_status_checks?.contexts ?? []) {
    if (!contextPassed(db, pull.repo_id, headSha, context)) return verdict("checks", `Required status check "${context}" is expected.`);
  }
  const reviews = p.required_pull_request_reviews;
  if (
    reviews &&
    reviews.required_approving_review_count > 0 &&
    approvals(db, pull, headSha, reviews) < reviews.required_approving_review_count
  ) {
    const n = reviews.required_approving_review_count;
    return verdict("reviews", `At least ${n} approving review${n === 1 ? " is" : "s are"} required by reviewers with write access.`);
  }
  return undefined;
}

/** A seed's flattened rules as the protection GitHub would hold after PUT …/protection. */
export function protectionFromSeed(p: GithubBranchProtection): Protection {
  return {
    required_status_checks: p.required_status_checks.length ? { strict: p.strict, contexts: p.required_status_checks } : null,
    required_pull_request_reviews:
      p.required_approving_review_count > 0
        ? {
            required_approving_review_count: p.required_approving_review_count,
            dismiss_stale_reviews: p.dismiss_stale_reviews,
            require_code_owner_reviews: false,
          }
        : null,
    enforce_admins: p.enforce_admins,
    restrictions: null,
    allow_force_pushes: p.allow_force_pushes,
    allow_deletions: p.allow_deletions,
  };
}

/** The seed form of a protection, so an exported world boots with the same rules. */
export function protectionToSeed(p: Protection): GithubBranchProtection {
  return {
    required_status_checks: p.required_status_checks?.contexts ?? [],
    strict: p.required_status_checks?.strict ?? false,
    required_approving_review_count: p.required_pull_request_reviews?.required_approving_review_count ?? 0,
    dismiss_stale_reviews: p.required_pull_request_reviews?.dismiss_stale_reviews ?? false,
    enforce_admins: p.enforce_admins,
    allow_force_pushes: p.allow_force_pushes,
    allow_deletions: p.allow_deletions,
  };
}
