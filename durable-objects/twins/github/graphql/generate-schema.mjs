#!/usr/bin/env node
// Derives the GitHub twin's GraphQL schema from GitHub's public schema (@octokit/graphql-schema,
// MIT): every type, field and argument below is copied with GitHub's own name, type, nullability
// and default, so the twin declares a subset of GitHub's schema and nothing of its own. A field
// lists the arguments the twin honours; an argument GitHub requires must be listed. Enums are
// copied whole; input objects, interfaces and unions keep the members listed. Run it again when
// the list changes:  node durable-objects/twins/github/graphql/generate-schema.mjs
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import {
  GraphQLEnumType,
  GraphQLInputObjectType,
  GraphQLInterfaceType,
  GraphQLNonNull,
  GraphQLScalarType,
  GraphQLUnionType,
  astFromValue,
  buildSchema,
  print,
  validateSchema,
} from "graphql";

const root = path.resolve(import.meta.dirname, "../../../..");
const githubSdl = readFileSync(path.join(root, "node_modules/@octokit/graphql-schema/schema.graphql"), "utf8");
const github = buildSchema(githubSdl, { assumeValidSDL: true });
const version = JSON.parse(readFileSync(path.join(root, "node_modules/@octokit/graphql-schema/package.json"), "utf8")).version;

const conn = (node) => ({
  [`${node}Connection`]: "edges nodes pageInfo totalCount",
  [`${node}Edge`]: "cursor node",
});
const page = "first after last before";

