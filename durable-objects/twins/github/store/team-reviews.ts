// The teams asked to review a pull request (`team_reviewers` of pulls/request-reviewers and
// pulls/remove-requested-reviewers; the pull request's `requested_teams`). A team can be asked when
// it belongs to the repository's organization and has access to the repository, as GitHub's refusal
// says ("Reviews may only be requested from collaborators. One or more of the users or teams you
// specified is not a collaborator"). Requests are kept by team id, so a renamed team stays asked.
import type { Db } from "../../types";
import type { RepoRow } from "../repos";
import type { Store } from "./base";
import { recordEvent } from "./events";
import { findTeam, type TeamRow } from "./orgs";
import type { IssueRow } from "./rows";

/** The teams asked to review `pullId`, in the order they were asked. */
export const requestedTeams = (db: Db, pullId: number) =>
  db.all<TeamRow>(
    "SELECT t.* FROM gh_team_review_requests q JOIN gh_teams t ON t.id = q.team_id WHERE q.issue_id = ? ORDER BY q.position, t.id",
    pullId,
  );

/** The team a review can be asked of, by slug: one of the owner's teams with access to the repository. */
export function reviewingTeam(db: Db, repo: RepoRow, slug: string): TeamRow | undefined {
  const team = findTeam(db, repo.owner, slug);
  if (!team) return undefined;
  return db.one("SELECT 1 AS one FROM gh_team_repos WHERE team_id = ? AND repo_id = ?", team.id, repo.id) ? team : undefined;
}

/** Asks `teams` to review (each once), recording `review_requested` for each team newly asked. */
export function requestTeamReviews(s: Store, pull: IssueRow, teams: readonly TeamRow[]): void {
  const asked = new Set(requestedTeams(s.db, pull.id).map((t) => t.id));
  // Past the last position taken: after a withdrawal, the count of teams asked may be taken.
  let position =
    (s.db.one<{ n: number | null }>("SELECT max(position) AS n FROM gh_team_review_requests WHERE issue_id = ?", pull.id)?.n ?? -1) + 1;
  for (const team of teams) {
    if (asked.has(team.id)) continue;
    asked.add(team.id);
    s.db.run(
      "INSERT INTO gh_team_review_requests (issue_id, team_id, repo_id, position) VALUES (?, ?, ?, ?)",
      pull.id,
      team.id,
      pull.repo_id,
      position++,
    );
    recordEvent(s, pull, "review_requested", { requested_team: team.id });
  }
}

/** Withdraws the requests of the teams named by slug; a team not asked is ignored, as GitHub does. */
export function removeTeamReviews(s: Store, repo: RepoRow, pull: IssueRow, slugs: readonly string[]): void {
  for (const slug of slugs) {
    const team = findTeam(s.db, repo.owner, slug);
    if (!team) continue;
    const removed = s.db.run("DELETE FROM gh_team_review_requests WHERE issue_id = ? AND team_id = ?", pull.id, team.id);
    if (removed > 0) recordEvent(s, pull, "review_request_removed", { requested_team: team.id });
  }
}

/**
 * A submitted review by a member or maintainer of a requested team answers that team's request,
 * as on GitHub: the team leaves `requested_teams` and the review is one made on its behalf
 * (GraphQL's PullRequestReview.onBehalfOf, "teams that this review was made on behalf of",
 * @octokit/graphql-schema). No `review_request_removed` event is recorded: nobody withdrew it.
 */
export function satisfyTeamReviews(s: Store, pull: IssueRow, reviewer: string): void {
  s.db.run(
    `DELETE FROM gh_team_review_requests WHERE issue_id = ? AND team_id IN
       (SELECT team_id FROM gh_team_members WHERE login = ? COLLATE NOCASE)`,
    pull.id,
    reviewer,
  );
}
