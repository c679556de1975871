// The GitHub twin's seed: GitHub's own field names, strict (an unknown key is refused with its
// path), referentially checked, and normalized so that export(boot(seed)) equals parseSeed(seed).
import { z } from "zod";
import { withGeneratedParser } from "../kit/compiled-schema";
import { IdsPerTable, SeedProblems, zodSeedIssues } from "../kit/seed";
import { githubSeedParser } from "./seed-parser.generated";
import { type GithubOrganization, normalizeOrgs, orgGivenIds, orgSeedFields } from "./seed-orgs";
import { type CiSeed, ciGivenIds, ciSeedFields, normalizeCi } from "./seed-ci";
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
  /**
   * The numbers this issue had before it was transferred here ("owner/name" and number): each
   * still answers 301 to it (world-links.ts, store/issue-transfer.ts).
   */
  moved_from: z.array(z.strictObject({ repository: z.string().min(1), number: z.number().int().positive() })).default([]),
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

/**
 * An inline review comment on the pull request's diff (REST's pull-request review comment). A
 * comment without `in_reply_to_id` starts a review thread; `resolved_by` marks that thread
 * resolved (GraphQL's PullRequestReviewThread). `commit_id`, `diff_hunk` and `position` are kept
 * as given: a seed that leaves them out has comments on no particular commit.
 */
