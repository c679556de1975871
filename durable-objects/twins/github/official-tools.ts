// github/github-mcp-server's default tool sets (context, repos, issues, pull_requests, users),
// with the names, descriptions, input schemas and annotations the server publishes (its own
// snapshots, in test/fixtures/vendor-mcp/), each carried out as the REST calls it stands for
// against this twin, so an agent built for GitHub's MCP server works against a sandbox unchanged.
// The server answers GraphQL for a few methods (sub-issue reprioritising, review threads) and
// trims its answers to "minimal" shapes; here every tool answers the REST body GitHub gives.
import published from "../../../test/fixtures/vendor-mcp/github-mcp-server.json";
import { officialToolSet } from "../kit/official-tools";
import type {
  OfficialToolSet,
  ToolCall,
  TwinResponse,
  OfficialToolArgs as Args,
  OfficialToolCaller as Call,
  OfficialToolRun as Run,
} from "../types";

const enc = encodeURIComponent;
const str = (v: unknown) => (typeof v === "string" ? v : typeof v === "number" ? String(v) : "");
const repo = (a: Args) => `/repos/${enc(str(a.owner))}/${enc(str(a.repo))}`;

/** `page` and `perPage` as GitHub's query parameters, with any other query values given. */
function query(a: Args, extra: Record<string, unknown> = {}): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries({ page: a.page, per_page: a.perPage, ...extra }))
    if (v !== undefined && v !== null && v !== "") out[k] = Array.isArray(v) ? v.map(str).join(",") : str(v);
  return out;
}

/** Only the fields given: the tools leave out what the agent did not set. */
const given = (fields: Record<string, unknown>) => Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));

