// What `gh issue view` and `gh pr view` ask beyond the basics: reaction groups (from the REST
// reactions store), authorAssociation (as REST computes it), a pull request's commits and each
// commit's status check rollup (REST's commit statuses and check runs, Actions jobs among them).
// Classic project cards: the twin models no classic projects, so every issue answers what GitHub
// answers for one on no board, an empty connection.
import type { RepoRow } from "../../repos";
import { findWorkflowById, type RunRow } from "../../store/actions";
import { type CheckRunRow, checkRunsOnSha, findCheckSuite, suiteOutcome } from "../../store/checks";
import { pullCommits } from "../../store/merge";
import type { ReactionSubject, REACTION_CONTENTS } from "../../store/reactions";
import type { StatusRow } from "../../store/rows";
import { latestStatuses } from "../../store/statuses";
import { type PageArgs, connectionOfList } from "../connection";
import type { CommentSource, CommitSource, Gql, IssueSource, Resolvers, ReviewSource } from "../context";
import { nodeId } from "../ids";
import { actorSource, commitSource, issueSource, maybeActor } from "../sources";

const WEB = "https://github.com";

/** REST's reaction contents → GraphQL's ReactionContent, in the order GitHub lists its groups. */
const CONTENT: Record<(typeof REACTION_CONTENTS)[number], string> = {
  "+1": "THUMBS_UP",
  "-1": "THUMBS_DOWN",
  laugh: "LAUGH",
  hooray: "HOORAY",
  confused: "CONFUSED",
  heart: "HEART",
  rocket: "ROCKET",
  eyes: "EYES",
};
const GROUP_ORDER = ["+1", "-1", "laugh", "hooray", "confused", "heart", "rocket", "eyes"] as const;

type ReactionGroupSource = { subject: ReactionSubject | null; subjectId: number; content: (typeof GROUP_ORDER)[number] };

/** One group per reaction content, as GitHub lists them, each empty where nobody reacted so. */
const reactionGroups = (subject: ReactionSubject | null, subjectId: number): ReactionGroupSource[] =>
  GROUP_ORDER.map((content) => ({ subject, subjectId, content }));

/** Who reacted with the group's content, oldest reaction first (bounded: the store keeps one per user). */
const reactors = (gql: Gql, g: ReactionGroupSource): string[] =>
  g.subject === null
    ? []
    : gql.ctx.db
        .all<{ user: string }>(
          "SELECT user FROM gh_reactions WHERE subject = ? AND subject_id = ? AND content = ? ORDER BY id LIMIT 10000",
          g.subject,
          g.subjectId,
          g.content,
        )
        .map((r) => r.user);

const emptyProjectCards = (_s: unknown, a: PageArgs) => connectionOfList(a, []);

type PullCommitSource = { __typename: "PullRequestCommit"; pull: IssueSource; commit: CommitSource };
type RollupSource = { commit: CommitSource; statuses: StatusRow[]; runs: CheckRunRow[] };
type StatusContextSource = { __typename: "StatusContext"; repo: RepoRow; row: StatusRow; commit: CommitSource };
type CheckRunSource = { __typename: "CheckRun"; repo: RepoRow; row: CheckRunRow };

const FAILED = new Set(["failure", "timed_out", "cancelled", "action_required", "startup_failure"]);

/** GitHub's rollup: any failing status or check fails it; else anything unfinished leaves it pending. */
function rollupState(r: RollupSource): string {
  if (r.statuses.some((s) => s.state === "error" || s.state === "failure")) return "FAILURE";
  if (r.runs.some((c) => c.status === "completed" && c.conclusion !== null && FAILED.has(c.conclusion))) return "FAILURE";
  if (r.statuses.some((s) => s.state === "pending") || r.runs.some((c) => c.status !== "completed")) return "PENDING";
  return "SUCCESS";
}

/** An id for what is one per (database id, sha), in the form of the git objects' ids (ids.ts). */
const shaId = (kind: string, id: number, sha: string) => btoa(`0${kind.length}:${kind}${id}:${sha}`).replace(/=+$/, "");

const upper = (v: string | null) => (v === null ? null : v.toUpperCase());

