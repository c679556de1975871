// Repository: its own fields and the lists hanging off it (issues, pull requests, labels,
// milestones). Each list is one page read plus one count, as the REST lists are.
import type { SqlValue } from "../../../types";
import { findRepoById, type RepoRow } from "../../repos";
import { settingsOf } from "../../store/repo-admin";
import { findLabel } from "../../store/labels";
import { findMilestone } from "../../store/milestones";
import type { IssueRow, LabelRow, MilestoneRow } from "../../store/rows";
import { type PageArgs, connectionOf } from "../connection";
import type { Gql, RepositorySource, Resolvers } from "../context";
import { notFound } from "../errors";
import { nodeId } from "../ids";
import { actorSource, issueByNumber, issueSource } from "../sources";
import { branchRef, gitObject, refConnection, refByName } from "./git";

const WEB = "https://github.com";

type IssueOrder = { field: "CREATED_AT" | "UPDATED_AT" | "COMMENTS"; direction: "ASC" | "DESC" } | null | undefined;

interface IssueFilter {
  pulls: boolean;
  states?: readonly string[] | null;
  labels?: readonly string[] | null;
  headRefName?: string | null;
  baseRefName?: string | null;
  orderBy?: IssueOrder;
  filterBy?: IssueFilters | null;
}

/** GraphQL's IssueFilters (Repository.issues' `filterBy`), as @octokit/graphql-schema describes each. */
interface IssueFilters {
  assignee?: string | null;
  createdBy?: string | null;
  labels?: readonly string[] | null;
  mentioned?: string | null;
  milestone?: string | null;
  milestoneNumber?: string | null;
  since?: string | null;
  states?: readonly string[] | null;
}

/**
 * The conditions of `filterBy`: `assignee` "*" is any assignee; `milestone` is a milestone's
 * database id (or its title), `milestoneNumber` its number, either "*" (any) or "none"; `mentioned`
 * looks for `@login` in the body (as REST's `mentioned=`).
 */
function filterConditions(f: IssueFilters, where: string[], params: SqlValue[]): void {
  if (f.assignee === "*") where.push("EXISTS (SELECT 1 FROM gh_issue_assignees a WHERE a.issue_id = i.id)");
  else if (f.assignee) {
    where.push("EXISTS (SELECT 1 FROM gh_issue_assignees a WHERE a.issue_id = i.id AND a.login = ? COLLATE NOCASE)");
    params.push(f.assignee);
  }
  if (f.createdBy) {
    where.push("i.user = ? COLLATE NOCASE");
    params.push(f.createdBy);
  }
  if (f.mentioned) {
    where.push("instr(lower(coalesce(i.body, '')), lower(?)) > 0");
    params.push(`@${f.mentioned}`);
  }
  for (const [value, by] of [
    [f.milestone, "ref"],
    [f.milestoneNumber, "number"],
  ] as const) {
    if (!value) continue;
    if (value === "*") where.push("i.milestone IS NOT NULL");
    else if (value.toLowerCase() === "none") where.push("i.milestone IS NULL");
    else if (by === "number") {
      where.push("i.milestone = ?");
      params.push(Number(value) || -1);
    } else {
      where.push("i.milestone IN (SELECT m.number FROM gh_milestones m WHERE m.repo_id = i.repo_id AND (m.id = ? OR m.title = ?))");
      params.push(/^\d{1,15}$/.test(value) ? Number(value) : -1, value);
    }
  }
  if (f.since) {
    where.push("unixepoch(i.updated_at) >= unixepoch(?)");
    params.push(f.since);
  }
}

/** The condition of a `states` list: GitHub's OPEN, CLOSED and (pull requests) MERGED. */
function stateCondition(states: readonly string[] | null | undefined, pulls: boolean): string | undefined {
  if (!states?.length) return undefined;
  const parts = new Set<string>();
  for (const s of states) {
    if (s === "OPEN") parts.add("i.state = 'open'");
    else if (s === "CLOSED") parts.add(pulls ? "(i.state = 'closed' AND coalesce(i.merged, 0) = 0)" : "i.state = 'closed'");
    else if (s === "MERGED") parts.add("coalesce(i.merged, 0) = 1");
  }
  return `(${[...parts].join(" OR ")})`;
}

