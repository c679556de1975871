// The GitHub twin's seed: GitHub's own field names, strict (an unknown key is refused with its
// path), referentially checked, and normalized so that export(boot(seed)) equals parseSeed(seed).
import { z } from "zod";
import { withGeneratedParser } from "../kit/compiled-schema";
import { IdsPerTable, SeedProblems, zodSeedIssues } from "../kit/seed";
import { githubSeedParser } from "./seed-parser.generated";
import type { SeedResult } from "../types";

/** Timestamps a seed leaves out. Fixed, so two boots of one seed are identical worlds. */
export const SEED_EPOCH = "2026-01-01T00:00:00Z";
/** Who the sandbox's credentials act as when the seed names nobody. */
export const DEFAULT_ACTOR = "pome-agent";

const login = z.string().regex(/^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/, "Invalid login");
const timestamp = z.iso.datetime({ offset: true });

const user = z.strictObject({
  login,
  id: z.number().int().positive().optional(),
  type: z.enum(["User", "Organization", "Bot"]).default("User"),
  name: z.string().nullable().default(null),
  email: z.string().nullable().default(null),
});

const label = z.strictObject({
  name: z.string().min(1).max(50),
  id: z.number().int().positive().optional(),
  color: z
    .string()
    .regex(/^[0-9a-fA-F]{6}$/, "Invalid color: six hex digits")
    .default("ededed"),
  description: z.string().nullable().default(null),
});

const comment = z.strictObject({
  id: z.number().int().positive().optional(),
  user: login.optional(),
  body: z.string(),
  created_at: timestamp.optional(),
  updated_at: timestamp.optional(),
});

const milestone = z.strictObject({
  number: z.number().int().positive(),
  title: z.string().min(1),
  state: z.enum(["open", "closed"]).default("open"),
  description: z.string().nullable().default(null),
  due_on: timestamp.nullable().default(null),
});

const issue = z.strictObject({
  number: z.number().int().positive(),
  id: z.number().int().positive().optional(),
  title: z.string().min(1),
  body: z.string().nullable().default(null),
  state: z.enum(["open", "closed"]).default("open"),
  state_reason: z.enum(["completed", "not_planned", "reopened"]).nullable().default(null),
  user: login.optional(),
  labels: z.array(z.string().min(1)).default([]),
  assignees: z.array(login).default([]),
  milestone: z.number().int().positive().nullable().default(null),
  locked: z.boolean().default(false),
  active_lock_reason: z.enum(["off-topic", "too heated", "resolved", "spam"]).nullable().default(null),
  comments: z.array(comment).default([]),
  created_at: timestamp.optional(),
  updated_at: timestamp.optional(),
  closed_at: timestamp.nullable().optional(),
});

const review = z.strictObject({
  id: z.number().int().positive().optional(),
  user: login,
  state: z.enum(["APPROVED", "CHANGES_REQUESTED", "COMMENTED", "DISMISSED", "PENDING"]),
  body: z.string().default(""),
  submitted_at: timestamp.nullable().optional(),
});

const pull = z.strictObject({
  number: z.number().int().positive(),
  id: z.number().int().positive().optional(),
  title: z.string().min(1),
  body: z.string().nullable().default(null),
  state: z.enum(["open", "closed"]).default("open"),
  user: login.optional(),
  head: z.string().min(1),
  base: z.string().min(1).optional(),
  draft: z.boolean().default(false),
  merged: z.boolean().default(false),
  merged_at: timestamp.nullable().optional(),
  merged_by: login.nullable().default(null),
  labels: z.array(z.string().min(1)).default([]),
  assignees: z.array(login).default([]),
  requested_reviewers: z.array(login).default([]),
  reviews: z.array(review).default([]),
  comments: z.array(comment).default([]),
  created_at: timestamp.optional(),
  updated_at: timestamp.optional(),
  closed_at: timestamp.nullable().optional(),
});

const file = z.strictObject({
  path: z
    .string()
    .min(1)
    .regex(/^[^/].*[^/]$|^[^/]$/, "Invalid path: no leading or trailing slash"),
  content: z.string(),
});

