// Repository lifecycle: create (for the authenticated user or an organization), update (settings,
// rename, default branch, archive), delete, fork and list forks, and transfer. Shapes:
// @octokit/openapi `full-repository` (create 201, update 200, fork 202) and `minimal-repository`
// (forks list, transfer 202). GitHub's refusals: a taken name is 422 "Repository creation failed."
// with `name already exists on this account`; an archived repository refuses edits with 403
// "Repository was archived so is read-only." until it is unarchived.
import { z } from "zod";
import type { Route, TwinContext } from "../../types";
import { ok, storeOf } from "../context";
import { lenient, pageQuery, repoParams, route } from "../declare";
import { fail, ghError, ghNoContent, ghNotFound, ghValidationFailed } from "../errors";
import { pageOf, paged } from "../pagination";
import { findRepoByName, findUser, requireRepo, type RepoRow } from "../repos";
import { View } from "../serialize";
import { findBranch } from "../store/git";
import {
  createRepository,
  DEFAULT_SETTINGS,
  deleteRepository,
  forkRepository,
  nameTaken,
  type RepoSettings,
  checkedName,
  settingsOf,
  type SettingName,
  withSettings,
} from "../store/repo-admin";

const flag = (what: string) => z.boolean().optional().describe(what);

/** The switches create and update both take, each described once. */
const settingFields = {
  has_issues: flag("Turn issues on or off"),
  has_projects: flag("Turn projects on or off"),
  has_wiki: flag("Turn the wiki on or off"),
  has_discussions: flag("Turn discussions on or off"),
  is_template: flag("Make it a template repository"),
  allow_squash_merge: flag("Allow squash-merging pull requests"),
  allow_merge_commit: flag("Allow merge commits"),
  allow_rebase_merge: flag("Allow rebase-merging pull requests"),
  allow_auto_merge: flag("Allow auto-merge"),
  delete_branch_on_merge: flag("Delete head branches once their pull request is merged"),
  allow_update_branch: flag("Suggest updating pull request branches"),
  allow_forking: flag("Allow forking (organization repositories)"),
  web_commit_signoff_required: flag("Require sign-off on web commits"),
} satisfies Record<SettingName, z.ZodType>;

const commonFields = {
  description: z.string().nullable().optional().describe("A short description"),
  homepage: z.string().nullable().optional().describe("A URL with more information"),
  private: z.boolean().optional().describe("Whether it is private"),
  visibility: lenient(z.enum(["public", "private", "internal"])).describe("public, private or internal (read as private)"),
  ...settingFields,
};

const createBody = {
  name: z.string().describe("The repository's name; characters other than letters, digits, . - _ become -"),
  ...commonFields,
  auto_init: z.boolean().optional().describe("Create a first commit with a README on the default branch"),
  gitignore_template: z.string().optional().describe("Accepted; the twin adds no .gitignore"),
  license_template: z.string().optional().describe("Accepted; the twin adds no license file"),
  team_id: z.number().int().optional().describe("Accepted; teams are not modelled"),
};
type CreateBody = z.output<z.ZodObject<typeof createBody>>;

const isPrivate = (b: { private?: boolean; visibility?: string }, fallback: boolean) =>
  b.visibility !== undefined ? b.visibility !== "public" : (b.private ?? fallback);

function createFor(ctx: TwinContext, owner: string, body: CreateBody) {
  const name = checkedName(body.name, "Repository", "Repository creation failed.");
  const s = storeOf(ctx);
  const created = createRepository(s, {
    owner,
    name,
    description: body.description || null,
    homepage: body.homepage || null,
    private: isPrivate(body, false),
    settings: withSettings(DEFAULT_SETTINGS, body),
    autoInit: body.auto_init ?? false,
    defaultBranch: "main",
  });
  return ok(new View(ctx).fullRepository(created), 201);
}

const updateBody = {
  name: z.string().optional().describe("A new name (renames the repository)"),
  ...commonFields,
  default_branch: z.string().optional().describe("The branch pull requests and clones start from; it must exist"),
  archived: z.boolean().optional().describe("Archive (read-only) or unarchive"),
};
type UpdateBody = z.output<z.ZodObject<typeof updateBody>>;