const answer = (res: TwinResponse) => ({ text: res.body || `HTTP ${res.status}`, isError: res.status >= 400 });
const refuse = (text: string) => ({ text, isError: true });
const parsed = (res: TwinResponse): Record<string, unknown> => {
  try {
    const v: unknown = JSON.parse(res.body);
    return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
};
const get = (path: string, q?: Record<string, string>): ToolCall => ({ method: "GET", path, query: q });

/** One call whose answer is the tool's answer. */
const one =
  (toCall: (a: Args) => ToolCall): Run =>
  async (a, call) =>
    answer(await call(toCall(a)));

/** A tool with a `method` argument: each method is its own run. */
const byMethod =
  (methods: Record<string, Run>): Run =>
  (a, call) => {
    const run = methods[str(a.method)];
    return run ? run(a, call) : Promise.resolve(refuse(`unknown method: ${str(a.method)}`));
  };

/** The pull request's head commit, for the tools that act on it. */
async function headSha(a: Args, call: Call): Promise<string | undefined> {
  const pr = parsed(await call(get(`${repo(a)}/pulls/${str(a.pullNumber)}`)));
  const head = pr.head as { sha?: unknown } | undefined;
  return typeof head?.sha === "string" ? head.sha : undefined;
}

/** Requests reviewers when the tool names some, then answers with the pull request. */
async function withReviewers(a: Args, call: Call, res: TwinResponse, pull: unknown): Promise<{ text: string; isError: boolean }> {
  if (res.status >= 400 || !Array.isArray(a.reviewers) || !a.reviewers.length) return answer(res);
  const asked = await call({ method: "POST", path: `${repo(a)}/pulls/${str(pull)}/requested_reviewers`, body: { reviewers: a.reviewers } });
  return answer(asked.status >= 400 ? asked : res);
}

function searchIn(kind: "issue" | "pr"): Run {
  return one((a) => {
    const scope = a.owner && a.repo ? ` repo:${str(a.owner)}/${str(a.repo)}` : a.owner ? ` user:${str(a.owner)}` : "";
    return get("/search/issues", query(a, { q: `${str(a.query)} is:${kind}${scope}`, sort: a.sort, order: a.order }));
  });
}

const RUNS: Record<string, Run> = {
  // context
  get_me: one(() => get("/user")),
  get_teams: one((a) => (a.user ? get(`/users/${enc(str(a.user))}/teams`) : get("/user/teams"))),
  get_team_members: one((a) => get(`/orgs/${enc(str(a.org))}/teams/${enc(str(a.team_slug))}/members`)),
  // issues
  issue_read: byMethod({
    get: one((a) => get(`${repo(a)}/issues/${str(a.issue_number)}`)),
    get_comments: one((a) => get(`${repo(a)}/issues/${str(a.issue_number)}/comments`, query(a))),
    get_sub_issues: one((a) => get(`${repo(a)}/issues/${str(a.issue_number)}/sub_issues`, query(a))),
    get_parent: one((a) => get(`${repo(a)}/issues/${str(a.issue_number)}/parent`)),
    get_labels: one((a) => get(`${repo(a)}/issues/${str(a.issue_number)}/labels`, query(a))),
  }),
  issue_write: byMethod({
    create: one((a) => ({
      method: "POST",
      path: `${repo(a)}/issues`,
      body: given({ title: a.title, body: a.body, assignees: a.assignees, labels: a.labels, milestone: a.milestone, type: a.type }),
    })),
    update: one((a) => ({
      method: "PATCH",
      path: `${repo(a)}/issues/${str(a.issue_number)}`,
      body: given({
        title: a.title,
        body: a.body,
        assignees: a.assignees,
        labels: a.labels,
        milestone: a.milestone,
        type: a.type,
        state: a.state,
        state_reason: a.duplicate_of !== undefined ? "duplicate" : a.state_reason,
      }),
    })),
  }),
  add_issue_comment: async (a, call) => {
    if (a.reaction !== undefined && a.body === undefined) {
      const path =
        a.comment_id !== undefined
          ? `${repo(a)}/issues/comments/${str(a.comment_id)}/reactions`
          : `${repo(a)}/issues/${str(a.issue_number)}/reactions`;
      return answer(await call({ method: "POST", path, body: { content: a.reaction } }));
    }
    return answer(await call({ method: "POST", path: `${repo(a)}/issues/${str(a.issue_number)}/comments`, body: { body: a.body } }));
  },
  get_label: one((a) => get(`${repo(a)}/labels/${enc(str(a.name))}`)),
  list_issues: one((a) =>
    get(
      `${repo(a)}/issues`,
      query(a, {
        state: typeof a.state === "string" ? a.state.toLowerCase() : undefined,
        labels: a.labels,
        since: a.since,
        direction: typeof a.direction === "string" ? a.direction.toLowerCase() : undefined,
        sort: typeof a.orderBy === "string" ? a.orderBy.toLowerCase().replace("_at", "") : undefined,
      }),
    ),
  ),
  list_issue_types: one((a) => get(`/orgs/${enc(str(a.owner))}/issue-types`)),
  list_issue_fields: one((a) => get(`/orgs/${enc(str(a.owner))}/issue-fields`)),
  search_issues: searchIn("issue"),
  sub_issue_write: byMethod({
    add: one((a) => ({
      method: "POST",
      path: `${repo(a)}/issues/${str(a.issue_number)}/sub_issues`,
      body: given({ sub_issue_id: a.sub_issue_id, replace_parent: a.replace_parent }),
    })),
    remove: one((a) => ({
      method: "DELETE",
      path: `${repo(a)}/issues/${str(a.issue_number)}/sub_issue`,
      body: { sub_issue_id: a.sub_issue_id },
    })),
    reprioritize: one((a) => ({
      method: "PATCH",
      path: `${repo(a)}/issues/${str(a.issue_number)}/sub_issues/priority`,
      body: given({ sub_issue_id: a.sub_issue_id, after_id: a.after_id, before_id: a.before_id }),
    })),
  }),
  // pull requests
  list_pull_requests: one((a) =>
    get(`${repo(a)}/pulls`, query(a, { state: a.state, head: a.head, base: a.base, sort: a.sort, direction: a.direction })),
  ),
  search_pull_requests: searchIn("pr"),
  pull_request_read: byMethod({
    get: one((a) => get(`${repo(a)}/pulls/${str(a.pullNumber)}`)),
    get_files: one((a) => get(`${repo(a)}/pulls/${str(a.pullNumber)}/files`, query(a))),
    get_reviews: one((a) => get(`${repo(a)}/pulls/${str(a.pullNumber)}/reviews`, query(a))),
    get_review_comments: one((a) => get(`${repo(a)}/pulls/${str(a.pullNumber)}/comments`, query(a))),
    get_comments: one((a) => get(`${repo(a)}/issues/${str(a.pullNumber)}/comments`, query(a))),
    get_status: async (a, call) => {
      const sha = await headSha(a, call);
      return sha ? answer(await call(get(`${repo(a)}/commits/${enc(sha)}/status`))) : refuse(`pull request ${str(a.pullNumber)} not found`);
    },
    get_check_runs: async (a, call) => {
      const sha = await headSha(a, call);
      return sha
        ? answer(await call(get(`${repo(a)}/commits/${enc(sha)}/check-runs`, query(a))))
        : refuse(`pull request ${str(a.pullNumber)} not found`);
    },
    get_diff: async (a, call) => answer(await call(get(`${repo(a)}/pulls/${str(a.pullNumber)}/files`, query(a)))),
  }),
  create_pull_request: async (a, call) => {
    const res = await call({
      method: "POST",
      path: `${repo(a)}/pulls`,
      body: given({
        title: a.title,
        body: a.body,
        head: a.head,
        base: a.base,
        draft: a.draft,
        maintainer_can_modify: a.maintainer_can_modify,
      }),
    });
    return withReviewers(a, call, res, parsed(res).number);
  },
  update_pull_request: async (a, call) => {
    const res = await call({
      method: "PATCH",
      path: `${repo(a)}/pulls/${str(a.pullNumber)}`,
      body: given({ title: a.title, body: a.body, state: a.state, base: a.base, maintainer_can_modify: a.maintainer_can_modify }),
    });
    return withReviewers(a, call, res, a.pullNumber);
  },
  merge_pull_request: one((a) => ({
    method: "PUT",
    path: `${repo(a)}/pulls/${str(a.pullNumber)}/merge`,
    body: given({ commit_title: a.commit_title, commit_message: a.commit_message, merge_method: a.merge_method }),
  })),
  update_pull_request_branch: one((a) => ({
    method: "PUT",
    path: `${repo(a)}/pulls/${str(a.pullNumber)}/update-branch`,
    body: given({ expected_head_sha: a.expectedHeadSha }),
  })),
  pull_request_review_write: byMethod({
    create: one((a) => ({
      method: "POST",
      path: `${repo(a)}/pulls/${str(a.pullNumber)}/reviews`,
      body: given({ body: a.body, event: a.event, commit_id: a.commitID }),
    })),
    submit_pending: async (a, call) => {
      const pending = await pendingReview(a, call);
      if (!pending) return refuse("No pending review found for the viewer");
      return answer(
        await call({
          method: "POST",
          path: `${repo(a)}/pulls/${str(a.pullNumber)}/reviews/${pending}/events`,
          body: given({ event: a.event, body: a.body }),
        }),
      );
    },
    delete_pending: async (a, call) => {
      const pending = await pendingReview(a, call);
      if (!pending) return refuse("No pending review found for the viewer");
      return answer(await call({ method: "DELETE", path: `${repo(a)}/pulls/${str(a.pullNumber)}/reviews/${pending}` }));
    },
  }),
  add_comment_to_pending_review: async (a, call) => {
    const sha = await headSha(a, call);
    if (!sha) return refuse(`pull request ${str(a.pullNumber)} not found`);
    return answer(
      await call({
        method: "POST",
        path: `${repo(a)}/pulls/${str(a.pullNumber)}/comments`,
        body: given({
          body: a.body,
          path: a.path,
          commit_id: sha,
          line: a.line,
          side: a.side,
          start_line: a.startLine,
          start_side: a.startSide,
          subject_type: typeof a.subjectType === "string" ? a.subjectType.toLowerCase() : undefined,
        }),
      }),
    );
  },
  add_reply_to_pull_request_comment: one((a) => ({
    method: "POST",
    path: `${repo(a)}/pulls/${str(a.pullNumber)}/comments/${str(a.commentId)}/replies`,
    body: { body: a.body },
  })),
  // repositories
  get_file_contents: async (a, call) => {
    const res = await call(get(`${repo(a)}/contents/${str(a.path).replace(/^\/+/, "")}`, query({}, { ref: a.sha ?? a.ref })));
    const file = parsed(res);
    // A file's text, as the server hands it to the model; a directory's listing as JSON.
    if (res.status < 400 && file.type === "file" && typeof file.content === "string")
      return {
        text: new TextDecoder().decode(Uint8Array.from(atob(file.content.replace(/\n/g, "")), (c) => c.charCodeAt(0))),
        isError: false,
      };
    return answer(res);
  },
  create_or_update_file: one((a) => ({
    method: "PUT",
    path: `${repo(a)}/contents/${str(a.path).replace(/^\/+/, "")}`,
    body: given({ message: a.message, content: base64(str(a.content)), branch: a.branch, sha: a.sha }),
  })),
  delete_file: async (a, call) => {
    const path = `${repo(a)}/contents/${str(a.path).replace(/^\/+/, "")}`;
    const current = await call(get(path, query({}, { ref: a.branch })));
    if (current.status >= 400) return answer(current);
    return answer(await call({ method: "DELETE", path, body: given({ message: a.message, sha: parsed(current).sha, branch: a.branch }) }));
  },
  create_branch: async (a, call) => {
    let from = str(a.from_branch);
    if (!from) {
      const repository = await call(get(repo(a)));
      if (repository.status >= 400) return answer(repository);
      from = str(parsed(repository).default_branch);
    }
    const base = await call(get(`${repo(a)}/git/ref/heads/${from}`));
    if (base.status >= 400) return answer(base);
    const sha = (parsed(base).object as { sha?: unknown } | undefined)?.sha;
    return answer(await call({ method: "POST", path: `${repo(a)}/git/refs`, body: { ref: `refs/heads/${str(a.branch)}`, sha } }));
  },
  push_files: async (a, call) => {
    const ref = await call(get(`${repo(a)}/git/ref/heads/${str(a.branch)}`));
    if (ref.status >= 400) return answer(ref);
    const parent = str((parsed(ref).object as { sha?: unknown } | undefined)?.sha);
    const commit = await call(get(`${repo(a)}/git/commits/${parent}`));
    if (commit.status >= 400) return answer(commit);
    const baseTree = (parsed(commit).tree as { sha?: unknown } | undefined)?.sha;
    const files = Array.isArray(a.files) ? (a.files as { path?: unknown; content?: unknown }[]) : [];
    const tree = await call({
      method: "POST",
      path: `${repo(a)}/git/trees`,
      body: { base_tree: baseTree, tree: files.map((f) => ({ path: str(f.path), mode: "100644", type: "blob", content: str(f.content) })) },
    });
    if (tree.status >= 400) return answer(tree);
    const made = await call({
      method: "POST",
      path: `${repo(a)}/git/commits`,
      body: { message: a.message, tree: parsed(tree).sha, parents: [parent] },
    });
    if (made.status >= 400) return answer(made);
    return answer(await call({ method: "PATCH", path: `${repo(a)}/git/refs/heads/${str(a.branch)}`, body: { sha: parsed(made).sha } }));
  },
  create_repository: one((a) => ({
    method: "POST",
    path: a.organization ? `/orgs/${enc(str(a.organization))}/repos` : "/user/repos",
    body: given({ name: a.name, description: a.description, private: a.private, auto_init: a.autoInit }),
  })),
  delete_repository: one((a) => ({ method: "DELETE", path: repo(a) })),
  fork_repository: one((a) => ({ method: "POST", path: `${repo(a)}/forks`, body: given({ organization: a.organization }) })),
  get_commit: one((a) => get(`${repo(a)}/commits/${enc(str(a.sha))}`, query(a))),
  list_commits: one((a) =>
    get(`${repo(a)}/commits`, query(a, { sha: a.sha, author: a.author, path: a.path, since: a.since, until: a.until })),
  ),
  list_branches: one((a) => get(`${repo(a)}/branches`, query(a))),
  list_tags: one((a) => get(`${repo(a)}/tags`, query(a))),
  get_tag: async (a, call) => {
    const ref = await call(get(`${repo(a)}/git/ref/tags/${str(a.tag)}`));
    if (ref.status >= 400) return answer(ref);
    const object = parsed(ref).object as { sha?: unknown; type?: unknown } | undefined;
    // A lightweight tag points at its commit; an annotated one at a tag object.
    return object?.type === "tag" ? answer(await call(get(`${repo(a)}/git/tags/${str(object.sha)}`))) : answer(ref);
  },
  list_releases: one((a) => get(`${repo(a)}/releases`, query(a))),
  get_latest_release: one((a) => get(`${repo(a)}/releases/latest`)),
  get_release_by_tag: one((a) => get(`${repo(a)}/releases/tags/${enc(str(a.tag))}`)),
  list_repository_collaborators: one((a) => get(`${repo(a)}/collaborators`, query(a, { affiliation: a.affiliation }))),
  search_code: one((a) => get("/search/code", query(a, { q: a.query, sort: a.sort, order: a.order }))),
  search_commits: one((a) => get("/search/commits", query(a, { q: a.query, sort: a.sort, order: a.order }))),
  search_repositories: one((a) => get("/search/repositories", query(a, { q: a.query, sort: a.sort, order: a.order }))),
  // users
  search_users: one((a) => get("/search/users", query(a, { q: a.query, sort: a.sort, order: a.order }))),
};

/** The viewer's pending review on the pull request, if any. */
async function pendingReview(a: Args, call: Call): Promise<string | undefined> {
  const res = await call(get(`${repo(a)}/pulls/${str(a.pullNumber)}/reviews`, { per_page: "100" }));
  let reviews: unknown;
  try {
    reviews = JSON.parse(res.body);
  } catch {
    return undefined;
  }
  const pending = Array.isArray(reviews) ? (reviews as { id?: unknown; state?: unknown }[]).find((r) => r.state === "PENDING") : undefined;
  return pending?.id === undefined ? undefined : str(pending.id);
}

/** UTF-8 text as base64, as the contents API takes it. */
function base64(text: string): string {
  let binary = "";
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

export const githubOfficialTools: OfficialToolSet = officialToolSet(published, RUNS);