/** Type name → its members: fields as `name` or `name(arg arg)`, separated by spaces. */
const SPEC = {
  Query: `viewer user(login) organization(login) repository(owner name followRenames) node(id) nodes(ids)
    search(query type ${page}) rateLimit(dryRun)`,
  Mutation: `addComment(input) createIssue(input) updateIssue(input) closeIssue(input) reopenIssue(input)
    addLabelsToLabelable(input) removeLabelsFromLabelable(input) addAssigneesToAssignable(input)
    removeAssigneesFromAssignable(input)
    createPullRequest(input) updatePullRequest(input) mergePullRequest(input) addPullRequestReview(input)
    submitPullRequestReview(input) requestReviews(input) createCommitOnBranch(input) transferIssue(input)
    addPullRequestReviewThread(input) addPullRequestReviewThreadReply(input) resolveReviewThread(input)
    unresolveReviewThread(input)`,
  Node: "id",
  Actor: "login avatarUrl(size) url resourcePath",
  RepositoryOwner: "id login avatarUrl(size) url resourcePath repository(name followRenames)",
  UniformResourceLocatable: "url resourcePath",
  GitObject: "id oid abbreviatedOid repository commitUrl commitResourcePath",
  Labelable: `labels(${page})`,
  Assignable: `assignees(${page})`,
  Closable: "closed closedAt viewerCanClose viewerCanReopen",
  User: "id databaseId login name email url resourcePath avatarUrl(size) isViewer createdAt repository(name followRenames)",
  Organization: "id databaseId login name email url resourcePath avatarUrl(size) createdAt repository(name followRenames)",
  Repository: `id databaseId name nameWithOwner owner description url resourcePath isPrivate isArchived isFork visibility
    createdAt updatedAt pushedAt defaultBranchRef hasIssuesEnabled hasWikiEnabled mergeCommitAllowed rebaseMergeAllowed
    squashMergeAllowed viewerPermission parent
    issues(${page} states labels orderBy filterBy) issue(number) issueOrPullRequest(number)
    pullRequests(${page} states labels headRefName baseRefName orderBy) pullRequest(number)
    labels(${page} query) label(name) milestones(${page} states) milestone(number)
    refs(refPrefix ${page} query) ref(qualifiedName) object(expression oid)`,
  Issue: `id databaseId number title body state stateReason url resourcePath createdAt updatedAt closedAt closed locked
    author repository milestone labels(${page}) assignees(${page}) comments(${page}) viewerCanClose viewerCanReopen
    reactionGroups projectCards(${page})`,
  PullRequest: `id databaseId number title body state url resourcePath permalink createdAt updatedAt closedAt closed locked
    merged mergedAt mergedBy isDraft headRefName baseRefName headRefOid baseRefOid headRef baseRef mergeable mergeCommit
    headRepository headRepositoryOwner isCrossRepository maintainerCanModify additions deletions changedFiles
    author repository milestone labels(${page}) assignees(${page}) comments(${page})
    reviews(${page} states author) reviewRequests(${page}) reviewThreads(${page}) viewerCanClose viewerCanReopen
    reactionGroups projectCards(${page}) commits(${page})`,
  IssueComment: `id databaseId body author createdAt updatedAt url issue authorAssociation includesCreatedEdit isMinimized
    minimizedReason reactionGroups viewerDidAuthor`,
  PullRequestReview: `id databaseId body state author submittedAt createdAt url pullRequest comments(${page})
    authorAssociation commit reactionGroups`,
  PullRequestReviewThread: `id isResolved isOutdated isCollapsed path line startLine originalLine originalStartLine diffSide
    startDiffSide subjectType resolvedBy viewerCanResolve viewerCanUnresolve viewerCanReply pullRequest repository
    comments(${page})`,
  PullRequestReviewComment: `id databaseId body author createdAt updatedAt publishedAt url resourcePath path line startLine
    originalLine originalStartLine diffHunk outdated state subjectType commit originalCommit pullRequest pullRequestReview
    replyTo repository viewerDidAuthor`,
  ReviewRequest: "id requestedReviewer pullRequest",
  Team: `id databaseId name slug combinedSlug description privacy createdAt updatedAt url resourcePath organization
    parentTeam`,
  Label: "id name color description url resourcePath isDefault repository",
  Milestone: `id number title description state dueOn url resourcePath closed closedAt createdAt updatedAt repository
    viewerCanClose viewerCanReopen`,
  Ref: "id name prefix target repository",
  Commit: `id oid abbreviatedOid message messageHeadline messageBody committedDate authoredDate author committer tree
    parents(${page}) url resourcePath commitUrl commitResourcePath repository statusCheckRollup
    authors(${page})`,
  ReactionGroup: `content users(${page}) viewerHasReacted`,
  ReactingUserConnection: "nodes pageInfo totalCount",
  ProjectCard: "id project column",
  Project: "id name",
  ProjectColumn: "id name",
  PullRequestCommit: "id commit pullRequest url resourcePath",
  StatusCheckRollup: `id state commit contexts(${page})`,
  StatusCheckRollupContextConnection: "nodes pageInfo totalCount checkRunCount statusContextCount",
  StatusCheckRollupContext: "CheckRun StatusContext",
  StatusContext: "id context state description targetUrl createdAt creator commit",
  CheckRun: "id databaseId name status conclusion startedAt completedAt detailsUrl checkSuite",
  CheckSuite: "id databaseId status conclusion createdAt updatedAt workflowRun",
  WorkflowRun: "id databaseId runNumber event createdAt updatedAt workflow",
  Workflow: "id databaseId name",
  Tree: "id oid abbreviatedOid entries repository commitUrl commitResourcePath",
  TreeEntry: "name path oid type mode size extension object repository",
  Blob: "id oid abbreviatedOid text byteSize isBinary isTruncated repository commitUrl commitResourcePath",
  GitActor: "name email date user",
  GitActorConnection: "nodes pageInfo totalCount",
  RateLimit: "cost limit nodeCount remaining resetAt used",
  PageInfo: "hasNextPage hasPreviousPage startCursor endCursor",
  ...conn("Issue"),
  ...conn("PullRequest"),
  ...conn("Label"),
  ...conn("Milestone"),
  ...conn("Ref"),
  ...conn("IssueComment"),
  ...conn("User"),
  ...conn("PullRequestReview"),
  ...conn("ReviewRequest"),
  ...conn("PullRequestReviewThread"),
  ...conn("PullRequestReviewComment"),
  ...conn("Commit"),
  ...conn("ProjectCard"),
  ...conn("PullRequestCommit"),
  SearchResultItemConnection: "edges nodes pageInfo issueCount repositoryCount userCount",
  SearchResultItemEdge: "cursor node",
  SearchResultItem: "Issue PullRequest Repository User Organization",
  IssueOrPullRequest: "Issue PullRequest",
  RequestedReviewer: "User Team",
  CreateIssuePayload: "clientMutationId issue",
  UpdateIssuePayload: "clientMutationId issue actor",
  CloseIssuePayload: "clientMutationId issue",
  ReopenIssuePayload: "clientMutationId issue",
  AddCommentPayload: "clientMutationId commentEdge subject",
  AddLabelsToLabelablePayload: "clientMutationId labelable",
  RemoveLabelsFromLabelablePayload: "clientMutationId labelable",
  AddAssigneesToAssignablePayload: "clientMutationId assignable",
  RemoveAssigneesFromAssignablePayload: "clientMutationId assignable",
  AddPullRequestReviewThreadPayload: "clientMutationId thread",
  AddPullRequestReviewThreadReplyPayload: "clientMutationId comment",
  ResolveReviewThreadPayload: "clientMutationId thread",
  UnresolveReviewThreadPayload: "clientMutationId thread",
  CreatePullRequestPayload: "clientMutationId pullRequest",
  UpdatePullRequestPayload: "clientMutationId pullRequest actor",
  MergePullRequestPayload: "clientMutationId pullRequest actor",
  AddPullRequestReviewPayload: "clientMutationId pullRequestReview reviewEdge",
  SubmitPullRequestReviewPayload: "clientMutationId pullRequestReview",
  RequestReviewsPayload: "clientMutationId pullRequest actor",
  CreateCommitOnBranchPayload: "clientMutationId commit ref",
  TransferIssuePayload: "clientMutationId issue",
  TransferIssueInput: "issueId repositoryId createLabelsIfMissing clientMutationId",
  CreateIssueInput: "repositoryId title body assigneeIds labelIds milestoneId clientMutationId",
  UpdateIssueInput: "id title body state assigneeIds labelIds milestoneId clientMutationId",
  CloseIssueInput: "issueId stateReason clientMutationId",
  ReopenIssueInput: "issueId clientMutationId",
  AddCommentInput: "subjectId body clientMutationId",
  AddLabelsToLabelableInput: "labelableId labelIds clientMutationId",
  RemoveLabelsFromLabelableInput: "labelableId labelIds clientMutationId",
  AddAssigneesToAssignableInput: "assignableId assigneeIds clientMutationId",
  RemoveAssigneesFromAssignableInput: "assignableId assigneeIds clientMutationId",
  AddPullRequestReviewThreadInput: `body path line side startLine startSide subjectType pullRequestId pullRequestReviewId
    clientMutationId`,
  AddPullRequestReviewThreadReplyInput: "body pullRequestReviewThreadId pullRequestReviewId clientMutationId",
  ResolveReviewThreadInput: "threadId clientMutationId",
  UnresolveReviewThreadInput: "threadId clientMutationId",
  CreatePullRequestInput: "repositoryId baseRefName headRefName title body draft clientMutationId",
  UpdatePullRequestInput: "pullRequestId title body baseRefName state assigneeIds labelIds milestoneId clientMutationId",
  MergePullRequestInput: "pullRequestId mergeMethod commitHeadline commitBody expectedHeadOid clientMutationId",
  AddPullRequestReviewInput: "pullRequestId body event commitOID clientMutationId",
  SubmitPullRequestReviewInput: "pullRequestId pullRequestReviewId event body clientMutationId",
  RequestReviewsInput: "pullRequestId userIds teamIds union clientMutationId",
  CreateCommitOnBranchInput: "branch expectedHeadOid fileChanges message clientMutationId",
  CommittableBranch: "branchName id repositoryNameWithOwner",
  FileChanges: "additions deletions",
  FileAddition: "path contents",
  FileDeletion: "path",
  CommitMessage: "headline body",
  IssueOrder: "field direction",
  IssueFilters: "assignee createdBy labels mentioned milestone milestoneNumber since states",
};

