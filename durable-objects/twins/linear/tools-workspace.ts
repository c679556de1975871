// MCP tools for initiatives, custom views, templates and issue reminders: each one GraphQL
// operation on /graphql, as in tools.ts (which serves these beside its own). Plain data, so this
// file needs nothing from tools.ts.

const INITIATIVE_FIELDS =
  "id name description content status icon color slugId url targetDate sortOrder startedAt completedAt archivedAt trashed createdAt updatedAt owner { id email } creator { id email }";
const VIEW_FIELDS = "id name description icon color slugId shared modelName filterData createdAt updatedAt owner { email } team { key }";
const TEMPLATE_FIELDS =
  "id name description type templateData icon color sortOrder lastAppliedAt createdAt updatedAt team { id key } creator { email }";
const PAGE = "pageInfo { hasNextPage endCursor }";

export const WORKSPACE_TOOL_SPECS: readonly { name: string; description: string; document: string }[] = [
  {
    name: "list_initiatives",
    description: "Initiatives (strategic groupings of projects), newest first, optionally narrowed by an InitiativeFilter.",
    document: `query($filter: InitiativeFilter, $includeArchived: Boolean, $first: Int, $after: String) { initiatives(filter: $filter, includeArchived: $includeArchived, first: $first, after: $after) { nodes { ${INITIATIVE_FIELDS} } ${PAGE} } }`,
  },
  {
    name: "get_initiative",
    description: "One initiative by id or slugId, with the projects in it.",
    document: `query($id: String!) { initiative(id: $id) { ${INITIATIVE_FIELDS} projects { nodes { id name state } } } }`,
  },
  {
    name: "create_initiative",
    description: "Create an initiative (status Planned unless given; the owner defaults to you).",
    document: `mutation($name: String!, $description: String, $content: String, $status: InitiativeStatus, $ownerId: String, $targetDate: TimelessDate, $icon: String, $color: String) { initiativeCreate(input: { name: $name, description: $description, content: $content, status: $status, ownerId: $ownerId, targetDate: $targetDate, icon: $icon, color: $color }) { success lastSyncId initiative { ${INITIATIVE_FIELDS} } } }`,
  },
  {
    name: "update_initiative",
    description: "Change an initiative's name, description, content, status, owner or target date.",
    document: `mutation($id: String!, $name: String, $description: String, $content: String, $status: InitiativeStatus, $ownerId: String, $targetDate: TimelessDate) { initiativeUpdate(id: $id, input: { name: $name, description: $description, content: $content, status: $status, ownerId: $ownerId, targetDate: $targetDate }) { success lastSyncId initiative { ${INITIATIVE_FIELDS} } } }`,
  },
  {
    name: "delete_initiative",
    description: "Delete (trash) an initiative.",
    document: "mutation($id: String!) { initiativeDelete(id: $id) { success lastSyncId entityId } }",
  },
  {
    name: "archive_initiative",
    description: "Archive an initiative (it leaves list_initiatives unless includeArchived).",
    document: "mutation($id: String!) { initiativeArchive(id: $id) { success lastSyncId entity { id archivedAt } } }",
  },
  {
    name: "unarchive_initiative",
    description: "Restore an archived or trashed initiative.",
    document: "mutation($id: String!) { initiativeUnarchive(id: $id) { success lastSyncId entity { id archivedAt } } }",
  },
  {
    name: "add_project_to_initiative",
    description: "Put a project in an initiative; the answer's id is the link remove_project_from_initiative takes.",
    document:
      "mutation($initiativeId: String!, $projectId: String!, $sortOrder: Float) { initiativeToProjectCreate(input: { initiativeId: $initiativeId, projectId: $projectId, sortOrder: $sortOrder }) { success lastSyncId initiativeToProject { id initiative { id name } project { id name } } } }",
  },
  {
    name: "remove_project_from_initiative",
    description: "Take a project out of an initiative, by the link's id (list_initiative_projects).",
    document: "mutation($id: String!) { initiativeToProjectDelete(id: $id) { success lastSyncId entityId } }",
  },
  {
    name: "list_initiative_projects",
    description: "Every initiative-to-project link in the workspace, with its initiative and project.",
    document: `query($first: Int, $after: String) { initiativeToProjects(first: $first, after: $after) { nodes { id sortOrder initiative { id name } project { id name } } ${PAGE} } }`,
  },
  {
    name: "get_initiative_project",
    description: "One initiative-to-project link by id.",
    document: "query($id: String!) { initiativeToProject(id: $id) { id sortOrder initiative { id name } project { id name } } }",
  },
  {
    name: "list_custom_views",
    description: "Your custom views and the workspace's shared ones (saved issue filters).",
    document: `query($filter: CustomViewFilter, $first: Int, $after: String) { customViews(filter: $filter, first: $first, after: $after) { nodes { ${VIEW_FIELDS} } ${PAGE} } }`,
  },
  {
    name: "get_custom_view",
    description: "One custom view by id or slugId, with the issues its filter matches (optionally narrowed further).",
    document: `query($id: String!, $filter: IssueFilter, $first: Int, $after: String) { customView(id: $id) { ${VIEW_FIELDS} issues(filter: $filter, first: $first, after: $after) { nodes { id identifier title state { name } assignee { email } } ${PAGE} } } }`,
  },
  {
    name: "create_custom_view",
    description: "Save an issue filter as a custom view, personal or shared, optionally for one team.",
    document: `mutation($name: String!, $filterData: IssueFilter, $description: String, $shared: Boolean, $teamId: String, $icon: String, $color: String) { customViewCreate(input: { name: $name, filterData: $filterData, description: $description, shared: $shared, teamId: $teamId, icon: $icon, color: $color }) { success lastSyncId customView { ${VIEW_FIELDS} } } }`,
  },
  {
    name: "update_custom_view",
    description: "Change a custom view's name, filter, sharing or team.",
    document: `mutation($id: String!, $name: String, $filterData: IssueFilter, $description: String, $shared: Boolean, $teamId: String) { customViewUpdate(id: $id, input: { name: $name, filterData: $filterData, description: $description, shared: $shared, teamId: $teamId }) { success lastSyncId customView { ${VIEW_FIELDS} } } }`,
  },
  {
    name: "delete_custom_view",
    description: "Delete a custom view.",
    document: "mutation($id: String!) { customViewDelete(id: $id) { success lastSyncId entityId } }",
  },
  {
    name: "list_templates",
    description: "Every template in the workspace, team templates and workspace ones (templateData is JSON text).",
    document: `query { templates { ${TEMPLATE_FIELDS} } }`,
  },
  {
    name: "get_template",
    description: "One template by id.",
    document: `query($id: String!) { template(id: $id) { ${TEMPLATE_FIELDS} } }`,
  },
  {
    name: "create_template",
    description:
      'Create a template. For type "issue", templateData holds IssueCreateInput fields (title, description, priority, labelIds, stateId, assigneeId, projectId, estimate, ...); create_issue with templateId applies them.',
    document: `mutation($name: String!, $type: String!, $templateData: JSON!, $teamId: String, $description: String, $icon: String, $color: String) { templateCreate(input: { name: $name, type: $type, templateData: $templateData, teamId: $teamId, description: $description, icon: $icon, color: $color }) { success lastSyncId template { ${TEMPLATE_FIELDS} } } }`,
  },
  {
    name: "update_template",
    description: "Change a template's name, data, team or description.",
    document: `mutation($id: String!, $name: String, $templateData: JSON, $teamId: String, $description: String) { templateUpdate(id: $id, input: { name: $name, templateData: $templateData, teamId: $teamId, description: $description }) { success lastSyncId template { ${TEMPLATE_FIELDS} } } }`,
  },
  {
    name: "delete_template",
    description: "Delete a template.",
    document: "mutation($id: String!) { templateDelete(id: $id) { success lastSyncId entityId } }",
  },
  {
    name: "set_issue_reminder",
    description: "Remind yourself of an issue: a notification reaches your inbox at reminderAt.",
    document:
      "mutation($issueId: String!, $reminderAt: DateTime!) { issueReminder(id: $issueId, reminderAt: $reminderAt) { success lastSyncId issue { id identifier title } } }",
  },
];