/**
 * A repository's issues or pull requests as GitHub's GraphQL lists them: oldest first unless
 * `orderBy` says otherwise; `labels` keeps those carrying any of the names.
 */
function issueConnection(gql: Gql, repo: RepoRow, f: IssueFilter, page: PageArgs) {
  const where = ["i.repo_id = ?", f.pulls ? "i.is_pull = 1" : "i.is_pull = 0"];
  const params: SqlValue[] = [repo.id];
  for (const states of [f.states, f.filterBy?.states]) {
    const state = stateCondition(states, f.pulls);
    if (state) where.push(state);
  }
  for (const labels of [f.labels, f.filterBy?.labels]) {
    if (!labels?.length) continue;
    where.push(
      "i.id IN (SELECT il.issue_id FROM gh_issue_labels il JOIN gh_labels l ON l.id = il.label_id WHERE l.repo_id = i.repo_id AND l.name COLLATE NOCASE IN (SELECT value FROM json_each(?)))",
    );
    params.push(JSON.stringify(labels));
  }
  if (f.filterBy) filterConditions(f.filterBy, where, params);
  if (f.headRefName) {
    where.push("i.head = ?");
    params.push(f.headRefName);
  }
  if (f.baseRefName) {
    where.push("i.base = ?");
    params.push(f.baseRefName);
  }
  const column = f.orderBy?.field === "UPDATED_AT" ? "i.updated_at" : f.orderBy?.field === "COMMENTS" ? "i.comment_count" : "i.created_at";
  const dir = f.orderBy?.direction === "DESC" ? "DESC" : "ASC";
  const sql = `FROM gh_issues i WHERE ${where.join(" AND ")}`;
  const total = gql.ctx.db.one<{ n: number }>(`SELECT count(*) AS n ${sql}`, ...params)?.n ?? 0;
  return connectionOf(page, total, (limit, offset) =>
    gql.ctx.db
      .all<IssueRow>(`SELECT i.* ${sql} ORDER BY ${column} ${dir}, i.number ${dir} LIMIT ? OFFSET ?`, ...params, limit, offset)
      .map((row) => issueSource(repo, row)),
  );
}

export const labelSource = (repo: RepoRow, row: LabelRow) => ({ __typename: "Label" as const, repo, row });
export const milestoneSource = (repo: RepoRow, row: MilestoneRow) => ({ __typename: "Milestone" as const, repo, row });

type R = RepositorySource;

