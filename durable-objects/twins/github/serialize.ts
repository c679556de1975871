// GitHub's object shapes: the fields Octokit users read, with absolute URLs into this sandbox.
// One View per call caches repositories, and users are read once per sandbox (only boot writes
// them), so a list page costs at most one lookup per distinct user rather than one per field.
import type { TwinContext } from "../types";
import { apiUrl, authenticatedLogin, htmlUrl } from "./context";
import { findRepoById, findUser, knownUsers, userKey, type RepoRow, type UserRow } from "./repos";
import { anyReactions, reactionCounts, type ReactionSubject } from "./store/reactions";
import { settingsOf, sourceOf } from "./store/repo-admin";

export const nodeId = (kind: string, id: number) => btoa(`0${kind.length}:${kind}${id}`).replace(/=+$/, "");

/**
 * GitHub's next-generation global ids, which review threads and review comments carry (`PRRT_…`,
 * `PRRC_…`): a type prefix, `_`, and base64url of the MessagePack array [0, repository id, database
 * id]; [0, 0x071e47b3, 0x334262f8] is `PRRT_kwDOBx5Hs84zQmL4`. GitHub does not document the
 * format; it is read from its ids (athenianco/ghid, AlecDusheck/parse-github-gql-global-id:
 * "PREFIX_ + base64url(msgpack([0, ...databaseIds]))", repository-scoped objects with the
 * repository's id first).
 */
export const NEXT_ID_PREFIXES = { PRRT: "PullRequestReviewThread", PRRC: "PullRequestReviewComment" } as const;

/** A non-negative integer in MessagePack's smallest unsigned form. */
function packUint(n: number): number[] {
  const bytesOf = (v: number, width: number) => Array.from({ length: width }, (_, i) => Math.floor(v / 256 ** (width - 1 - i)) % 256);
  if (n < 0x80) return [n];
  if (n <= 0xff) return [0xcc, n];
  if (n <= 0xffff) return [0xcd, ...bytesOf(n, 2)];
  if (n <= 0xffffffff) return [0xce, ...bytesOf(n, 4)];
  return [0xcf, ...bytesOf(n, 8)];
}

export function nextNodeId(prefix: keyof typeof NEXT_ID_PREFIXES, repoId: number, id: number): string {
  const bytes = [0x93, 0, ...packUint(repoId), ...packUint(id)];
  const b64 = btoa(String.fromCharCode(...bytes));
  return `${prefix}_${b64.replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "")}`;
}

/** The kind, repository id and database id of a next-generation id; undefined for anything else. */
export function decodeNextNodeId(id: string): { kind: string; repoId: number; id: number } | undefined {
  const m = /^([A-Z]{1,8})_([A-Za-z0-9_-]{4,40})$/.exec(id);
  const kind = m ? NEXT_ID_PREFIXES[m[1] as keyof typeof NEXT_ID_PREFIXES] : undefined;
  if (!m || !kind) return undefined;
  let raw: string;
  try {
    const b64 = m[2].replaceAll("-", "+").replaceAll("_", "/");
    raw = atob(b64.padEnd(Math.ceil(b64.length / 4) * 4, "="));
  } catch {
    return undefined;
  }
  const bytes = [...raw].map((c) => c.charCodeAt(0));
  let at = 0;
  const uint = (): number | undefined => {
    const b = bytes[at++];
    if (b === undefined) return undefined;
    if (b < 0x80) return b;
    const width = b === 0xcc ? 1 : b === 0xcd ? 2 : b === 0xce ? 4 : b === 0xcf ? 8 : 0;
    if (!width || at + width > bytes.length) return undefined;
    let n = 0;
    for (let i = 0; i < width; i++) n = n * 256 + bytes[at++];
    return Number.isSafeInteger(n) ? n : undefined;
  };
  if (bytes[at++] !== 0x93 || uint() !== 0) return undefined;
  const repoId = uint();
  const dbId = uint();
  if (repoId === undefined || dbId === undefined || at !== bytes.length) return undefined;
  return { kind, repoId, id: dbId };
}

export type SimpleUser = ReturnType<View["user"]>;

/**
 * The URL templates of a repository answer, in GitHub's order, all under its API URL (the
 * `{/name}` parts are RFC 6570 templates, as GitHub sends them).
 */
