// The GitHub seed's column maps: for each gh_ table a seeded repository fills, which column keeps
// which field and how. Boot and export (world.ts) both go through these maps, so a field is
// declared once. Rows hang off their repository by its id and, for comments and reviews, by the
// issue or pull request number.
import { type Placed, assembled, col, tableMap } from "../kit/world-table";
import type {
  GithubComment,
  GithubIssue,
  GithubMilestone,
  GithubPull,
  GithubRepository,
  GithubReview,
  GithubReviewComment,
  GithubSeed,
  GithubStatus,
} from "./seed";

export const users = tableMap<GithubSeed["users"][number]>()({
  table: "gh_users",
  fields: {
    login: col.text("login"),
    id: col.number("id"),
    type: col.text<GithubSeed["users"][number]["type"]>("type"),
    name: col.nullableText("name"),
    email: col.nullableText("email"),
  },
});

export const repositories = tableMap<GithubRepository, unknown, { nextNumber: number }>()({
  table: "gh_repos",
  fields: {
    owner: col.text("owner"),
    name: col.text("name"),
    id: col.number("id"),
    description: col.nullableText("description"),
    private: col.flag("private"),
    default_branch: col.text("default_branch"),
    topics: col.json<string[]>("topics"),
    archived: col.flag("archived"),
    collaborators: col.json<string[]>("collaborators"),
    labels: assembled,
    milestones: assembled,
    branches: assembled,
    issues: assembled,
    pulls: assembled,
    statuses: assembled,
    created_at: col.text("created_at"),
    updated_at: col.text("updated_at"),
    workflows: assembled,
    workflow_runs: assembled,
    check_runs: assembled,
    hooks: assembled,
  },
  // A seeded repository was last pushed when it was last updated.
  derived: { pushed_at: ({ value }) => value.updated_at, next_number: ({ place }) => place.nextNumber },
});

/** Where a repository's own rows sit: the repository, and their position in its list. */
interface InRepo {
  repo: GithubRepository;
  position: number;
}

export const labels = tableMap<GithubRepository["labels"][number], unknown, InRepo>()({
  table: "gh_labels",
  fields: { name: col.text("name"), id: col.number("id"), color: col.text("color"), description: col.nullableText("description") },
  derived: { repo_id: ({ place }) => place.repo.id, position: ({ place }) => place.position },
});

/** A seeded milestone was made, and if closed closed, when its repository was. */
export const milestones = tableMap<GithubMilestone, unknown, InRepo>()({
  table: "gh_milestones",
  fields: {
    number: col.number("number"),
    title: col.text("title"),
    state: col.text<GithubMilestone["state"]>("state"),
    description: col.nullableText("description"),
    due_on: col.nullableText("due_on"),
  },
  derived: {
    repo_id: ({ place }) => place.repo.id,
    created_at: ({ place }) => place.repo.created_at,
    updated_at: ({ place }) => place.repo.created_at,
    closed_at: ({ value, place }) => (value.state === "closed" ? place.repo.created_at : null),
  },
});

/** The status of a ref is kept against the sha it named at boot: a branch's head, or the sha itself. */
export const statuses = tableMap<GithubStatus, unknown, { repoId: number; sha: string }>()({
  table: "gh_statuses",
  fields: {
    id: col.number("id"),
    ref: col.text("ref"),
    context: col.text("context"),
    state: col.text<GithubStatus["state"]>("state"),
    description: col.nullableText("description"),
    target_url: col.nullableText("target_url"),
    creator: col.text("creator"),
    created_at: col.text("created_at"),
  },
  derived: { repo_id: ({ place }) => place.repoId, sha: ({ place }) => place.sha },
});

/** Comments and reviews sit on an issue or pull request of a repository, by its number. */
interface OnItem {
  repoId: number;
  number: number;
}

export const comments = tableMap<GithubComment, unknown, OnItem>()({
  table: "gh_comments",
  fields: {
    id: col.number("id"),
    user: col.text("user"),
    body: col.text("body"),
    created_at: col.text("created_at"),
    updated_at: col.text("updated_at"),
  },
  derived: { repo_id: ({ place }) => place.repoId, issue_number: ({ place }) => place.number },
});