export const repositoryResolvers: Resolvers = {
  Repository: {
    id: (s: R) => nodeId("Repository", s.repo.id),
    databaseId: (s: R) => s.repo.id,
    name: (s: R) => s.repo.name,
    nameWithOwner: (s: R) => `${s.repo.owner}/${s.repo.name}`,
    owner: (s: R, _a: unknown, gql: Gql) => actorSource(gql, s.repo.owner),
    description: (s: R) => s.repo.description,
    url: (s: R) => `${WEB}/${s.repo.owner}/${s.repo.name}`,
    resourcePath: (s: R) => `/${s.repo.owner}/${s.repo.name}`,
    isPrivate: (s: R) => s.repo.private === 1,
    isArchived: (s: R) => s.repo.archived === 1,
    isFork: (s: R) => s.repo.fork_of !== null,
    // The repository's feature and merge switches, as REST's has_issues, allow_squash_merge… (store/repo-admin.ts).
    hasIssuesEnabled: (s: R) => settingsOf(s.repo).has_issues,
    hasWikiEnabled: (s: R) => settingsOf(s.repo).has_wiki,
    mergeCommitAllowed: (s: R) => settingsOf(s.repo).allow_merge_commit,
    rebaseMergeAllowed: (s: R) => settingsOf(s.repo).allow_rebase_merge,
    squashMergeAllowed: (s: R) => settingsOf(s.repo).allow_squash_merge,
    // The sandbox's user holds admin on every repository of its world.
    viewerPermission: () => "ADMIN",
    parent: (s: R, _a: unknown, gql: Gql) => {
      const up = s.repo.fork_of === null ? undefined : findRepoById(gql.ctx.db, s.repo.fork_of);
      return up ? { __typename: "Repository", repo: up } : null;
    },
    visibility: (s: R) => (s.repo.private === 1 ? "PRIVATE" : "PUBLIC"),
    createdAt: (s: R) => s.repo.created_at,
    updatedAt: (s: R) => s.repo.updated_at,
    pushedAt: (s: R) => s.repo.pushed_at,
    defaultBranchRef: (s: R, _a: unknown, gql: Gql) => branchRef(gql, s.repo, s.repo.default_branch) ?? null,
    issues: (s: R, a: PageArgs & Omit<IssueFilter, "pulls">, gql: Gql) => issueConnection(gql, s.repo, { ...a, pulls: false }, a),
    pullRequests: (s: R, a: PageArgs & Omit<IssueFilter, "pulls">, gql: Gql) => issueConnection(gql, s.repo, { ...a, pulls: true }, a),
    issue: (s: R, a: { number: number }, gql: Gql) => {
      const found = issueByNumber(gql, s.repo, a.number);
      if (found?.__typename !== "Issue") throw notFound(`Could not resolve to an Issue with the number of ${a.number}.`);
      return found;
    },
    pullRequest: (s: R, a: { number: number }, gql: Gql) => {
      const found = issueByNumber(gql, s.repo, a.number);
      if (found?.__typename !== "PullRequest") throw notFound(`Could not resolve to a PullRequest with the number of ${a.number}.`);
      return found;
    },
    issueOrPullRequest: (s: R, a: { number: number }, gql: Gql) => issueByNumber(gql, s.repo, a.number) ?? notFoundIssueOrPull(a.number),
    labels: (s: R, a: PageArgs & { query?: string | null }, gql: Gql) => {
      const where = a.query ? "repo_id = ? AND instr(lower(name), lower(?)) > 0" : "repo_id = ?";
      const params: SqlValue[] = a.query ? [s.repo.id, a.query] : [s.repo.id];
      const total = gql.ctx.db.one<{ n: number }>(`SELECT count(*) AS n FROM gh_labels WHERE ${where}`, ...params)?.n ?? 0;
      return connectionOf(a, total, (limit, offset) =>
        gql.ctx.db
          .all<LabelRow>(`SELECT * FROM gh_labels WHERE ${where} ORDER BY position, id LIMIT ? OFFSET ?`, ...params, limit, offset)
          .map((row) => labelSource(s.repo, row)),
      );
    },
    label: (s: R, a: { name: string }, gql: Gql) => {
      const row = findLabel(gql.ctx.db, s.repo.id, a.name);
      return row ? labelSource(s.repo, row) : null;
    },
    milestones: (s: R, a: PageArgs & { states?: readonly string[] | null }, gql: Gql) => {
      const states = (a.states ?? []).map((x) => x.toLowerCase());
      const where = states.length ? "repo_id = ? AND state IN (SELECT value FROM json_each(?))" : "repo_id = ?";
      const params: SqlValue[] = states.length ? [s.repo.id, JSON.stringify(states)] : [s.repo.id];
      const total = gql.ctx.db.one<{ n: number }>(`SELECT count(*) AS n FROM gh_milestones WHERE ${where}`, ...params)?.n ?? 0;
      return connectionOf(a, total, (limit, offset) =>
        gql.ctx.db
          .all<MilestoneRow>(`SELECT * FROM gh_milestones WHERE ${where} ORDER BY number LIMIT ? OFFSET ?`, ...params, limit, offset)
          .map((row) => milestoneSource(s.repo, row)),
      );
    },
    milestone: (s: R, a: { number: number }, gql: Gql) => {
      const row = findMilestone(gql.ctx.db, s.repo.id, a.number);
      return row ? milestoneSource(s.repo, row) : null;
    },
    refs: (s: R, a: PageArgs & { refPrefix: string; query?: string | null }, gql: Gql) => refConnection(gql, s.repo, a),
    ref: (s: R, a: { qualifiedName: string }, gql: Gql) => refByName(gql, s.repo, a.qualifiedName) ?? null,
    object: (s: R, a: { expression?: string | null; oid?: string | null }, gql: Gql) => gitObject(gql, s.repo, a) ?? null,
  },
};

function notFoundIssueOrPull(number: number): never {
  throw notFound(`Could not resolve to an issue or pull request with the number of ${number}.`);
}