export const activityResolvers: Resolvers = {
  // The account a commit's author or committer is, as REST's commit `author`: the login of a
  // noreply address, else the user whose email it is; null when none.
  GitActor: {
    user: (p: { email: string }, _a: unknown, gql: Gql) => {
      const noreply = /^(?:\d+\+)?([A-Za-z0-9-]+)@users\.noreply\.github\.com$/i.exec(p.email)?.[1];
      const login =
        noreply ?? gql.ctx.db.one<{ login: string }>("SELECT login FROM gh_users WHERE email = ? COLLATE NOCASE LIMIT 1", p.email)?.login;
      return login && gql.view.userRow(login) ? { ...actorSource(gql, login), __typename: "User" } : null;
    },
  },
  ReactionGroup: {
    content: (g: ReactionGroupSource) => CONTENT[g.content],
    users: (g: ReactionGroupSource, a: PageArgs, gql: Gql) =>
      connectionOfList(
        a,
        reactors(gql, g).map((login) => actorSource(gql, login)),
      ),
    viewerHasReacted: (g: ReactionGroupSource, _a: unknown, gql: Gql) =>
      reactors(gql, g).some((login) => login.toLowerCase() === gql.view.actor.toLowerCase()),
  },
  PullRequestCommit: {
    id: (c: PullCommitSource) => shaId("PullRequestCommit", c.pull.row.id, c.commit.row.sha),
    commit: (c: PullCommitSource) => c.commit,
    pullRequest: (c: PullCommitSource) => c.pull,
    url: (c: PullCommitSource) => `${WEB}/${c.pull.repo.owner}/${c.pull.repo.name}/pull/${c.pull.row.number}/commits/${c.commit.row.sha}`,
    resourcePath: (c: PullCommitSource) =>
      `/${c.pull.repo.owner}/${c.pull.repo.name}/pull/${c.pull.row.number}/commits/${c.commit.row.sha}`,
  },
  StatusCheckRollup: {
    id: (r: RollupSource) => shaId("StatusCheckRollup", r.commit.repo.id, r.commit.row.sha),
    state: (r: RollupSource) => rollupState(r),
    commit: (r: RollupSource) => r.commit,
    // Check runs first, then status contexts (each in the order REST lists them).
    contexts: (r: RollupSource, a: PageArgs) => {
      const items: (CheckRunSource | StatusContextSource)[] = [
        ...r.runs.map((row): CheckRunSource => ({ __typename: "CheckRun", repo: r.commit.repo, row })),
        ...r.statuses.map((row): StatusContextSource => ({ __typename: "StatusContext", repo: r.commit.repo, row, commit: r.commit })),
      ];
      return { ...connectionOfList(a, items), checkRunCount: r.runs.length, statusContextCount: r.statuses.length };
    },
  },
  StatusContext: {
    id: (s: StatusContextSource) => nodeId("StatusContext", s.row.id),
    context: (s: StatusContextSource) => s.row.context,
    state: (s: StatusContextSource) => s.row.state.toUpperCase(),
    description: (s: StatusContextSource) => s.row.description,
    targetUrl: (s: StatusContextSource) => s.row.target_url,
    createdAt: (s: StatusContextSource) => s.row.created_at,
    creator: (s: StatusContextSource, _a: unknown, gql: Gql) => maybeActor(gql, s.row.creator),
    commit: (s: StatusContextSource) => s.commit,
  },
  CheckRun: {
    id: (c: CheckRunSource) => nodeId("CheckRun", c.row.id),
    databaseId: (c: CheckRunSource) => c.row.id,
    name: (c: CheckRunSource) => c.row.name,
    status: (c: CheckRunSource) => c.row.status.toUpperCase(),
    conclusion: (c: CheckRunSource) => upper(c.row.conclusion),
    startedAt: (c: CheckRunSource) => c.row.started_at,
    completedAt: (c: CheckRunSource) => c.row.completed_at,
    detailsUrl: (c: CheckRunSource) => c.row.details_url,
    checkSuite: (c: CheckRunSource, _a: unknown, gql: Gql) => {
      const suite = findCheckSuite(gql.ctx.db, c.repo.id, c.row.suite_id);
      if (!suite) return null;
      const runs = checkRunsOnSha(gql.ctx.db, c.repo.id, suite.head_sha, { latestOnly: true }).filter((r) => r.suite_id === suite.id);
      return { repo: c.repo, row: suite, outcome: suiteOutcome(runs) };
    },
  },
  CheckSuite: {
    id: (s: { row: { id: number } }) => nodeId("CheckSuite", s.row.id),
    databaseId: (s: { row: { id: number } }) => s.row.id,
    status: (s: { outcome: { status: string } }) => s.outcome.status.toUpperCase(),
    conclusion: (s: { outcome: { conclusion: string | null } }) => upper(s.outcome.conclusion),
    createdAt: (s: { row: { created_at: string } }) => s.row.created_at,
    updatedAt: (s: { row: { updated_at: string } }) => s.row.updated_at,
    // A workflow run's suite is its run; the sandbox app's own suites have none.
    workflowRun: (s: { repo: RepoRow; row: { id: number } }, _a: unknown, gql: Gql) =>
      gql.ctx.db.one<RunRow>("SELECT * FROM gh_workflow_runs WHERE repo_id = ? AND check_suite_id = ?", s.repo.id, s.row.id) ?? null,
  },
  WorkflowRun: {
    id: (r: RunRow) => nodeId("WorkflowRun", r.id),
    databaseId: (r: RunRow) => r.id,
    runNumber: (r: RunRow) => r.run_number,
    event: (r: RunRow) => r.event,
    createdAt: (r: RunRow) => r.created_at,
    updatedAt: (r: RunRow) => r.updated_at,
    workflow: (r: RunRow, _a: unknown, gql: Gql) => findWorkflowById(gql.ctx.db, r.workflow_id),
  },
  Workflow: {
    id: (w: { id: number }) => nodeId("Workflow", w.id),
    databaseId: (w: { id: number }) => w.id,
    name: (w: { name: string }) => w.name,
  },
};

