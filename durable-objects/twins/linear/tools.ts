// MCP tools of the Linear twin: each is one GraphQL operation on /graphql, with Linear's own
// argument names, so a tool call runs through the same executor and lands on the tape under the
// same root field as the GraphQL form. Ids are Linear's (list_teams returns the ids of states,
// labels and members); `issueId` also takes an identifier such as ENG-12, and `teamId` a team key.
import { z } from "zod";
import { tool } from "../kit/tools";
import type { TwinTool } from "../types";

const ISSUE_FIELDS =
  "id identifier title description priority priorityLabel estimate url dueDate createdAt updatedAt completedAt canceledAt archivedAt trashed state { id name type } team { id key } assignee { id email name } labels { nodes { id name } } parent { identifier } project { id name } cycle { id number }";

const issueId = z.string().min(1).describe("The issue's UUID or its identifier, e.g. ENG-12");
const first = z.number().int().min(1).max(250).optional().describe("Page size (default 50, at most 250)");
const after = z.string().optional().describe("pageInfo.endCursor of the previous page");

/** Keeps only the variables that were given, so GraphQL defaults apply to the rest. */
const defined = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

function gqlTool<Shape extends z.ZodRawShape>(spec: {
  name: string;
  description: string;
  input: Shape;
  query: string;
  readOnly?: boolean;
  destructive?: boolean;
  variables(args: z.infer<z.ZodObject<Shape>>): Record<string, unknown>;
}): TwinTool {
  return tool({
    name: spec.name,
    description: spec.description,
    input: spec.input,
    readOnly: spec.readOnly,
    destructive: spec.destructive,
    toRequest: (args) => ({ method: "POST", path: "/graphql", body: { query: spec.query, variables: defined(spec.variables(args)) } }),
  });
}

