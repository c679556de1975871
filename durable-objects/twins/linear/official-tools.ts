// The tool set of Linear's own hosted MCP server (https://mcp.linear.app/mcp), its 58 tools as its
// `tools/list` answered under a `read write` grant on 2026-08-10 (test/fixtures/vendor-mcp/
// linear-hosted-server.json, with where the capture comes from). Linear publishes no source for
// that server, so each tool is carried out here as GraphQL calls on the twin's own /graphql (the
// same resolvers @linear/sdk reaches, each call taped under its root field), with the arguments
// its schema describes: names, keys, emails, slugs and "me" resolved to ids as its descriptions say.
//
// What the hosted server answers is not published (no output schema in its listing, no examples
// in Linear's docs): the twin answers each tool with one JSON text of the entity or page, in
// Linear's own field names (NOTES.md, "Linear's MCP tools"). A refusal of the GraphQL call is the
// tool's error result (`isError: true`) carrying Linear's message. Tools over areas the twin does
// not model (diffs, releases, agent skills, the documentation search, file uploads, project and
// initiative labels) answer an error result that names what is not modelled (FIDELITY.md).
import published from "../../../test/fixtures/vendor-mcp/linear-hosted-server.json";
import { officialToolSet } from "../kit/official-tools";
import type { OfficialToolSet, OfficialToolArgs as Args, OfficialToolCaller as Call, OfficialToolResult as Result } from "../types";

type Json = Record<string, unknown>;

/** A refusal: the tool's error result, with this text. */
class Refusal extends Error {}

const str = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);
const strs = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);
const has = (a: Args, k: string) => Object.hasOwn(a, k) && a[k] !== undefined;
const lower = (s: string) => s.toLowerCase();

/** One GraphQL call on the twin; Linear's refusal (an `errors` answer or a non-2xx) becomes the tool's error. */
async function gql<T = Json>(call: Call, query: string, variables: Json = {}): Promise<T> {
  const res = await call({ method: "POST", path: "/graphql", body: { query, variables } });
  let body: { data?: T; errors?: { message?: string; extensions?: { userPresentableMessage?: string } }[] };
  try {
    body = JSON.parse(res.body);
  } catch {
    throw new Refusal(`Linear answered ${res.status}`);
  }
  const error = body.errors?.[0];
  if (error || res.status >= 400 || !body.data)
    throw new Refusal(error?.extensions?.userPresentableMessage ?? error?.message ?? `Linear answered ${res.status}`);
  return body.data;
}

const notModelled = (what: string): Result => ({
  text: `This twin of Linear does not model ${what}, so this tool cannot be carried out here.`,
  isError: true,
});

/** Runs a tool, turning a refusal into the tool's error result. */
function tool(run: (a: Args, call: Call) => Promise<unknown>) {
  return async (a: Args, call: Call): Promise<Result> => {
    try {
      return { text: JSON.stringify(await run(a, call)), isError: false };
    } catch (err) {
      if (err instanceof Refusal) return { text: err.message, isError: true };
      throw err;
    }
  };
}

// ---- Pages -------------------------------------------------------------------------------------

/** `limit` (default 50, at most 250), `cursor` and `orderBy` as the list tools take them. */
function page(a: Args): Json {
  const limit = typeof a.limit === "number" ? Math.min(Math.max(Math.trunc(a.limit), 1), 250) : 50;
  const v: Json = { first: limit };
  if (str(a.cursor)) v.after = a.cursor;
  if (a.orderBy === "createdAt" || a.orderBy === "updatedAt") v.orderBy = a.orderBy;
  if (a.includeArchived === true) v.includeArchived = true;
  return v;
}
const PAGE_VARS = "$first: Int, $after: String, $orderBy: PaginationOrderBy, $includeArchived: Boolean";
const PAGE_ARGS = "first: $first, after: $after, orderBy: $orderBy, includeArchived: $includeArchived";
const PAGE_INFO = "pageInfo { hasNextPage endCursor }";

interface Conn<T> {
  nodes: T[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}
/** A list answer: the items under their plural, and the cursor of the next page when there is one. */
const listed = <T>(key: string, conn: Conn<T>, shape: (n: T) => unknown) => ({
  [key]: conn.nodes.map(shape),
  hasNextPage: conn.pageInfo.hasNextPage,
  ...(conn.pageInfo.hasNextPage ? { cursor: conn.pageInfo.endCursor } : {}),
});

/** `createdAt`/`updatedAt` "created after" filters: an ISO date or a duration such as -P1D. */
function dateFilters(a: Args): Json {
  const f: Json = {};
  if (str(a.createdAt)) f.createdAt = { gt: a.createdAt };
  if (str(a.updatedAt)) f.updatedAt = { gt: a.updatedAt };
  return f;
}

// ---- Names to ids --------------------------------------------------------------------------------

interface Named {
  id: string;
  name: string;
  key?: string;
  email?: string;
  displayName?: string;
  slugId?: string;
  number?: number;
  type?: string;
}

function pick(kind: string, ref: string, nodes: Named[]): Named {
  const l = lower(ref);
  const found =
    nodes.find((n) => n.id === ref) ??
    nodes.find((n) => n.key !== undefined && lower(n.key) === l) ??
    nodes.find((n) => n.email !== undefined && lower(n.email) === l) ??
    nodes.find((n) => n.slugId !== undefined && (n.slugId === ref || l.endsWith(`-${lower(n.slugId)}`))) ??
    nodes.find((n) => n.number !== undefined && String(n.number) === ref) ??
    nodes.find((n) => typeof n.name === "string" && lower(n.name) === l) ??
    nodes.find((n) => n.displayName !== undefined && lower(n.displayName) === l);
  if (!found) throw new Refusal(`${kind} not found: ${ref}`);
  return found;
}

async function teamId(call: Call, ref: string): Promise<string> {
  const d = await gql<{ teams: { nodes: Named[] } }>(call, "query { teams(first: 250) { nodes { id key name } } }");
  return pick("Team", ref, d.teams.nodes).id;
}

async function userId(call: Call, ref: string): Promise<string> {
  if (lower(ref) === "me") return (await gql<{ viewer: { id: string } }>(call, "query { viewer { id } }")).viewer.id;
  const d = await gql<{ users: { nodes: Named[] } }>(call, "query { users(first: 250) { nodes { id name email displayName } } }");
  return pick("User", ref, d.users.nodes).id;
}

async function stateId(call: Call, team: string, ref: string): Promise<string> {
  const d = await gql<{ team: { states: { nodes: Named[] } } }>(
    call,
    "query($id: String!) { team(id: $id) { states(first: 250) { nodes { id name type position } } } }",
    { id: team },
  );
  const states = d.team.states.nodes;
  const byType = states.filter((s) => s.type === lower(ref));
  return byType[0]?.id ?? pick("Issue status", ref, states).id;
}

async function labelIds(call: Call, team: string | undefined, refs: string[]): Promise<string[]> {
  if (!refs.length) return [];
  const d = await gql<{ issueLabels: { nodes: (Named & { team: { id: string } | null })[] } }>(
    call,
    "query { issueLabels(first: 250) { nodes { id name team { id } } } }",
  );
  const usable = d.issueLabels.nodes.filter((l) => !l.team || !team || l.team.id === team);
  return refs.map((r) => pick("Label", r, usable).id);
}

async function projectId(call: Call, ref: string): Promise<string> {
  const d = await gql<{ projects: { nodes: Named[] } }>(
    call,
    "query { projects(first: 250, includeArchived: true) { nodes { id name slugId } } }",
  );
  return pick("Project", ref, d.projects.nodes).id;
}

async function initiativeId(call: Call, ref: string): Promise<string> {
  const d = await gql<{ initiatives: { nodes: Named[] } }>(
    call,
    "query { initiatives(first: 250, includeArchived: true) { nodes { id name slugId } } }",
  );
  return pick("Initiative", ref, d.initiatives.nodes).id;
}

async function cycleId(call: Call, team: string, ref: string): Promise<string> {
  const d = await gql<{ team: { cycles: { nodes: Named[] } } }>(
    call,
    "query($id: String!) { team(id: $id) { cycles(first: 250) { nodes { id name number } } } }",
    { id: team },
  );
  return pick("Cycle", ref, d.team.cycles.nodes).id;
}

async function milestoneId(call: Call, project: string, ref: string): Promise<string> {
  const d = await gql<{ project: { projectMilestones: { nodes: Named[] } } }>(
    call,
    "query($id: String!) { project(id: $id) { projectMilestones(first: 250) { nodes { id name } } } }",
    { id: project },
  );
  return pick("Milestone", ref, d.project.projectMilestones.nodes).id;
}

async function issueRef(call: Call, ref: string): Promise<{ id: string; identifier: string; team: { id: string } }> {
  const d = await gql<{ issue: { id: string; identifier: string; team: { id: string } } }>(
    call,
    "query($id: String!) { issue(id: $id) { id identifier team { id } } }",
    { id: ref },
  );
  return d.issue;
}

// ---- Content patches ----------------------------------------------------------------------------

/** Counts the plain-text occurrences of `needle` (no pattern: the text is the agent's). */
function occurrences(text: string, needle: string): number[] {
  const at: number[] = [];
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + needle.length)) at.push(i);
  return at;
}
function once(text: string, needle: string, what: string): number {
  const at = occurrences(text, needle);
  if (at.length !== 1) throw new Refusal(`patch: ${what} must match the current content exactly once (found ${at.length})`);
  return at[0];
}

