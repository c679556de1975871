// Comment threads resolved and reopened. Linear's schema: commentResolve "Resolves a comment
// thread. Marks the root comment as resolved by the current user", optionally naming the reply
// that resolves it (which must be in the thread); commentUnresolve "Clears the resolved state on
// the root comment". Naming a reply resolves its thread's root. Each sends the Comment webhook's
// update, with what changed in `updatedFrom`.
import type { Gql, Row } from "../context";
import { entityNotFound, invalidInput } from "../errors";
import { commentWebhooks } from "../webhooks";
import { iso, reload, syncId } from "./mutation";
import { mustFind } from "./query";
import { str, type Args, type Resolver } from "./types";

/** The thread's root: the comment itself, or the comment a reply answers. */
function rootOf(gql: Gql, id: unknown): Row {
  const c = mustFind(gql, "Comment", String(id));
  return gql.byId("Comment", str(c.parent_id)) ?? c;
}

function resolve(gql: Gql, args: Args) {
  const root = rootOf(gql, args.id);
  let resolving: string | null = null;
  if (typeof args.resolvingCommentId === "string") {
    const reply = gql.byId("Comment", args.resolvingCommentId);
    if (!reply) throw entityNotFound("Comment");
    if (reply.parent_id !== root.id)
      throw invalidInput("The resolving comment must be a reply in the thread", "The resolving comment must be a reply in this thread.");
    resolving = reply.id;
  }
  const now = iso(gql);
  gql.db.run(
    "UPDATE lin_comments SET resolved_at = ?, resolving_user_id = ?, resolving_comment_id = ?, updated_at = ? WHERE id = ?",
    now,
    gql.viewerId,
    resolving,
    now,
    root.id,
  );
  return answer(gql, root);
}

function unresolve(gql: Gql, args: Args) {
  const root = rootOf(gql, args.id);
  if (root.resolved_at !== null)
    gql.db.run(
      "UPDATE lin_comments SET resolved_at = NULL, resolving_user_id = NULL, resolving_comment_id = NULL, updated_at = ? WHERE id = ?",
      iso(gql),
      root.id,
    );
  return answer(gql, root);
}

function answer(gql: Gql, before: Row) {
  const comment = reload(gql, "Comment", before.id);
  if (comment.updated_at !== before.updated_at)
    commentWebhooks(gql, "update", comment, mustFind(gql, "Issue", String(comment.issue_id)), before);
  return { success: true, lastSyncId: syncId(gql), comment };
}

export const COMMENT_THREAD_MUTATIONS: Record<string, Resolver> = {
  commentResolve: (_s, a, g) => resolve(g, a),
  commentUnresolve: (_s, a, g) => unresolve(g, a),
};

/** The Comment fields of resolution. */
export const COMMENT_RESOLUTION_FIELDS: Record<string, Resolver> = {
  resolvedAt: (r) => r.resolved_at ?? null,
  resolvingUser: (r, _a, gql) => gql.byId("User", str(r.resolving_user_id)) ?? null,
  resolvingCommentId: (r) => r.resolving_comment_id ?? null,
  resolvingComment: (r, _a, gql) => gql.byId("Comment", str(r.resolving_comment_id)) ?? null,
};
