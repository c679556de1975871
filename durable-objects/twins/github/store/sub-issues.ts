// Sub-issues: an issue's children in their priority order, and each child's one parent. The rules
// are GitHub's (docs.github.com "Adding sub-issues"; @octokit/openapi issues/add-sub-issue): a
// sub-issue is an issue (not a pull request) of a repository with the same owner as its parent's,
// has one parent at most ("Sub issue may only have one parent" unless `replace_parent`), a parent
// holds at most 100 sub-issues, and nesting goes at most eight levels deep.
import type { Db } from "../../types";
import { fail, ghError, ghNotFound, ghValidationFailed } from "../errors";
import { findRepoById } from "../repos";
import type { IssueRow } from "./rows";

export const MAX_SUB_ISSUES = 100;
export const MAX_DEPTH = 8;

interface LinkRow {
  child_id: number;
  parent_id: number;
  repo_id: number;
  position: number;
}

const refuse = (message: string) => fail(ghValidationFailed([{ resource: "Issue", code: "custom", field: "sub_issue_id", message }]));

export const parentLink = (db: Db, childId: number) => db.one<LinkRow>("SELECT * FROM gh_sub_issues WHERE child_id = ?", childId);

export const findIssueById = (db: Db, id: number) => db.one<IssueRow>("SELECT * FROM gh_issues WHERE id = ?", id);

/** Whether the sandbox holds any sub-issue at all (issue answers carry the summary only then). */
export const anySubIssues = (db: Db) => !!db.one("SELECT 1 AS x FROM gh_sub_issues LIMIT 1");

/** A page of an issue's sub-issues, in priority order. */
export function subIssuesOf(db: Db, parentId: number, limit: number, offset: number): IssueRow[] {
  return db.all<IssueRow>(
    `SELECT i.* FROM gh_sub_issues s JOIN gh_issues i ON i.id = s.child_id
     WHERE s.parent_id = ? ORDER BY s.position, s.child_id LIMIT ? OFFSET ?`,
    parentId,
    limit,
    offset,
  );
}

/** `sub_issues_summary`: how many sub-issues, how many closed, and the percentage closed (rounded down). */
export function subIssuesSummary(db: Db, parentId: number) {
  const row = db.one<{ total: number; completed: number | null }>(
    `SELECT count(*) AS total, sum(i.state = 'closed') AS completed FROM gh_sub_issues s JOIN gh_issues i ON i.id = s.child_id
     WHERE s.parent_id = ?`,
    parentId,
  );
  const total = row?.total ?? 0;
  const completed = row?.completed ?? 0;
  return { total, completed, percent_completed: total ? Math.floor((completed * 100) / total) : 0 };
}

/** How many levels sit above `issueId` (0 for an issue without a parent). */
function depthAbove(db: Db, issueId: number): number {
  let depth = 0;
  for (let at = parentLink(db, issueId); at && depth <= MAX_DEPTH + 1; at = parentLink(db, at.parent_id)) depth++;
  return depth;
}

/** How many levels sit below `issueId` (0 for an issue without sub-issues). */
function depthBelow(db: Db, issueId: number, budget = MAX_DEPTH + 1): number {
  if (budget <= 0) return 0;
  const children = db.all<{ child_id: number }>("SELECT child_id FROM gh_sub_issues WHERE parent_id = ?", issueId);
  let deepest = 0;
  for (const c of children) deepest = Math.max(deepest, 1 + depthBelow(db, c.child_id, budget - 1));
  return deepest;
}

function isAncestor(db: Db, candidate: number, of: number): boolean {
  for (let at = parentLink(db, of), hops = 0; at && hops <= MAX_DEPTH + 1; at = parentLink(db, at.parent_id), hops++)
    if (at.parent_id === candidate) return true;
  return false;
}

const ownerOf = (db: Db, repoId: number) => findRepoById(db, repoId)?.owner.toLowerCase();