/** Members of a spec entry: `[name, args | undefined]`. */
function members(text) {
  const out = [];
  for (const m of text.matchAll(/(\w+)(?:\(([^)]*)\))?/g)) out.push([m[1], m[2]?.trim().split(/\s+/).filter(Boolean)]);
  return out;
}

const named = (type) => (type.ofType ? named(type.ofType) : type);
const reached = new Set();
const description = (d) => (d ? `"""${d.replaceAll('"""', '\\"""')}"""\n` : "");
const value = (v, type) => print(astFromValue(v, type));

function fieldSdl(typeName, field, args) {
  const wanted = args ?? [];
  for (const a of field.args ?? []) {
    if (a.type instanceof GraphQLNonNull && a.defaultValue === undefined && !wanted.includes(a.name))
      throw new Error(`${typeName}.${field.name} requires ${a.name}`);
  }
  const declared = wanted.map((name) => {
    const a = field.args.find((x) => x.name === name);
    if (!a) throw new Error(`${typeName}.${field.name} has no argument ${name}`);
    reached.add(named(a.type).name);
    return `${name}: ${a.type}${a.defaultValue !== undefined ? ` = ${value(a.defaultValue, a.type)}` : ""}`;
  });
  reached.add(named(field.type).name);
  return `  ${field.name}${declared.length ? `(${declared.join(", ")})` : ""}: ${field.type}`;
}

