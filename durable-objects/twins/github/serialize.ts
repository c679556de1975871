// GitHub's object shapes: the fields Octokit users read, with absolute URLs into this sandbox.
import type { TwinContext } from "../types";
import { apiUrl, htmlUrl } from "./context";
import type { RepoRow, UserRow } from "./repos";
import { findUser } from "./repos";

const nodeId = (kind: string, id: number) => btoa(`0${kind.length}:${kind}${id}`).replace(/=+$/, "");

export function simpleUser(ctx: TwinContext, login: string, row?: UserRow) {
  const u = row ?? findUser(ctx, login);
  const id = u?.id ?? 0;
  const name = u?.login ?? login;
  const url = apiUrl(ctx, `/users/${name}`);
  return {
    login: name,
    id,
    node_id: nodeId(u?.type === "Organization" ? "Organization" : "User", id),
    avatar_url: `https://avatars.githubusercontent.com/u/${id}?v=4`,
    gravatar_id: "",
    url,
    html_url: htmlUrl(`/${name}`),
    followers_url: `${url}/followers`,
    following_url: `${url}/following{/other_user}`,
    gists_url: `${url}/gists{/gist_id}`,
    starred_url: `${url}/starred{/owner}{/repo}`,
    subscriptions_url: `${url}/subscriptions`,
    organizations_url: `${url}/orgs`,
    repos_url: `${url}/repos`,
    events_url: `${url}/events{/privacy}`,
    received_events_url: `${url}/received_events`,
    type: u?.type ?? "User",
    user_view_type: "public",
    site_admin: false,
  };
}

export function fullUser(ctx: TwinContext, row: UserRow) {
  return {
    ...simpleUser(ctx, row.login, row),
    name: row.name,
    company: null,
    blog: "",
    location: null,
    email: row.email,
    hireable: null,
    bio: null,
    twitter_username: null,
    public_repos: ctx.db.one<{ n: number }>("SELECT count(*) AS n FROM gh_repos WHERE owner = ? COLLATE NOCASE AND private = 0", row.login)?.n ?? 0,
    public_gists: 0,
    followers: 0,
    following: 0,
    created_at: "2020-01-01T00:00:00Z",
    updated_at: "2020-01-01T00:00:00Z",
  };
}

export function repository(ctx: TwinContext, r: RepoRow) {
  const full = `${r.owner}/${r.name}`;
  const url = apiUrl(ctx, `/repos/${full}`);
  const openIssues =
    ctx.db.one<{ n: number }>("SELECT count(*) AS n FROM gh_issues WHERE repo_id = ? AND state = 'open'", r.id)?.n ?? 0;
  return {
    id: r.id,
    node_id: nodeId("Repository", r.id),
    name: r.name,
    full_name: full,
    private: r.private === 1,
    owner: simpleUser(ctx, r.owner),
    html_url: htmlUrl(`/${full}`),
    description: r.description,
    fork: false,
    url,
    issues_url: `${url}/issues{/number}`,
    pulls_url: `${url}/pulls{/number}`,
    labels_url: `${url}/labels{/name}`,
    contents_url: `${url}/contents/{+path}`,
    branches_url: `${url}/branches{/branch}`,
    commits_url: `${url}/commits{/sha}`,
    statuses_url: `${url}/statuses/{sha}`,
    clone_url: `https://github.com/${full}.git`,
    created_at: r.created_at,
    updated_at: r.updated_at,
    pushed_at: r.pushed_at,
    homepage: null,
    size: 0,
    stargazers_count: 0,
    watchers_count: 0,
    language: null,
    has_issues: true,
    has_projects: true,
    has_wiki: true,
    has_pages: false,
    has_discussions: false,
    forks_count: 0,
    archived: r.archived === 1,
    disabled: false,
    open_issues_count: openIssues,
    license: null,
    allow_forking: true,
    is_template: false,
    topics: JSON.parse(r.topics) as string[],
    visibility: r.private === 1 ? "private" : "public",
    forks: 0,
    open_issues: openIssues,
    watchers: 0,
    default_branch: r.default_branch,
    permissions: { admin: true, maintain: true, push: true, triage: true, pull: true },
  };
}
