// Issue-side shapes: labels, milestones, issues (with the `pull_request` key on pull requests)
// and comments. A list page preloads its labels and assignees in one query each.
import type { RepoRow } from "./repos";
import { nodeId, type View } from "./serialize";
import { issueExtras, type IssueExtras } from "./store/issue-extras";
import { findMilestone, milestoneCounts } from "./store/milestones";
import { anySubIssues, findIssueById, parentLink, subIssuesSummary } from "./store/sub-issues";
import type { CommentRow, IssueRow, LabelRow, MilestoneRow } from "./store/rows";

export function labelObject(v: View, r: RepoRow, l: LabelRow) {
  return {
    id: l.id,
    node_id: nodeId("Label", l.id),
    url: v.repoApi(r, `/labels/${encodeURIComponent(l.name)}`),
    name: l.name,
    color: l.color,
    default: false,
    description: l.description,
  };
}

export function milestoneObject(v: View, r: RepoRow, m: MilestoneRow) {
  const counts = milestoneCounts(v.ctx.db, r.id, m.number);
  return {
    url: v.repoApi(r, `/milestones/${m.number}`),
    html_url: v.repoHtml(r, `/milestone/${m.number}`),
    labels_url: v.repoApi(r, `/milestones/${m.number}/labels`),
    id: m.id,
    node_id: nodeId("Milestone", m.id),
    number: m.number,
    title: m.title,
    description: m.description,
    creator: v.maybeUser(m.creator ?? r.owner),
    open_issues: counts.open,
    closed_issues: counts.closed,
    state: m.state,
    created_at: m.created_at,
    updated_at: m.updated_at,
    due_on: m.due_on,
    closed_at: m.closed_at,
  };
}

/** An issue's milestone, serialized once per call however many issues of the page share it. */
export function milestoneFor(v: View, r: RepoRow, number: number | null) {
  if (number === null) return null;
  return v.memo(`milestone:${r.id}:${number}`, () => {
    const m = findMilestone(v.ctx.db, r.id, number);
    return m ? milestoneObject(v, r, m) : null;
  });
}

/** Labels and assignees of the issues about to be serialized, fetched once for the page. */
export const loadExtras = (v: View, rows: readonly IssueRow[]): IssueExtras =>
  issueExtras(
    v.ctx.db,
    rows.map((r) => r.id),
  );

export function issueObject(v: View, r: RepoRow, row: IssueRow, extras?: IssueExtras, opts: { single?: boolean } = {}) {
  const x = extras ?? loadExtras(v, [row]);
  if (!extras) v.preloadUsers([row.user, r.owner, ...(x.assignees.get(row.id) ?? []), opts.single ? row.closed_by : null]);
  const url = v.repoApi(r, `/issues/${row.number}`);
  const assignees = (x.assignees.get(row.id) ?? []).map((a) => v.user(a));
  const milestone = milestoneFor(v, r, row.milestone);
  const kind = row.is_pull ? "pull" : "issues";
  return {
    url,
    repository_url: v.repoApi(r),
    labels_url: `${url}/labels{/name}`,
    comments_url: `${url}/comments`,
    events_url: `${url}/events`,
    html_url: v.repoHtml(r, `/${kind}/${row.number}`),
    id: row.id,
    node_id: nodeId(row.is_pull ? "PullRequest" : "Issue", row.id),
    number: row.number,
    title: row.title,
    user: v.user(row.user),
    labels: (x.labels.get(row.id) ?? []).map((l) => labelObject(v, r, l)),
    state: row.state,
    locked: row.locked === 1,
    assignee: assignees[0] ?? null,
    assignees,
    milestone,
    comments: row.comment_count,
    created_at: row.created_at,
    updated_at: row.updated_at,
    closed_at: row.closed_at,
    author_association: v.authorAssociation(r, row.user),
    type: null,
    active_lock_reason: row.active_lock_reason,
    ...(row.is_pull
      ? {
          draft: row.draft === 1,
          pull_request: {
            url: v.repoApi(r, `/pulls/${row.number}`),
            html_url: v.repoHtml(r, `/pull/${row.number}`),
            diff_url: v.repoHtml(r, `/pull/${row.number}.diff`),
            patch_url: v.repoHtml(r, `/pull/${row.number}.patch`),
            merged_at: row.merged_at,
          },
        }
      : {}),
    body: row.body,
    // GitHub names who closed an issue only when the issue itself is asked for.
    ...(opts.single ? { closed_by: v.maybeUser(row.closed_by) } : {}),
    reactions: v.reactions(`${url}/reactions`, "issue", row.id),
    timeline_url: `${url}/timeline`,
    performed_via_github_app: null,
    state_reason: row.state_reason,
    ...subIssueFields(v, row),
  };
}

/**
 * `sub_issues_summary` and `parent_issue_url`, sent once the sandbox holds any sub-issue (checked
 * once per call), so a world without them pays nothing on its issue lists.
 */
function subIssueFields(v: View, row: IssueRow) {
  if (row.is_pull || !v.memo("sub-issues:any", () => anySubIssues(v.ctx.db))) return {};
  const link = parentLink(v.ctx.db, row.id);
  const parent = link ? findIssueById(v.ctx.db, link.parent_id) : undefined;
  const parentRepo = parent ? v.repoRow(parent.repo_id) : undefined;
  return {
    sub_issues_summary: subIssuesSummary(v.ctx.db, row.id),
    parent_issue_url: parent && parentRepo ? v.repoApi(parentRepo, `/issues/${parent.number}`) : null,
  };
}

export function issueList(v: View, r: RepoRow, rows: readonly IssueRow[]) {
  const extras = loadExtras(v, rows);
  return rows.map((row) => issueObject(v, r, row, extras));
}

export function commentObject(v: View, r: RepoRow, c: CommentRow, isPull: boolean) {
  const url = v.repoApi(r, `/issues/comments/${c.id}`);
  return {
    url,
    html_url: v.repoHtml(r, `/${isPull ? "pull" : "issues"}/${c.issue_number}#issuecomment-${c.id}`),
    issue_url: v.repoApi(r, `/issues/${c.issue_number}`),
    id: c.id,
    node_id: nodeId("IssueComment", c.id),
    user: v.user(c.user),
    created_at: c.created_at,
    updated_at: c.updated_at,
    author_association: v.authorAssociation(r, c.user),
    body: c.body,
    reactions: v.reactions(`${url}/reactions`, "comment", c.id),
    performed_via_github_app: null,
  };
}
