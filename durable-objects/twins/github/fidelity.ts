// The GitHub twin's fidelity declaration (Node only: `npm run fidelity` reads it and writes
// FIDELITY.md beside it): where GitHub's published description is, which of its operations agents
// use, and where the twin's answers knowingly differ from it, each with its reason. The
// schema-conformance test (test/node/fidelity/) fails on any difference not declared here.
import { readFileSync } from "node:fs";
import path from "node:path";
import { type OpenApi3, openApiTarget } from "../kit/fidelity/conformance";
import { openApiOperations, readJson } from "../kit/fidelity/measure";
import type { AgentRelevantSet, Divergence, VendorDescription } from "../kit/fidelity/types";
import type { TwinFidelity } from "../kit/fidelity/declaration";

const DESCRIPTION = "node_modules/@octokit/openapi/generated/api.github.com.json";

function describe(root: string): VendorDescription {
  const spec = readJson<{ info: { version: string }; paths: Record<string, Record<string, { operationId?: string }>> }>(root, DESCRIPTION);
  const pkg = readJson<{ version: string }>(root, "node_modules/@octokit/openapi/package.json");
  return {
    name: "GitHub REST API OpenAPI description (api.github.com)",
    version: `@octokit/openapi ${pkg.version} (info.version ${spec.info.version})`,
    source: "github/rest-api-description via npm @octokit/openapi, MIT",
    operations: openApiOperations(spec.paths),
  };
}

/** The REST operations behind github/github-mcp-server's default tool sets, and octokit.js's quickstart. */
const agentRelevant: AgentRelevantSet = {
  source:
    "github/github-mcp-server default toolsets (context, repos, issues, pull_requests, users), pkg/github/*.go REST calls; octokit.js README quickstart (GET /user, issues.create)",
  operations: [
    // context
    "users/get-authenticated",
    // repos
    "search/repos",
    "repos/get-content",
    "repos/list-commits",
    "search/code",
    "repos/get-commit",
    "repos/list-branches",
    "repos/list-tags",
    "git/get-tag",
    "git/get-ref",
    "repos/list-releases",
    "repos/get-latest-release",
    "repos/get-release-by-tag",
    "repos/create-or-update-file-contents",
    "repos/delete-file",
    "repos/create-for-authenticated-user",
    "repos/create-in-org",
    "repos/create-fork",
    "git/create-ref",
    "git/get-commit",
    "git/create-tree",
    "git/create-commit",
    "git/update-ref",
    "repos/get",
    "activity/list-repos-starred-by-authenticated-user",
    "activity/star-repo-for-authenticated-user",
    "activity/unstar-repo-for-authenticated-user",
    // issues
    "issues/get",
    "issues/create",
    "issues/update",
    "issues/create-comment",
    "issues/list-comments",
    "issues/list-for-repo",
    "issues/list-labels-on-issue",
    "issues/list-labels-for-repo",
    "issues/get-label",
    "issues/create-label",
    "issues/list-sub-issues",
    "issues/add-sub-issue",
    "issues/remove-sub-issue",
    "issues/reprioritize-sub-issue",
    "search/issues-and-pull-requests",
    // pull_requests
    "pulls/get",
    "pulls/list",
    "pulls/create",
    "pulls/update",
    "pulls/merge",
    "pulls/list-files",
    "pulls/list-review-comments",
    "pulls/list-reviews",
    "pulls/update-branch",
    "pulls/request-reviewers",
    "repos/get-combined-status-for-ref",
    // users
    "search/users",
  ],
};

/**
 * GitHub's refusals on the CI surfaces that the description does not list (it gives most Actions
 * and Checks operations their success status alone): 404 for a run, job, workflow, check or suite
 * the repository does not hold; 422 for a head sha or ref that names no commit, or a completed
 * check run without a conclusion; 403 for re-running a run that has not completed, or for updating a
 * check run another app (GitHub Actions) reported. The bodies are
 * GitHub's basic error (`message`, `documentation_url`).
 */