function repoUrlTemplates(url: string) {
  return {
    forks_url: `${url}/forks`,
    keys_url: `${url}/keys{/key_id}`,
    collaborators_url: `${url}/collaborators{/collaborator}`,
    teams_url: `${url}/teams`,
    hooks_url: `${url}/hooks`,
    issue_events_url: `${url}/issues/events{/number}`,
    events_url: `${url}/events`,
    assignees_url: `${url}/assignees{/user}`,
    branches_url: `${url}/branches{/branch}`,
    tags_url: `${url}/tags`,
    blobs_url: `${url}/git/blobs{/sha}`,
    git_tags_url: `${url}/git/tags{/sha}`,
    git_refs_url: `${url}/git/refs{/sha}`,
    trees_url: `${url}/git/trees{/sha}`,
    statuses_url: `${url}/statuses/{sha}`,
    languages_url: `${url}/languages`,
    stargazers_url: `${url}/stargazers`,
    contributors_url: `${url}/contributors`,
    subscribers_url: `${url}/subscribers`,
    subscription_url: `${url}/subscription`,
    commits_url: `${url}/commits{/sha}`,
    git_commits_url: `${url}/git/commits{/sha}`,
    comments_url: `${url}/comments{/number}`,
    issue_comment_url: `${url}/issues/comments{/number}`,
    contents_url: `${url}/contents/{+path}`,
    compare_url: `${url}/compare/{base}...{head}`,
    merges_url: `${url}/merges`,
    archive_url: `${url}/{archive_format}{/ref}`,
    downloads_url: `${url}/downloads`,
    issues_url: `${url}/issues{/number}`,
    pulls_url: `${url}/pulls{/number}`,
    milestones_url: `${url}/milestones{/number}`,
    notifications_url: `${url}/notifications{?since,all,participating}`,
    labels_url: `${url}/labels{/name}`,
    releases_url: `${url}/releases{/id}`,
    deployments_url: `${url}/deployments`,
  };
}

export class View {
  private readonly repos = new Map<number, RepoRow | null>();
  private readonly memos = new Map<string, unknown>();
  readonly actor: string;

  constructor(readonly ctx: TwinContext) {
    this.actor = authenticatedLogin(ctx);
  }

  /** Computes a value once per call (a milestone shared by a page of issues, say). */
  memo<T>(key: string, compute: () => T): T {
    if (!this.memos.has(key)) this.memos.set(key, compute());
    return this.memos.get(key) as T;
  }

  userRow(login: string): UserRow | undefined {
    return findUser(this.ctx, login);
  }

  /**
   * Reads the rows of several users in one query (an issue's author and assignees, its
   * repository's owner), so the objects built next find them among the known users.
   */
  preloadUsers(logins: readonly (string | null)[]): void {
    const known = knownUsers(this.ctx.db);
    const missing = new Map<string, string>();
    for (const login of logins) if (login && !known.has(userKey(login))) missing.set(userKey(login), login);
    if (missing.size < 2) {
      for (const login of missing.values()) findUser(this.ctx, login);
      return;
    }
    const wanted = [...missing.values()];
    const rows = this.ctx.db.all<UserRow>(`SELECT * FROM gh_users WHERE login IN (${wanted.map(() => "?").join(", ")})`, ...wanted);
    for (const row of rows) known.set(userKey(row.login), row);
    for (const key of missing.keys()) if (!known.has(key)) known.set(key, null);
  }

  repoRow(id: number): RepoRow | undefined {
    if (!this.repos.has(id)) this.repos.set(id, findRepoById(this.ctx.db, id) ?? null);
    return this.repos.get(id) ?? undefined;
  }