/** The published `patch` operations applied in order; one that cannot apply refuses the whole save. */
export function applyPatch(content: string, ops: unknown[]): string {
  let text = content;
  for (const raw of ops) {
    const op = raw as Record<string, string | boolean>;
    const s = (k: string) => String(op[k] ?? "");
    switch (op.op) {
      case "replace": {
        if (op.replace_all === true) {
          if (!occurrences(text, s("old_string")).length) throw new Refusal("patch: old_string does not occur in the current content");
          text = text.split(s("old_string")).join(s("new_string"));
        } else {
          const i = once(text, s("old_string"), "old_string");
          text = text.slice(0, i) + s("new_string") + text.slice(i + s("old_string").length);
        }
        break;
      }
      case "insert_before": {
        const i = once(text, s("anchor"), "anchor");
        text = text.slice(0, i) + s("text") + text.slice(i);
        break;
      }
      case "insert_after": {
        const i = once(text, s("anchor"), "anchor") + s("anchor").length;
        text = text.slice(0, i) + s("text") + text.slice(i);
        break;
      }
      case "prepend":
        text = s("text") + text;
        break;
      case "append":
        text = text + s("text");
        break;
      case "replace_range": {
        const from = once(text, s("from"), "from");
        const rest = text.slice(from + s("from").length);
        const to = once(rest, s("to"), "to") + from + s("from").length;
        text = text.slice(0, from) + s("new_string") + text.slice(to);
        break;
      }
      default:
        throw new Refusal(`patch: unknown op ${String(op.op)}`);
    }
  }
  return text;
}

// ---- Shapes --------------------------------------------------------------------------------------

const ISSUE = `id identifier title description priority priorityLabel url branchName createdAt updatedAt archivedAt completedAt canceledAt startedAt dueDate estimate
  state { id name type } team { id key name } assignee { id name } delegate { id name } creator { id name } labels { nodes { name } }
  project { id name } projectMilestone { id name } cycle { id number name } parent { id identifier }`;
const ISSUE_DETAIL = `${ISSUE} attachments { nodes { id title subtitle url } }`;
const RELATIONS =
  "relations { nodes { id type relatedIssue { id identifier title } } } inverseRelations { nodes { id type issue { id identifier title } } }";

type Obj = Record<string, unknown> | null | undefined;
const at = (o: unknown, k: string) => (o as Obj)?.[k] ?? null;

function issueShape(i: Json): Json {
  const out: Json = {
    id: i.id,
    identifier: i.identifier,
    title: i.title,
    description: i.description ?? null,
    priority: { value: i.priority, name: i.priorityLabel },
    url: i.url,
    gitBranchName: i.branchName,
    createdAt: i.createdAt,
    updatedAt: i.updatedAt,
    archivedAt: i.archivedAt ?? null,
    completedAt: i.completedAt ?? null,
    canceledAt: i.canceledAt ?? null,
    startedAt: i.startedAt ?? null,
    dueDate: i.dueDate ?? null,
    estimate: i.estimate ?? null,
    status: at(i.state, "name"),
    statusType: at(i.state, "type"),
    labels: ((i.labels as Conn<Json>)?.nodes ?? []).map((l) => l.name),
    assignee: at(i.assignee, "name"),
    assigneeId: at(i.assignee, "id"),
    delegate: at(i.delegate, "name"),
    createdBy: at(i.creator, "name"),
    createdById: at(i.creator, "id"),
    project: at(i.project, "name"),
    projectId: at(i.project, "id"),
    projectMilestone: i.projectMilestone ?? null,
    cycle: i.cycle ?? null,
    team: at(i.team, "name"),
    teamId: at(i.team, "id"),
    parentId: at(i.parent, "id"),
  };
  if (i.attachments) out.attachments = (i.attachments as Conn<Json>).nodes;
  if (i.relations) {
    const rel = (type: string) => (i.relations as Conn<Json>).nodes.filter((r) => r.type === type).map((r) => r.relatedIssue);
    const inv = (type: string) => ((i.inverseRelations as Conn<Json>)?.nodes ?? []).filter((r) => r.type === type).map((r) => r.issue);
    out.relations = {
      blocks: rel("blocks"),
      blockedBy: inv("blocks"),
      relatedTo: [...rel("related"), ...inv("related")],
      duplicateOf: rel("duplicate")[0] ?? null,
      duplicates: inv("duplicate"),
    };
  }
  return out;
}

const COMMENT = "id body createdAt updatedAt editedAt resolvedAt quotedText url user { id name } parent { id } issue { id identifier }";
const commentShape = (c: Json): Json => ({
  id: c.id,
  body: c.body,
  createdAt: c.createdAt,
  updatedAt: c.updatedAt,
  resolvedAt: c.resolvedAt ?? null,
  quotedText: c.quotedText ?? null,
  url: c.url,
  author: c.user ?? null,
  parentId: at(c.parent, "id"),
  issue: c.issue ?? null,
});

const TEAM = "id key name description icon color createdAt updatedAt archivedAt cyclesEnabled";
const USER = "id name displayName email avatarUrl active admin guest isMe createdAt updatedAt";
const DOCUMENT =
  "id title content slugId url icon color createdAt updatedAt archivedAt creator { id name } updatedBy { id name } project { id name }";