export const linearTools: readonly TwinTool[] = [
  gqlTool({
    name: "get_viewer",
    description: "Who the credentials act as, and the workspace (organization) they belong to.",
    input: {},
    readOnly: true,
    query: "query { viewer { id name email displayName admin } organization { id name urlKey } }",
    variables: () => ({}),
  }),
  gqlTool({
    name: "list_teams",
    description: "The workspace's teams with their workflow states, labels and members (with the ids other tools take).",
    input: {},
    readOnly: true,
    query:
      "query { teams { nodes { id key name issueEstimationType defaultIssueState { id name } states { nodes { id name type } } labels { nodes { id name } } members { nodes { id name email } } } } issueLabels(filter: { team: { null: true } }) { nodes { id name } } }",
    variables: () => ({}),
  }),
  gqlTool({
    name: "list_users",
    description: "The workspace's people: id, name, email.",
    input: { first, after },
    readOnly: true,
    query:
      "query($first: Int, $after: String) { users(first: $first, after: $after) { nodes { id name email displayName admin active } pageInfo { hasNextPage endCursor } } }",
    variables: (a) => a,
  }),
  gqlTool({
    name: "list_issues",
    description:
      'List issues, newest first, optionally narrowed by a Linear IssueFilter (e.g. {"state":{"type":{"eq":"started"}},"assignee":{"email":{"eq":"bob@acme.test"}}}).',
    input: {
      filter: z.record(z.string(), z.unknown()).optional().describe("A Linear IssueFilter object"),
      includeArchived: z.boolean().optional().describe("Include archived issues"),
      orderBy: z.enum(["createdAt", "updatedAt"]).optional(),
      sort: z
        .array(z.record(z.string(), z.unknown()))
        .optional()
        .describe(
          'Linear IssueSortInput keys in order, e.g. [{"priority":{"order":"Ascending"}},{"dueDate":{"order":"Ascending","nulls":"last"}}]',
        ),
      first,
      after,
      last: z.number().int().min(1).max(250).optional().describe("Page size from the end (with before: the page before it)"),
      before: z.string().optional().describe("pageInfo.startCursor of the following page"),
    },
    readOnly: true,
    query: `query($filter: IssueFilter, $includeArchived: Boolean, $orderBy: PaginationOrderBy, $sort: [IssueSortInput!], $first: Int, $after: String, $last: Int, $before: String) { issues(filter: $filter, includeArchived: $includeArchived, orderBy: $orderBy, sort: $sort, first: $first, after: $after, last: $last, before: $before) { nodes { ${ISSUE_FIELDS} } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }`,
    variables: (a) => a,
  }),
  gqlTool({
    name: "get_issue",
    description: "One issue by UUID or identifier, with its comments (and their replies), relations, sub-issues and attachments.",
    input: { issueId },
    readOnly: true,
    query: `query($id: String!) { issue(id: $id) { ${ISSUE_FIELDS} children { nodes { identifier title } } comments(first: 250) { nodes { id body createdAt user { email } parent { id } } } relations { nodes { id type relatedIssue { identifier } } } inverseRelations { nodes { id type issue { identifier } } } attachments { nodes { id title url } } } }`,
    variables: (a) => ({ id: a.issueId }),
  }),
  gqlTool({
    name: "search_issues",
    description: "Issues whose title, description or identifier matches the text.",
    input: {
      term: z.string().min(1).describe("Text to search for"),
      includeComments: z.boolean().optional().describe("Also search comment bodies"),
      first,
    },
    readOnly: true,
    query:
      "query($term: String!, $includeComments: Boolean, $first: Int) { searchIssues(term: $term, includeComments: $includeComments, first: $first) { nodes { id identifier title state { name } assignee { email } } } }",
    variables: (a) => a,
  }),
  gqlTool({
    name: "create_issue",
    description: "File a new issue in a team. It gets the team's next identifier and, unless stateId is given, the team's default state.",
    input: {
      teamId: z.string().min(1).describe("The team's id or key, e.g. ENG"),
      title: z.string().min(1),
      description: z.string().optional().describe("Markdown"),
      priority: z.number().int().min(0).max(4).optional().describe("0 none, 1 urgent, 2 high, 3 medium, 4 low"),
      estimate: z.number().int().optional().describe("Points on the team's estimation scale"),
      stateId: z.string().optional(),
      assigneeId: z.string().optional().describe("A user id"),
      labelIds: z.array(z.string()).optional(),
      projectId: z.string().optional(),
      cycleId: z.string().optional(),
      parentId: z.string().optional().describe("Parent issue id or identifier, for a sub-issue"),
      dueDate: z.string().optional().describe("YYYY-MM-DD"),
    },
    query: `mutation($input: IssueCreateInput!) { issueCreate(input: $input) { success lastSyncId issue { ${ISSUE_FIELDS} } } }`,
    variables: (a) => ({ input: defined(a) }),
  }),
  gqlTool({
    name: "update_issue",
    description:
      "Change an issue: title, description, state (moving to a completed or canceled state stamps completedAt/canceledAt), assignee (null to unassign), priority, estimate, labels, project, cycle, parent, due date, snooze, delegate, or team (teamId moves it: it gets the new team's next identifier, and the old one still finds it). Only what you pass changes.",
    input: {
      issueId,
      title: z.string().min(1).optional(),
      description: z.string().optional(),
      stateId: z.string().optional(),
      assigneeId: z.string().nullable().optional(),
      priority: z.number().int().min(0).max(4).optional(),
      estimate: z.number().int().nullable().optional(),
      labelIds: z.array(z.string()).optional().describe("The complete new set of label ids"),
      addedLabelIds: z.array(z.string()).optional(),
      removedLabelIds: z.array(z.string()).optional(),
      projectId: z.string().nullable().optional(),
      cycleId: z.string().nullable().optional(),
      parentId: z.string().nullable().optional(),
      dueDate: z.string().nullable().optional(),
      teamId: z.string().optional().describe("Move the issue to this team (id)"),
      snoozedUntilAt: z.string().nullable().optional().describe("ISO date-time to snooze until; null unsnoozes"),
      delegateId: z.string().nullable().optional(),
    },
    query: `mutation($id: String!, $input: IssueUpdateInput!) { issueUpdate(id: $id, input: $input) { success lastSyncId issue { ${ISSUE_FIELDS} } } }`,
    variables: ({ issueId: id, ...input }) => ({ id, input: defined(input) }),
  }),
  gqlTool({
    name: "archive_issue",
    description: "Archive an issue (it leaves lists unless includeArchived); trash: true moves it to the trash.",
    input: { issueId, trash: z.boolean().optional() },
    destructive: true,
    query:
      "mutation($id: String!, $trash: Boolean) { issueArchive(id: $id, trash: $trash) { success lastSyncId entity { identifier archivedAt trashed } } }",
    variables: (a) => ({ id: a.issueId, trash: a.trash }),
  }),
  gqlTool({
    name: "add_issue_label",
    description: "Apply one label (team or workspace) to an issue.",
    input: { issueId, labelId: z.string().min(1) },
    query:
      "mutation($id: String!, $labelId: String!) { issueAddLabel(id: $id, labelId: $labelId) { success issue { identifier labels { nodes { name } } } } }",
    variables: (a) => ({ id: a.issueId, labelId: a.labelId }),
  }),
  gqlTool({
    name: "remove_issue_label",
    description: "Take one label off an issue.",
    input: { issueId, labelId: z.string().min(1) },
    query:
      "mutation($id: String!, $labelId: String!) { issueRemoveLabel(id: $id, labelId: $labelId) { success issue { identifier labels { nodes { name } } } } }",
    variables: (a) => ({ id: a.issueId, labelId: a.labelId }),
  }),
  gqlTool({
    name: "create_comment",
    description: "Comment on an issue; parentId (a comment's id) makes it a threaded reply.",
    input: { issueId, body: z.string().min(1).describe("Markdown"), parentId: z.string().optional() },
    query:
      "mutation($input: CommentCreateInput!) { commentCreate(input: $input) { success lastSyncId comment { id body createdAt parent { id } } } }",
    variables: (a) => ({ input: defined(a) }),
  }),
  gqlTool({
    name: "create_issue_relation",
    description: "Relate two issues: blocks, duplicate, related or similar (issueId blocks / duplicates relatedIssueId).",
    input: { issueId, relatedIssueId: issueId, type: z.enum(["blocks", "duplicate", "related", "similar"]) },
    query:
      "mutation($input: IssueRelationCreateInput!) { issueRelationCreate(input: $input) { success issueRelation { id type issue { identifier } relatedIssue { identifier } } } }",
    variables: (a) => ({ input: a }),
  }),
  gqlTool({
    name: "create_issue_label",
    description: "Create a label, in a team (teamId) or for the whole workspace.",
    input: {
      name: z.string().min(1),
      color: z.string().optional().describe("A hex color, #rrggbb"),
      description: z.string().optional(),
      teamId: z.string().optional(),
    },
    query:
      "mutation($input: IssueLabelCreateInput!) { issueLabelCreate(input: $input) { success issueLabel { id name color team { key } } } }",
    variables: (a) => ({ input: defined(a) }),
  }),
  gqlTool({
    name: "link_url",
    description: "Attach a link to an issue (attaching the same URL again updates its title).",
    input: { issueId, url: z.string().url(), title: z.string().optional() },
    query:
      "mutation($issueId: String!, $url: String!, $title: String) { attachmentLinkURL(issueId: $issueId, url: $url, title: $title) { success attachment { id title url } } }",
    variables: (a) => a,
  }),
  gqlTool({
    name: "list_projects",
    description: "The workspace's projects with their teams and lead.",
    input: { first, after },
    readOnly: true,
    query:
      "query($first: Int, $after: String) { projects(first: $first, after: $after) { nodes { id name description state lead { email } teams { nodes { key } } } pageInfo { hasNextPage endCursor } } }",
    variables: (a) => a,
  }),
  gqlTool({
    name: "list_cycles",
    description: "Cycles of every team: number, dates, team.",
    input: { first, after },
    readOnly: true,
    query:
      "query($first: Int, $after: String) { cycles(first: $first, after: $after) { nodes { id number name startsAt endsAt team { key } } pageInfo { hasNextPage endCursor } } }",
    variables: (a) => a,
  }),
  gqlTool({
    name: "update_comment",
    description: "Replace the body of one of your comments.",
    input: { commentId: z.string().min(1), body: z.string().min(1) },
    query:
      "mutation($id: String!, $input: CommentUpdateInput!) { commentUpdate(id: $id, input: $input) { success comment { id body editedAt } } }",
    variables: (a) => ({ id: a.commentId, input: { body: a.body } }),
  }),
  gqlTool({
    name: "delete_comment",
    description: "Delete a comment (and its replies).",
    input: { commentId: z.string().min(1) },
    destructive: true,
    query: "mutation($id: String!) { commentDelete(id: $id) { success entityId } }",
    variables: (a) => ({ id: a.commentId }),
  }),
  gqlTool({
    name: "delete_issue",
    description: "Move an issue to the trash (admins may pass permanentlyDelete: true).",
    input: { issueId, permanentlyDelete: z.boolean().optional() },
    destructive: true,
    query:
      "mutation($id: String!, $permanentlyDelete: Boolean) { issueDelete(id: $id, permanentlyDelete: $permanentlyDelete) { success entity { identifier trashed } } }",
    variables: (a) => ({ id: a.issueId, permanentlyDelete: a.permanentlyDelete }),
  }),
  gqlTool({
    name: "unarchive_issue",
    description: "Bring an archived or trashed issue back.",
    input: { issueId },
    query: "mutation($id: String!) { issueUnarchive(id: $id) { success entity { identifier archivedAt trashed } } }",
    variables: (a) => ({ id: a.issueId }),
  }),
  gqlTool({
    name: "delete_issue_relation",
    description: "Remove a relation between two issues, by the relation's id (get_issue lists them).",
    input: { relationId: z.string().min(1) },
    destructive: true,
    query: "mutation($id: String!) { issueRelationDelete(id: $id) { success entityId } }",
    variables: (a) => ({ id: a.relationId }),
  }),
  gqlTool({
    name: "create_reaction",
    description: "React with an emoji to an issue or a comment.",
    input: { emoji: z.string().min(1).describe("e.g. +1, eyes, tada"), issueId: issueId.optional(), commentId: z.string().optional() },
    query: "mutation($input: ReactionCreateInput!) { reactionCreate(input: $input) { success reaction { id emoji } } }",
    variables: (a) => ({ input: defined(a) }),
  }),
  gqlTool({
    name: "subscribe_to_issue",
    description: "Subscribe yourself (or the user with userId) to an issue's updates.",
    input: { issueId, userId: z.string().optional() },
    query:
      "mutation($id: String!, $userId: String) { issueSubscribe(id: $id, userId: $userId) { success issue { identifier subscribers { nodes { email } } } } }",
    variables: (a) => ({ id: a.issueId, userId: a.userId }),
  }),
  gqlTool({
    name: "create_project",
    description: "Create a project for one or more teams.",
    input: {
      name: z.string().min(1),
      teamIds: z.array(z.string()).min(1).describe("Team ids or keys"),
      description: z.string().optional(),
      leadId: z.string().optional(),
    },
    query:
      "mutation($input: ProjectCreateInput!) { projectCreate(input: $input) { success project { id name state teams { nodes { key } } } } }",
    variables: (a) => ({ input: defined(a) }),
  }),
  gqlTool({
    name: "update_project",
    description: "Rename a project, change its description, lead or teams.",
    input: {
      projectId: z.string().min(1),
      name: z.string().min(1).optional(),
      description: z.string().optional(),
      leadId: z.string().optional(),
      teamIds: z.array(z.string()).optional(),
    },
    query:
      "mutation($id: String!, $input: ProjectUpdateInput!) { projectUpdate(id: $id, input: $input) { success project { id name description lead { email } } } }",
    variables: ({ projectId, ...input }) => ({ id: projectId, input: defined(input) }),
  }),
  gqlTool({
    name: "create_cycle",
    description: "Add a cycle to a team (it gets the team's next cycle number; cycles may not overlap).",
    input: {
      teamId: z.string().min(1),
      startsAt: z.string().describe("ISO date-time"),
      endsAt: z.string().describe("ISO date-time"),
      name: z.string().optional(),
    },
    query: "mutation($input: CycleCreateInput!) { cycleCreate(input: $input) { success cycle { id number startsAt endsAt } } }",
    variables: (a) => ({ input: defined(a) }),
  }),
  gqlTool({
    name: "create_workflow_state",
    description: "Add a workflow state to a team.",
    input: {
      teamId: z.string().min(1),
      name: z.string().min(1),
      type: z.enum(["triage", "backlog", "unstarted", "started", "completed", "canceled"]),
      color: z.string().describe("A hex color, #rrggbb"),
      position: z.number().optional(),
    },
    query:
      "mutation($input: WorkflowStateCreateInput!) { workflowStateCreate(input: $input) { success workflowState { id name type position } } }",
    variables: (a) => ({ input: defined(a) }),
  }),
  gqlTool({
    name: "get_team",
    description: "One team by id or key (e.g. ENG), with its states, labels, members and cycles.",
    input: { teamId: z.string().min(1).describe("The team's id or key, e.g. ENG") },
    readOnly: true,
    query:
      "query($id: String!) { team(id: $id) { id key name description issueEstimationType defaultIssueState { id name } states { nodes { id name type } } labels { nodes { id name } } members { nodes { id name email } } cycles { nodes { id number startsAt endsAt } } } }",
    variables: (a) => ({ id: a.teamId }),
  }),
  gqlTool({
    name: "get_user",
    description: "One person by id, with the issues assigned to them.",
    input: { userId: z.string().min(1) },
    readOnly: true,
    query:
      "query($id: String!) { user(id: $id) { id name email displayName admin active assignedIssues { nodes { identifier title state { name } } } } }",
    variables: (a) => ({ id: a.userId }),
  }),
  gqlTool({
    name: "list_workflow_states",
    description: "Workflow states of every team (or those a Linear WorkflowStateFilter keeps), in position order.",
    input: { filter: z.record(z.string(), z.unknown()).optional().describe("A Linear WorkflowStateFilter object"), first, after },
    readOnly: true,
    query:
      "query($filter: WorkflowStateFilter, $first: Int, $after: String) { workflowStates(filter: $filter, first: $first, after: $after) { nodes { id name type color position team { key } } pageInfo { hasNextPage endCursor } } }",
    variables: (a) => a,
  }),
  gqlTool({
    name: "get_workflow_state",
    description: "One workflow state by id, with its team.",
    input: { stateId: z.string().min(1) },
    readOnly: true,
    query: "query($id: String!) { workflowState(id: $id) { id name type color position description team { id key } } }",
    variables: (a) => ({ id: a.stateId }),
  }),
  gqlTool({
    name: "get_issue_label",
    description: "One label by id, with its team (none for a workspace label).",
    input: { labelId: z.string().min(1) },
    readOnly: true,
    query: "query($id: String!) { issueLabel(id: $id) { id name color description team { key } } }",
    variables: (a) => ({ id: a.labelId }),
  }),
  gqlTool({
    name: "update_issue_label",
    description: "Rename a label or change its color or description.",
    input: {
      labelId: z.string().min(1),
      name: z.string().min(1).optional(),
      color: z.string().optional().describe("A hex color, #rrggbb"),
      description: z.string().optional(),
    },
    query:
      "mutation($id: String!, $input: IssueLabelUpdateInput!) { issueLabelUpdate(id: $id, input: $input) { success lastSyncId issueLabel { id name color description } } }",
    variables: ({ labelId, ...input }) => ({ id: labelId, input: defined(input) }),
  }),
  gqlTool({
    name: "list_comments",
    description: "Comments across issues, newest first, optionally narrowed by a Linear CommentFilter.",
    input: { filter: z.record(z.string(), z.unknown()).optional().describe("A Linear CommentFilter object"), first, after },
    readOnly: true,
    query:
      "query($filter: CommentFilter, $first: Int, $after: String) { comments(filter: $filter, first: $first, after: $after) { nodes { id body createdAt user { email } issue { identifier } parent { id } } pageInfo { hasNextPage endCursor } } }",
    variables: (a) => a,
  }),
  gqlTool({
    name: "get_comment",
    description: "One comment by id, with its issue, author and replies.",
    input: { commentId: z.string().min(1) },
    readOnly: true,
    query:
      "query($id: String) { comment(id: $id) { id body createdAt editedAt user { email } issue { identifier } parent { id } children { nodes { id body user { email } } } } }",
    variables: (a) => ({ id: a.commentId }),
  }),
  gqlTool({
    name: "get_project",
    description: "One project by id, with its teams, lead and issues.",
    input: { projectId: z.string().min(1) },
    readOnly: true,
    query:
      "query($id: String!) { project(id: $id) { id name description state url lead { email } teams { nodes { key } } issues { nodes { identifier title } } } }",
    variables: (a) => ({ id: a.projectId }),
  }),
  gqlTool({
    name: "get_cycle",
    description: "One cycle by id, with its team and issues.",
    input: { cycleId: z.string().min(1) },
    readOnly: true,
    query:
      "query($id: String!) { cycle(id: $id) { id number name startsAt endsAt isActive team { key } issues { nodes { identifier title } } } }",
    variables: (a) => ({ id: a.cycleId }),
  }),
  gqlTool({
    name: "list_issue_relations",
    description: "Relations between issues across the workspace (blocks, duplicate, related, similar).",
    input: { first, after },
    readOnly: true,
    query:
      "query($first: Int, $after: String) { issueRelations(first: $first, after: $after) { nodes { id type issue { identifier } relatedIssue { identifier } } pageInfo { hasNextPage endCursor } } }",
    variables: (a) => a,
  }),
  gqlTool({
    name: "get_issue_relation",
    description: "One relation between two issues, by the relation's id.",
    input: { relationId: z.string().min(1) },
    readOnly: true,
    query: "query($id: String!) { issueRelation(id: $id) { id type issue { identifier } relatedIssue { identifier } } }",
    variables: (a) => ({ id: a.relationId }),
  }),
  gqlTool({
    name: "list_attachments",
    description: "Attachments (links) across issues, newest first, optionally narrowed by a Linear AttachmentFilter.",
    input: { filter: z.record(z.string(), z.unknown()).optional().describe("A Linear AttachmentFilter object"), first, after },
    readOnly: true,
    query:
      "query($filter: AttachmentFilter, $first: Int, $after: String) { attachments(filter: $filter, first: $first, after: $after) { nodes { id title subtitle url issue { identifier } } pageInfo { hasNextPage endCursor } } }",
    variables: (a) => a,
  }),
  gqlTool({
    name: "get_attachment",
    description: "One attachment by id, with its issue.",
    input: { attachmentId: z.string().min(1) },
    readOnly: true,
    query: "query($id: String!) { attachment(id: $id) { id title subtitle url creator { email } issue { identifier } } }",
    variables: (a) => ({ id: a.attachmentId }),
  }),
  gqlTool({
    name: "create_attachment",
    description: "Attach a titled link to an issue (attaching the same URL again updates it).",
    input: { issueId, url: z.string().url(), title: z.string().min(1), subtitle: z.string().optional() },
    query:
      "mutation($input: AttachmentCreateInput!) { attachmentCreate(input: $input) { success lastSyncId attachment { id title subtitle url } } }",
    variables: (a) => ({ input: defined(a) }),
  }),
  gqlTool({
    name: "unsubscribe_from_issue",
    description: "Stop following an issue's updates (yourself, or the user with userId).",
    input: { issueId, userId: z.string().optional() },
    query:
      "mutation($id: String!, $userId: String) { issueUnsubscribe(id: $id, userId: $userId) { success issue { identifier subscribers { nodes { email } } } } }",
    variables: (a) => ({ id: a.issueId, userId: a.userId }),
  }),
  gqlTool({
    name: "list_webhooks",
    description: "The workspace's webhooks: URL, resource types, team, enabled.",
    input: { first, after },
    readOnly: true,
    query:
      "query($first: Int, $after: String) { webhooks(first: $first, after: $after) { nodes { id url label enabled resourceTypes allPublicTeams team { key } } pageInfo { hasNextPage endCursor } } }",
    variables: (a) => a,
  }),
  gqlTool({
    name: "get_webhook",
    description: "One webhook by id.",
    input: { webhookId: z.string().min(1) },
    readOnly: true,
    query: "query($id: String!) { webhook(id: $id) { id url label enabled resourceTypes allPublicTeams team { key } } }",
    variables: (a) => ({ id: a.webhookId }),
  }),
  gqlTool({
    name: "create_webhook",
    description: "Register a URL to receive signed Issue and Comment events, for one team (teamId) or all public teams.",
    input: {
      url: z.string().url(),
      resourceTypes: z.array(z.enum(["Issue", "Comment"])).min(1),
      teamId: z.string().optional().describe("The team's id or key"),
      allPublicTeams: z.boolean().optional(),
      label: z.string().optional(),
      secret: z.string().optional().describe("The signing secret (one is made if omitted)"),
      enabled: z.boolean().optional(),
    },
    query:
      "mutation($input: WebhookCreateInput!) { webhookCreate(input: $input) { success lastSyncId webhook { id url enabled resourceTypes team { key } } } }",
    variables: (a) => ({ input: defined(a) }),
  }),
  gqlTool({
    name: "update_webhook",
    description: "Change a webhook's URL, resource types, label, secret or enabled flag.",
    input: {
      webhookId: z.string().min(1),
      url: z.string().url().optional(),
      resourceTypes: z
        .array(z.enum(["Issue", "Comment"]))
        .min(1)
        .optional(),
      label: z.string().optional(),
      secret: z.string().optional(),
      enabled: z.boolean().optional(),
    },
    query:
      "mutation($id: String!, $input: WebhookUpdateInput!) { webhookUpdate(id: $id, input: $input) { success lastSyncId webhook { id url enabled resourceTypes } } }",
    variables: ({ webhookId, ...input }) => ({ id: webhookId, input: defined(input) }),
  }),
  gqlTool({
    name: "delete_webhook",
    description: "Remove a webhook; it receives nothing more.",
    input: { webhookId: z.string().min(1) },
    destructive: true,
    query: "mutation($id: String!) { webhookDelete(id: $id) { success entityId } }",
    variables: (a) => ({ id: a.webhookId }),
  }),
  gqlTool({
    name: "list_notifications",
    description: "Your inbox, newest first: issues assigned to you, mentions of you, comments where you follow.",
    input: { filter: z.record(z.string(), z.unknown()).optional().describe("A Linear NotificationFilter object"), first, after },
    readOnly: true,
    query:
      "query($filter: NotificationFilter, $first: Int, $after: String) { notifications(filter: $filter, first: $first, after: $after) { nodes { id type category createdAt readAt actor { email } ... on IssueNotification { issue { identifier title } comment { id body } } } pageInfo { hasNextPage endCursor } } }",
    variables: (a) => a,
  }),
  gqlTool({
    name: "get_notification",
    description: "One of your notifications by id.",
    input: { notificationId: z.string().min(1) },
    readOnly: true,
    query:
      "query($id: String!) { notification(id: $id) { id type category createdAt readAt actor { email } ... on IssueNotification { issue { identifier title } comment { id body } } } }",
    variables: (a) => ({ id: a.notificationId }),
  }),
  gqlTool({
    name: "get_rate_limit_status",
    description: "The caller's rate-limit buckets (requests and query complexity): allowed, remaining, and when each is full again.",
    input: {},
    readOnly: true,
    query: "query { rateLimitStatus { identifier kind limits { type allowedAmount remainingAmount requestedAmount period reset } } }",
    variables: () => ({}),
  }),
  gqlTool({
    name: "update_cycle",
    description: "Change a cycle's name, description, dates (cycles of a team may not overlap) or completion time.",
    input: {
      cycleId: z.string().min(1),
      name: z.string().optional(),
      description: z.string().optional(),
      startsAt: z.string().optional().describe("ISO date-time"),
      endsAt: z.string().optional().describe("ISO date-time"),
      completedAt: z.string().nullable().optional().describe("ISO date-time"),
    },
    query:
      "mutation($id: String!, $input: CycleUpdateInput!) { cycleUpdate(id: $id, input: $input) { success cycle { id number name description startsAt endsAt completedAt } } }",
    variables: ({ cycleId, ...input }) => ({ id: cycleId, input: defined(input) }),
  }),
  gqlTool({
    name: "archive_cycle",
    description: "Archive a cycle (it leaves cycle lists unless includeArchived).",
    input: { cycleId: z.string().min(1) },
    destructive: true,
    query: "mutation($id: String!) { cycleArchive(id: $id) { success entity { id number archivedAt } } }",
    variables: ({ cycleId }) => ({ id: cycleId }),
  }),
  gqlTool({
    name: "create_issues",
    description: "Create several issues in one call (at most 50), in order; if one is refused, none is created.",
    input: {
      issues: z
        .array(
          z.object({
            teamId: z.string().min(1),
            title: z.string().min(1),
            description: z.string().optional(),
            stateId: z.string().optional(),
            assigneeId: z.string().optional(),
            priority: z.number().int().min(0).max(4).optional(),
            labelIds: z.array(z.string()).optional(),
            projectId: z.string().optional(),
            cycleId: z.string().optional(),
            parentId: z.string().optional(),
          }),
        )
        .min(1)
        .max(50),
    },
    query: `mutation($input: IssueBatchCreateInput!) { issueBatchCreate(input: $input) { success lastSyncId issues { ${ISSUE_FIELDS} } } }`,
    variables: ({ issues }) => ({ input: { issues } }),
  }),
  gqlTool({
    name: "get_issue_history",
    description: "An issue's history: who changed its state, assignee, team, labels, title, priority and more, oldest first.",
    input: { issueId, first, after },
    readOnly: true,
    query:
      "query($id: String!, $first: Int, $after: String) { issue(id: $id) { identifier history(first: $first, after: $after) { nodes { id createdAt actor { email } fromState { name } toState { name } fromAssignee { email } toAssignee { email } fromTeam { key } toTeam { key } addedLabelIds removedLabelIds fromTitle toTitle fromPriority toPriority updatedDescription archived trashed } pageInfo { hasNextPage endCursor } } } }",
    variables: ({ issueId: id, first: f, after: a }) => ({ id, first: f, after: a }),
  }),
];

/**
 * Root fields the twin serves that no tool sends, with the reason; every other served root field
 * is some tool's (test/workers/linear/tools.test.ts checks both directions).
 */
export const LINEAR_UNTOOLED_FIELDS: Readonly<Record<string, string>> = {
  issueSearch: "deprecated by Linear in favour of searchIssues, which search_issues sends",
};

export const LINEAR_UNTOOLED: Readonly<Record<string, string>> = {
  "oauth.authorize": "a browser redirect step of an app's OAuth flow, not an agent action",
  "oauth.token": "an app's server-side token exchange, not an agent action",
  "oauth.revoke": "an app's server-side token revocation, not an agent action",
};