const reviewComment = z.strictObject({
  id: z.number().int().positive().optional(),
  user: login,
  body: z.string(),
  path: z.string().min(1),
  subject_type: z.enum(["line", "file"]).default("line"),
  line: z.number().int().positive().nullable().default(null),
  side: z.enum(["LEFT", "RIGHT"]).nullable().default(null),
  start_line: z.number().int().positive().nullable().default(null),
  start_side: z.enum(["LEFT", "RIGHT"]).nullable().default(null),
  position: z.number().int().positive().nullable().default(null),
  commit_id: z.string().default(""),
  diff_hunk: z.string().default(""),
  /** The review it belongs to, one of this pull request's `reviews`. */
  review_id: z.number().int().positive().nullable().default(null),
  /** The thread's first comment, an earlier comment of this pull request. */
  in_reply_to_id: z.number().int().positive().nullable().default(null),
  resolved_by: login.nullable().default(null),
  created_at: timestamp.optional(),
  updated_at: timestamp.optional(),
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
  /** Slugs of the owner organization's teams asked to review, each with access to the repository. */
  requested_teams: z.array(z.string().min(1)).default([]),
  reviews: z.array(review).default([]),
  review_comments: z.array(reviewComment).default([]),
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

/** A branch's protection rules (GitHub's PUT …/protection, flattened); declaring them protects the branch. */
const branchProtection = z.strictObject({
  required_status_checks: z.array(z.string().min(1)).default([]),
  strict: z.boolean().default(false),
  required_approving_review_count: z.number().int().min(0).max(6).default(0),
  dismiss_stale_reviews: z.boolean().default(false),
  // Off (GitHub's default), the rules do not bind admins, and the sandbox's user is one: a task
  // whose agent must be held by the rules sets it (store/protection.ts).
  enforce_admins: z.boolean().default(false),
  allow_force_pushes: z.boolean().default(false),
  allow_deletions: z.boolean().default(false),
});

export type GithubBranchProtection = z.output<typeof branchProtection>;

const branch = z.strictObject({
  name: z.string().min(1),
  protected: z.boolean().default(false),
  protection: branchProtection.optional(),
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
  // Actions workflows and runs, check runs, repository webhooks (seed-ci.ts).
  ...ciSeedFields,
});

export const githubSeedSchema = z.strictObject({
  /** The login the sandbox's credentials act as (GET /user). */
  authenticated_user: login.optional(),
  users: z.array(user).default([]),
  repositories: z.array(repository).default([]),
  // Organization members and owners, and teams (seed-orgs.ts).
  ...orgSeedFields,
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
export type GithubReviewComment = Filled<z.infer<typeof reviewComment>, "id" | "created_at" | "updated_at">;
export type GithubPull = Omit<
  Filled<z.infer<typeof pull>, "id" | "user" | "base" | "created_at" | "updated_at">,
  "comments" | "reviews" | "review_comments" | "closed_at" | "merged_at"
> & {
  closed_at: string | null;
  merged_at: string | null;
  reviews: GithubReview[];
  review_comments: GithubReviewComment[];
  comments: GithubComment[];
};
export type GithubStatus = Filled<z.infer<typeof status>, "id" | "creator" | "created_at">;
export type GithubBranch = z.infer<typeof branch>;
export type GithubMilestone = z.infer<typeof milestone>;
export type GithubRepository = Omit<
  Filled<Raw["repositories"][number], "id" | "branches" | "created_at" | "updated_at">,
  "labels" | "issues" | "pulls" | "statuses" | keyof CiSeed
> & { labels: GithubLabel[]; issues: GithubIssue[]; pulls: GithubPull[]; statuses: GithubStatus[] } & CiSeed;

/** The normalized seed: every default filled in. It is also the shape the twin exports. */
export interface GithubSeed {
  authenticated_user: string;
  users: GithubUser[];
  repositories: GithubRepository[];
  organizations: GithubOrganization[];
}

/** The seed's users, with the acting user and every repository owner added when not listed. */
function normalizeUsers(raw: Raw, problems: SeedProblems) {
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
  raw.organizations.forEach((o) => ensureUser(o.login, "Organization"));
  return { users, known, actor };
}

/**
 * Numeric ids. An id the seed gives is kept, and must be the only one of its table (an issue and
 * a pull request share one): boot would otherwise stop on the table's primary key. Ids it leaves
 * out are drawn past every given one, so only given ids can collide. Every given id is collected
 * before the first is drawn.
 */
function idAllocator(raw: Raw, problems: SeedProblems): (given: number | undefined) => number {
  let nextId = 1;
  const ids = new Set<number>();
  const given = new IdsPerTable();
  const collect = (table: string, id: number | undefined, path: () => string) => {
    if (id === undefined) return;
    ids.add(id);
    const duplicate = given.claim(table, id, path);
    if (duplicate) problems.add(duplicate.path, duplicate.message, "duplicate");
  };
  raw.users.forEach((u, i) => collect("users", u.id, () => `users[${i}]`));
  for (const [table, id, path] of orgGivenIds(raw.organizations)) collect(table, id, () => path);
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
    r.pulls.forEach((p, i) =>
      p.review_comments.forEach((c, ci) => collect("review_comments", c.id, () => `${at}.pulls[${i}].review_comments[${ci}]`)),
    );
    for (const [table, id, path] of ciGivenIds(r, at)) collect(table, id, () => path);
  });
  return (id) => {
    if (id !== undefined) return id;
    while (ids.has(nextId)) nextId++;
    ids.add(nextId);
    return nextId;
  };
}

/** What normalizing one repository works with: its path, names, and the seed-wide helpers. */
interface InRepository {
  problems: SeedProblems;
  at: string;
  actor: string;
  idFor: (given: number | undefined) => number;
  userExists: (login: string, path: string) => void;
  labelNames: Set<string>;
  branchNames: Set<string>;
  milestoneNumbers: Set<number>;
  /** Issue and pull request numbers taken so far: one numbering for both. */
  numbers: Set<number>;
}

function claimNumber(rc: InRepository, n: number, path: string): void {
  if (rc.numbers.has(n)) rc.problems.add(path, `Number ${n} is already used by another issue or pull request`, "duplicate");
  rc.numbers.add(n);
}

function normalizeComments(rc: InRepository, list: z.infer<typeof comment>[], path: string, fallbackUser: string, createdAt: string) {
  return list.map((c, ci): GithubComment => {
    if (c.user) rc.userExists(c.user, `${path}[${ci}].user`);
    const created = c.created_at ?? createdAt;
    return { id: rc.idFor(c.id), user: c.user ?? fallbackUser, body: c.body, created_at: created, updated_at: c.updated_at ?? created };
  });
}

// An issue holds a label or an assignee once; a repeated name would not survive a round trip.
const repeated = (list: string[], i: number) => list.findIndex((v) => v.toLowerCase() === list[i].toLowerCase()) !== i;

function checkLabelNames(rc: InRepository, list: string[], path: string): void {
  list.forEach((name, i) => {
    if (!rc.labelNames.has(name.toLowerCase())) rc.problems.add(`${path}[${i}]`, `Label "${name}" is not defined in ${rc.at}.labels`);
    else if (repeated(list, i)) rc.problems.add(`${path}[${i}]`, `Label "${name}" is listed twice`, "duplicate");
  });
}

function checkLogins(rc: InRepository, list: string[], path: string): void {
  list.forEach((u, i) => {
    rc.userExists(u, `${path}[${i}]`);
    if (repeated(list, i)) rc.problems.add(`${path}[${i}]`, `User "${u}" is listed twice`, "duplicate");
  });
}

function normalizeIssue(rc: InRepository, it: z.infer<typeof issue>, ii: number): GithubIssue {
  const path = `${rc.at}.issues[${ii}]`;
  claimNumber(rc, it.number, `${path}.number`);
  if (it.user) rc.userExists(it.user, `${path}.user`);
  checkLabelNames(rc, it.labels, `${path}.labels`);
  checkLogins(rc, it.assignees, `${path}.assignees`);
  if (it.milestone !== null && !rc.milestoneNumbers.has(it.milestone))
    rc.problems.add(`${path}.milestone`, `Milestone ${it.milestone} is not defined in ${rc.at}.milestones`);
  const created = it.created_at ?? SEED_EPOCH;
  const closedAt = it.closed_at !== undefined ? it.closed_at : it.state === "closed" ? created : null;
  return {
    ...it,
    id: rc.idFor(it.id),
    user: it.user ?? rc.actor,
    state_reason: it.state_reason ?? (it.state === "closed" ? "completed" : null),
    created_at: created,
    updated_at: it.updated_at ?? created,
    closed_at: closedAt,
    comments: normalizeComments(rc, it.comments, `${path}.comments`, it.user ?? rc.actor, created),
  };
}

function normalizePull(rc: InRepository, p: z.infer<typeof pull>, pi: number, defaultBranch: string): GithubPull {
  const { problems, at } = rc;
  const path = `${at}.pulls[${pi}]`;
  claimNumber(rc, p.number, `${path}.number`);
  if (p.user) rc.userExists(p.user, `${path}.user`);
  if (!rc.branchNames.has(p.head)) problems.add(`${path}.head`, `Branch "${p.head}" does not exist in ${at}.branches`);
  const base = p.base ?? defaultBranch;
  if (!rc.branchNames.has(base)) problems.add(`${path}.base`, `Branch "${base}" does not exist in ${at}.branches`);
  if (p.merged && p.state !== "closed") problems.add(`${path}.state`, "A merged pull request must be closed", "invalid_value");
  checkLabelNames(rc, p.labels, `${path}.labels`);
  checkLogins(rc, p.assignees, `${path}.assignees`);
  checkLogins(rc, p.requested_reviewers, `${path}.requested_reviewers`);
  const created = p.created_at ?? SEED_EPOCH;
  const closedAt = p.closed_at !== undefined ? p.closed_at : p.state === "closed" ? created : null;
  const id = rc.idFor(p.id);
  const reviews = p.reviews.map((v, vi) => {
    rc.userExists(v.user, `${path}.reviews[${vi}].user`);
    return {
      ...v,
      id: rc.idFor(v.id),
      submitted_at: v.submitted_at !== undefined ? v.submitted_at : v.state === "PENDING" ? null : created,
    };
  });
  const reviewIds = new Set(reviews.map((v) => v.id));
  return {
    ...p,
    id,
    user: p.user ?? rc.actor,
    base,
    created_at: created,
    updated_at: p.updated_at ?? created,
    closed_at: closedAt,
    merged_at: p.merged_at !== undefined ? p.merged_at : p.merged ? closedAt : null,
    merged_by: p.merged_by,
    reviews,
    review_comments: normalizeReviewComments(rc, p, path, created, reviewIds),
    comments: normalizeComments(rc, p.comments, `${path}.comments`, p.user ?? rc.actor, created),
  };
}

/** A pull request's review comments: replies answer an earlier first comment, reviews are its own. */
function normalizeReviewComments(
  rc: InRepository,
  p: z.infer<typeof pull>,
  path: string,
  created: string,
  reviewIds: Set<number>,
): GithubReviewComment[] {
  const roots = new Set<number>();
  return p.review_comments.map((c, ci) => {
    const at = `${path}.review_comments[${ci}]`;
    rc.userExists(c.user, `${at}.user`);
    if (c.resolved_by !== null) rc.userExists(c.resolved_by, `${at}.resolved_by`);
    if (c.review_id !== null && !reviewIds.has(c.review_id))
      rc.problems.add(`${at}.review_id`, `Review ${c.review_id} is not one of ${path}.reviews`);
    if (c.in_reply_to_id !== null && !roots.has(c.in_reply_to_id))
      rc.problems.add(`${at}.in_reply_to_id`, `Comment ${c.in_reply_to_id} is not an earlier first comment of ${path}.review_comments`);
    if (c.in_reply_to_id !== null && c.resolved_by !== null)
      rc.problems.add(`${at}.resolved_by`, "Only a thread's first comment records who resolved it", "invalid_value");
    const id = rc.idFor(c.id);
    if (c.in_reply_to_id === null) roots.add(id);
    const at_ = c.created_at ?? created;
    return { ...c, id, created_at: at_, updated_at: c.updated_at ?? at_ };
  });
}

function normalizeStatus(rc: InRepository, s: z.infer<typeof status>, si: number): GithubStatus {
  if (s.creator) rc.userExists(s.creator, `${rc.at}.statuses[${si}].creator`);
  const isSha = /^[0-9a-f]{40}$/.test(s.ref);
  if (!isSha && !rc.branchNames.has(s.ref))
    rc.problems.add(`${rc.at}.statuses[${si}].ref`, `Ref "${s.ref}" is neither a branch nor a commit sha`);
  return { ...s, id: rc.idFor(s.id), creator: s.creator ?? rc.actor, created_at: s.created_at ?? SEED_EPOCH };
}

type Seedwide = Pick<InRepository, "problems" | "actor" | "idFor" | "userExists">;

function normalizeRepository(seed: Seedwide, r: Raw["repositories"][number], ri: number, seen: Set<string>): GithubRepository {
  const { problems } = seed;
  const at = `repositories[${ri}]`;
  const full = `${r.owner}/${r.name}`.toLowerCase();
  problems.unique(seen, full, `${at}.name`, `Duplicate repository "${r.owner}/${r.name}"`);
  r.collaborators.forEach((c, i) => seed.userExists(c, `${at}.collaborators[${i}]`));
  const labelNames = new Set<string>();
  r.labels.forEach((l, i) => problems.unique(labelNames, l.name.toLowerCase(), `${at}.labels[${i}].name`, `Duplicate label "${l.name}"`));
  const branches = r.branches ?? [{ name: r.default_branch, protected: false, files: [] }];
  const branchNames = new Set(branches.map((b) => b.name));
  if (!branchNames.has(r.default_branch)) problems.add(`${at}.default_branch`, `Branch "${r.default_branch}" does not exist in branches`);
  const rc: InRepository = {
    ...seed,
    at,
    labelNames,
    branchNames,
    milestoneNumbers: new Set(r.milestones.map((m) => m.number)),
    numbers: new Set(),
  };
  const issues = r.issues.map((it, ii) => normalizeIssue(rc, it, ii));
  const pulls = r.pulls.map((p, pi) => normalizePull(rc, p, pi, r.default_branch));
  const statuses = r.statuses.map((s, si) => normalizeStatus(rc, s, si));
  const created = r.created_at ?? SEED_EPOCH;
  const ci = normalizeCi({ ...rc, created }, r);
  return {
    ...r,
    ...ci,
    id: rc.idFor(r.id),
    branches,
    labels: r.labels.map((l) => ({ ...l, id: rc.idFor(l.id) })),
    issues,
    pulls,
    statuses,
    created_at: created,
    updated_at: r.updated_at ?? created,
  };
}

/**
 * A pull request's requested teams are teams of its owner with access to the repository; an
 * issue's old numbers are in seeded repositories, free there, and named once. Both are put in
 * the order export gives them (world-links.ts), repositories spelled as seeded.
 */
function checkLinks(problems: SeedProblems, repositories: GithubRepository[], organizations: readonly GithubOrganization[]): void {
  const repoByName = new Map(repositories.map((r) => [`${r.owner}/${r.name}`.toLowerCase(), r]));
  const moved = new Set<string>();
  repositories.forEach((r, ri) => {
    const org = organizations.find((o) => o.login.toLowerCase() === r.owner.toLowerCase());
    r.pulls.forEach((p, pi) =>
      p.requested_teams.forEach((slug, ti) => {
        const team = org?.teams.find((t) => t.slug === slug);
        const at = `repositories[${ri}].pulls[${pi}].requested_teams[${ti}]`;
        if (!team) problems.add(at, `Team "${slug}" does not exist in ${r.owner}`);
        else if (!team.repositories.some((g) => g.name.toLowerCase() === r.name.toLowerCase()))
          problems.add(at, `Team "${slug}" has no access to ${r.owner}/${r.name}`);
        else if (p.requested_teams.indexOf(slug) !== ti) problems.add(at, `Team "${slug}" is listed twice`, "duplicate");
      }),
    );
    r.issues.forEach((it, ii) => {
      it.moved_from = it.moved_from.map((m, mi) => {
        const at = `repositories[${ri}].issues[${ii}].moved_from[${mi}]`;
        const from = repoByName.get(m.repository.toLowerCase());
        if (!from) {
          problems.add(`${at}.repository`, `Repository "${m.repository}" does not exist in repositories`);
          return m;
        }
        const key = `${from.id}#${m.number}`;
        if ([...from.issues, ...from.pulls].some((x) => x.number === m.number))
          problems.add(`${at}.number`, `Number ${m.number} is still in use in ${from.owner}/${from.name}`);
        else problems.unique(moved, key, `${at}.number`, `${from.owner}/${from.name}#${m.number} was moved twice`);
        return { repository: `${from.owner}/${from.name}`, number: m.number };
      });
      it.moved_from.sort(
        (a, b) =>
          (repoByName.get(a.repository.toLowerCase())?.id ?? 0) - (repoByName.get(b.repository.toLowerCase())?.id ?? 0) ||
          a.number - b.number,
      );
    });
  });
}

/** Checks references and fills defaults, ids and timestamps deterministically. */
function normalize(raw: Raw): SeedResult<GithubSeed> {
  const problems = new SeedProblems();
  const { users, known, actor } = normalizeUsers(raw, problems);
  const seed: Seedwide = {
    problems,
    actor,
    idFor: idAllocator(raw, problems),
    userExists: (login, path) => {
      if (!known.has(login.toLowerCase())) problems.add(path, `User "${login}" does not exist in users`);
    },
  };
  const seen = new Set<string>();
  const repositories = raw.repositories.map((r, ri) => normalizeRepository(seed, r, ri, seen));
  const organizations = normalizeOrgs(
    {
      problems,
      idFor: seed.idFor,
      userType: (login) => known.get(login.toLowerCase())?.type,
      ownsRepository: (owner, name) => seen.has(`${owner}/${name}`.toLowerCase()),
    },
    raw.organizations,
  );
  checkLinks(problems, repositories, organizations);
  return problems.result({
    authenticated_user: actor,
    users: users.map((u) => ({ ...u, id: seed.idFor(u.id) })),
    repositories,
    organizations,
  });
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