const documentShape = (d: Json, withContent = true): Json => {
  const { content, ...rest } = d;
  return withContent ? { ...rest, content } : rest;
};
const PROJECT =
  "id name description content icon color slugId url priority priorityLabel progress health state startDate startDateResolution targetDate targetDateResolution createdAt updatedAt archivedAt completedAt canceledAt status { id name type } lead { id name } creator { id name } teams { nodes { id key name } }";
const projectShape = (p: Json): Json => {
  const { teams, status, priority, priorityLabel, ...rest } = p;
  return {
    ...rest,
    priority: { value: priority, name: priorityLabel },
    status: at(status, "name"),
    teams: (teams as Conn<Json>)?.nodes ?? [],
  };
};
const MILESTONE = "id name description targetDate progress status sortOrder createdAt updatedAt archivedAt project { id name }";
const INITIATIVE =
  "id name description content icon color slugId url status health priority targetDate createdAt updatedAt archivedAt completedAt owner { id name } creator { id name } parentInitiative { id name }";
const INITIATIVE_PROJECTS = "projects(first: 250) { nodes { id name state } }";
const UPDATE = "id body health createdAt updatedAt editedAt archivedAt url isDiffHidden user { id name } project { id name }";

// ---- Issues --------------------------------------------------------------------------------------

async function issueFilter(a: Args, call: Call): Promise<Json> {
  const f: Json = { ...dateFilters(a) };
  const and: Json[] = [];
  if (str(a.query)) and.push({ or: [{ title: { containsIgnoreCase: a.query } }, { description: { containsIgnoreCase: a.query } }] });
  let team: string | undefined;
  if (str(a.team)) {
    team = await teamId(call, a.team as string);
    f.team = { id: { eq: team } };
  }
  if (str(a.state)) {
    const s = a.state as string;
    const types = ["triage", "backlog", "unstarted", "started", "completed", "canceled"];
    f.state = types.includes(lower(s)) ? { type: { eq: lower(s) } } : { or: [{ id: { eq: s } }, { name: { eqIgnoreCase: s } }] };
  }
  if (a.assignee === null || a.assignee === "null") f.assignee = { null: true };
  else if (str(a.assignee)) f.assignee = { id: { eq: await userId(call, a.assignee as string) } };
  if (str(a.delegate)) f.delegate = { id: { eq: await userId(call, a.delegate as string) } };
  if (str(a.label)) f.labels = { some: { or: [{ id: { eq: a.label } }, { name: { eqIgnoreCase: a.label } }] } };
  if (str(a.project)) f.project = { id: { eq: await projectId(call, a.project as string) } };
  if (str(a.cycle)) {
    const c = a.cycle as string;
    f.cycle = team
      ? { id: { eq: await cycleId(call, team, c) } }
      : /^\d+$/.test(c)
        ? { number: { eq: Number(c) } }
        : { or: [{ id: { eq: c } }, { name: { eqIgnoreCase: c } }] };
  }
  if (typeof a.priority === "number") f.priority = { eq: a.priority };
  if (str(a.parentId)) f.parent = { id: { eq: (await issueRef(call, a.parentId as string)).id } };
  if (str(a.release)) throw new Refusal("This twin of Linear does not model releases: the release filter cannot be applied.");
  if (and.length) f.and = and;
  return f;
}

async function listIssues(a: Args, call: Call) {
  const filter = await issueFilter(a, call);
  const d = await gql<{ issues: Conn<Json> }>(
    call,
    `query($filter: IssueFilter, ${PAGE_VARS}) { issues(filter: $filter, ${PAGE_ARGS}) { nodes { ${ISSUE} } ${PAGE_INFO} } }`,
    { filter, ...page(a) },
  );
  return listed("issues", d.issues, issueShape);
}

async function getIssue(a: Args, call: Call) {
  const d = await gql<{ issue: Json }>(
    call,
    `query($id: String!) { issue(id: $id) { ${ISSUE_DETAIL} ${a.includeRelations === true ? RELATIONS : ""} } }`,
    { id: a.id },
  );
  return issueShape(d.issue);
}

const RELATION_KINDS = [
  ["blocks", "blocks", false],
  ["blockedBy", "blocks", true],
  ["relatedTo", "related", false],
] as const;

interface ExistingIssue {
  id: string;
  description: string | null;
  team: { id: string };
  project: { id: string } | null;
}

const RELATION_REMOVALS = [
  ["removeBlocks", "blocks", false],
  ["removeBlockedBy", "blocks", true],
  ["removeRelatedTo", "related", false],
] as const;

async function saveIssue(a: Args, call: Call) {
  if (["setReleases", "addReleases", "removeReleases"].some((k) => strs(a[k]).length))
    throw new Refusal("This twin of Linear does not model releases: setReleases/addReleases/removeReleases cannot be applied.");
  const existing = str(a.id)
    ? (
        await gql<{ issue: ExistingIssue }>(call, "query($id: String!) { issue(id: $id) { id description team { id } project { id } } }", {
          id: a.id,
        })
      ).issue
    : undefined;
  if (!existing) {
    if (!str(a.title)) throw new Refusal("title is required when creating an issue");
    if (!str(a.team)) throw new Refusal("team is required when creating an issue");
    if (has(a, "patch")) throw new Refusal("patch is only valid when updating an existing issue");
  }
  const team = str(a.team) ? await teamId(call, a.team as string) : (existing?.team.id as string);
  const input = await issueInput(a, call, team, existing);
  // Every issue the relations name is resolved before anything is written: an unknown one refuses
  // the whole call and changes nothing.
  const related: Record<string, string[]> = {};
  for (const k of ["blocks", "blockedBy", "relatedTo", "removeBlocks", "removeBlockedBy", "removeRelatedTo"]) {
    related[k] = [];
    for (const other of strs(a[k])) related[k].push((await issueRef(call, other)).id);
  }
  const duplicateOf = str(a.duplicateOf) ? (await issueRef(call, a.duplicateOf as string)).id : undefined;

  let id: string;
  if (existing) {
    id = existing.id;
    if (Object.keys(input).length)
      await gql(call, "mutation($id: String!, $input: IssueUpdateInput!) { issueUpdate(id: $id, input: $input) { success } }", {
        id,
        input,
      });
  } else {
    const d = await gql<{ issueCreate: { issue: { id: string } } }>(
      call,
      "mutation($input: IssueCreateInput!) { issueCreate(input: $input) { issue { id } } }",
      { input: { ...input, teamId: team } },
    );
    id = d.issueCreate.issue.id;
  }
  for (const link of Array.isArray(a.links) ? (a.links as { url: string; title: string }[]) : [])
    await gql(call, "mutation($input: AttachmentCreateInput!) { attachmentCreate(input: $input) { success } }", {
      input: { issueId: id, url: link.url, title: link.title },
    });
  for (const [arg, type, inverse] of RELATION_KINDS)
    for (const o of related[arg]) await relate(call, inverse ? o : id, inverse ? id : o, type);
  if (duplicateOf) await relate(call, id, duplicateOf, "duplicate");
  if (RELATION_REMOVALS.some(([k]) => related[k].length) || a.duplicateOf === null)
    await removeRelations(call, id, related, a.duplicateOf === null);
  return getIssue({ id, includeRelations: true }, call);
}