const branch = z.strictObject({
  name: z.string().min(1),
  protected: z.boolean().default(false),
  files: z.array(file).default([]),
});

const status = z.strictObject({
  id: z.number().int().positive().optional(),
  ref: z.string().min(1),
  context: z.string().default("default"),
  state: z.enum(["error", "failure", "pending", "success"]),
  description: z.string().nullable().default(null),
  target_url: z.string().nullable().default(null),
  creator: login.optional(),
  created_at: timestamp.optional(),
});

const repoName = z.string().regex(/^[A-Za-z0-9_.-]+$/, "Invalid repository name");

const repository = z.strictObject({
  owner: login,
  name: repoName,
  id: z.number().int().positive().optional(),
  description: z.string().nullable().default(null),
  private: z.boolean().default(false),
  default_branch: z.string().min(1).default("main"),
  topics: z.array(z.string()).default([]),
  archived: z.boolean().default(false),
  collaborators: z.array(login).default([]),
  labels: z.array(label).default([]),
  milestones: z.array(milestone).default([]),
  branches: z.array(branch).optional(),
  issues: z.array(issue).default([]),
  pulls: z.array(pull).default([]),
  statuses: z.array(status).default([]),
  created_at: timestamp.optional(),
  updated_at: timestamp.optional(),
});

export const githubSeedSchema = z.strictObject({
  /** The login the sandbox's credentials act as (GET /user). */
  authenticated_user: login.optional(),
  users: z.array(user).default([]),
  repositories: z.array(repository).default([]),
});

type Raw = z.infer<typeof githubSeedSchema>;
type Filled<T, K extends keyof T> = Omit<T, K> & Required<{ [P in K]: NonNullable<T[P]> }>;

export type GithubUser = Filled<Raw["users"][number], "id">;
export type GithubLabel = Filled<Raw["repositories"][number]["labels"][number], "id">;
export type GithubComment = Filled<z.infer<typeof comment>, "id" | "user" | "created_at" | "updated_at">;
export type GithubIssue = Omit<Filled<z.infer<typeof issue>, "id" | "user" | "created_at" | "updated_at">, "comments" | "closed_at"> & {
  closed_at: string | null;
  comments: GithubComment[];
};
export type GithubReview = Omit<Filled<z.infer<typeof review>, "id">, "submitted_at"> & { submitted_at: string | null };
export type GithubPull = Omit<
  Filled<z.infer<typeof pull>, "id" | "user" | "base" | "created_at" | "updated_at">,
  "comments" | "reviews" | "closed_at" | "merged_at"
> & { closed_at: string | null; merged_at: string | null; reviews: GithubReview[]; comments: GithubComment[] };
export type GithubStatus = Filled<z.infer<typeof status>, "id" | "creator" | "created_at">;
export type GithubBranch = z.infer<typeof branch>;
export type GithubMilestone = z.infer<typeof milestone>;
export type GithubRepository = Omit<
  Filled<Raw["repositories"][number], "id" | "branches" | "created_at" | "updated_at">,
  "labels" | "issues" | "pulls" | "statuses"
> & { labels: GithubLabel[]; issues: GithubIssue[]; pulls: GithubPull[]; statuses: GithubStatus[] };

/** The normalized seed: every default filled in. It is also the shape the twin exports. */
export interface GithubSeed {
  authenticated_user: string;
  users: GithubUser[];
  repositories: GithubRepository[];
}

