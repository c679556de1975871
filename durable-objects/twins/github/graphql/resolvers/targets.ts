// What mutations act on, found by global id: an issue or pull request, labels of its repository,
// users to assign or ask for review. An id naming nothing (or something of another kind) is
// refused as GitHub refuses it: NOT_FOUND, "Could not resolve to a node with the global id of '…'".
import type { RepoRow } from "../../repos";
import type { Gql, IssueSource, LabelSource, ReviewSource } from "../context";
import { GithubGraphqlError, forbidden, notFound } from "../errors";
import { nodeSource } from "../sources";

const unresolved = (id: string) => notFound(`Could not resolve to a node with the global id of '${id}'`);

/** An issue or pull request by id (`kinds` narrows it), in a repository that takes writes. */
export function issueTarget(gql: Gql, id: string, kinds: readonly IssueSource["__typename"][] = ["Issue", "PullRequest"]): IssueSource {
  const found = nodeSource(gql, id);
  if (!found || (found.__typename !== "Issue" && found.__typename !== "PullRequest") || !kinds.includes(found.__typename))
    throw unresolved(id);
  writable(found.repo);
  return found;
}

/** GitHub refuses writes to an archived repository. */
export function writable(repo: RepoRow): RepoRow {
  if (repo.archived) throw forbidden("Repository was archived so is read-only.");
  return repo;
}

/** Label names of the target's repository, from their ids. */
export function labelNamesOf(gql: Gql, repo: RepoRow, ids: readonly string[]): string[] {
  return ids.map((id) => {
    const found = nodeSource(gql, id);
    if (found?.__typename !== "Label" || found.repo.id !== repo.id) throw unresolved(id);
    return (found as LabelSource).row.name;
  });
}

/** Logins of users, from their ids. */
export function loginsOf(gql: Gql, ids: readonly string[]): string[] {
  return ids.map((id) => {
    const found = nodeSource(gql, id);
    if (found?.__typename !== "User") throw unresolved(id);
    return found.login;
  });
}

/** Slugs of teams, from their ids: teams of the repository's owner (others name no team it can ask). */
export function teamSlugsOf(gql: Gql, repo: RepoRow, ids: readonly string[]): string[] {
  return ids.map((id) => {
    const found = nodeSource(gql, id);
    if (found?.__typename !== "Team") throw unresolved(id);
    // Another organization's team is refused as REST refuses a team without access (store/pulls.ts).
    if (found.row.org.toLowerCase() !== repo.owner.toLowerCase())
      throw invalid(
        `Reviews may only be requested from collaborators. One or more of the users or teams you specified is not a collaborator of the ${repo.owner}/${repo.name} repository.`,
      );
    return found.row.slug;
  });
}

/** A milestone number of the repository, from its id (null clears it). */
export function milestoneNumberOf(gql: Gql, repo: RepoRow, id: string | null): number | null {
  if (id === null) return null;
  const found = nodeSource(gql, id);
  if (found?.__typename !== "Milestone" || found.repo.id !== repo.id) throw unresolved(id);
  return found.row.number;
}

export function reviewTarget(gql: Gql, id: string): ReviewSource {
  const found = nodeSource(gql, id);
  if (found?.__typename !== "PullRequestReview") throw unresolved(id);
  return found;
}

export function repositoryTarget(gql: Gql, id: string): RepoRow {
  const found = nodeSource(gql, id);
  if (found?.__typename !== "Repository") throw unresolved(id);
  return writable(found.repo);
}

export const invalid = (message: string) => new GithubGraphqlError("UNPROCESSABLE", message);
