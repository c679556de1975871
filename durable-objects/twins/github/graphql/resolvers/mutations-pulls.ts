// Pull-request mutations: create, update, merge, reviews and review requests, through the store
// functions the REST routes use.
import { findIssue } from "../../store/issues";
import { applyLabels } from "../../store/labels";
import { setAssignees } from "../../store/assignees";
import { createPull, mergePull, requestReviewers, updatePull, type MergeMethod } from "../../store/pulls";
import { removeTeamReviews, requestedTeams } from "../../store/team-reviews";
import { createReview, submitReview, type ReviewEvent } from "../../store/reviews";
import type { ReviewRow } from "../../store/rows";
import { cursorAt } from "../connection";
import type { Gql } from "../context";
import { actorSource, issueSource } from "../sources";
import { reviewSource } from "./issues";
import { reread } from "./mutations-issues";
import { type Mutation, done } from "./payload";
import {
  invalid,
  issueTarget,
  labelNamesOf,
  loginsOf,
  milestoneNumberOf,
  repositoryTarget,
  reviewTarget,
  teamSlugsOf,
  writable,
} from "./targets";

interface CreatePull extends Mutation {
  repositoryId: string;
  baseRefName: string;
  headRefName: string;
  title: string;
  body?: string | null;
  draft?: boolean | null;
}

interface UpdatePull extends Mutation {
  pullRequestId: string;
  title?: string | null;
  body?: string | null;
  baseRefName?: string | null;
  state?: "OPEN" | "CLOSED" | null;
  assigneeIds?: readonly string[] | null;
  labelIds?: readonly string[] | null;
  milestoneId?: string | null;
}

interface MergePull extends Mutation {
  pullRequestId: string;
  mergeMethod?: "MERGE" | "SQUASH" | "REBASE" | null;
  commitHeadline?: string | null;
  commitBody?: string | null;
  expectedHeadOid?: string | null;
}

/** GitHub's review events; DISMISS is for dismissing, which submitting a review cannot do. */
function reviewEvent(event: string | null | undefined): ReviewEvent | undefined {
  if (event === "APPROVE" || event === "REQUEST_CHANGES" || event === "COMMENT") return event;
  if (event === "DISMISS") throw invalid("A review cannot be submitted with the DISMISS event.");
  return undefined;
}