/** The fields the activity adds to issues, pull requests, comments, reviews and commits. */
export const issueActivity = {
  reactionGroups: (s: IssueSource) => reactionGroups("issue", s.row.id),
  projectCards: emptyProjectCards,
};

export const pullActivity = {
  ...issueActivity,
  commits: (s: IssueSource, a: PageArgs, gql: Gql) =>
    connectionOfList(
      a,
      pullCommits(gql.ctx.db, s.row).map(
        (row): PullCommitSource => ({
          __typename: "PullRequestCommit",
          pull: issueSource(s.repo, s.row),
          commit: { __typename: "Commit", repo: s.repo, row },
        }),
      ),
    ),
};

const isViewer = (gql: Gql, login: string) => login.toLowerCase() === gql.view.actor.toLowerCase();

export const commentActivity = {
  authorAssociation: (c: CommentSource, _a: unknown, gql: Gql) => gql.view.authorAssociation(c.repo, c.row.user),
  includesCreatedEdit: (c: CommentSource) => c.row.updated_at !== c.row.created_at,
  // The twin keeps no minimized (hidden) comments.
  isMinimized: () => false,
  minimizedReason: () => null,
  reactionGroups: (c: CommentSource) => reactionGroups("comment", c.row.id),
  viewerDidAuthor: (c: CommentSource, _a: unknown, gql: Gql) => isViewer(gql, c.row.user),
};

export const reviewActivity = {
  authorAssociation: (r: ReviewSource, _a: unknown, gql: Gql) => gql.view.authorAssociation(r.repo, r.row.user),
  commit: (r: ReviewSource, _a: unknown, gql: Gql) => (r.row.commit_id ? (commitSource(r.repo, r.row.commit_id, gql) ?? null) : null),
  // The REST reactions store holds none on reviews (GitHub's REST has no review reactions either).
  reactionGroups: (r: ReviewSource) => reactionGroups(null, r.row.id),
};

/** A commit's statuses and check runs; null where it has neither (as GitHub answers). */
export function statusCheckRollup(c: CommitSource, gql: Gql): RollupSource | null {
  const statuses = latestStatuses(gql.ctx.db, c.repo.id, c.row.sha);
  const runs = checkRunsOnSha(gql.ctx.db, c.repo.id, c.row.sha, { latestOnly: true });
  return statuses.length || runs.length ? { commit: c, statuses, runs } : null;
}