/** The issueCreate/issueUpdate input of save_issue's arguments, each name or key resolved to its id. */
async function issueInput(a: Args, call: Call, team: string, existing: ExistingIssue | undefined): Promise<Json> {
  const input: Json = {};
  if (str(a.team) && existing) input.teamId = team;
  if (has(a, "title")) input.title = a.title;
  if (has(a, "description")) input.description = a.description;
  if (has(a, "patch")) input.description = applyPatch(existing?.description ?? "", a.patch as unknown[]);
  if (typeof a.priority === "number") input.priority = a.priority;
  if (has(a, "estimate")) input.estimate = a.estimate;
  if (has(a, "dueDate")) input.dueDate = a.dueDate;
  if (has(a, "slaBreachesAt")) input.slaBreachesAt = a.slaBreachesAt;
  if (has(a, "slaType")) input.slaType = a.slaType;
  if (str(a.state)) input.stateId = await stateId(call, team, a.state as string);
  if (a.assignee === null) input.assigneeId = null;
  else if (str(a.assignee)) input.assigneeId = await userId(call, a.assignee as string);
  if (a.delegate === null) input.delegateId = null;
  else if (str(a.delegate)) input.delegateId = await userId(call, a.delegate as string);
  if (Array.isArray(a.labels)) input.labelIds = await labelIds(call, team, strs(a.labels));
  let project = existing?.project?.id;
  if (a.project === null) input.projectId = null;
  else if (str(a.project)) input.projectId = project = await projectId(call, a.project as string);
  if (str(a.milestone)) {
    if (!project) throw new Refusal("milestone needs the issue to be in a project (pass project)");
    input.projectMilestoneId = await milestoneId(call, project, a.milestone as string);
  }
  if (a.cycle === null) input.cycleId = null;
  else if (str(a.cycle)) input.cycleId = await cycleId(call, team, a.cycle as string);
  if (a.parentId === null) input.parentId = null;
  else if (str(a.parentId)) input.parentId = (await issueRef(call, a.parentId as string)).id;
  return input;
}

/** Deletes the relations save_issue's remove… arguments name (and the duplicate mark, when asked). */
async function removeRelations(call: Call, id: string, related: Record<string, string[]>, duplicateToo: boolean): Promise<void> {
  const d = await gql<{ issue: { relations: Conn<Json>; inverseRelations: Conn<Json> } }>(
    call,
    `query($id: String!) { issue(id: $id) { ${RELATIONS} } }`,
    { id },
  );
  const doomed: string[] = [];
  for (const [arg, type, inverse] of RELATION_REMOVALS)
    for (const o of related[arg]) {
      const mine = d.issue.relations.nodes.filter((r) => r.type === type && at(r.relatedIssue, "id") === o && !inverse);
      const theirs = d.issue.inverseRelations.nodes.filter(
        (r) => r.type === type && at(r.issue, "id") === o && (inverse || type === "related"),
      );
      doomed.push(...[...mine, ...theirs].map((r) => r.id as string));
    }
  if (duplicateToo) doomed.push(...d.issue.relations.nodes.filter((r) => r.type === "duplicate").map((r) => r.id as string));
  for (const rid of doomed) await gql(call, "mutation($id: String!) { issueRelationDelete(id: $id) { success } }", { id: rid });
}

async function relate(call: Call, issueId: string, relatedIssueId: string, type: string) {
  await gql(call, "mutation($input: IssueRelationCreateInput!) { issueRelationCreate(input: $input) { success } }", {
    input: { issueId, relatedIssueId, type },
  });
}

// ---- Comments ------------------------------------------------------------------------------------

const COMMENT_PARENTS = ["issueId", "projectId", "initiativeId", "documentId", "milestoneId", "statusUpdateId"] as const;

/** The one parent a comment tool names, as the CommentFilter/CommentCreateInput field it sets. */
async function commentParent(a: Args, call: Call): Promise<{ filter: Json; input: Json } | undefined> {
  const given = COMMENT_PARENTS.filter((k) => str(a[k]));
  if (given.length > 1) throw new Refusal(`Provide exactly one of ${COMMENT_PARENTS.join(", ")}`);
  switch (given[0]) {
    case undefined:
      return undefined;
    case "issueId": {
      const id = (await issueRef(call, a.issueId as string)).id;
      return { filter: { issue: { id: { eq: id } } }, input: { issueId: id } };
    }
    default: {
      const on: Record<string, string> = {
        projectId: "projects",
        initiativeId: "initiatives",
        documentId: "documents",
        milestoneId: "project milestones",
        statusUpdateId: "status updates",
      };
      throw new Refusal(`This twin of Linear does not model comments on ${on[given[0]]}: only comments on issues.`);
    }
  }
}

async function listComments(a: Args, call: Call) {
  const parent = await commentParent(a, call);
  if (!parent) throw new Refusal(`Provide exactly one of ${COMMENT_PARENTS.join(", ")}`);
  const d = await gql<{ comments: Conn<Json> }>(
    call,
    `query($filter: CommentFilter, ${PAGE_VARS}) { comments(filter: $filter, ${PAGE_ARGS}) { nodes { ${COMMENT} } ${PAGE_INFO} } }`,
    { filter: parent.filter, ...page(a) },
  );
  return listed("comments", d.comments, commentShape);
}

async function saveComment(a: Args, call: Call) {
  if (str(a.id)) {
    const d = await gql<{ commentUpdate: { comment: Json } }>(
      call,
      `mutation($id: String!, $input: CommentUpdateInput!) { commentUpdate(id: $id, input: $input) { comment { ${COMMENT} } } }`,
      { id: a.id, input: { body: a.body } },
    );
    return commentShape(d.commentUpdate.comment);
  }
  const parent = await commentParent(a, call);
  const input: Json = { body: a.body, ...(parent?.input ?? {}) };
  if (str(a.parentId)) {
    input.parentId = a.parentId;
    // A reply names only its parent comment; it goes on the parent's issue.
    if (!parent) {
      const d = await gql<{ comment: { issue: { id: string } | null } }>(
        call,
        "query($id: String!) { comment(id: $id) { issue { id } } }",
        {
          id: a.parentId,
        },
      );
      if (d.comment.issue) input.issueId = d.comment.issue.id;
    }
  }
  if (!parent && !str(a.parentId)) throw new Refusal(`Provide exactly one of ${COMMENT_PARENTS.join(", ")}, or parentId`);
  const d = await gql<{ commentCreate: { comment: Json } }>(
    call,
    `mutation($input: CommentCreateInput!) { commentCreate(input: $input) { comment { ${COMMENT} } } }`,
    { input },
  );
  return commentShape(d.commentCreate.comment);
}

// ---- Documents -----------------------------------------------------------------------------------

async function documentParent(a: Args, call: Call): Promise<Json> {
  const input: Json = {};
  if (str(a.project)) input.projectId = await projectId(call, a.project as string);
  if (str(a.issue)) input.issueId = (await issueRef(call, a.issue as string)).id;
  if (str(a.initiative)) input.initiativeId = await initiativeId(call, a.initiative as string);
  const team = str(a.team) ? await teamId(call, a.team as string) : undefined;
  if (str(a.cycle)) {
    if (!team) throw new Refusal("cycle needs team to say whose cycle it is");
    input.cycleId = await cycleId(call, team, a.cycle as string);
  } else if (team) input.teamId = team;
  return input;
}

