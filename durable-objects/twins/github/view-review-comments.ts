// A review comment on the wire: @octokit/openapi's `pull-request-review-comment`.
import type { RepoRow } from "./repos";
import { nextNodeId, type View } from "./serialize";
import type { ReviewCommentRow } from "./store/review-comments";

export function reviewCommentObject(v: View, r: RepoRow, c: ReviewCommentRow) {
  const url = v.repoApi(r, `/pulls/comments/${c.id}`);
  const html = v.repoHtml(r, `/pull/${c.pull_number}#discussion_r${c.id}`);
  const pullUrl = v.repoApi(r, `/pulls/${c.pull_number}`);
  return {
    url,
    pull_request_review_id: c.review_id,
    id: c.id,
    node_id: nextNodeId("PRRC", r.id, c.id),
    diff_hunk: c.diff_hunk,
    path: c.path,
    position: c.position,
    original_position: c.position,
    commit_id: c.commit_id,
    original_commit_id: c.commit_id,
    ...(c.in_reply_to_id !== null ? { in_reply_to_id: c.in_reply_to_id } : {}),
    user: v.user(c.user),
    body: c.body,
    created_at: c.created_at,
    updated_at: c.updated_at,
    html_url: html,
    pull_request_url: pullUrl,
    author_association: v.authorAssociation(r, c.user),
    _links: { self: { href: url }, html: { href: html }, pull_request: { href: pullUrl } },
    reactions: v.reactions(`${url}/reactions`, "review_comment", c.id),
    start_line: c.start_line,
    original_start_line: c.start_line,
    start_side: c.start_side,
    line: c.line,
    original_line: c.line,
    side: c.side,
    subject_type: c.subject_type,
  };
}
