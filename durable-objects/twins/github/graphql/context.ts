// What every resolver gets: the call, a View (the REST serializer's per-call caches, so both
// transports describe users and repositories alike), the store view for writes, and the call's
// measure for `rateLimit`.
import type { TwinContext } from "../../types";
import { storeOf } from "../context";
import type { RepoRow, UserRow } from "../repos";
import type { TeamRow } from "../store/orgs";
import { View } from "../serialize";
import type { Store } from "../store/base";
import type { CommitRow } from "../store/git";
import type { ReviewCommentRow } from "../store/review-comments";
import type { CommentRow, IssueRow, LabelRow, MilestoneRow, ReviewRow } from "../store/rows";

export interface Gql {
  ctx: TwinContext;
  view: View;
  store(): Store;
  /** The call's measure (limits.ts), for `rateLimit`. */
  cost: number;
  nodeCount: number;
  /** `rateLimit(dryRun: true)` was asked: only the price is answered. */
  dryRun: boolean;
}

export function makeGql(ctx: TwinContext, measure: { cost: number; nodeCount: number; dryRun: boolean }): Gql {
  let store: Store | undefined;
  return {
    ctx,
    view: new View(ctx),
    store: () => {
      store ??= storeOf(ctx);
      return store;
    },
    ...measure,
  };
}

// The objects resolvers hand each other, tagged with their GraphQL type (graphql-js resolves
// interfaces and unions by `__typename`).
export type RepositorySource = { __typename: "Repository"; repo: RepoRow };
export type ActorSource = { __typename: "User" | "Organization"; login: string; row: UserRow | undefined };
export type IssueSource = { __typename: "Issue" | "PullRequest"; repo: RepoRow; row: IssueRow };
export type CommentSource = { __typename: "IssueComment"; repo: RepoRow; row: CommentRow };
export type LabelSource = { __typename: "Label"; repo: RepoRow; row: LabelRow };
export type MilestoneSource = { __typename: "Milestone"; repo: RepoRow; row: MilestoneRow };
export type ReviewSource = { __typename: "PullRequestReview"; repo: RepoRow; row: ReviewRow };
/** A review thread: its first comment. */
export type ThreadSource = { __typename: "PullRequestReviewThread"; repo: RepoRow; row: ReviewCommentRow };
export type ReviewCommentSource = { __typename: "PullRequestReviewComment"; repo: RepoRow; row: ReviewCommentRow };
/** A request for review: of a user (`login`) or of a team (`team`). */
export type ReviewRequestSource = { __typename: "ReviewRequest"; repo: RepoRow; pull: IssueRow; login: string; team?: TeamRow };
export type TeamSource = { __typename: "Team"; row: TeamRow };
export type RefSource = { __typename: "Ref"; repo: RepoRow; name: string; prefix: string; sha: string };
export type CommitSource = { __typename: "Commit"; repo: RepoRow; row: CommitRow };
export type TreeSource = { __typename: "Tree"; repo: RepoRow; commitSha: string; dir: string; sha: string };
export type BlobSource = { __typename: "Blob"; repo: RepoRow; sha: string };

export type GitObjectSource = CommitSource | TreeSource | BlobSource;
export type NodeSource =
  | RepositorySource
  | ActorSource
  | IssueSource
  | CommentSource
  | LabelSource
  | MilestoneSource
  | ReviewSource
  | ThreadSource
  | ReviewCommentSource
  | TeamSource
  | RefSource
  | GitObjectSource;

/** A field's resolver: its parent's source, its coerced arguments, the call. */
export type Resolver = (src: never, args: never, gql: Gql) => unknown;
/** Resolvers by type, then field; a field without one reads the source's property of its name. */
export type Resolvers = Record<string, Record<string, Resolver>>;

/** A GitHub feature the twin does not serve: the call is answered 501 and taped unsupported. */
export class Unsupported extends Error {
  constructor(readonly what: string) {
    super(`The GitHub twin does not implement ${what}`);
  }
}