async function saveDocument(a: Args, call: Call) {
  const parent = await documentParent(a, call);
  const input: Json = { ...parent };
  for (const k of ["title", "content", "icon", "color"]) if (has(a, k)) input[k] = a[k];
  if (str(a.id)) {
    if (has(a, "patch")) {
      const d = await gql<{ document: { content: string | null } }>(call, "query($id: String!) { document(id: $id) { content } }", {
        id: a.id,
      });
      input.content = applyPatch(d.document.content ?? "", a.patch as unknown[]);
    }
    const d = await gql<{ documentUpdate: { document: Json } }>(
      call,
      `mutation($id: String!, $input: DocumentUpdateInput!) { documentUpdate(id: $id, input: $input) { document { ${DOCUMENT} } } }`,
      { id: a.id, input },
    );
    return documentShape(d.documentUpdate.document);
  }
  if (!str(a.title)) throw new Refusal("title is required when creating a document");
  if (has(a, "patch")) throw new Refusal("patch is only valid when updating an existing document");
  if (Object.keys(parent).length !== 1) throw new Refusal("Specify exactly one parent: project, issue, initiative, cycle or team");
  const d = await gql<{ documentCreate: { document: Json } }>(
    call,
    `mutation($input: DocumentCreateInput!) { documentCreate(input: $input) { document { ${DOCUMENT} } } }`,
    { input },
  );
  return documentShape(d.documentCreate.document);
}

async function listDocuments(a: Args, call: Call) {
  const f: Json = { ...dateFilters(a) };
  if (str(a.query)) f.title = { containsIgnoreCase: a.query };
  if (str(a.projectId)) f.project = { id: { eq: await projectId(call, a.projectId as string) } };
  if (str(a.initiativeId)) f.initiative = { id: { eq: await initiativeId(call, a.initiativeId as string) } };
  if (str(a.teamId)) f.team = { id: { eq: await teamId(call, a.teamId as string) } };
  if (str(a.creatorId)) f.creator = { id: { eq: await userId(call, a.creatorId as string) } };
  const d = await gql<{ documents: Conn<Json> }>(
    call,
    `query($filter: DocumentFilter, ${PAGE_VARS}) { documents(filter: $filter, ${PAGE_ARGS}) { nodes { ${DOCUMENT} } ${PAGE_INFO} } }`,
    { filter: f, ...page(a) },
  );
  return listed("documents", d.documents, (n) => documentShape(n, false));
}

// ---- Projects, milestones, status updates --------------------------------------------------------

async function teamIdsOf(call: Call, refs: unknown): Promise<string[]> {
  const out: string[] = [];
  for (const r of strs(refs)) out.push(await teamId(call, r));
  return out;
}

async function saveProject(a: Args, call: Call) {
  if (strs(a.labels).length) throw new Refusal("This twin of Linear does not model project labels: labels cannot be set.");
  const existing = str(a.id)
    ? (
        await gql<{ project: { id: string; description: string | null; teams: Conn<{ id: string }> } }>(
          call,
          "query($id: String!) { project(id: $id) { id description teams(first: 250) { nodes { id } } } }",
          { id: await projectId(call, a.id as string) },
        )
      ).project
    : undefined;
  const input: Json = {};
  for (const k of ["name", "icon", "color", "startDate", "startDateResolution", "targetDate", "targetDateResolution", "priority"])
    if (has(a, k)) input[k] = a[k];
  // Linear keeps a project's short summary (`description`, 255 characters) apart from its markdown
  // body (`content`); the twin keeps one text, `description`, which the tool's markdown fills.
  if (has(a, "summary")) throw new Refusal("This twin of Linear does not model a project's summary apart from its description.");
  if (has(a, "description")) input.description = a.description;
  if (has(a, "patch")) {
    if (!existing) throw new Refusal("patch is only valid when updating an existing project");
    input.description = applyPatch(existing.description ?? "", a.patch as unknown[]);
  }
  const stateInput = projectStateInput(a, existing !== undefined);
  if (a.lead === null) input.leadId = null;
  else if (str(a.lead)) input.leadId = await userId(call, a.lead as string);
  const set = await teamIdsOf(call, a.setTeams);
  const add = await teamIdsOf(call, a.addTeams);
  const remove = await teamIdsOf(call, a.removeTeams);
  if (set.length && (add.length || remove.length)) throw new Refusal("setTeams cannot be combined with addTeams/removeTeams");
  const current = existing?.teams.nodes.map((t) => t.id) ?? [];
  if (set.length) input.teamIds = set;
  else if (add.length || remove.length) input.teamIds = [...new Set([...current, ...add])].filter((t) => !remove.includes(t));
  if (Array.isArray(a.links) && a.links.length) throw new Refusal("This twin of Linear does not model a project's external links.");
  // The initiatives are resolved before anything is written, so an unknown one changes nothing.
  const inits = {
    set: await Promise.all(strs(a.setInitiatives).map((r) => initiativeId(call, r))),
    add: await Promise.all(strs(a.addInitiatives).map((r) => initiativeId(call, r))),
    remove: await Promise.all(strs(a.removeInitiatives).map((r) => initiativeId(call, r))),
  };

  let id: string;
  if (existing) {
    id = existing.id;
    await gql(call, "mutation($id: String!, $input: ProjectUpdateInput!) { projectUpdate(id: $id, input: $input) { success } }", {
      id,
      input,
    });
  } else {
    if (!str(a.name)) throw new Refusal("name is required when creating a project");
    if (!Array.isArray(input.teamIds) || !(input.teamIds as string[]).length)
      throw new Refusal("at least one team (addTeams or setTeams) is required when creating a project");
    const d = await gql<{ projectCreate: { project: { id: string } } }>(
      call,
      "mutation($input: ProjectCreateInput!) { projectCreate(input: $input) { project { id } } }",
      { input },
    );
    id = d.projectCreate.project.id;
  }
  if (stateInput)
    await gql(call, "mutation($id: String!, $input: ProjectUpdateInput!) { projectUpdate(id: $id, input: $input) { success } }", {
      id,
      input: stateInput,
    });
  if (inits.set.length || inits.add.length || inits.remove.length) await linkInitiatives(call, id, inits);
  return getProject({ query: id }, call);
}

/**
 * The projectUpdate input that moves a project to save_project's `state`. The twin keeps a
 * project's state as Linear's types (backlog, planned, started, completed, canceled) and moves it
 * only through completedAt/canceledAt, as projectUpdate does: a new project starts in the backlog.
 */
function projectStateInput(a: Args, exists: boolean): Json | undefined {
  const state = str(a.state) ? lower(a.state as string) : undefined;
  if (state === undefined || (state === "backlog" && !exists)) return undefined;
  if (state === "completed") return { completedAt: new Date().toISOString() };
  if (state === "canceled") return { canceledAt: new Date().toISOString() };
  if (state === "started" || state === "in progress") return { completedAt: null };
  throw new Refusal(`This twin of Linear does not move a project to "${a.state}": only to started (In Progress), completed or canceled.`);
}

