// Where this twin's answers knowingly differ from its vendor's published description, each with
// its reason. The one place: the schema-conformance test (test/node/fidelity/) fails on any other
// difference, and `npm run fidelity` marks these operations "divergent" in FIDELITY.md.
import type { Divergence } from "../kit/fidelity/types";

export const divergences: readonly Divergence[] = [
  {
    operation: "*",
    status: 422,
    path: "/status",
    kind: "extra",
    reason:
      "GitHub's error answers carry status (\"422\") beside message and documentation_url; the description's validation-error schema does not list it",
  },
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
  {
    scenario: "*",
    path: "etag",
    kind: "header",
    reason:
      "the twin sends no ETag yet: conditional requests (If-None-Match, 304) are not implemented, so clients always get the full body",
  },
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