/** Checks references and fills defaults, ids and timestamps deterministically. */
function normalize(raw: Raw): SeedResult<GithubSeed> {
  const problems = new SeedProblems();

  const users = raw.users.map((u) => ({ ...u }));
  const known = new Map(users.map((u) => [u.login.toLowerCase(), u]));
  raw.users.forEach((u, i) => {
    if (raw.users.findIndex((v) => v.login.toLowerCase() === u.login.toLowerCase()) !== i)
      problems.add(`users[${i}].login`, `Duplicate login "${u.login}"`, "duplicate");
  });
  const ensureUser = (login: string, type: "User" | "Organization") => {
    if (!known.has(login.toLowerCase())) {
      const u = { login, type, name: null, email: null } as Raw["users"][number];
      users.push(u);
      known.set(login.toLowerCase(), u);
    }
  };
  const actor = raw.authenticated_user ?? users.find((u) => u.type === "User")?.login ?? DEFAULT_ACTOR;
  ensureUser(actor, "User");
  // An owner named only on its repository is created, as the reference's minimal seeds expect.
  raw.repositories.forEach((r) => ensureUser(r.owner, "Organization"));
  const userExists = (login: string, path: string) => {
    if (!known.has(login.toLowerCase())) problems.add(path, `User "${login}" does not exist in users`);
  };

  let nextId = 1;
  const ids = new Set<number>();
  const idFor = (given: number | undefined) => {
    if (given !== undefined) return given;
    while (ids.has(nextId)) nextId++;
    ids.add(nextId);
    return nextId;
  };
  // An id the seed gives is kept, and must be the only one of its table (an issue and a pull
  // request share one): boot would otherwise stop on the table's primary key. Ids it leaves out
  // are drawn past every given one, so only given ids can collide.
  const given = new IdsPerTable();
  const collect = (table: string, id: number | undefined, path: () => string) => {
    if (id === undefined) return;
    ids.add(id);
    const duplicate = given.claim(table, id, path);
    if (duplicate) problems.add(duplicate.path, duplicate.message, "duplicate");
  };
  raw.users.forEach((u, i) => collect("users", u.id, () => `users[${i}]`));
  raw.repositories.forEach((r, ri) => {
    const at = `repositories[${ri}]`;
    collect("repositories", r.id, () => at);
    r.labels.forEach((l, i) => collect("labels", l.id, () => `${at}.labels[${i}]`));
    r.statuses.forEach((s, i) => collect("statuses", s.id, () => `${at}.statuses[${i}]`));
    for (const kind of ["issues", "pulls"] as const) {
      r[kind].forEach((item, i) => {
        collect("issues", item.id, () => `${at}.${kind}[${i}]`);
        item.comments.forEach((c, ci) => collect("comments", c.id, () => `${at}.${kind}[${i}].comments[${ci}]`));
      });
    }
    r.pulls.forEach((p, i) => p.reviews.forEach((v, vi) => collect("reviews", v.id, () => `${at}.pulls[${i}].reviews[${vi}]`)));
  });

  const seen = new Set<string>();
  const repositories = raw.repositories.map((r, ri): GithubRepository => {
    const at = `repositories[${ri}]`;
    const full = `${r.owner}/${r.name}`.toLowerCase();
    if (seen.has(full)) problems.add(`${at}.name`, `Duplicate repository "${r.owner}/${r.name}"`, "duplicate");
    seen.add(full);
    r.collaborators.forEach((c, i) => userExists(c, `${at}.collaborators[${i}]`));

    const labelNames = new Set<string>();
    r.labels.forEach((l, i) => {
      if (labelNames.has(l.name.toLowerCase())) problems.add(`${at}.labels[${i}].name`, `Duplicate label "${l.name}"`, "duplicate");
      labelNames.add(l.name.toLowerCase());
    });
    const branches = r.branches ?? [{ name: r.default_branch, protected: false, files: [] }];
    const branchNames = new Set(branches.map((b) => b.name));
    if (!branchNames.has(r.default_branch)) problems.add(`${at}.default_branch`, `Branch "${r.default_branch}" does not exist in branches`);
    const milestoneNumbers = new Set(r.milestones.map((m) => m.number));

    const numbers = new Set<number>();
    const claimNumber = (n: number, path: string) => {
      if (numbers.has(n)) problems.add(path, `Number ${n} is already used by another issue or pull request`, "duplicate");
      numbers.add(n);
    };
    const comments = (list: z.infer<typeof comment>[], path: string, fallbackUser: string, createdAt: string) =>
      list.map((c, ci): GithubComment => {
        if (c.user) userExists(c.user, `${path}[${ci}].user`);
        const created = c.created_at ?? createdAt;
        return { id: idFor(c.id), user: c.user ?? fallbackUser, body: c.body, created_at: created, updated_at: c.updated_at ?? created };
      });
    // An issue holds a label or an assignee once; a repeated name would not survive a round trip.
    const repeated = (list: string[], i: number) => list.findIndex((v) => v.toLowerCase() === list[i].toLowerCase()) !== i;
    const checkLabels = (list: string[], path: string) =>
      list.forEach((name, i) => {
        if (!labelNames.has(name.toLowerCase())) problems.add(`${path}[${i}]`, `Label "${name}" is not defined in ${at}.labels`);
        else if (repeated(list, i)) problems.add(`${path}[${i}]`, `Label "${name}" is listed twice`, "duplicate");
      });
    const checkUsers = (list: string[], path: string) =>
      list.forEach((u, i) => {
        userExists(u, `${path}[${i}]`);
        if (repeated(list, i)) problems.add(`${path}[${i}]`, `User "${u}" is listed twice`, "duplicate");
      });

    const outIssues = r.issues.map((it, ii): GithubIssue => {
      const path = `${at}.issues[${ii}]`;
      claimNumber(it.number, `${path}.number`);
      if (it.user) userExists(it.user, `${path}.user`);
      checkLabels(it.labels, `${path}.labels`);
      checkUsers(it.assignees, `${path}.assignees`);
      if (it.milestone !== null && !milestoneNumbers.has(it.milestone))
        problems.add(`${path}.milestone`, `Milestone ${it.milestone} is not defined in ${at}.milestones`);
      const created = it.created_at ?? SEED_EPOCH;
      const closedAt = it.closed_at !== undefined ? it.closed_at : it.state === "closed" ? created : null;
      return {
        ...it,
        id: idFor(it.id),
        user: it.user ?? actor,
        state_reason: it.state_reason ?? (it.state === "closed" ? "completed" : null),
        created_at: created,
        updated_at: it.updated_at ?? created,
        closed_at: closedAt,
        comments: comments(it.comments, `${path}.comments`, it.user ?? actor, created),
      };
    });

    const outPulls = r.pulls.map((p, pi): GithubPull => {
      const path = `${at}.pulls[${pi}]`;
      claimNumber(p.number, `${path}.number`);
      if (p.user) userExists(p.user, `${path}.user`);
      if (!branchNames.has(p.head)) problems.add(`${path}.head`, `Branch "${p.head}" does not exist in ${at}.branches`);
      const base = p.base ?? r.default_branch;
      if (!branchNames.has(base)) problems.add(`${path}.base`, `Branch "${base}" does not exist in ${at}.branches`);
      if (p.merged && p.state !== "closed") problems.add(`${path}.state`, "A merged pull request must be closed", "invalid_value");
      checkLabels(p.labels, `${path}.labels`);
      checkUsers(p.assignees, `${path}.assignees`);
      checkUsers(p.requested_reviewers, `${path}.requested_reviewers`);
      const created = p.created_at ?? SEED_EPOCH;
      const closedAt = p.closed_at !== undefined ? p.closed_at : p.state === "closed" ? created : null;
      return {
        ...p,
        id: idFor(p.id),
        user: p.user ?? actor,
        base,
        created_at: created,
        updated_at: p.updated_at ?? created,
        closed_at: closedAt,
        merged_at: p.merged_at !== undefined ? p.merged_at : p.merged ? closedAt : null,
        merged_by: p.merged_by,
        reviews: p.reviews.map((v, vi) => {
          userExists(v.user, `${path}.reviews[${vi}].user`);
          return {
            ...v,
            id: idFor(v.id),
            submitted_at: v.submitted_at !== undefined ? v.submitted_at : v.state === "PENDING" ? null : created,
          };
        }),
        comments: comments(p.comments, `${path}.comments`, p.user ?? actor, created),
      };
    });

    const statuses = r.statuses.map((s, si): GithubStatus => {
      if (s.creator) userExists(s.creator, `${at}.statuses[${si}].creator`);
      const isSha = /^[0-9a-f]{40}$/.test(s.ref);
      if (!isSha && !branchNames.has(s.ref))
        problems.add(`${at}.statuses[${si}].ref`, `Ref "${s.ref}" is neither a branch nor a commit sha`);
      return { ...s, id: idFor(s.id), creator: s.creator ?? actor, created_at: s.created_at ?? SEED_EPOCH };
    });

    const created = r.created_at ?? SEED_EPOCH;
    return {
      ...r,
      id: idFor(r.id),
      branches,
      labels: r.labels.map((l) => ({ ...l, id: idFor(l.id) })),
      issues: outIssues,
      pulls: outPulls,
      statuses,
      created_at: created,
      updated_at: r.updated_at ?? created,
    };
  });

  return problems.result({ authenticated_user: actor, users: users.map((u) => ({ ...u, id: idFor(u.id) })), repositories });
}