/** The new name an update asks for, checked as creation checks it. */
function renameTo(ctx: TwinContext, r: RepoRow, wanted: string | undefined): string {
  if (wanted === undefined || wanted === r.name) return r.name;
  const name = checkedName(wanted);
  const clash = findRepoByName(ctx.db, r.owner, name);
  if (clash && clash.id !== r.id) fail(nameTaken("Validation Failed"));
  return name;
}

function updateRepository(ctx: TwinContext, r: RepoRow, body: UpdateBody) {
  // Only unarchiving is open on an archived repository; the rest of the request applies with it.
  if (r.archived && body.archived !== false) fail(ghError(403, "Repository was archived so is read-only."));
  const name = renameTo(ctx, r, body.name);
  const branch = body.default_branch ?? r.default_branch;
  if (body.default_branch !== undefined && body.default_branch !== r.default_branch && !findBranch(ctx.db, r.id, body.default_branch))
    fail(ghValidationFailed([{ resource: "Repository", code: "invalid", field: "default_branch", value: body.default_branch }]));
  const settings: RepoSettings = withSettings(settingsOf(r), body);
  const s = storeOf(ctx);
  ctx.db.run(
    `UPDATE gh_repos SET name = ?, description = ?, homepage = ?, private = ?, default_branch = ?, archived = ?, settings = ?, updated_at = ?
     WHERE id = ?`,
    name,
    body.description !== undefined ? body.description : r.description,
    body.homepage !== undefined ? body.homepage : r.homepage,
    isPrivate(body, r.private === 1) ? 1 : 0,
    branch,
    body.archived !== undefined ? (body.archived ? 1 : 0) : r.archived,
    JSON.stringify(settings),
    s.now,
    r.id,
  );
  const updated = requireRepo({ ...ctx, params: { ...ctx.params, owner: r.owner, repo: name } });
  return ok(new View(ctx).fullRepository(updated));
}

const FORK_SORTS = { newest: "created_at DESC", oldest: "created_at ASC", stargazers: "stargazers DESC", watchers: "stargazers DESC" };

function listForks(ctx: TwinContext, sort: keyof typeof FORK_SORTS | undefined) {
  const r = requireRepo(ctx);
  const page = pageOf(ctx);
  const rows = ctx.db.all<RepoRow>(
    `SELECT * FROM gh_repos WHERE fork_of = ? ORDER BY ${FORK_SORTS[sort ?? "newest"]}, id LIMIT ? OFFSET ?`,
    r.id,
    page.limit,
    page.offset,
  );
  const v = new View(ctx);
  return paged(
    ctx,
    rows.map((f) => v.repository(f)),
    page,
    r.forks,
    r.id,
  );
}

/** Moves a repository to another account (GitHub answers 202 and finishes in the background; the twin finishes now). */
function transfer(ctx: TwinContext, r: RepoRow, newOwner: string, newName: string | undefined) {
  const owner = findUser(ctx, newOwner) ?? fail(ghValidationFailed([{ resource: "Repository", code: "invalid", field: "new_owner" }]));
  const wanted = checkedName(newName ?? r.name);
  const clash = findRepoByName(ctx.db, owner.login, wanted);
  if (clash && clash.id !== r.id) fail(nameTaken("Validation Failed"));
  ctx.db.run("UPDATE gh_repos SET owner = ?, name = ?, updated_at = ? WHERE id = ?", owner.login, wanted, storeOf(ctx).now, r.id);
  const moved = requireRepo({ ...ctx, params: { ...ctx.params, owner: owner.login, repo: wanted } });
  return ok(new View(ctx).repository(moved), 202);
}