export const pullMutations = {
  createPullRequest: (_s: unknown, { input }: { input: CreatePull }, gql: Gql) => {
    const repo = repositoryTarget(gql, input.repositoryId);
    if (!input.title.trim()) throw invalid("Title can't be blank");
    // `owner:branch` names a branch of this repository's owner (the twin keeps no forks).
    const head = input.headRefName.includes(":") ? input.headRefName.slice(input.headRefName.indexOf(":") + 1) : input.headRefName;
    const row = createPull(gql.store(), repo, {
      title: input.title,
      body: input.body ?? null,
      head,
      base: input.baseRefName,
      draft: input.draft ?? false,
    });
    return done(input, { pullRequest: issueSource(repo, row) });
  },
  updatePullRequest: (_s: unknown, { input }: { input: UpdatePull }, gql: Gql) => {
    const target = issueTarget(gql, input.pullRequestId, ["PullRequest"]);
    const { repo, row } = target;
    if (input.title !== undefined && input.title !== null && !input.title.trim()) throw invalid("Title can't be blank");
    // Everything that can refuse is resolved before the first write.
    const labels = input.labelIds ? labelNamesOf(gql, repo, input.labelIds) : undefined;
    const assignees = input.assigneeIds ? loginsOf(gql, input.assigneeIds) : undefined;
    const milestone = input.milestoneId === undefined ? undefined : milestoneNumberOf(gql, repo, input.milestoneId);
    const store = gql.store();
    updatePull(store, repo, row, {
      title: input.title ?? undefined,
      body: input.body === undefined ? undefined : input.body,
      state: input.state ? (input.state === "OPEN" ? "open" : "closed") : undefined,
      base: input.baseRefName ?? undefined,
    });
    if (labels) applyLabels(store, repo.id, row.id, labels, true);
    if (assignees) setAssignees(store.db, repo.id, row.id, assignees);
    if (milestone !== undefined) store.db.run("UPDATE gh_issues SET milestone = ? WHERE id = ?", milestone, row.id);
    return done(input, { pullRequest: reread(gql, target), actor: actorSource(gql, gql.view.actor) });
  },
  mergePullRequest: (_s: unknown, { input }: { input: MergePull }, gql: Gql) => {
    const target = issueTarget(gql, input.pullRequestId, ["PullRequest"]);
    const method = (input.mergeMethod ?? "MERGE").toLowerCase() as MergeMethod;
    mergePull(gql.store(), target.repo, target.row, {
      sha: input.expectedHeadOid ?? undefined,
      merge_method: method,
      commit_title: input.commitHeadline ?? undefined,
      commit_message: input.commitBody ?? undefined,
    });
    return done(input, { pullRequest: reread(gql, target), actor: actorSource(gql, gql.view.actor) });
  },
  addPullRequestReview: (
    _s: unknown,
    { input }: { input: Mutation & { pullRequestId: string; body?: string | null; event?: string | null; commitOID?: string | null } },
    gql: Gql,
  ) => {
    const target = issueTarget(gql, input.pullRequestId, ["PullRequest"]);
    const review = createReview(gql.store(), target.row, {
      body: input.body ?? "",
      event: reviewEvent(input.event),
      commit_id: input.commitOID ?? undefined,
    });
    const count = gql.ctx.db.one<{ n: number }>(
      "SELECT count(*) AS n FROM gh_reviews WHERE repo_id = ? AND pull_number = ?",
      target.repo.id,
      target.row.number,
    );
    const node = reviewSource(target.repo, review);
    return done(input, { pullRequestReview: node, reviewEdge: { cursor: cursorAt((count?.n ?? 1) - 1), node } });
  },
  submitPullRequestReview: (
    _s: unknown,
    {
      input,
    }: { input: Mutation & { pullRequestId?: string | null; pullRequestReviewId?: string | null; event: string; body?: string | null } },
    gql: Gql,
  ) => {
    const store = gql.store();
    let review: ReviewRow | undefined;
    let pull = input.pullRequestId ? issueTarget(gql, input.pullRequestId, ["PullRequest"]) : undefined;
    if (input.pullRequestReviewId) {
      const found = reviewTarget(gql, input.pullRequestReviewId);
      review = found.row;
      const row = findIssue(gql.ctx.db, found.repo.id, found.row.pull_number);
      if (row) pull ??= { ...issueSource(found.repo, row), __typename: "PullRequest" };
    } else if (pull) {
      review = gql.ctx.db.one<ReviewRow>(
        "SELECT * FROM gh_reviews WHERE repo_id = ? AND pull_number = ? AND state = 'PENDING' AND user = ? COLLATE NOCASE",
        pull.repo.id,
        pull.row.number,
        store.actor,
      );
    }
    if (!pull || !review) throw invalid("Could not find a pending review to submit.");
    writable(pull.repo);
    if (review.state !== "PENDING") throw invalid("Can not submit a review that is not pending.");
    const event = reviewEvent(input.event) ?? "COMMENT";
    const submitted = submitReview(store, pull.row, review, event, input.body ?? undefined);
    return done(input, { pullRequestReview: reviewSource(pull.repo, submitted) });
  },
  requestReviews: (
    _s: unknown,
    {
      input,
    }: {
      input: Mutation & {
        pullRequestId: string;
        userIds?: readonly string[] | null;
        teamIds?: readonly string[] | null;
        union?: boolean | null;
      };
    },
    gql: Gql,
  ) => {
    const target = issueTarget(gql, input.pullRequestId, ["PullRequest"]);
    const logins = loginsOf(gql, input.userIds ?? []);
    const slugs = teamSlugsOf(gql, target.repo, input.teamIds ?? []);
    const store = gql.store();
    // Without `union`, the requested reviewers become exactly the ones given (GitHub's default):
    // the store starts from an empty list, and checks every reviewer and team before it writes.
    const from = input.union ? target.row : { ...target.row, requested_reviewers: "[]" };
    requestReviewers(store, target.repo, from, logins, slugs);
    if (!input.union) {
      const keep = new Set(slugs.map((s) => s.toLowerCase()));
      const dropped = requestedTeams(store.db, target.row.id).filter((t) => !keep.has(t.slug.toLowerCase()));
      removeTeamReviews(
        store,
        target.repo,
        target.row,
        dropped.map((t) => t.slug),
      );
    }
    return done(input, { pullRequest: reread(gql, target), actor: actorSource(gql, gql.view.actor) });
  },
};