/** The schema with the parser zod's compiler generates for it (built on first use; see kit/compiled-schema.ts). */
let compiledSchema: typeof githubSeedSchema | undefined;

export function parseGithubSeed(raw: unknown): SeedResult<GithubSeed> {
  compiledSchema ??= withGeneratedParser(githubSeedSchema, githubSeedParser);
  const parsed = compiledSchema.safeParse(raw ?? {});
  if (!parsed.success) return { ok: false, issues: zodSeedIssues(parsed.error) };
  return normalize(parsed.data);
}

/** The world a sandbox gets when its seed names nothing for GitHub. */
export function defaultGithubSeed(): GithubSeed {
  const result = parseGithubSeed({
    authenticated_user: "octo-agent",
    users: [
      { login: "acme", type: "Organization", name: "Acme Inc." },
      { login: "octo-agent", name: "Octo Agent" },
      { login: "alice", name: "Alice Smith" },
      { login: "bob", name: "Bob Jones" },
    ],
    repositories: [
      {
        owner: "acme",
        name: "api",
        description: "Acme's public API service",
        collaborators: ["alice", "bob", "octo-agent"],
        labels: [
          { name: "bug", color: "d73a4a", description: "Something isn't working" },
          { name: "enhancement", color: "a2eeef", description: "New feature or request" },
          { name: "documentation", color: "0075ca", description: "Improvements or additions to documentation" },
          { name: "duplicate", color: "cfd3d7", description: "This issue or pull request already exists" },
          { name: "good first issue", color: "7057ff", description: "Good for newcomers" },
        ],
        branches: [
          {
            name: "main",
            files: [
              { path: "README.md", content: "# api\n\nAcme's public API.\n" },
              { path: "src/index.ts", content: 'export const version = "1.0.0";\n' },
            ],
          },
          {
            name: "fix-timeout",
            files: [
              { path: "README.md", content: "# api\n\nAcme's public API.\n" },
              { path: "src/index.ts", content: 'export const version = "1.0.1";\nexport const timeoutMs = 30_000;\n' },
            ],
          },
        ],
        issues: [
          {
            number: 1,
            title: "Requests time out after 10 seconds",
            body: "Long reports fail with a 504 after exactly 10 seconds.",
            user: "alice",
          },
          {
            number: 2,
            title: "Document the pagination headers",
            body: "The README never mentions the Link header.",
            user: "bob",
            labels: ["documentation"],
          },
          {
            number: 3,
            title: "Login fails with an expired session cookie",
            body: "Steps: log in, wait a day, reload.",
            user: "alice",
            labels: ["bug"],
            comments: [{ user: "bob", body: "I can reproduce this on staging." }],
          },
        ],
        pulls: [
          { number: 4, title: "Raise the request timeout to 30 seconds", body: "Fixes #1", user: "bob", head: "fix-timeout", base: "main" },
        ],
        statuses: [{ ref: "fix-timeout", context: "ci/build", state: "success", description: "Build passed" }],
      },
    ],
  });
  if (!result.ok) throw new Error(`default GitHub world is invalid: ${JSON.stringify(result.issues)}`);
  return result.seed;
}