export const reviews = tableMap<GithubReview, unknown, OnItem>()({
  table: "gh_reviews",
  fields: {
    id: col.number("id"),
    user: col.text("user"),
    state: col.text<GithubReview["state"]>("state"),
    body: col.text("body"),
    submitted_at: col.nullableText("submitted_at"),
  },
  derived: { repo_id: ({ place }) => place.repoId, pull_number: ({ place }) => place.number },
});

/** Inline review comments on a pull request's diff; a thread's resolution sits on its first comment. */
export const reviewComments = tableMap<GithubReviewComment, unknown, OnItem>()({
  table: "gh_review_comments",
  fields: {
    id: col.number("id"),
    user: col.text("user"),
    body: col.text("body"),
    path: col.text("path"),
    subject_type: col.text<GithubReviewComment["subject_type"]>("subject_type"),
    line: col.nullableNumber("line"),
    side: col.nullableText<"LEFT" | "RIGHT">("side"),
    start_line: col.nullableNumber("start_line"),
    start_side: col.nullableText<"LEFT" | "RIGHT">("start_side"),
    position: col.nullableNumber("position"),
    commit_id: col.text("commit_id"),
    diff_hunk: col.text("diff_hunk"),
    review_id: col.nullableNumber("review_id"),
    in_reply_to_id: col.nullableNumber("in_reply_to_id"),
    resolved_by: col.nullableText("resolved_by"),
    created_at: col.text("created_at"),
    updated_at: col.text("updated_at"),
  },
  derived: { repo_id: ({ place }) => place.repoId, pull_number: ({ place }) => place.number },
});

/** Issues and pull requests share gh_issues and one numbering; these fields are common to both. */
const itemFields = {
  number: col.number("number"),
  id: col.number("id"),
  title: col.text("title"),
  body: col.nullableText("body"),
  state: col.text<"open" | "closed">("state"),
  user: col.text("user"),
  labels: assembled,
  assignees: assembled,
  comments: assembled,
  created_at: col.text("created_at"),
  updated_at: col.text("updated_at"),
  closed_at: col.nullableText("closed_at"),
};
const itemDerived = {
  repo_id: ({ place }: Placed<GithubIssue | GithubPull, number>) => place,
  comment_count: ({ value }: Placed<GithubIssue | GithubPull, number>) => value.comments.length,
};

/** An issue, placed in its repository by the repository's id. */
export const issues = tableMap<GithubIssue, unknown, number>()({
  table: "gh_issues",
  fields: {
    ...itemFields,
    state_reason: col.nullableText<NonNullable<GithubIssue["state_reason"]>>("state_reason"),
    milestone: col.nullableNumber("milestone"),
    locked: col.flag("locked"),
    active_lock_reason: col.nullableText<NonNullable<GithubIssue["active_lock_reason"]>>("active_lock_reason"),
    // gh_issue_moves, booted and exported with the other cross-row links (world-links.ts).
    moved_from: assembled,
  },
  derived: { ...itemDerived, is_pull: () => 0 },
});

/** A pull request, placed in its repository by the repository's id; it has no lock of its own in a seed. */
export const pulls = tableMap<GithubPull, unknown, number>()({
  table: "gh_issues",
  fields: {
    ...itemFields,
    head: col.custom<string>(
      "head",
      (v) => v,
      (cell) => (cell === null ? "" : String(cell)),
    ),
    base: col.custom<string>(
      "base",
      (v) => v,
      (cell) => (cell === null ? "" : String(cell)),
    ),
    draft: col.flag("draft"),
    merged: col.flag("merged"),
    merged_at: col.nullableText("merged_at"),
    merged_by: col.nullableText("merged_by"),
    requested_reviewers: col.custom<string[]>(
      "requested_reviewers",
      (v) => JSON.stringify(v),
      (cell) => JSON.parse(cell === null ? "[]" : String(cell)) as string[],
    ),
    // gh_team_review_requests, booted after the teams (world-links.ts).
    requested_teams: assembled,
    reviews: assembled,
    review_comments: assembled,
  },
  derived: { ...itemDerived, is_pull: () => 1, locked: () => 0 },
});