  user(login: string) {
    const u = this.userRow(login);
    const id = u?.id ?? 0;
    const name = u?.login ?? login;
    const url = apiUrl(this.ctx, `/users/${name}`);
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

  maybeUser(login: string | null) {
    return login ? this.user(login) : null;
  }

  fullUser(row: UserRow) {
    return {
      ...this.user(row.login),
      name: row.name,
      company: null,
      blog: "",
      location: null,
      email: row.email,
      hireable: null,
      bio: null,
      twitter_username: null,
      public_repos:
        this.ctx.db.one<{ n: number }>("SELECT count(*) AS n FROM gh_repos WHERE owner = ? COLLATE NOCASE AND private = 0", row.login)?.n ??
        0,
      public_gists: 0,
      followers: 0,
      following: 0,
      created_at: "2020-01-01T00:00:00Z",
      updated_at: "2020-01-01T00:00:00Z",
    };
  }

  repoApi(r: RepoRow, path = "") {
    return apiUrl(this.ctx, `/repos/${r.owner}/${r.name}${path}`);
  }

  repoHtml(r: RepoRow, path = "") {
    return htmlUrl(`/${r.owner}/${r.name}${path}`);
  }

  /**
   * How a user relates to a repository, as GitHub labels authors: the owner; members of an owning
   * organization (its collaborators, and the sandbox's user, who holds admin everywhere);
   * collaborators of a user's repository; everyone else.
   */
  authorAssociation(r: RepoRow, login: string): "OWNER" | "MEMBER" | "COLLABORATOR" | "NONE" {
    const lower = login.toLowerCase();
    if (lower === r.owner.toLowerCase()) return "OWNER";
    const collaborator =
      (JSON.parse(r.collaborators) as string[]).some((c) => c.toLowerCase() === lower) || lower === this.actor.toLowerCase();
    if (!collaborator) return "NONE";
    return this.userRow(r.owner)?.type === "Organization" ? "MEMBER" : "COLLABORATOR";
  }

  repository(r: RepoRow) {
    const full = `${r.owner}/${r.name}`;
    const url = this.repoApi(r);
    const owner = this.user(r.owner);
    const settings = settingsOf(r);
    return {
      id: r.id,
      node_id: nodeId("Repository", r.id),
      name: r.name,
      full_name: full,
      private: r.private === 1,
      owner,
      html_url: htmlUrl(`/${full}`),
      description: r.description,
      fork: r.fork_of !== null,
      url,
      ...repoUrlTemplates(url),
      created_at: r.created_at,
      updated_at: r.updated_at,
      pushed_at: r.pushed_at,
      git_url: `git://github.com/${full}.git`,
      ssh_url: `git@github.com:${full}.git`,
      clone_url: `https://github.com/${full}.git`,
      svn_url: `https://github.com/${full}`,
      homepage: r.homepage,
      size: 0,
      stargazers_count: r.stargazers,
      watchers_count: r.stargazers,
      language: null,
      has_issues: settings.has_issues,
      has_projects: settings.has_projects,
      has_downloads: true,
      has_wiki: settings.has_wiki,
      has_pages: false,
      has_discussions: settings.has_discussions,
      forks_count: r.forks,
      mirror_url: null,
      archived: r.archived === 1,
      disabled: false,
      open_issues_count: r.open_issues,
      license: null,
      allow_forking: settings.allow_forking,
      is_template: settings.is_template,
      web_commit_signoff_required: settings.web_commit_signoff_required,
      topics: JSON.parse(r.topics) as string[],
      visibility: r.private === 1 ? "private" : "public",
      forks: r.forks,
      open_issues: r.open_issues,
      watchers: r.stargazers,
      default_branch: r.default_branch,
      permissions: { admin: true, maintain: true, push: true, triage: true, pull: true },
    };
  }

  /** repos.get adds what only the single-repository answer carries. */
  fullRepository(r: RepoRow) {
    const owner = this.userRow(r.owner);
    const settings = settingsOf(r);
    // A fork names the repository it was forked from and the root of its network.
    const parent = r.fork_of === null ? undefined : this.repoRow(r.fork_of);
    return {
      ...this.repository(r),
      allow_squash_merge: settings.allow_squash_merge,
      allow_merge_commit: settings.allow_merge_commit,
      allow_rebase_merge: settings.allow_rebase_merge,
      allow_auto_merge: settings.allow_auto_merge,
      delete_branch_on_merge: settings.delete_branch_on_merge,
      allow_update_branch: settings.allow_update_branch,
      ...(owner?.type === "Organization" ? { organization: this.user(owner.login) } : {}),
      ...(parent ? { parent: this.repository(parent), source: this.repository(sourceOf(this.ctx.db, parent)) } : {}),
      network_count: 0,
      subscribers_count: 0,
    };
  }

  /**
   * The `reactions` rollup of an issue or comment. Counted only once the sandbox holds any
   * reaction at all (checked once per call), so a list page of a world without reactions pays
   * nothing for it.
   */
  reactions(url: string, subject?: ReactionSubject, id?: number) {
    const zero = { url, total_count: 0, "+1": 0, "-1": 0, laugh: 0, hooray: 0, confused: 0, heart: 0, rocket: 0, eyes: 0 };
    if (!subject || id === undefined || !this.memo("reactions:any", () => anyReactions(this.ctx.db))) return zero;
    const counts: Record<string, number> = { ...zero, url: 0 };
    let total = 0;
    for (const { content, n } of reactionCounts(this.ctx.db, subject, id)) {
      counts[content] = n;
      total += n;
    }
    const { url: _url, ...byContent } = counts;
    return { ...zero, ...byContent, url, total_count: total };
  }
}