const UNLISTED_REFUSAL = "GitHub answers this refusal with its basic error body; the description lists only the success status";
const ciRefusals = (statuses: readonly number[], operations: readonly string[]): Divergence[] =>
  operations.flatMap((operation) =>
    statuses.map((status) => ({ operation, status, path: "/", kind: "status" as const, reason: UNLISTED_REFUSAL })),
  );

const ciDivergences: readonly Divergence[] = [
  ...ciRefusals(
    [404],
    [
      "actions/get-workflow",
      "actions/list-workflow-runs",
      "actions/get-workflow-run",
      "actions/delete-workflow-run",
      "actions/re-run-workflow",
      "actions/re-run-workflow-failed-jobs",
      "actions/cancel-workflow-run",
      "actions/list-jobs-for-workflow-run",
      "actions/get-job-for-workflow-run",
      "actions/download-job-logs-for-workflow-run",
      "actions/list-workflow-run-artifacts",
      "actions/create-workflow-dispatch",
      "checks/get",
      "checks/update",
      "checks/list-annotations",
      "checks/list-for-ref",
      "checks/list-for-suite",
      "checks/get-suite",
      "checks/rerequest-suite",
      "checks/list-suites-for-ref",
      "repos/get-webhook-delivery",
      "repos/redeliver-webhook-delivery",
      "repos/list-webhook-deliveries",
    ],
  ),
  ...ciRefusals([422], ["actions/create-workflow-dispatch", "checks/create", "checks/update", "checks/create-suite"]),
  ...ciRefusals([403], ["actions/re-run-workflow", "actions/re-run-workflow-failed-jobs", "checks/update"]),
];

export const divergences: readonly Divergence[] = [
  // Every refusal GitHub answers with a described body (basic-error for 403, 404, 405, 409;
  // validation-error for 422) carries `status`: github/rest-api-description#3726 shows
  // `{ message: 'Not Found', documentation_url: …, status: '404' }`.
  ...[403, 404, 405, 409, 410, 422].map((status) => ({
    operation: "*",
    status,
    path: "/status",
    kind: "extra" as const,
    reason: `GitHub's error answers carry status ("${status}") beside message and documentation_url; the description's error schemas do not list it`,
  })),
  {
    operation: "search/issues-and-pull-requests",
    path: "/search_type",
    kind: "missing",
    reason: "the twin does not send search_type yet (a recent addition to the description, @octokit/openapi 23); clients do not read it",
  },
  {
    operation: "search/issues-and-pull-requests",
    path: "/items/*/body",
    kind: "type",
    reason: "an issue without a body has body null, as GitHub itself answers; the description types it string without nullable",
  },
  // Each rate-limit bucket names itself (`"resource": "core"`), as GitHub answers /rate_limit and
  // its X-RateLimit-Resource header does; the description's rate-limit schema does not list it.
  ...["/resources/*/resource", "/rate/resource"].map((path) => ({
    operation: "rate-limit/get",
    path,
    kind: "extra" as const,
    reason: "GitHub's rate-limit buckets carry resource (the bucket's name); the description's rate-limit schema omits it",
  })),
  // An organization without a company, email or location answers null for it, as GitHub's own
  // organizations do (GET /orgs/github: "company": null); the description types them string.
  ...["/company", "/email", "/location"].map((path) => ({
    operation: "orgs/get",
    path,
    kind: "type" as const,
    reason: "an organization's unset profile fields are null, as GitHub answers them; the description types them string without nullable",
  })),
  // Issue events the twin records with one more field than the description's event schemas list.
  ...["issues/list-events", "issues/list-events-for-repo"].map((operation) => ({
    operation,
    path: "/*/state_reason",
    kind: "extra" as const,
    reason:
      "a closed or reopened event carries the state_reason the issue took (completed, not_planned); the description's issue-event schema does not list it",
  })),
  {
    operation: "issues/list-events-for-timeline",
    path: "/*/assigner",
    kind: "extra",
    reason:
      "an assigned event on the timeline is the same record as in the issue's events and carries its assigner; the description's timeline-assigned-issue-event lists assignee only",
  },
  {
    operation: "pulls/create-review-comment",
    status: 422,
    path: "/errors/*",
    kind: "type",
    reason:
      'GitHub words a comment outside the diff as plain-string errors ("pull_request_review_thread.line must be part of the diff"); the description\'s validation-error types each error as an object',
  },
  // A file-level review comment (subject_type "file") sits on no line of the diff: its line,
  // position and side are null (GraphQL's PullRequestReviewComment.line is null for FILE threads
  // too); the description types them integer and string without nullable.
  ...["pulls/list-review-comments", "pulls/list-review-comments-for-repo", "pulls/list-comments-for-review"].flatMap((operation) =>
    ["position", "original_position", "line", "original_line", "side"].map((field) => ({
      operation,
      path: `/*/${field}`,
      kind: "type" as const,
      reason: "a file-level review comment (subject_type file) has no line of the diff, so line, position and side are null",
    })),
  ),
  ...["pulls/create-review-comment", "pulls/get-review-comment", "pulls/create-reply-for-review-comment"].flatMap((operation) =>
    ["position", "original_position", "line", "original_line", "side"].map((field) => ({
      operation,
      path: `/${field}`,
      kind: "type" as const,
      reason: "a file-level review comment (subject_type file) has no line of the diff, so line, position and side are null",
    })),
  ),
  ...ciDivergences,
];

