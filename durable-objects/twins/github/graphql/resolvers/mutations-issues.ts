// Issue mutations: create, update, close, reopen, comment, labels and assignees. Each goes
// through the store functions the REST routes use, so the world, the tape and grading see one
// kind of write whichever transport made it.
import { addAssignees, assignable, issueAssignees, removeAssignees } from "../../store/assignees";
import { recordAssigneeChanges } from "../../store/events";
import { createComment } from "../../store/comments";
import { createIssue, findIssue, setIssueState, touchIssue, updateIssue, type StateReason } from "../../store/issues";
import { applyLabels, removeIssueLabel } from "../../store/labels";
import type { IssueRow } from "../../store/rows";
import { cursorAt } from "../connection";
import type { Gql, IssueSource } from "../context";
import { actorSource, issueSource } from "../sources";
import { commentSource } from "./issues";
import { type Mutation, done } from "./payload";
import { invalid, issueTarget, labelNamesOf, loginsOf, milestoneNumberOf, repositoryTarget } from "./targets";

/** The issue as it is now (after a write). */
export const reread = (gql: Gql, s: IssueSource): IssueSource =>
  issueSource(s.repo, findIssue(gql.ctx.db, s.repo.id, s.row.number) as IssueRow);

interface CreateIssue extends Mutation {
  repositoryId: string;
  title: string;
  body?: string | null;
  assigneeIds?: readonly string[] | null;
  labelIds?: readonly string[] | null;
  milestoneId?: string | null;
}

interface UpdateIssue extends Mutation {
  id: string;
  title?: string | null;
  body?: string | null;
  state?: "OPEN" | "CLOSED" | null;
  assigneeIds?: readonly string[] | null;
  labelIds?: readonly string[] | null;
  milestoneId?: string | null;
}

const CLOSE_REASONS: Record<string, StateReason> = { COMPLETED: "completed", NOT_PLANNED: "not_planned", DUPLICATE: "not_planned" };

