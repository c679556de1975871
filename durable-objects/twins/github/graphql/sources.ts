// Finding world objects for resolvers: by name (repository, login), by number, and by global id,
// each handing back the tagged source the type's resolvers read.
import { findRepoById, findRepoByName, findUser, type RepoRow } from "../repos";
import { findComment } from "../store/comments";
import { findCommit } from "../store/git";
import { findIssue } from "../store/issues";
import { findMilestone } from "../store/milestones";
import type { TeamRow } from "../store/orgs";
import { findThread, findVisibleComment } from "../store/review-threads";
import { decodeNextNodeId } from "../serialize";
import type { IssueRow, LabelRow, ReviewRow } from "../store/rows";
import type { ActorSource, CommitSource, Gql, IssueSource, NodeSource, RepositorySource } from "./context";
import { decodeId } from "./ids";

export const repositorySource = (repo: RepoRow): RepositorySource => ({ __typename: "Repository", repo });

export function actorSource(gql: Gql, login: string): ActorSource {
  const row = findUser(gql.ctx, login);
  return { __typename: row?.type === "Organization" ? "Organization" : "User", login: row?.login ?? login, row };
}

export const maybeActor = (gql: Gql, login: string | null) => (login ? actorSource(gql, login) : null);

export const issueSource = (repo: RepoRow, row: IssueRow): IssueSource => ({
  __typename: row.is_pull ? "PullRequest" : "Issue",
  repo,
  row,
});

export const findRepository = (gql: Gql, owner: string, name: string) => findRepoByName(gql.ctx.db, owner, name);

const repoOf = (gql: Gql, id: number) => gql.view.repoRow(id);

const byId = <T>(gql: Gql, sql: string, id: number) => gql.ctx.db.one<T>(sql, id);

/** The object a global id names, or undefined (an id of another kind, or of nothing). */
export function nodeSource(gql: Gql, id: string): NodeSource | undefined {
  // Review threads and review comments carry GitHub's next-generation ids (PRRT_…, PRRC_…).
  const next = decodeNextNodeId(id);
  if (next) return reviewNode(gql, next.kind, next.id, next.repoId);
  const decoded = decodeId(id);
  if (!decoded) return undefined;
  const { kind, id: n, sha } = decoded;
  switch (kind) {
    case "Repository": {
      const repo = findRepoById(gql.ctx.db, n);
      return repo ? repositorySource(repo) : undefined;
    }
    case "User":
    case "Organization": {
      const row = byId<{ login: string; type: string }>(gql, "SELECT login, type FROM gh_users WHERE id = ?", n);
      const actor = row ? actorSource(gql, row.login) : undefined;
      return actor && actor.__typename === kind ? actor : undefined;
    }
    case "Issue":
    case "PullRequest": {
      const row = byId<IssueRow>(gql, "SELECT * FROM gh_issues WHERE id = ?", n);
      const repo = row && repoOf(gql, row.repo_id);
      return row && repo && (row.is_pull === 1) === (kind === "PullRequest") ? issueSource(repo, row) : undefined;
    }
    case "IssueComment": {
      const at = byId<{ repo_id: number }>(gql, "SELECT repo_id FROM gh_comments WHERE id = ?", n);
      const repo = at && repoOf(gql, at.repo_id);
      const row = repo && findComment(gql.ctx.db, repo.id, n);
      return repo && row ? { __typename: "IssueComment", repo, row } : undefined;
    }
    case "Label": {
      const row = byId<LabelRow>(gql, "SELECT * FROM gh_labels WHERE id = ?", n);
      const repo = row && repoOf(gql, row.repo_id);
      return row && repo ? { __typename: "Label", repo, row } : undefined;
    }
    case "Milestone": {
      const at = byId<{ repo_id: number; number: number }>(gql, "SELECT repo_id, number FROM gh_milestones WHERE id = ?", n);
      const repo = at && repoOf(gql, at.repo_id);
      const row = at && repo && findMilestone(gql.ctx.db, repo.id, at.number);
      return repo && row ? { __typename: "Milestone", repo, row } : undefined;
    }
    case "PullRequestReview": {
      const row = byId<ReviewRow>(gql, "SELECT * FROM gh_reviews WHERE id = ?", n);
      const repo = row && repoOf(gql, row.repo_id);
      // A pending review is its author's alone, as on GitHub.
      if (row?.state === "PENDING" && row.user.toLowerCase() !== gql.view.actor.toLowerCase()) return undefined;
      return row && repo ? { __typename: "PullRequestReview", repo, row } : undefined;
    }
    case "PullRequestReviewThread":
    case "PullRequestReviewComment":
      return reviewNode(gql, kind, n);
    case "Team": {
      const row = byId<TeamRow>(gql, "SELECT * FROM gh_teams WHERE id = ?", n);
      return row ? { __typename: "Team", row } : undefined;
    }
    case "Commit": {
      const at = byId<{ repo_id: number; sha: string }>(gql, "SELECT repo_id, sha FROM gh_commits WHERE seq = ?", n);
      const repo = at && repoOf(gql, at.repo_id);
      const row = at && repo && findCommit(gql.ctx.db, repo.id, at.sha);
      return repo && row ? { __typename: "Commit", repo, row } : undefined;
    }
    case "Blob":
    case "Tree": {
      const repo = sha ? repoOf(gql, n) : undefined;
      return repo && sha ? gitObjectBySha(gql, repo, sha, kind) : undefined;
    }
    default:
      return undefined;
  }
}

/** A review thread (its first comment) or a review comment the caller can see, by database id. */
function reviewNode(gql: Gql, kind: string, id: number, repoId?: number): NodeSource | undefined {
  const row = kind === "PullRequestReviewThread" ? findThread(gql.ctx.db, id) : findVisibleComment(gql.ctx.db, id);
  if (!row || (repoId !== undefined && row.repo_id !== repoId)) return undefined;
  const repo = repoOf(gql, row.repo_id);
  if (!repo) return undefined;
  return kind === "PullRequestReviewThread"
    ? { __typename: "PullRequestReviewThread", repo, row }
    : { __typename: "PullRequestReviewComment", repo, row };
}

/**
 * A blob or tree of a repository by its sha: point reads of the blob store and of the trees
 * index. Blobs are stored once for the whole world, so a blob another repository holds resolves too.
 */
export function gitObjectBySha(gql: Gql, repo: RepoRow, sha: string, kind?: "Blob" | "Tree"): NodeSource | undefined {
  const db = gql.ctx.db;
  if (kind !== "Tree" && db.one<{ sha: string }>("SELECT sha FROM gh_blobs WHERE sha = ?", sha)) return { __typename: "Blob", repo, sha };
  if (kind !== "Blob") {
    const at = db.one<{ source: string; dir: string }>("SELECT source, dir FROM gh_trees WHERE repo_id = ? AND sha = ?", repo.id, sha);
    if (at) return { __typename: "Tree", repo, commitSha: at.source, dir: at.dir, sha };
  }
  return undefined;
}

export const issueByNumber = (gql: Gql, repo: RepoRow, number: number) => {
  const row = findIssue(gql.ctx.db, repo.id, number);
  return row ? issueSource(repo, row) : undefined;
};

/** A commit of the repository by its SHA, as every field that names a commit resolves it. */
export const commitSource = (repo: RepoRow, sha: string, gql: Gql): CommitSource | undefined => {
  const row = findCommit(gql.ctx.db, repo.id, sha);
  return row ? { __typename: "Commit", repo, row } : undefined;
};