/**
 * Where the twin's answers differ from GitHub's recorded ones (@octokit/fixtures, replayed by
 * test/node/fidelity/recorded-github.test.ts). `scenario` `*` covers every scenario.
 */
export interface RecordedDivergence {
  scenario: string;
  path: string;
  kind: "status" | "header" | "missing" | "extra" | "type";
  reason: string;
}

// The fixtures were recorded before GitHub added these fields; @octokit/openapi 23 (the
// description the twin follows) lists them, so the twin sends them.
const NEWER_FIELD = "a field GitHub added after @octokit/fixtures recorded this; the current description (@octokit/openapi 23) lists it";

export const recordedDivergences: readonly RecordedDivergence[] = [
  { scenario: "*", path: "/type", kind: "extra", reason: NEWER_FIELD },
  { scenario: "*", path: "/*/type", kind: "extra", reason: NEWER_FIELD },
  { scenario: "*", path: "/items/*/type", kind: "extra", reason: NEWER_FIELD },
  { scenario: "*", path: "/user/user_view_type", kind: "extra", reason: NEWER_FIELD },
  { scenario: "*", path: "/*/user/user_view_type", kind: "extra", reason: NEWER_FIELD },
  { scenario: "*", path: "/items/*/user/user_view_type", kind: "extra", reason: NEWER_FIELD },
  { scenario: "*", path: "/owner/user_view_type", kind: "extra", reason: NEWER_FIELD },
  { scenario: "*", path: "/organization/user_view_type", kind: "extra", reason: NEWER_FIELD },
  { scenario: "get-repository", path: "/has_discussions", kind: "extra", reason: NEWER_FIELD },
  {
    scenario: "get-repository",
    path: "/temp_clone_token",
    kind: "missing",
    reason: "GitHub sends it only to a caller with push access, and its value is a secret the sandbox does not mint",
  },
  {
    scenario: "get-repository",
    path: "/use_squash_pr_title_as_default",
    kind: "missing",
    reason: "deprecated by GitHub (squash_merge_commit_title replaces it) and optional in the description; the twin sends neither yet",
  },
];