/** Checks GitHub's rules for making `child` a sub-issue of `parent`; refuses in GitHub's 422 shape. */
function checkLink(db: Db, parent: IssueRow, child: IssueRow, replaceParent: boolean): void {
  if (child.is_pull) refuse("Sub-issue must be an issue, not a pull request");
  if (child.id === parent.id) refuse("An issue cannot be its own sub-issue");
  if (ownerOf(db, child.repo_id) !== ownerOf(db, parent.repo_id))
    refuse("Sub-issue must belong to a repository with the same owner as the parent issue");
  const current = parentLink(db, child.id);
  if (current && (!replaceParent || current.parent_id === parent.id)) refuse("Sub issue may only have one parent");
  if (isAncestor(db, child.id, parent.id)) refuse("An issue cannot be a sub-issue of its own sub-issue");
  const count = db.one<{ n: number }>("SELECT count(*) AS n FROM gh_sub_issues WHERE parent_id = ?", parent.id)?.n ?? 0;
  if (count >= MAX_SUB_ISSUES) refuse(`Parent issue cannot have more than ${MAX_SUB_ISSUES} sub-issues`);
  if (depthAbove(db, parent.id) + 1 + depthBelow(db, child.id) > MAX_DEPTH)
    refuse(`Sub-issues cannot be nested more than ${MAX_DEPTH} levels deep`);
}

/** Makes the issue with id `childId` the last sub-issue of `parent` (moving it when `replaceParent`). */
export function addSubIssue(db: Db, parent: IssueRow, childId: number, replaceParent: boolean): IssueRow {
  const child = findIssueById(db, childId) ?? fail(ghValidationFailed([{ resource: "Issue", code: "invalid", field: "sub_issue_id" }]));
  checkLink(db, parent, child, replaceParent);
  db.run("DELETE FROM gh_sub_issues WHERE child_id = ?", child.id);
  const last = db.one<{ p: number | null }>("SELECT max(position) AS p FROM gh_sub_issues WHERE parent_id = ?", parent.id)?.p ?? -1;
  db.run(
    "INSERT INTO gh_sub_issues (child_id, parent_id, repo_id, position) VALUES (?, ?, ?, ?)",
    child.id,
    parent.id,
    child.repo_id,
    last + 1,
  );
  return child;
}

/** Removes a sub-issue from `parent`; one that is not its sub-issue is GitHub's 404. */
export function removeSubIssue(db: Db, parent: IssueRow, childId: number): void {
  const link = parentLink(db, childId);
  if (link?.parent_id !== parent.id) fail(ghNotFound());
  db.run("DELETE FROM gh_sub_issues WHERE child_id = ?", childId);
}

/** The reprioritize endpoint's 422: its description gives `errors` as plain strings (validation-error-simple). */
const simpleRefusal = (message: string) => ghError(422, "Validation Failed", { errors: [message] });

/**
 * Moves a sub-issue right after `afterId` or right before `beforeId` (both sub-issues of the same
 * parent), then renumbers the list. Exactly one of the two must be given.
 */
export function reprioritize(db: Db, parent: IssueRow, childId: number, to: { afterId?: number; beforeId?: number }): void {
  const order = db
    .all<{ child_id: number }>("SELECT child_id FROM gh_sub_issues WHERE parent_id = ? ORDER BY position, child_id", parent.id)
    .map((r) => r.child_id);
  const given = (to.afterId === undefined) === (to.beforeId === undefined) ? undefined : (to.afterId ?? to.beforeId);
  const anchor = given ?? fail(simpleRefusal("Either after_id or before_id must be specified"));
  if (!order.includes(childId)) fail(ghNotFound());
  if (!order.includes(anchor) || anchor === childId)
    fail(simpleRefusal(`${to.afterId !== undefined ? "after_id" : "before_id"} must name another sub-issue of this issue`));
  const rest = order.filter((id) => id !== childId);
  const at = rest.indexOf(anchor) + (to.afterId !== undefined ? 1 : 0);
  rest.splice(at, 0, childId);
  rest.forEach((id, i) => db.run("UPDATE gh_sub_issues SET position = ? WHERE child_id = ?", i, id));
}