/** Makes a project's initiatives those save_project's set/add/remove arguments ask for. */
async function linkInitiatives(call: Call, id: string, inits: { set: string[]; add: string[]; remove: string[] }): Promise<void> {
  const d = await gql<{ initiativeToProjects: Conn<{ id: string; initiative: { id: string }; project: { id: string } }> }>(
    call,
    "query { initiativeToProjects(first: 250) { nodes { id initiative { id } project { id } } } }",
  );
  const links = d.initiativeToProjects.nodes.filter((l) => l.project.id === id);
  const want = inits.set.length ? inits.set : [...links.map((l) => l.initiative.id), ...inits.add].filter((i) => !inits.remove.includes(i));
  for (const l of links)
    if (!want.includes(l.initiative.id))
      await gql(call, "mutation($id: String!) { initiativeToProjectDelete(id: $id) { success } }", { id: l.id });
  for (const i of new Set(want))
    if (!links.some((l) => l.initiative.id === i))
      await gql(call, "mutation($input: InitiativeToProjectCreateInput!) { initiativeToProjectCreate(input: $input) { success } }", {
        input: { initiativeId: i, projectId: id },
      });
}

async function getProject(a: Args, call: Call) {
  const id = await projectId(call, a.query as string);
  const extra = [
    a.includeMilestones === true ? `projectMilestones(first: 250) { nodes { ${MILESTONE} } }` : "",
    a.includeResources === true ? "documents(first: 250) { nodes { id title url } }" : "",
  ].join(" ");
  const d = await gql<{ project: Json }>(call, `query($id: String!) { project(id: $id) { ${PROJECT} ${extra} } }`, { id });
  const out = projectShape(d.project);
  if (out.projectMilestones) out.milestones = (out.projectMilestones as Conn<Json>).nodes;
  delete out.projectMilestones;
  if (out.documents) out.documents = (out.documents as Conn<Json>).nodes;
  if (a.includeMembers === true) throw new Refusal("This twin of Linear does not model project members.");
  return out;
}

async function listProjects(a: Args, call: Call) {
  if (str(a.label)) throw new Refusal("This twin of Linear does not model project labels: the label filter cannot be applied.");
  if (a.includeMembers === true || str(a.member)) throw new Refusal("This twin of Linear does not model project members.");
  const f: Json = { ...dateFilters(a) };
  if (str(a.query)) f.name = { containsIgnoreCase: a.query };
  if (str(a.state)) f.or = [{ state: { eqIgnoreCase: a.state } }, { status: { name: { eqIgnoreCase: a.state } } }];
  if (str(a.initiative)) f.initiatives = { some: { id: { eq: await initiativeId(call, a.initiative as string) } } };
  if (str(a.team)) f.accessibleTeams = { some: { id: { eq: await teamId(call, a.team as string) } } };
  const milestones = a.includeMilestones === true ? `projectMilestones(first: 250) { nodes { ${MILESTONE} } }` : "";
  const d = await gql<{ projects: Conn<Json> }>(
    call,
    `query($filter: ProjectFilter, ${PAGE_VARS}) { projects(filter: $filter, ${PAGE_ARGS}) { nodes { ${PROJECT} ${milestones} } ${PAGE_INFO} } }`,
    { filter: f, ...page(a) },
  );
  return listed("projects", d.projects, (p) => {
    const out = projectShape(p);
    if (out.projectMilestones) out.milestones = (out.projectMilestones as Conn<Json>).nodes;
    delete out.projectMilestones;
    return out;
  });
}

async function listMilestones(a: Args, call: Call) {
  const id = await projectId(call, a.project as string);
  const d = await gql<{ project: { projectMilestones: Conn<Json> } }>(
    call,
    `query($id: String!) { project(id: $id) { projectMilestones(first: 250) { nodes { ${MILESTONE} } ${PAGE_INFO} } } }`,
    { id },
  );
  return { milestones: d.project.projectMilestones.nodes };
}

async function getMilestone(a: Args, call: Call) {
  const id = await milestoneId(call, await projectId(call, a.project as string), a.query as string);
  return (await gql<{ projectMilestone: Json }>(call, `query($id: String!) { projectMilestone(id: $id) { ${MILESTONE} } }`, { id }))
    .projectMilestone;
}

async function saveMilestone(a: Args, call: Call) {
  const project = await projectId(call, a.project as string);
  const input: Json = {};
  for (const k of ["name", "description", "targetDate"]) if (has(a, k)) input[k] = a[k];
  if (str(a.id)) {
    const id = await milestoneId(call, project, a.id as string);
    const d = await gql<{ projectMilestoneUpdate: { projectMilestone: Json } }>(
      call,
      `mutation($id: String!, $input: ProjectMilestoneUpdateInput!) { projectMilestoneUpdate(id: $id, input: $input) { projectMilestone { ${MILESTONE} } } }`,
      { id, input },
    );
    return d.projectMilestoneUpdate.projectMilestone;
  }
  if (!str(a.name)) throw new Refusal("name is required when creating a milestone");
  const d = await gql<{ projectMilestoneCreate: { projectMilestone: Json } }>(
    call,
    `mutation($input: ProjectMilestoneCreateInput!) { projectMilestoneCreate(input: $input) { projectMilestone { ${MILESTONE} } } }`,
    { input: { ...input, projectId: project } },
  );
  return d.projectMilestoneCreate.projectMilestone;
}

const projectUpdatesOnly = (a: Args) => {
  if (a.type === "initiative" || str(a.initiative)) throw new Refusal("This twin of Linear does not model initiative status updates.");
};
const updateShape = (u: Json): Json => ({ ...u, type: "project" });

async function getStatusUpdates(a: Args, call: Call) {
  projectUpdatesOnly(a);
  if (str(a.id))
    return updateShape(
      (await gql<{ projectUpdate: Json }>(call, `query($id: String!) { projectUpdate(id: $id) { ${UPDATE} } }`, { id: a.id }))
        .projectUpdate,
    );
  const f: Json = { ...dateFilters(a) };
  if (str(a.project)) f.project = { id: { eq: await projectId(call, a.project as string) } };
  if (str(a.user)) f.user = { id: { eq: await userId(call, a.user as string) } };
  const d = await gql<{ projectUpdates: Conn<Json> }>(
    call,
    `query($filter: ProjectUpdateFilter, ${PAGE_VARS}) { projectUpdates(filter: $filter, ${PAGE_ARGS}) { nodes { ${UPDATE} } ${PAGE_INFO} } }`,
    { filter: f, ...page(a) },
  );
  return listed("statusUpdates", d.projectUpdates, updateShape);
}

async function saveStatusUpdate(a: Args, call: Call) {
  projectUpdatesOnly(a);
  const input: Json = {};
  for (const k of ["body", "health"]) if (has(a, k)) input[k] = a[k];
  if (str(a.id)) {
    const d = await gql<{ projectUpdateUpdate: { projectUpdate: Json } }>(
      call,
      `mutation($id: String!, $input: ProjectUpdateUpdateInput!) { projectUpdateUpdate(id: $id, input: $input) { projectUpdate { ${UPDATE} } } }`,
      { id: a.id, input },
    );
    return updateShape(d.projectUpdateUpdate.projectUpdate);
  }
  if (!str(a.project)) throw new Refusal("project is required when creating a project status update");
  if (typeof a.isDiffHidden === "boolean") input.isDiffHidden = a.isDiffHidden;
  const d = await gql<{ projectUpdateCreate: { projectUpdate: Json } }>(
    call,
    `mutation($input: ProjectUpdateCreateInput!) { projectUpdateCreate(input: $input) { projectUpdate { ${UPDATE} } } }`,
    { input: { ...input, projectId: await projectId(call, a.project as string) } },
  );
  return updateShape(d.projectUpdateCreate.projectUpdate);
}

