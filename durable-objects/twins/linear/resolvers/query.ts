// Linear's root query fields the twin serves. Single-object fields refuse an unknown id with
// Linear's "Entity not found" error; `issue` takes a UUID or an identifier (`ENG-12`), `team` a
// UUID or a key.
import type { Entity, Gql, Row } from "../context";
import { entityNotFound, invalidInput } from "../errors";
import { hasArrived } from "../notifications";
import { parseIdentifier } from "../seed";
import { issueList, listOf, notificationList, orgOf, preloadIssues, type Args, type Resolver } from "./types";

const idArg = (args: Args): string => (typeof args.id === "string" ? args.id : "");

export function findIssue(gql: Gql, ref: string): Row | undefined {
  const cached = gql.cached("Issue", ref);
  if (cached) return cached;
  // Identifiers are always `KEY-number` and ids always UUIDs (the seed and issueCreate hold both to
  // it), so the spelling names the one unique index to read, without an OR over both.
  const identifier = ref.toUpperCase();
  // An identifier the issue had before it moved team still finds it (lin_former_identifiers).
  const row = parseIdentifier(identifier)
    ? (gql.db.one<Row>("SELECT * FROM lin_issues WHERE identifier = ?", identifier) ??
      gql.db.one<Row>("SELECT i.* FROM lin_former_identifiers f JOIN lin_issues i ON i.id = f.issue_id WHERE f.identifier = ?", identifier))
    : cached === null
      ? undefined
      : gql.db.one<Row>("SELECT * FROM lin_issues WHERE id = ?", ref);
  if (row) gql.prime("Issue", [row]);
  return row;
}

export function findTeam(gql: Gql, ref: string): Row | undefined {
  return gql.byId("Team", ref) ?? gql.db.one<Row>("SELECT * FROM lin_teams WHERE key = ?", ref.toUpperCase());
}

export function mustFind(gql: Gql, entity: Entity, id: string, label: string = entity): Row {
  const row = entity === "Issue" ? findIssue(gql, id) : entity === "Team" ? findTeam(gql, id) : gql.byId(entity, id);
  if (!row) throw entityNotFound(label);
  return row;
}

const one =
  (entity: Entity): Resolver =>
  (_src, args, gql) =>
    mustFind(gql, entity, idArg(args));

export const QUERY_RESOLVERS: Record<string, Resolver> = {
  viewer: (_s, _a, gql) => mustFind(gql, "User", gql.viewerId),
  organization: (_s, _a, gql) => orgOf(gql),
  teams: (_s, args, gql) => listOf(gql, "team", "lin_teams", args, [], [], { order: { column: "created_at", direction: "ASC" } }),
  team: one("Team"),
  users: (_s, args, gql) =>
    listOf(gql, "user", "lin_users", args, args.includeDisabled ? [] : ["x.active = 1"], [], {
      order: { column: "created_at", direction: "ASC" },
    }),
  user: one("User"),
  workflowStates: (_s, args, gql) =>
    listOf(gql, "state", "lin_states", args, [], [], { order: { column: "position", direction: "ASC" }, archivable: true }),
  workflowState: one("WorkflowState"),
  issues: (_s, args, gql) => issueList(gql, args),
  issue: (_s, args, gql) => {
    const row = findIssue(gql, idArg(args));
    if (!row) throw entityNotFound("Issue");
    return row;
  },
  issueSearch: (_s, args, gql) => {
    const where: string[] = [];
    const params: string[] = [];
    if (typeof args.query === "string" && args.query.trim()) {
      where.push(
        "(instr(lower(x.title), lower(?)) > 0 OR instr(lower(coalesce(x.description, '')), lower(?)) > 0 OR x.identifier = upper(?))",
      );
      params.push(args.query, args.query, args.query);
    }
    return issueList(gql, args, where, params);
  },
  searchIssues: (_s, args, gql) => {
    const term = typeof args.term === "string" ? args.term : "";
    if (!term.trim()) throw invalidInput("term must not be empty", "Search term must not be empty.");
    const where = [
      "(instr(lower(x.title), lower(?)) > 0 OR instr(lower(coalesce(x.description, '')), lower(?)) > 0 OR x.identifier = upper(?)" +
        (args.includeComments
          ? " OR EXISTS (SELECT 1 FROM lin_comments c WHERE c.issue_id = x.id AND instr(lower(c.body), lower(?)) > 0)"
          : "") +
        ")",
    ];
    const params = args.includeComments ? [term, term, term, term] : [term, term, term];
    if (typeof args.teamId === "string") {
      where.push("x.team_id = ?");
      params.push(mustFind(gql, "Team", args.teamId).id);
    }
    const conn = issueList(gql, args, where, params);
    preloadIssues(gql, conn.nodes);
    return {
      ...conn,
      nodes: conn.nodes.map((n) => ({ ...n, metadata: {} })),
      totalCount: conn.nodes.length,
      archivePayload: { success: true, lastSyncId: 0 },
    };
  },
  issueLabels: (_s, args, gql) => listOf(gql, "label", "lin_labels", args, [], [], { order: { column: "created_at", direction: "ASC" } }),
  issueLabel: one("IssueLabel"),
  comments: (_s, args, gql) => listOf(gql, "comment", "lin_comments", args),
  comment: (_s, args, gql) => {
    if (typeof args.id !== "string") throw invalidInput("Provide the comment's id", "Provide the comment's id.");
    return mustFind(gql, "Comment", args.id);
  },
  projects: (_s, args, gql) => listOf(gql, "project", "lin_projects", args),
  project: (_s, args, gql) => {
    const ref = idArg(args);
    const row = gql.byId("Project", ref) ?? gql.db.one<Row>("SELECT * FROM lin_projects WHERE substr(id, -12) = ?", ref.slice(-12));
    if (!row) throw entityNotFound("Project");
    return row;
  },
  cycles: (_s, args, gql) => listOf(gql, "cycle", "lin_cycles", args, [], [], { archivable: true }),
  cycle: one("Cycle"),
  issueRelations: (_s, args, gql) => listOf(gql, "issue", "lin_relations", { ...args, filter: undefined }),
  issueRelation: one("IssueRelation"),
  attachments: (_s, args, gql) => listOf(gql, "attachment", "lin_attachments", args),
  attachment: one("Attachment"),
  webhooks: (_s, args, gql) => listOf(gql, "issue", "lin_webhooks", { ...args, filter: undefined }),
  webhook: one("Webhook"),
  // The caller's buckets after this very call has been charged (ratelimit.ts).
  rateLimitStatus: (_s, _a, gql) => gql.rateLimitStatus(),
  notifications: (_s, args, gql) => notificationList(gql, args),
  notification: (_s, args, gql) => {
    // Only the viewer's own notifications are visible to the viewer.
    const row = gql.byId("Notification", idArg(args));
    if (!row || row.user_id !== gql.viewerId || !hasArrived(row, gql.clock.now())) throw entityNotFound("Notification");
    return { ...row, __typename: "IssueNotification" };
  },
};