export const repoAdminRoutes: readonly Route[] = [
  route({
    method: "POST",
    pattern: "/user/repos",
    operation: "repos.createForAuthenticatedUser",
    summary: "Create a repository for the authenticated user",
    resource: "Repository",
    missingField: ["name"],
    body: createBody,
    tool: {
      name: "create_repository",
      description: "Create a repository in your account; auto_init adds a first commit with a README on main.",
    },
    handler: (ctx, { body }) => createFor(ctx, storeOf(ctx).actor, body),
  }),
  route({
    method: "POST",
    pattern: "/orgs/:org/repos",
    operation: "repos.createInOrg",
    summary: "Create an organization repository",
    resource: "Repository",
    missingField: ["name"],
    params: { org: z.string().min(1).describe("The organization's login") },
    body: createBody,
    tool: { name: "create_org_repository", description: "Create a repository in an organization." },
    handler(ctx, { params, body }) {
      const org = findUser(ctx, params.org);
      if (org?.type !== "Organization") return fail(ghNotFound());
      return createFor(ctx, org.login, body);
    },
  }),
  route({
    method: "PATCH",
    pattern: "/repos/:owner/:repo",
    operation: "repos.update",
    summary: "Update a repository",
    resource: "Repository",
    params: repoParams,
    body: updateBody,
    tool: {
      name: "update_repository",
      description: "Change a repository's name, description, homepage, visibility, default branch, features, or archive it.",
    },
    handler: (ctx, { body }) => updateRepository(ctx, requireRepo(ctx), body),
  }),
  route({
    method: "DELETE",
    pattern: "/repos/:owner/:repo",
    operation: "repos.delete",
    summary: "Delete a repository",
    params: repoParams,
    tool: { name: "delete_repository", description: "Delete a repository with its issues, pull requests and history. Irreversible." },
    handler(ctx) {
      deleteRepository(ctx.db, requireRepo(ctx));
      return ghNoContent();
    },
  }),
  route({
    method: "GET",
    pattern: "/repos/:owner/:repo/forks",
    operation: "repos.listForks",
    summary: "List forks",
    params: repoParams,
    query: { sort: lenient(z.enum(["newest", "oldest", "stargazers", "watchers"])).describe("Order (default newest)"), ...pageQuery },
    tool: { name: "list_forks", description: "List a repository's forks, newest first." },
    handler: (ctx, { query }) => listForks(ctx, query.sort),
  }),
  route({
    method: "POST",
    pattern: "/repos/:owner/:repo/forks",
    operation: "repos.createFork",
    summary: "Create a fork",
    resource: "Fork",
    writableWhenArchived: true,
    params: repoParams,
    body: {
      organization: z.string().optional().describe("Fork into this organization instead of your account"),
      name: z.string().optional().describe("A name for the fork (default: the repository's)"),
      default_branch_only: z.boolean().optional().describe("Copy only the default branch"),
    },
    tool: { name: "fork_repository", description: "Fork a repository into your account or an organization; the fork has its branches." },
    handler(ctx, { body }) {
      const source = requireRepo(ctx);
      const s = storeOf(ctx);
      let owner = s.actor;
      if (body.organization !== undefined) {
        const org = findUser(ctx, body.organization);
        if (!org || org.type !== "Organization")
          return fail(ghValidationFailed([{ resource: "Fork", code: "invalid", field: "organization" }]));
        owner = org.login;
      }
      const name = body.name === undefined ? undefined : checkedName(body.name, "Fork");
      const fork = forkRepository(s, source, { owner, name, defaultBranchOnly: body.default_branch_only ?? false });
      return ok(new View(ctx).fullRepository(fork), 202);
    },
  }),
  route({
    method: "POST",
    pattern: "/repos/:owner/:repo/transfer",
    operation: "repos.transfer",
    summary: "Transfer a repository",
    tool: {
      name: "transfer_repository",
      description: "Transfer a repository to another user or organization, optionally under a new name.",
    },
    resource: "Repository",
    writableWhenArchived: true,
    params: repoParams,
    body: {
      new_owner: z.string().describe("The user or organization that will own it"),
      new_name: z.string().optional().describe("A new name for it"),
      team_ids: z.array(z.number().int()).optional().describe("Accepted; teams are not modelled"),
    },
    handler: (ctx, { body }) => transfer(ctx, requireRepo(ctx), body.new_owner, body.new_name),
  }),
];