// ---- Initiatives ---------------------------------------------------------------------------------

async function getInitiative(a: Args, call: Call) {
  const id = await initiativeId(call, a.query as string);
  const d = await gql<{ initiative: Json & { projects?: Conn<Json> } }>(
    call,
    `query($id: String!) { initiative(id: $id) { ${INITIATIVE} ${a.includeProjects === true ? INITIATIVE_PROJECTS : ""} } }`,
    { id },
  );
  if (a.includeSubInitiatives === true) throw new Refusal("This twin of Linear does not list sub-initiatives.");
  const { projects, ...rest } = d.initiative;
  return projects ? { ...rest, projects: projects.nodes } : rest;
}

async function listInitiatives(a: Args, call: Call) {
  if (str(a.label)) throw new Refusal("This twin of Linear does not model initiative labels: the label filter cannot be applied.");
  if (a.includeSubInitiatives === true) throw new Refusal("This twin of Linear does not list sub-initiatives.");
  const f: Json = { ...dateFilters(a) };
  if (str(a.query)) f.name = { containsIgnoreCase: a.query };
  if (str(a.status)) f.status = { eqIgnoreCase: a.status };
  if (str(a.owner)) f.owner = { id: { eq: await userId(call, a.owner as string) } };
  if (str(a.parentInitiative)) f.ancestors = { some: { id: { eq: await initiativeId(call, a.parentInitiative as string) } } };
  const d = await gql<{ initiatives: Conn<Json & { projects?: Conn<Json> }> }>(
    call,
    `query($filter: InitiativeFilter, ${PAGE_VARS}) { initiatives(filter: $filter, ${PAGE_ARGS}) { nodes { ${INITIATIVE} ${a.includeProjects === true ? INITIATIVE_PROJECTS : ""} } ${PAGE_INFO} } }`,
    { filter: f, ...page(a) },
  );
  return listed("initiatives", d.initiatives, ({ projects, ...rest }) => (projects ? { ...rest, projects: projects.nodes } : rest));
}

async function saveInitiative(a: Args, call: Call) {
  if (strs(a.labels).length) throw new Refusal("This twin of Linear does not model initiative labels: labels cannot be set.");
  const existing = str(a.id)
    ? (
        await gql<{ initiative: { id: string; content: string | null } }>(
          call,
          "query($id: String!) { initiative(id: $id) { id content } }",
          {
            id: await initiativeId(call, a.id as string),
          },
        )
      ).initiative
    : undefined;
  const input: Json = {};
  for (const k of ["name", "color", "icon", "status", "priority", "targetDate"]) if (has(a, k)) input[k] = a[k];
  // As for projects: `description` is Linear's short summary, `content` the markdown body.
  if (has(a, "summary")) input.description = a.summary;
  if (has(a, "description")) input.content = a.description;
  if (has(a, "patch")) {
    if (!existing) throw new Refusal("patch is only valid when updating an existing initiative");
    input.content = applyPatch(existing.content ?? "", a.patch as unknown[]);
  }
  if (a.owner === null) input.ownerId = null;
  else if (str(a.owner)) input.ownerId = await userId(call, a.owner as string);
  if (strs(a.parentInitiatives).length) throw new Refusal("This twin of Linear does not model parent initiatives.");
  let id: string;
  if (existing) {
    id = existing.id;
    await gql(call, "mutation($id: String!, $input: InitiativeUpdateInput!) { initiativeUpdate(id: $id, input: $input) { success } }", {
      id,
      input,
    });
  } else {
    if (!str(a.name)) throw new Refusal("name is required when creating an initiative");
    const d = await gql<{ initiativeCreate: { initiative: { id: string } } }>(
      call,
      "mutation($input: InitiativeCreateInput!) { initiativeCreate(input: $input) { initiative { id } } }",
      { input },
    );
    id = d.initiativeCreate.initiative.id;
  }
  return getInitiative({ query: id }, call);
}

// ---- Teams, users, statuses, labels, cycles, workspace, attachments -----------------------------

async function listTeams(a: Args, call: Call) {
  const f: Json = { ...dateFilters(a) };
  if (str(a.query)) f.or = [{ name: { containsIgnoreCase: a.query } }, { key: { eqIgnoreCase: a.query } }];
  const d = await gql<{ teams: Conn<Json> }>(
    call,
    `query($filter: TeamFilter, ${PAGE_VARS}) { teams(filter: $filter, ${PAGE_ARGS}) { nodes { ${TEAM} } ${PAGE_INFO} } }`,
    { filter: f, ...page(a) },
  );
  return listed("teams", d.teams, (t) => t);
}

async function getTeam(a: Args, call: Call) {
  const id = await teamId(call, a.query as string);
  const d = await gql<{ team: Json & { states: Conn<Json>; labels: Conn<Json>; members: Conn<Json> } }>(
    call,
    `query($id: String!) { team(id: $id) { ${TEAM} states(first: 250) { nodes { id name type } } labels(first: 250) { nodes { id name color } } members(first: 250) { nodes { id name email } } } }`,
    { id },
  );
  const { states, labels, members, ...rest } = d.team;
  return { ...rest, issueStatuses: states.nodes, labels: labels.nodes, members: members.nodes };
}

async function listUsers(a: Args, call: Call) {
  let nodes: Json[];
  let pageInfo: Conn<Json>["pageInfo"];
  if (str(a.team)) {
    const d = await gql<{ team: { members: Conn<Json> } }>(
      call,
      `query($id: String!, $first: Int, $after: String) { team(id: $id) { members(first: $first, after: $after) { nodes { ${USER} } ${PAGE_INFO} } } }`,
      { id: await teamId(call, a.team as string), first: page(a).first, after: page(a).after },
    );
    ({ nodes, pageInfo } = d.team.members);
  } else {
    const d = await gql<{ users: Conn<Json> }>(
      call,
      `query(${PAGE_VARS}) { users(${PAGE_ARGS}) { nodes { ${USER} } ${PAGE_INFO} } }`,
      page(a),
    );
    ({ nodes, pageInfo } = d.users);
  }
  if (str(a.query)) {
    const q = lower(a.query as string);
    nodes = nodes.filter((u) => [u.name, u.email, u.displayName].some((v) => typeof v === "string" && lower(v).includes(q)));
  }
  return listed("users", { nodes, pageInfo }, (u) => u);
}

async function getUser(a: Args, call: Call) {
  const id = await userId(call, a.query as string);
  return (await gql<{ user: Json }>(call, `query($id: String!) { user(id: $id) { ${USER} } }`, { id })).user;
}

async function listIssueStatuses(a: Args, call: Call) {
  const d = await gql<{ team: { states: Conn<Json> } }>(
    call,
    "query($id: String!) { team(id: $id) { states(first: 250) { nodes { id name type color position description } } } }",
    { id: await teamId(call, a.team as string) },
  );
  return d.team.states.nodes;
}

async function getIssueStatus(a: Args, call: Call) {
  const states = (await listIssueStatuses({ team: a.team }, call)) as (Named & Json)[];
  const byId = states.find((s) => s.id === a.id);
  return byId ?? pick("Issue status", a.name as string, states);
}

