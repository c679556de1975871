// Boot and export of the seed's links between rows booted apart: the teams asked to review a pull
// request (gh_team_review_requests, booted after the organizations' teams) and the numbers a
// transferred issue had in other repositories (gh_issue_moves, which name any repository).
// world.ts runs both after every repository and team is in, and export reads them back in the
// order seed.ts checkLinks puts them.
import type { Db } from "../types";
import type { GithubSeed } from "./seed";

export function bootLinks(db: Db, seed: GithubSeed): void {
  const repoIds = new Map(seed.repositories.map((r) => [`${r.owner}/${r.name}`.toLowerCase(), r.id]));
  for (const r of seed.repositories) {
    for (const p of r.pulls)
      p.requested_teams.forEach((slug, position) => {
        const team = db.one<{ id: number }>("SELECT id FROM gh_teams WHERE org = ? COLLATE NOCASE AND slug = ?", r.owner, slug);
        if (team)
          db.run(
            "INSERT OR IGNORE INTO gh_team_review_requests (issue_id, team_id, repo_id, position) VALUES (?, ?, ?, ?)",
            p.id,
            team.id,
            r.id,
            position,
          );
      });
    for (const it of r.issues)
      for (const m of it.moved_from) {
        const from = repoIds.get(m.repository.toLowerCase());
        if (from === undefined) continue;
        db.run("INSERT OR REPLACE INTO gh_issue_moves (repo_id, number, issue_id) VALUES (?, ?, ?)", from, m.number, it.id);
        // The old repository never hands the number out again.
        db.run("UPDATE gh_repos SET next_number = max(next_number, ?) WHERE id = ?", m.number + 1, from);
      }
  }
}

/** A repository's pull requests' requested team slugs, by pull request id, in the order asked. */
export function requestedTeamsByPull(db: Db, repoId: number): Map<number, string[]> {
  const byPull = new Map<number, string[]>();
  const rows = db.all<{ issue_id: number; slug: string }>(
    `SELECT q.issue_id, t.slug FROM gh_team_review_requests q JOIN gh_teams t ON t.id = q.team_id
     WHERE q.repo_id = ? ORDER BY q.issue_id, q.position, t.id`,
    repoId,
  );
  for (const row of rows) byPull.set(row.issue_id, [...(byPull.get(row.issue_id) ?? []), row.slug]);
  return byPull;
}

/** The old numbers of a repository's issues, by issue id: where each was before it moved here. */
export function movesByIssue(db: Db, repoId: number): Map<number, { repository: string; number: number }[]> {
  const byIssue = new Map<number, { repository: string; number: number }[]>();
  const rows = db.all<{ issue_id: number; repository: string; number: number }>(
    `SELECT m.issue_id, r.owner || '/' || r.name AS repository, m.number FROM gh_issue_moves m
     JOIN gh_issues i ON i.id = m.issue_id JOIN gh_repos r ON r.id = m.repo_id
     WHERE i.repo_id = ? ORDER BY m.issue_id, m.repo_id, m.number`,
    repoId,
  );
  for (const { issue_id, ...move } of rows) byIssue.set(issue_id, [...(byIssue.get(issue_id) ?? []), move]);
  return byIssue;
}