export const issueMutations = {
  createIssue: (_s: unknown, { input }: { input: CreateIssue }, gql: Gql) => {
    const repo = repositoryTarget(gql, input.repositoryId);
    if (!input.title.trim()) throw invalid("Title can't be blank");
    const row = createIssue(gql.store(), repo, {
      title: input.title,
      body: input.body ?? null,
      labels: labelNamesOf(gql, repo, input.labelIds ?? []),
      assignees: loginsOf(gql, input.assigneeIds ?? []),
      milestone: input.milestoneId ? milestoneNumberOf(gql, repo, input.milestoneId) : null,
    });
    return done(input, { issue: issueSource(repo, row) });
  },
  updateIssue: (_s: unknown, { input }: { input: UpdateIssue }, gql: Gql) => {
    const target = issueTarget(gql, input.id, ["Issue"]);
    const repo = target.repo;
    if (input.title !== undefined && input.title !== null && !input.title.trim()) throw invalid("Title can't be blank");
    updateIssue(gql.store(), repo, target.row, {
      title: input.title ?? undefined,
      body: input.body === undefined ? undefined : input.body,
      state: input.state ? (input.state === "OPEN" ? "open" : "closed") : undefined,
      labels: input.labelIds ? labelNamesOf(gql, repo, input.labelIds) : undefined,
      assignees: input.assigneeIds ? loginsOf(gql, input.assigneeIds) : undefined,
      milestone: input.milestoneId === undefined ? undefined : milestoneNumberOf(gql, repo, input.milestoneId),
    });
    return done(input, { issue: reread(gql, target), actor: actorSource(gql, gql.view.actor) });
  },
  closeIssue: (_s: unknown, { input }: { input: Mutation & { issueId: string; stateReason?: string | null } }, gql: Gql) => {
    const target = issueTarget(gql, input.issueId, ["Issue"]);
    const store = gql.store();
    setIssueState(store, target.row, "closed", CLOSE_REASONS[input.stateReason ?? "COMPLETED"] ?? "completed");
    touchIssue(store, target.row.id);
    return done(input, { issue: reread(gql, target) });
  },
  reopenIssue: (_s: unknown, { input }: { input: Mutation & { issueId: string } }, gql: Gql) => {
    const target = issueTarget(gql, input.issueId, ["Issue"]);
    const store = gql.store();
    setIssueState(store, target.row, "open");
    touchIssue(store, target.row.id);
    return done(input, { issue: reread(gql, target) });
  },
  addComment: (_s: unknown, { input }: { input: Mutation & { subjectId: string; body: string } }, gql: Gql) => {
    const target = issueTarget(gql, input.subjectId);
    if (!input.body.trim()) throw invalid("Body can't be blank");
    const row = createComment(gql.store(), target.row, input.body);
    const position = (findIssue(gql.ctx.db, target.repo.id, target.row.number)?.comment_count ?? 1) - 1;
    return done(input, {
      commentEdge: { cursor: cursorAt(position), node: commentSource(target.repo, row) },
      subject: reread(gql, target),
    });
  },
  addLabelsToLabelable: (_s: unknown, { input }: { input: Mutation & { labelableId: string; labelIds: readonly string[] } }, gql: Gql) => {
    const target = issueTarget(gql, input.labelableId);
    const store = gql.store();
    applyLabels(store, target.repo.id, target.row.id, labelNamesOf(gql, target.repo, input.labelIds), false);
    touchIssue(store, target.row.id);
    return done(input, { labelable: reread(gql, target) });
  },
  removeLabelsFromLabelable: (
    _s: unknown,
    { input }: { input: Mutation & { labelableId: string; labelIds: readonly string[] } },
    gql: Gql,
  ) => {
    const target = issueTarget(gql, input.labelableId);
    const store = gql.store();
    const names = labelNamesOf(gql, target.repo, input.labelIds);
    // Removing a label the issue does not carry changes nothing, as on GitHub.
    const carried = new Set(
      gql.ctx.db
        .all<{ name: string }>(
          "SELECT l.name FROM gh_issue_labels il JOIN gh_labels l ON l.id = il.label_id WHERE il.issue_id = ?",
          target.row.id,
        )
        .map((r) => r.name.toLowerCase()),
    );
    for (const name of names) if (carried.has(name.toLowerCase())) removeIssueLabel(store, target.repo.id, target.row.id, name);
    touchIssue(store, target.row.id);
    return done(input, { labelable: reread(gql, target) });
  },
  addAssigneesToAssignable: (
    _s: unknown,
    { input }: { input: Mutation & { assignableId: string; assigneeIds: readonly string[] } },
    gql: Gql,
  ) => {
    const target = issueTarget(gql, input.assignableId);
    const store = gql.store();
    // As the REST route: users who cannot be assigned here are skipped.
    const logins = loginsOf(gql, input.assigneeIds)
      .map((l) => assignable(store.db, target.repo, store.actor, l))
      .filter((l): l is string => !!l);
    const before = issueAssignees(store.db, target.row.id);
    addAssignees(store.db, target.repo.id, target.row.id, logins);
    recordAssigneeChanges(store, target.row, before, issueAssignees(store.db, target.row.id));
    touchIssue(store, target.row.id);
    return done(input, { assignable: reread(gql, target) });
  },
  removeAssigneesFromAssignable: (
    _s: unknown,
    { input }: { input: Mutation & { assignableId: string; assigneeIds: readonly string[] } },
    gql: Gql,
  ) => {
    const target = issueTarget(gql, input.assignableId);
    // Every id must name a user (else NOT_FOUND, nothing written); one not assigned is no change.
    const logins = loginsOf(gql, input.assigneeIds);
    const store = gql.store();
    const before = issueAssignees(store.db, target.row.id);
    const current = new Map(before.map((l) => [l.toLowerCase(), l]));
    removeAssignees(
      store.db,
      target.row.id,
      logins.flatMap((l) => current.get(l.toLowerCase()) ?? []),
    );
    recordAssigneeChanges(store, target.row, before, issueAssignees(store.db, target.row.id));
    touchIssue(store, target.row.id);
    return done(input, { assignable: reread(gql, target) });
  },
};