async function listIssueLabels(a: Args, call: Call) {
  const f: Json = {};
  if (str(a.name)) f.name = { containsIgnoreCase: a.name };
  if (str(a.team)) f.team = { id: { eq: await teamId(call, a.team as string) } };
  const d = await gql<{ issueLabels: Conn<Json> }>(
    call,
    `query($filter: IssueLabelFilter, ${PAGE_VARS}) { issueLabels(filter: $filter, ${PAGE_ARGS}) { nodes { id name color description isGroup createdAt updatedAt parent { id name } team { id name } } ${PAGE_INFO} } }`,
    { filter: f, ...page(a) },
  );
  return listed("labels", d.issueLabels, (l) => l);
}

async function createIssueLabel(a: Args, call: Call) {
  const input: Json = { name: a.name };
  for (const k of ["description", "color"]) if (has(a, k)) input[k] = a[k];
  // The schema's default (false) is Linear's own; only a group is asked for.
  if (a.isGroup === true) input.isGroup = true;
  if (str(a.teamId)) input.teamId = await teamId(call, a.teamId as string);
  if (str(a.parent)) {
    const [parent] = await labelIds(call, input.teamId as string | undefined, [a.parent as string]);
    input.parentId = parent;
  }
  const d = await gql<{ issueLabelCreate: { issueLabel: Json } }>(
    call,
    "mutation($input: IssueLabelCreateInput!) { issueLabelCreate(input: $input) { issueLabel { id name color description isGroup parent { id name } team { id name } } } }",
    { input },
  );
  return d.issueLabelCreate.issueLabel;
}

async function listCycles(a: Args, call: Call) {
  const filter: Json = {};
  if (a.type === "current") filter.isActive = { eq: true };
  if (a.type === "previous") filter.isPrevious = { eq: true };
  if (a.type === "next") filter.isNext = { eq: true };
  const d = await gql<{ team: { cycles: Conn<Json> } }>(
    call,
    "query($id: String!, $filter: CycleFilter) { team(id: $id) { cycles(first: 250, filter: $filter) { nodes { id number name description startsAt endsAt completedAt progress isActive isNext isPrevious } } } }",
    { id: await teamId(call, a.teamId as string), filter },
  );
  return d.team.cycles.nodes;
}

async function getWorkspace(_a: Args, call: Call) {
  const d = await gql<{ organization: Json }>(call, "query { organization { id name urlKey logoUrl createdAt userCount } }");
  return d.organization;
}

const ATTACHMENT = "id title subtitle url sourceType metadata createdAt updatedAt creator { id name } issue { id identifier }";

async function getAttachment(a: Args, call: Call) {
  return (await gql<{ attachment: Json }>(call, `query($id: String!) { attachment(id: $id) { ${ATTACHMENT} } }`, { id: a.id })).attachment;
}

async function attachUpload(a: Args, call: Call) {
  const input: Json = { issueId: (await issueRef(call, a.issue as string)).id, url: a.assetUrl, title: str(a.title) ?? "Attachment" };
  if (str(a.subtitle)) input.subtitle = a.subtitle;
  const d = await gql<{ attachmentCreate: { attachment: Json } }>(
    call,
    `mutation($input: AttachmentCreateInput!) { attachmentCreate(input: $input) { attachment { ${ATTACHMENT} } } }`,
    { input },
  );
  return d.attachmentCreate.attachment;
}

// ---- The set -------------------------------------------------------------------------------------

const RELEASES = "releases, release pipelines or release notes";
const DIFFS = "code diffs, their review threads or merges";

const RUNS: Record<string, (a: Args, call: Call) => Promise<Result>> = {
  get_attachment: tool(getAttachment),
  prepare_attachment_upload: async () => notModelled("file uploads (no signed upload URL is issued)"),
  create_attachment_from_upload: tool(attachUpload),
  create_attachment: async () => notModelled("file uploads (base64 content is not stored)"),
  delete_attachment: async () => notModelled("deleting attachments (attachmentDelete)"),
  list_agent_skills: async () => notModelled("agent skills"),
  get_agent_skill: async () => notModelled("agent skills"),
  list_comments: tool(listComments),
  save_comment: tool(saveComment),
  delete_comment: tool(async (a, call) => {
    await gql(call, "mutation($id: String!) { commentDelete(id: $id) { success } }", { id: a.id });
    return { id: a.id, deleted: true };
  }),
  list_cycles: tool(listCycles),
  get_document: tool(
    async (a, call) =>
      (await gql<{ document: Json }>(call, `query($id: String!) { document(id: $id) { ${DOCUMENT} } }`, { id: a.id })).document,
  ),
  list_documents: tool(listDocuments),
  save_document: tool(saveDocument),
  extract_images: async () => notModelled("uploaded images (no file is stored to extract)"),
  get_issue: tool(async (a, call) => {
    if (a.includeReleases === true) throw new Refusal(`This twin of Linear does not model ${RELEASES}.`);
    if (a.includeCustomerNeeds === true) throw new Refusal("This twin of Linear does not model customer needs.");
    return getIssue(a, call);
  }),
  list_issues: tool(listIssues),
  save_issue: tool(saveIssue),
  list_issue_statuses: tool(listIssueStatuses),
  get_issue_status: tool(getIssueStatus),
  list_issue_labels: tool(listIssueLabels),
  create_issue_label: tool(createIssueLabel),
  list_projects: tool(listProjects),
  get_project: tool(getProject),
  save_project: tool(saveProject),
  list_project_labels: async () => notModelled("project labels"),
  list_release_pipelines: async () => notModelled(RELEASES),
  list_releases: async () => notModelled(RELEASES),
  get_release: async () => notModelled(RELEASES),
  save_release: async () => notModelled(RELEASES),
  list_release_notes: async () => notModelled(RELEASES),
  get_release_note: async () => notModelled(RELEASES),
  save_release_note: async () => notModelled(RELEASES),
  get_diff: async () => notModelled(DIFFS),
  list_diffs: async () => notModelled(DIFFS),
  get_diff_threads: async () => notModelled(DIFFS),
  save_diff_comment: async () => notModelled(DIFFS),
  resolve_diff_thread: async () => notModelled(DIFFS),
  delete_diff_comment: async () => notModelled(DIFFS),
  submit_diff_review: async () => notModelled(DIFFS),
  merge_diff: async () => notModelled(DIFFS),
  list_milestones: tool(listMilestones),
  get_milestone: tool(getMilestone),
  save_milestone: tool(saveMilestone),
  list_teams: tool(listTeams),
  get_team: tool(getTeam),
  list_users: tool(listUsers),
  get_user: tool(getUser),
  get_workspace: tool(getWorkspace),
  search_documentation: async () => notModelled("Linear's documentation (there is nothing to search)"),
  list_initiatives: tool(listInitiatives),
  get_initiative: tool(getInitiative),
  save_initiative: tool(saveInitiative),
  list_initiative_labels: async () => notModelled("initiative labels"),
  create_initiative_label: async () => notModelled("initiative labels"),
  get_status_updates: tool(getStatusUpdates),
  save_status_update: tool(saveStatusUpdate),
  delete_status_update: tool(async (a, call) => {
    projectUpdatesOnly(a);
    await gql(call, "mutation($id: String!) { projectUpdateDelete(id: $id) { success } }", { id: a.id });
    return { id: a.id, deleted: true };
  }),
};

export const linearOfficialTools: OfficialToolSet = officialToolSet(published, RUNS);