/** The response headers @octokit/rest and its plugins read. */
export const CLIENT_HEADERS = [
  "link",
  "etag",
  "x-ratelimit-limit",
  "x-ratelimit-remaining",
  "x-ratelimit-reset",
  "x-ratelimit-used",
  "x-ratelimit-resource",
] as const;

/**
 * The schema GitHub publishes for a concrete call's operation and status, named by its operationId
 * (`{path}` in `/repos/{owner}/{repo}/contents/{path}` takes slashes).
 */
export function conformance(root: string) {
  const spec = JSON.parse(readFileSync(path.join(root, DESCRIPTION), "utf8")) as OpenApi3;
  return openApiTarget(spec, {
    id: "https://schemas.pome.invalid/github.json",
    nameOf: (_method, _template, op) => op.operationId,
    greedy: ["path"],
    mediaTypes: ["application/json", "application/scim+json"],
  });
}

/** Why GitHub's other operations answer 501, by area (the operationId's prefix). */
const notImplemented: TwinFidelity["notImplemented"] = {
  byPrefix: {
    "actions/":
      "this part of GitHub Actions (secrets, variables, runners, caches, permissions, run logs archives, artifact downloads, ...) is not modelled; workflows, runs, jobs, job logs and artifact lists are",
    "checks/":
      "check suite preferences (auto-trigger settings per app) and re-requesting a single check run are not modelled; runs, suites and annotations are",
    "apps/": "GitHub App installations and their tokens: a sandbox's token stands in for an installation",
    "oidc/": "OIDC token customisation belongs to hosted CI, which the twin does not run",
    "credentials/": "credential revocation is a GitHub-wide security service, outside a sandbox",
    "activity/": "watching and event feeds are not modelled yet (stars and notifications are)",
    "reactions/": "reactions on this kind of object (commit comments, releases, team discussions) are not stored",
    "gists/": "gists are outside the repository-and-collaboration world the twin models",
    "projects/": "Projects (classic) is retired by GitHub; the twin does not serve it",
    "orgs/": "organization administration (members, settings, hooks, rulesets, custom roles) is not modelled beyond reads the twin serves",
    "teams/":
      "this team operation (creating, editing and deleting teams, discussions, legacy id routes, ...) is not built yet; teams, their members, memberships and repositories are",
    "users/": "user account administration (emails, keys, followers, blocks) is not modelled",
    "repos/": "repository administration (settings, deployments, pages, releases, rulesets, traffic, ...) is not built yet",
    "issues/": "this issue operation (milestone writes, issue types, dependencies, ...) is not built yet (sub-issues are)",
    "pulls/": "this pull-request operation (review dismissal, codespaces, ...) is not built yet",
    "search/": "this search is not built yet (issues, code, commits, repositories, users, labels and topics are)",
    "git/": "this part of the git database is not built yet",
    "meta/": "GitHub's service metadata (meta, octocat, zen, versions) is static reference data the twin does not serve",
    "emojis/": "static reference data the twin does not serve",
    "gitignore/": "static reference data the twin does not serve",
    "licenses/": "static reference data the twin does not serve",
    "codes-of-conduct/": "static reference data the twin does not serve",
    "markdown/": "markdown rendering is not implemented",
  },
  otherwise:
    "an administration, security, billing, Copilot, Codespaces or enterprise product outside the repository-and-collaboration world the twin models",
};

export const fidelity: TwinFidelity = {
  describe,
  answers: (root) => ({ by: "schema", target: conformance(root) }),
  agentRelevant,
  divergences,
  notImplemented,
  mcp: "`\u2026/mcp` serves the twin's own tools, one per REST operation; `\u2026/mcp/official` serves github/github-mcp-server's default tool sets (context, repos, issues, pull_requests, users: 43 tools, v1.10.1-3-g64a49f34, MIT) exactly as the server lists them, each carried out as the REST calls it stands for (test/fixtures/vendor-mcp/github-mcp-server.json, test/node/mcp/github-official-tools.test.ts).",
};