function typeSdl(name) {
  const type = github.getType(name);
  if (!type) throw new Error(`GitHub has no type ${name}`);
  const spec = SPEC[name];
  if (type instanceof GraphQLScalarType) return `${description(type.description)}scalar ${name}`;
  if (type instanceof GraphQLEnumType)
    return `${description(type.description)}enum ${name} {\n${type
      .getValues()
      .map((v) => `  ${v.name}`)
      .join("\n")}\n}`;
  if (spec === undefined) throw new Error(`${name} is reached but not listed`);
  if (type instanceof GraphQLUnionType) {
    const names = members(spec).map(([n]) => n);
    for (const n of names) if (!type.getTypes().some((t) => t.name === n)) throw new Error(`${n} is not a member of ${name}`);
    return `${description(type.description)}union ${name} = ${names.join(" | ")}`;
  }
  const fields = type.getFields();
  const body = members(spec).map(([field, args]) => {
    const f = fields[field];
    if (!f) throw new Error(`GitHub's ${name} has no field ${field}`);
    if (type instanceof GraphQLInputObjectType) {
      reached.add(named(f.type).name);
      return `  ${field}: ${f.type}${f.defaultValue !== undefined ? ` = ${value(f.defaultValue, f.type)}` : ""}`;
    }
    return fieldSdl(name, f, args);
  });
  if (type instanceof GraphQLInputObjectType) {
    for (const f of Object.values(fields))
      if (f.type instanceof GraphQLNonNull && f.defaultValue === undefined && !body.some((b) => b.startsWith(`  ${f.name}:`)))
        throw new Error(`${name}.${f.name} is required by GitHub`);
    return `${description(type.description)}input ${name} {\n${body.join("\n")}\n}`;
  }
  const kind = type instanceof GraphQLInterfaceType ? "interface" : "type";
  // An interface is declared implemented only where the type lists every field the twin gives it
  // (GitHub's own schema says Query implements Node without an \`id\`).
  const own = new Set(members(spec).map(([n]) => n));
  const interfaces = (type.getInterfaces?.() ?? [])
    .map((i) => i.name)
    .filter((i) => SPEC[i] !== undefined && members(SPEC[i]).every(([n]) => own.has(n)));
  return `${description(type.description)}${kind} ${name}${interfaces.length ? ` implements ${interfaces.join(" & ")}` : ""} {\n${body.join("\n")}\n}`;
}

// Every listed type, then whatever their fields and arguments reach (enums and scalars).
for (const name of Object.keys(SPEC)) reached.add(name);
const done = new Map();
let grew = true;
while (grew) {
  grew = false;
  for (const name of [...reached]) {
    if (done.has(name) || ["String", "Int", "Boolean", "ID", "Float"].includes(name)) continue;
    done.set(name, typeSdl(name));
    grew = true;
  }
}
// A union member or an implementation must be declared too.
for (const name of Object.keys(SPEC)) {
  const type = github.getType(name);
  if (type instanceof GraphQLUnionType) for (const [n] of members(SPEC[name])) if (!done.has(n)) throw new Error(`${n} not declared`);
}
const sdl = [...done.keys()]
  .sort()
  .map((n) => done.get(n))
  .join("\n\n");
const problems = validateSchema(buildSchema(sdl));
if (problems.length) throw new Error(problems.map((e) => e.message).join("\n"));
const out = `// Generated by durable-objects/twins/github/graphql/generate-schema.mjs from GitHub's public schema
// (@octokit/graphql-schema@${version}, MIT). Do not edit by hand: change the list in the script and run it.
// Kept as a string: the schema is built on first use, not at import.

/** The twin's schema: the part of GitHub's that it serves, with GitHub's own names and types. */
export const GITHUB_TWIN_SDL = ${JSON.stringify(sdl)};

/** The @octokit/graphql-schema version the schema was taken from. */
export const GITHUB_SCHEMA_VERSION = ${JSON.stringify(version)};
`;
writeFileSync(path.join(import.meta.dirname, "schema-sdl.ts"), out);
console.log(`wrote ${done.size} types`);
