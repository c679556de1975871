// MCP tools of the Linear twin: each is one GraphQL operation on /graphql, so a tool call runs
// through the same executor and lands on the tape under the same root field as the GraphQL form.
// A tool is only its name, description and document: its arguments are the document's variables,
// typed, required and described from the twin's schema (kit/graphql-tools.ts). Where a tool takes
// the fields of an input object as its own arguments, the document spells the object out of
// variables (`input: { title: $title }`); a variable not sent leaves its field out. Ids are
// Linear's (list_teams returns the ids of states, labels and members); `issueId` also takes an
// identifier such as ENG-12, and `teamId` a team key.
import { z } from "zod";
import { graphqlTools } from "../kit/graphql-tools";
import type { TwinTool } from "../types";
import { linearSchema } from "./schema";
import { WORKSPACE_TOOL_SPECS } from "./tools-workspace";

const ISSUE_FIELDS =
  "id identifier title description priority priorityLabel estimate url dueDate createdAt updatedAt completedAt canceledAt archivedAt trashed state { id name type } team { id key } assignee { id email name } labels { nodes { id name } } parent { identifier } project { id name } cycle { id number }";

/** What an argument means where Linear's schema (published without descriptions) does not say; a tool's own note wins. */
const ARGUMENT_NOTES: Readonly<Record<string, string>> = {
  issueId: "The issue's UUID or its identifier, e.g. ENG-12",
  teamId: "The team's id or key, e.g. ENG",
  first: "Page size (default 50, at most 250)",
  after: "pageInfo.endCursor of the previous page",
  last: "Page size from the end (with before: the page before it)",
  before: "pageInfo.startCursor of the following page",
  includeArchived: "Include archived issues",
  description: "Markdown",
  body: "Markdown",
  priority: "0 none, 1 urgent, 2 high, 3 medium, 4 low",
  estimate: "Points on the team's estimation scale",
  assigneeId: "A user id",
  parentId: "Parent issue id or identifier, for a sub-issue",
  dueDate: "YYYY-MM-DD",
  startsAt: "ISO date-time",
  endsAt: "ISO date-time",
  completedAt: "ISO date-time",
  color: "A hex color, #rrggbb",
};

/** Linear's own scalars, as a tool sends them. */
const LINEAR_SCALARS: Readonly<Record<string, z.ZodType>> = {
  DateTime: z.string(),
  TimelessDate: z.string(),
  TimelessDateOrDuration: z.string(),
  DateTimeOrDuration: z.string(),
  JSONObject: z.record(z.string(), z.unknown()),
  // A template's data: an object, or the same JSON-encoded as text.
  JSON: z.union([z.record(z.string(), z.unknown()), z.string()]),
};

const PAGE = "pageInfo { hasNextPage endCursor }";

export const linearTools: readonly TwinTool[] = graphqlTools(
  { path: "/graphql", schema: linearSchema, scalars: LINEAR_SCALARS, notes: ARGUMENT_NOTES },
  [
    {
      name: "get_viewer",
      description: "Who the credentials act as, and the workspace (organization) they belong to.",
      document: "query { viewer { id name email displayName admin } organization { id name urlKey } }",
    },
    {
      name: "list_teams",
      description: "The workspace's teams with their workflow states, labels and members (with the ids other tools take).",
      document:
        "query { teams { nodes { id key name issueEstimationType defaultIssueState { id name } states { nodes { id name type } } labels { nodes { id name } } members { nodes { id name email } } } } issueLabels(filter: { team: { null: true } }) { nodes { id name } } }",
    },
    {
      name: "list_users",
      description: "The workspace's people: id, name, email.",
      document: `query($first: Int, $after: String) { users(first: $first, after: $after) { nodes { id name email displayName admin active } ${PAGE} } }`,
    },
    {
      name: "list_issues",
      description:
        'List issues, newest first, optionally narrowed by a Linear IssueFilter (e.g. {"state":{"type":{"eq":"started"}},"assignee":{"email":{"eq":"bob@acme.test"}}}).',
      notes: {
        sort: 'Linear IssueSortInput keys in order, e.g. [{"priority":{"order":"Ascending"}},{"dueDate":{"order":"Ascending","nulls":"last"}}]',
      },
      document: `query($filter: IssueFilter, $includeArchived: Boolean, $orderBy: PaginationOrderBy, $sort: [IssueSortInput!], $first: Int, $after: String, $last: Int, $before: String) { issues(filter: $filter, includeArchived: $includeArchived, orderBy: $orderBy, sort: $sort, first: $first, after: $after, last: $last, before: $before) { nodes { ${ISSUE_FIELDS} } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } } }`,
    },
    {
      name: "get_issue",
      description: "One issue by UUID or identifier, with its comments (and their replies), relations, sub-issues and attachments.",
      document: `query($issueId: String!) { issue(id: $issueId) { ${ISSUE_FIELDS} children { nodes { identifier title } } comments(first: 250) { nodes { id body createdAt user { email } parent { id } } } relations { nodes { id type relatedIssue { identifier } } } inverseRelations { nodes { id type issue { identifier } } } attachments { nodes { id title url } } } }`,
    },
    {
      name: "search_issues",
      description: "Issues whose title, description or identifier matches the text.",
      notes: { term: "Text to search for", includeComments: "Also search comment bodies" },
      document:
        "query($term: String!, $includeComments: Boolean, $first: Int) { searchIssues(term: $term, includeComments: $includeComments, first: $first) { nodes { id identifier title state { name } assignee { email } } } }",
    },
    {
      name: "create_issue",
      description:
        "File a new issue in a team. It gets the team's next identifier and, unless stateId is given, the team's default state. templateId applies an issue template's fields under the ones given.",
      document: `mutation($teamId: String!, $title: String!, $description: String, $priority: Int, $estimate: Int, $stateId: String, $assigneeId: String, $labelIds: [String!], $projectId: String, $cycleId: String, $parentId: String, $dueDate: TimelessDate, $templateId: String) {
  issueCreate(input: { teamId: $teamId, title: $title, description: $description, priority: $priority, estimate: $estimate, stateId: $stateId, assigneeId: $assigneeId, labelIds: $labelIds, projectId: $projectId, cycleId: $cycleId, parentId: $parentId, dueDate: $dueDate, templateId: $templateId }) { success lastSyncId issue { ${ISSUE_FIELDS} } }
}`,
    },
    {
      name: "update_issue",
      description:
        "Change an issue: title, description, state (moving to a completed or canceled state stamps completedAt/canceledAt), assignee (null to unassign), priority, estimate, labels, project, cycle, parent, due date, snooze, delegate, or team (teamId moves it: it gets the new team's next identifier, and the old one still finds it). Only what you pass changes.",
      notes: {
        labelIds: "The complete new set of label ids",
        teamId: "Move the issue to this team (id)",
        snoozedUntilAt: "ISO date-time to snooze until; null unsnoozes",
        description: "Markdown",
      },
      document: `mutation($issueId: String!, $title: String, $description: String, $stateId: String, $assigneeId: String, $priority: Int, $estimate: Int, $labelIds: [String!], $addedLabelIds: [String!], $removedLabelIds: [String!], $projectId: String, $cycleId: String, $parentId: String, $dueDate: TimelessDate, $teamId: String, $snoozedUntilAt: DateTime, $delegateId: String) {
  issueUpdate(id: $issueId, input: { title: $title, description: $description, stateId: $stateId, assigneeId: $assigneeId, priority: $priority, estimate: $estimate, labelIds: $labelIds, addedLabelIds: $addedLabelIds, removedLabelIds: $removedLabelIds, projectId: $projectId, cycleId: $cycleId, parentId: $parentId, dueDate: $dueDate, teamId: $teamId, snoozedUntilAt: $snoozedUntilAt, delegateId: $delegateId }) { success lastSyncId issue { ${ISSUE_FIELDS} } }
}`,
    },
    {
      name: "archive_issue",
      description: "Archive an issue (it leaves lists unless includeArchived); trash: true moves it to the trash.",
      destructive: true,
      document:
        "mutation($issueId: String!, $trash: Boolean) { issueArchive(id: $issueId, trash: $trash) { success lastSyncId entity { identifier archivedAt trashed } } }",
    },
    {
      name: "add_issue_label",
      description: "Apply one label (team or workspace) to an issue.",
      document:
        "mutation($issueId: String!, $labelId: String!) { issueAddLabel(id: $issueId, labelId: $labelId) { success issue { identifier labels { nodes { name } } } } }",
    },
    {
      name: "remove_issue_label",
      description: "Take one label off an issue.",
      document:
        "mutation($issueId: String!, $labelId: String!) { issueRemoveLabel(id: $issueId, labelId: $labelId) { success issue { identifier labels { nodes { name } } } } }",
    },
    {
      name: "create_comment",
      description: "Comment on an issue; parentId (a comment's id) makes it a threaded reply.",
      notes: { parentId: "A comment's id: the new comment replies to it" },
      document:
        "mutation($issueId: String!, $body: String!, $parentId: String) { commentCreate(input: { issueId: $issueId, body: $body, parentId: $parentId }) { success lastSyncId comment { id body createdAt parent { id } } } }",
    },
    {
      name: "create_issue_relation",
      description: "Relate two issues: blocks, duplicate, related or similar (issueId blocks / duplicates relatedIssueId).",
      notes: { relatedIssueId: "The other issue's UUID or its identifier, e.g. ENG-12" },
      document:
        "mutation($issueId: String!, $relatedIssueId: String!, $type: IssueRelationType!) { issueRelationCreate(input: { issueId: $issueId, relatedIssueId: $relatedIssueId, type: $type }) { success issueRelation { id type issue { identifier } relatedIssue { identifier } } } }",
    },
    {
      name: "create_issue_label",
      description: "Create a label, in a team (teamId) or for the whole workspace.",
      notes: { description: "Plain text" },
      document:
        "mutation($name: String!, $color: String, $description: String, $teamId: String) { issueLabelCreate(input: { name: $name, color: $color, description: $description, teamId: $teamId }) { success issueLabel { id name color team { key } } } }",
    },
    {
      name: "link_url",
      description: "Attach a link to an issue (attaching the same URL again updates its title).",
      document:
        "mutation($issueId: String!, $url: String!, $title: String) { attachmentLinkURL(issueId: $issueId, url: $url, title: $title) { success attachment { id title url } } }",
    },
    {
      name: "list_projects",
      description: "The workspace's projects with their teams and lead.",
      document: `query($first: Int, $after: String) { projects(first: $first, after: $after) { nodes { id name description state lead { email } teams { nodes { key } } } ${PAGE} } }`,
    },
    {
      name: "list_cycles",
      description: "Cycles of every team: number, dates, team.",
      document: `query($first: Int, $after: String) { cycles(first: $first, after: $after) { nodes { id number name startsAt endsAt team { key } } ${PAGE} } }`,
    },
    {
      name: "update_comment",
      description: "Replace the body of one of your comments.",
      document:
        "mutation($commentId: String!, $body: String!) { commentUpdate(id: $commentId, input: { body: $body }) { success comment { id body editedAt } } }",
    },
    {
      name: "delete_comment",
      description: "Delete a comment (and its replies).",
      destructive: true,
      document: "mutation($commentId: String!) { commentDelete(id: $commentId) { success entityId } }",
    },
    {
      name: "delete_issue",
      description: "Move an issue to the trash (admins may pass permanentlyDelete: true).",
      destructive: true,
      document:
        "mutation($issueId: String!, $permanentlyDelete: Boolean) { issueDelete(id: $issueId, permanentlyDelete: $permanentlyDelete) { success entity { identifier trashed } } }",
    },
    {
      name: "unarchive_issue",
      description: "Bring an archived or trashed issue back.",
      document: "mutation($issueId: String!) { issueUnarchive(id: $issueId) { success entity { identifier archivedAt trashed } } }",
    },
    {
      name: "delete_issue_relation",
      description: "Remove a relation between two issues, by the relation's id (get_issue lists them).",
      destructive: true,
      document: "mutation($relationId: String!) { issueRelationDelete(id: $relationId) { success entityId } }",
    },
    {
      name: "create_reaction",
      description: "React with an emoji to an issue or a comment.",
      notes: { emoji: "e.g. +1, eyes, tada" },
      document:
        "mutation($emoji: String!, $issueId: String, $commentId: String) { reactionCreate(input: { emoji: $emoji, issueId: $issueId, commentId: $commentId }) { success reaction { id emoji } } }",
    },
    {
      name: "subscribe_to_issue",
      description: "Subscribe yourself (or the user with userId) to an issue's updates.",
      document:
        "mutation($issueId: String!, $userId: String) { issueSubscribe(id: $issueId, userId: $userId) { success issue { identifier subscribers { nodes { email } } } } }",
    },
    {
      name: "create_project",
      description: "Create a project for one or more teams.",
      notes: { teamIds: "Team ids or keys" },
      document:
        "mutation($name: String!, $teamIds: [String!]!, $description: String, $leadId: String) { projectCreate(input: { name: $name, teamIds: $teamIds, description: $description, leadId: $leadId }) { success project { id name state teams { nodes { key } } } } }",
    },
    {
      name: "update_project",
      description: "Rename a project, change its description, lead or teams.",
      document:
        "mutation($projectId: String!, $name: String, $description: String, $leadId: String, $teamIds: [String!]) { projectUpdate(id: $projectId, input: { name: $name, description: $description, leadId: $leadId, teamIds: $teamIds }) { success project { id name description lead { email } } } }",
    },
    {
      name: "create_cycle",
      description: "Add a cycle to a team (it gets the team's next cycle number; cycles may not overlap).",
      document:
        "mutation($teamId: String!, $startsAt: DateTime!, $endsAt: DateTime!, $name: String) { cycleCreate(input: { teamId: $teamId, startsAt: $startsAt, endsAt: $endsAt, name: $name }) { success cycle { id number startsAt endsAt } } }",
    },
    {
      name: "create_workflow_state",
      description: "Add a workflow state to a team.",
      notes: { type: "One of backlog, unstarted, started, completed, canceled" },
      document:
        "mutation($teamId: String!, $name: String!, $type: String!, $color: String!, $position: Float) { workflowStateCreate(input: { teamId: $teamId, name: $name, type: $type, color: $color, position: $position }) { success workflowState { id name type position } } }",
    },
    {
      name: "get_team",
      description: "One team by id or key (e.g. ENG), with its states, labels, members and cycles.",
      document:
        "query($teamId: String!) { team(id: $teamId) { id key name description issueEstimationType defaultIssueState { id name } states { nodes { id name type } } labels { nodes { id name } } members { nodes { id name email } } cycles { nodes { id number startsAt endsAt } } } }",
    },
    {
      name: "get_user",
      description: "One person by id, with the issues assigned to them.",
      document:
        "query($userId: String!) { user(id: $userId) { id name email displayName admin active assignedIssues { nodes { identifier title state { name } } } } }",
    },
    {
      name: "list_workflow_states",
      description: "Workflow states of every team (or those a Linear WorkflowStateFilter keeps), in position order.",
      document: `query($filter: WorkflowStateFilter, $first: Int, $after: String) { workflowStates(filter: $filter, first: $first, after: $after) { nodes { id name type color position team { key } } ${PAGE} } }`,
    },
    {
      name: "get_workflow_state",
      description: "One workflow state by id, with its team.",
      document: "query($stateId: String!) { workflowState(id: $stateId) { id name type color position description team { id key } } }",
    },
    {
      name: "get_issue_label",
      description: "One label by id, with its team (none for a workspace label).",
      document: "query($labelId: String!) { issueLabel(id: $labelId) { id name color description team { key } } }",
    },
    {
      name: "update_issue_label",
      description: "Rename a label or change its color or description.",
      notes: { description: "Plain text" },
      document:
        "mutation($labelId: String!, $name: String, $color: String, $description: String) { issueLabelUpdate(id: $labelId, input: { name: $name, color: $color, description: $description }) { success lastSyncId issueLabel { id name color description } } }",
    },
    {
      name: "list_comments",
      description: "Comments across issues, newest first, optionally narrowed by a Linear CommentFilter.",
      document: `query($filter: CommentFilter, $first: Int, $after: String) { comments(filter: $filter, first: $first, after: $after) { nodes { id body createdAt user { email } issue { identifier } parent { id } } ${PAGE} } }`,
    },
    {
      name: "get_comment",
      description: "One comment by id, with its issue, author and replies.",
      document:
        "query($commentId: String!) { comment(id: $commentId) { id body createdAt editedAt user { email } issue { identifier } parent { id } children { nodes { id body user { email } } } } }",
    },
    {
      name: "get_project",
      description: "One project by id, with its teams, lead and issues.",
      document:
        "query($projectId: String!) { project(id: $projectId) { id name description state url lead { email } teams { nodes { key } } issues { nodes { identifier title } } } }",
    },
    {
      name: "get_cycle",
      description: "One cycle by id, with its team and issues.",
      document:
        "query($cycleId: String!) { cycle(id: $cycleId) { id number name startsAt endsAt isActive team { key } issues { nodes { identifier title } } } }",
    },
    {
      name: "list_issue_relations",
      description: "Relations between issues across the workspace (blocks, duplicate, related, similar).",
      document: `query($first: Int, $after: String) { issueRelations(first: $first, after: $after) { nodes { id type issue { identifier } relatedIssue { identifier } } ${PAGE} } }`,
    },
    {
      name: "get_issue_relation",
      description: "One relation between two issues, by the relation's id.",
      document:
        "query($relationId: String!) { issueRelation(id: $relationId) { id type issue { identifier } relatedIssue { identifier } } }",
    },
    {
      name: "list_attachments",
      description: "Attachments (links) across issues, newest first, optionally narrowed by a Linear AttachmentFilter.",
      document: `query($filter: AttachmentFilter, $first: Int, $after: String) { attachments(filter: $filter, first: $first, after: $after) { nodes { id title subtitle url issue { identifier } } ${PAGE} } }`,
    },
    {
      name: "get_attachment",
      description: "One attachment by id, with its issue.",
      document:
        "query($attachmentId: String!) { attachment(id: $attachmentId) { id title subtitle url creator { email } issue { identifier } } }",
    },
    {
      name: "create_attachment",
      description: "Attach a titled link to an issue (attaching the same URL again updates it).",
      document:
        "mutation($issueId: String!, $url: String!, $title: String!, $subtitle: String) { attachmentCreate(input: { issueId: $issueId, url: $url, title: $title, subtitle: $subtitle }) { success lastSyncId attachment { id title subtitle url } } }",
    },
    {
      name: "unsubscribe_from_issue",
      description: "Stop following an issue's updates (yourself, or the user with userId).",
      document:
        "mutation($issueId: String!, $userId: String) { issueUnsubscribe(id: $issueId, userId: $userId) { success issue { identifier subscribers { nodes { email } } } } }",
    },
    {
      name: "list_webhooks",
      description: "The workspace's webhooks: URL, resource types, team, enabled.",
      document: `query($first: Int, $after: String) { webhooks(first: $first, after: $after) { nodes { id url label enabled resourceTypes allPublicTeams team { key } } ${PAGE} } }`,
    },
    {
      name: "get_webhook",
      description: "One webhook by id.",
      document: "query($webhookId: String!) { webhook(id: $webhookId) { id url label enabled resourceTypes allPublicTeams team { key } } }",
    },
    {
      name: "create_webhook",
      description: "Register a URL to receive signed Issue and Comment events, for one team (teamId) or all public teams.",
      notes: { resourceTypes: "Issue and/or Comment", secret: "The signing secret (one is made if omitted)" },
      document:
        "mutation($url: String!, $resourceTypes: [String!]!, $teamId: String, $allPublicTeams: Boolean, $label: String, $secret: String, $enabled: Boolean) { webhookCreate(input: { url: $url, resourceTypes: $resourceTypes, teamId: $teamId, allPublicTeams: $allPublicTeams, label: $label, secret: $secret, enabled: $enabled }) { success lastSyncId webhook { id url enabled resourceTypes team { key } } } }",
    },
    {
      name: "update_webhook",
      description: "Change a webhook's URL, resource types, label, secret or enabled flag.",
      notes: { resourceTypes: "Issue and/or Comment" },
      document:
        "mutation($webhookId: String!, $url: String, $resourceTypes: [String!], $label: String, $secret: String, $enabled: Boolean) { webhookUpdate(id: $webhookId, input: { url: $url, resourceTypes: $resourceTypes, label: $label, secret: $secret, enabled: $enabled }) { success lastSyncId webhook { id url enabled resourceTypes } } }",
    },
    {
      name: "delete_webhook",
      description: "Remove a webhook; it receives nothing more.",
      destructive: true,
      document: "mutation($webhookId: String!) { webhookDelete(id: $webhookId) { success entityId } }",
    },
    {
      name: "list_notifications",
      description: "Your inbox, newest first: issues assigned to you, mentions of you, comments where you follow.",
      document: `query($filter: NotificationFilter, $first: Int, $after: String) { notifications(filter: $filter, first: $first, after: $after) { nodes { id type category createdAt readAt actor { email } ... on IssueNotification { issue { identifier title } comment { id body } } } ${PAGE} } }`,
    },
    {
      name: "get_notification",
      description: "One of your notifications by id.",
      document:
        "query($notificationId: String!) { notification(id: $notificationId) { id type category createdAt readAt actor { email } ... on IssueNotification { issue { identifier title } comment { id body } } } }",
    },
    {
      name: "get_rate_limit_status",
      description: "The caller's rate-limit buckets (requests and query complexity): allowed, remaining, and when each is full again.",
      document: "query { rateLimitStatus { identifier kind limits { type allowedAmount remainingAmount requestedAmount period reset } } }",
    },
    {
      name: "update_cycle",
      description: "Change a cycle's name, description, dates (cycles of a team may not overlap) or completion time.",
      notes: { description: "Plain text" },
      document:
        "mutation($cycleId: String!, $name: String, $description: String, $startsAt: DateTime, $endsAt: DateTime, $completedAt: DateTime) { cycleUpdate(id: $cycleId, input: { name: $name, description: $description, startsAt: $startsAt, endsAt: $endsAt, completedAt: $completedAt }) { success cycle { id number name description startsAt endsAt completedAt } } }",
    },
    {
      name: "archive_cycle",
      description: "Archive a cycle (it leaves cycle lists unless includeArchived).",
      destructive: true,
      document: "mutation($cycleId: String!) { cycleArchive(id: $cycleId) { success entity { id number archivedAt } } }",
    },
    {
      name: "create_issues",
      description: "Create several issues in one call (at most 50), in order; if one is refused, none is created.",
      notes: { issues: "The issues, each as create_issue takes one (teamId and title at least)" },
      document: `mutation($issues: [IssueCreateInput!]!) { issueBatchCreate(input: { issues: $issues }) { success lastSyncId issues { ${ISSUE_FIELDS} } } }`,
    },
    {
      name: "get_issue_history",
      description: "An issue's history: who changed its state, assignee, team, labels, title, priority and more, oldest first.",
      document: `query($issueId: String!, $first: Int, $after: String) { issue(id: $issueId) { identifier history(first: $first, after: $after) { nodes { id createdAt actor { email } fromState { name } toState { name } fromAssignee { email } toAssignee { email } fromTeam { key } toTeam { key } addedLabelIds removedLabelIds fromTitle toTitle fromPriority toPriority updatedDescription archived trashed } ${PAGE} } } }`,
    },
    {
      name: "list_documents",
      description: "Documents (markdown pages), newest first, optionally narrowed by a Linear DocumentFilter (title, creator, project…).",
      document: `query($filter: DocumentFilter, $first: Int, $after: String, $includeArchived: Boolean) { documents(filter: $filter, first: $first, after: $after, includeArchived: $includeArchived) { nodes { id title slugId url updatedAt creator { email } project { id name } } ${PAGE} } }`,
    },
    {
      name: "get_document",
      description: "One document by id or slugId, with its markdown content.",
      document:
        "query($documentId: String!) { document(id: $documentId) { id title content icon color slugId url trashed createdAt updatedAt creator { email } project { id name } } }",
    },
    {
      name: "create_document",
      description: "Create a document (markdown content), optionally in a project.",
      notes: { content: "Markdown", projectId: "The project's id" },
      document:
        "mutation($title: String!, $content: String, $projectId: String, $icon: String, $color: String) { documentCreate(input: { title: $title, content: $content, projectId: $projectId, icon: $icon, color: $color }) { success lastSyncId document { id title content icon color slugId url trashed createdAt updatedAt creator { email } project { id name } } } }",
    },
    {
      name: "update_document",
      description: "Change a document's title, markdown content, icon, color or project.",
      notes: { content: "Markdown", projectId: "The project's id" },
      document:
        "mutation($documentId: String!, $title: String, $content: String, $projectId: String, $icon: String, $color: String) { documentUpdate(id: $documentId, input: { title: $title, content: $content, projectId: $projectId, icon: $icon, color: $color }) { success lastSyncId document { id title content icon color slugId url trashed createdAt updatedAt creator { email } project { id name } } } }",
    },
    {
      name: "delete_document",
      description: "Move a document to the trash (restore it with restore_document).",
      destructive: true,
      document:
        "mutation($documentId: String!) { documentDelete(id: $documentId) { success lastSyncId entity { id trashed archivedAt } } }",
    },
    {
      name: "restore_document",
      description: "Restore a trashed document.",
      document:
        "mutation($documentId: String!) { documentUnarchive(id: $documentId) { success lastSyncId entity { id trashed archivedAt } } }",
    },
    {
      name: "list_project_milestones",
      description: "Project milestones by sort order, optionally narrowed by a Linear ProjectMilestoneFilter (e.g. project).",
      document: `query($filter: ProjectMilestoneFilter, $first: Int, $after: String) { projectMilestones(filter: $filter, first: $first, after: $after) { nodes { id name description targetDate sortOrder progress status project { id name } } ${PAGE} } }`,
    },
    {
      name: "get_project_milestone",
      description: "One project milestone, with its issues.",
      document:
        "query($milestoneId: String!) { projectMilestone(id: $milestoneId) { id name description targetDate sortOrder progress status project { id name } issues { nodes { identifier title state { name } } } } }",
    },
    {
      name: "create_project_milestone",
      description: "Add a milestone to a project (put issues in it with update_issue's projectMilestoneId).",
      notes: { targetDate: "YYYY-MM-DD", projectId: "The project's id" },
      document:
        "mutation($projectId: String!, $name: String!, $description: String, $targetDate: TimelessDate, $sortOrder: Float) { projectMilestoneCreate(input: { projectId: $projectId, name: $name, description: $description, targetDate: $targetDate, sortOrder: $sortOrder }) { success lastSyncId projectMilestone { id name description targetDate sortOrder progress status project { id name } } } }",
    },
    {
      name: "update_project_milestone",
      description: "Rename a milestone or change its description, target date or order.",
      notes: { targetDate: "YYYY-MM-DD" },
      document:
        "mutation($milestoneId: String!, $name: String, $description: String, $targetDate: TimelessDate, $sortOrder: Float) { projectMilestoneUpdate(id: $milestoneId, input: { name: $name, description: $description, targetDate: $targetDate, sortOrder: $sortOrder }) { success lastSyncId projectMilestone { id name description targetDate sortOrder progress status project { id name } } } }",
    },
    {
      name: "delete_project_milestone",
      description: "Delete a milestone; its issues stay in the project.",
      destructive: true,
      document: "mutation($milestoneId: String!) { projectMilestoneDelete(id: $milestoneId) { success lastSyncId entityId } }",
    },
    {
      name: "list_project_updates",
      description: "Project updates (status posts with a health), newest first, optionally narrowed by a Linear ProjectUpdateFilter.",
      document: `query($filter: ProjectUpdateFilter, $first: Int, $after: String) { projectUpdates(filter: $filter, first: $first, after: $after) { nodes { id body health createdAt editedAt url user { email } project { id name } } ${PAGE} } }`,
    },
    {
      name: "get_project_update",
      description: "One project update.",
      document:
        "query($projectUpdateId: String!) { projectUpdate(id: $projectUpdateId) { id body health createdAt editedAt url user { email } project { id name } } }",
    },
    {
      name: "create_project_update",
      description: "Post a project update with a health (onTrack, atRisk, offTrack).",
      notes: { projectId: "The project's id" },
      document:
        "mutation($projectId: String!, $body: String, $health: ProjectUpdateHealthType) { projectUpdateCreate(input: { projectId: $projectId, body: $body, health: $health }) { success lastSyncId projectUpdate { id body health createdAt editedAt url user { email } project { id name } } } }",
    },
    {
      name: "update_project_update",
      description: "Edit a project update's body or health.",
      document:
        "mutation($projectUpdateId: String!, $body: String, $health: ProjectUpdateHealthType) { projectUpdateUpdate(id: $projectUpdateId, input: { body: $body, health: $health }) { success lastSyncId projectUpdate { id body health createdAt editedAt url user { email } project { id name } } } }",
    },
    {
      name: "delete_project_update",
      description: "Delete a project update.",
      destructive: true,
      document: "mutation($projectUpdateId: String!) { projectUpdateDelete(id: $projectUpdateId) { success lastSyncId entityId } }",
    },
    {
      name: "archive_project_update",
      description: "Archive a project update (it leaves lists unless includeArchived).",
      document:
        "mutation($projectUpdateId: String!) { projectUpdateArchive(id: $projectUpdateId) { success lastSyncId entity { id archivedAt } } }",
    },
    {
      name: "unarchive_project_update",
      description: "Restore an archived project update.",
      document:
        "mutation($projectUpdateId: String!) { projectUpdateUnarchive(id: $projectUpdateId) { success lastSyncId entity { id archivedAt } } }",
    },
    {
      name: "resolve_comment_thread",
      description: "Mark a comment thread resolved (by its root or any reply), optionally naming the reply that resolved it.",
      notes: { resolvingCommentId: "A reply in the thread" },
      document:
        "mutation($commentId: String!, $resolvingCommentId: String) { commentResolve(id: $commentId, resolvingCommentId: $resolvingCommentId) { success lastSyncId comment { id resolvedAt resolvingUser { email } resolvingComment { id body } } } }",
    },
    {
      name: "unresolve_comment_thread",
      description: "Reopen a resolved comment thread.",
      document: "mutation($commentId: String!) { commentUnresolve(id: $commentId) { success lastSyncId comment { id resolvedAt } } }",
    },
    {
      name: "update_notification",
      description: "Mark one of your notifications read (readAt) or unread (readAt null), or snooze it until a time.",
      notes: { readAt: "ISO date-time, or null for unread", snoozedUntilAt: "ISO date-time" },
      document:
        "mutation($notificationId: String!, $readAt: DateTime, $snoozedUntilAt: DateTime) { notificationUpdate(id: $notificationId, input: { readAt: $readAt, snoozedUntilAt: $snoozedUntilAt }) { success lastSyncId notification { id type readAt snoozedUntilAt archivedAt } } }",
    },
    {
      name: "mark_notifications_read",
      description: "Mark a notification and the others about the same issue read (or all of an issue's, by issueId).",
      notes: { id: "A notification id", readAt: "ISO date-time" },
      document:
        "mutation($id: String, $issueId: String, $readAt: DateTime!) { notificationMarkReadAll(input: { id: $id, issueId: $issueId }, readAt: $readAt) { success lastSyncId notifications { id type readAt snoozedUntilAt archivedAt } } }",
    },
    {
      name: "mark_notifications_unread",
      description: "Mark a notification and the others about the same issue unread (or all of an issue's, by issueId).",
      notes: { id: "A notification id" },
      document:
        "mutation($id: String, $issueId: String) { notificationMarkUnreadAll(input: { id: $id, issueId: $issueId }) { success lastSyncId notifications { id type readAt snoozedUntilAt archivedAt } } }",
    },
    {
      name: "archive_notifications",
      description: "Archive a notification and the others about the same issue (or all of an issue's, by issueId).",
      notes: { id: "A notification id" },
      document:
        "mutation($id: String, $issueId: String) { notificationArchiveAll(input: { id: $id, issueId: $issueId }) { success lastSyncId notifications { id type readAt snoozedUntilAt archivedAt } } }",
    },
    {
      name: "archive_notification",
      description: "Archive one notification (it leaves the inbox unless includeArchived).",
      document:
        "mutation($notificationId: String!) { notificationArchive(id: $notificationId) { success lastSyncId entity { id type readAt snoozedUntilAt archivedAt } } }",
    },
    {
      name: "unarchive_notification",
      description: "Bring an archived notification back to the inbox.",
      document:
        "mutation($notificationId: String!) { notificationUnarchive(id: $notificationId) { success lastSyncId entity { id type readAt snoozedUntilAt archivedAt } } }",
    },
    {
      name: "delete_issue_label",
      description: "Delete a label; it leaves every issue it was on.",
      destructive: true,
      document: "mutation($labelId: String!) { issueLabelDelete(id: $labelId) { success lastSyncId entityId } }",
    },
    {
      name: "update_workflow_state",
      description: "Rename a workflow state or change its color, description or position.",
      notes: { description: "Plain text" },
      document:
        "mutation($stateId: String!, $name: String, $color: String, $description: String, $position: Float) { workflowStateUpdate(id: $stateId, input: { name: $name, color: $color, description: $description, position: $position }) { success lastSyncId workflowState { id name type color position } } }",
    },
    {
      name: "archive_workflow_state",
      description: "Archive a workflow state that no issue is in and that is not its team's default.",
      destructive: true,
      document: "mutation($stateId: String!) { workflowStateArchive(id: $stateId) { success lastSyncId entity { id name archivedAt } } }",
    },
    {
      name: "create_team",
      description:
        "Create a team with the default workflow (Backlog, Todo, In Progress, Done, Canceled); you become its first member. Without a key, one is made from the name.",
      notes: { key: "Letters and digits, starting with a letter, at most 7; prefixes the team's issue identifiers" },
      document:
        "mutation($name: String!, $key: String, $description: String, $issueEstimationType: String) { teamCreate(input: { name: $name, key: $key, description: $description, issueEstimationType: $issueEstimationType }) { success lastSyncId team { id key name description issueEstimationType defaultIssueState { id name } } } }",
    },
    {
      name: "update_team",
      description:
        "Rename a team, change its key (its issues' identifiers follow; the old ones still find them), description, estimation type or default state.",
      document:
        "mutation($teamId: String!, $name: String, $key: String, $description: String, $issueEstimationType: String, $defaultIssueStateId: String) { teamUpdate(id: $teamId, input: { name: $name, key: $key, description: $description, issueEstimationType: $issueEstimationType, defaultIssueStateId: $defaultIssueStateId }) { success lastSyncId team { id key name description issueEstimationType defaultIssueState { id name } } } }",
    },
    {
      name: "list_favorites",
      description:
        "Your favorites (the sidebar): issues, projects, cycles, labels, documents, custom views, initiatives and folders, in sidebar order.",
      document: `query($first: Int, $after: String) { favorites(first: $first, after: $after) { nodes { id type url folderName sortOrder parent { id } issue { identifier } project { id name } cycle { id number } label { id name } document { id title } customView { id name } initiative { id name } } ${PAGE} } }`,
    },
    {
      name: "get_favorite",
      description: "One of your favorites by id, with the favorites in it when it is a folder.",
      document:
        "query($id: String!) { favorite(id: $id) { id type url folderName sortOrder parent { id } children { nodes { id type folderName } } } }",
    },
    {
      name: "create_favorite",
      description:
        "Favorite exactly one issue (id or identifier), project, cycle, label, document, custom view or initiative, or make a folder with folderName; parentId puts it in one of your folders.",
      document:
        "mutation($issueId: String, $projectId: String, $cycleId: String, $labelId: String, $documentId: String, $customViewId: String, $initiativeId: String, $folderName: String, $parentId: String, $sortOrder: Float) { favoriteCreate(input: { issueId: $issueId, projectId: $projectId, cycleId: $cycleId, labelId: $labelId, documentId: $documentId, customViewId: $customViewId, initiativeId: $initiativeId, folderName: $folderName, parentId: $parentId, sortOrder: $sortOrder }) { success lastSyncId favorite { id type url folderName } } }",
    },
    {
      name: "update_favorite",
      description: "Rename a favorites folder, move a favorite into or out of a folder (parentId null), or reorder it.",
      document:
        "mutation($id: String!, $folderName: String, $parentId: String, $sortOrder: Float) { favoriteUpdate(id: $id, input: { folderName: $folderName, parentId: $parentId, sortOrder: $sortOrder }) { success lastSyncId favorite { id type folderName sortOrder parent { id } } } }",
    },
    {
      name: "delete_favorite",
      description: "Remove a favorite; a folder's favorites move to the top level.",
      destructive: true,
      document: "mutation($id: String!) { favoriteDelete(id: $id) { success lastSyncId entityId } }",
    },
    {
      name: "find_attachments_by_url",
      description: "Every attachment (on any issue) that links the URL.",
      document: `query($url: String!, $first: Int, $after: String) { attachmentsForURL(url: $url, first: $first, after: $after) { nodes { id title url issue { identifier title } } ${PAGE} } }`,
    },
    {
      name: "find_issue_by_branch",
      description: "The issue a git branch is named for (its identifier, e.g. eng-12, in the branch name), or null.",
      document: `query($branchName: String!) { issueVcsBranchSearch(branchName: $branchName) { ${ISSUE_FIELDS} } }`,
    },
    ...WORKSPACE_TOOL_SPECS,
  ],
);

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
