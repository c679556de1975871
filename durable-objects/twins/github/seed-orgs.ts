// The organizations part of a GitHub seed (top level, beside `users` and `repositories`): who is
// a member or an owner (admin) of an organization, and its teams with their members,
// maintainers, repositories (with the permission the team grants) and parent team. GitHub's
// own words; strict; checked against the seed's users and repositories; normalized so that
// export(boot(seed)) equals the parsed seed.
//
//   "organizations": [{ "login": "acme", "admins": ["alice"], "members": ["bob"],
//     "teams": [{ "name": "Backend", "members": ["bob"], "maintainers": ["alice"],
//                 "repositories": [{ "name": "api", "permission": "push" }] }] }]
//
// An organization's members, as the twin answers them, are also the sandbox's user (an owner of
// every organization, as it holds admin on every repository) and the collaborators of the
// organization's repositories (GitHub labels them MEMBER on its issues): serialize.ts
// `authorAssociation` and store/orgs.ts agree on it.
import { z } from "zod";
import type { SeedProblems } from "../kit/seed";

const login = z.string().regex(/^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/, "Invalid login");

export const TEAM_PERMISSIONS = ["pull", "triage", "push", "maintain", "admin"] as const;
export type TeamPermission = (typeof TEAM_PERMISSIONS)[number];

const team = z.strictObject({
  id: z.number().int().positive().optional(),
  name: z.string().min(1).max(255),
  /** The team's URL name; GitHub derives it from the name when left out. */
  slug: z
    .string()
    .regex(/^[a-z0-9][a-z0-9_-]*$/, "Invalid slug: lower-case letters, digits, - and _")
    .optional(),
  description: z.string().nullable().default(null),
  privacy: z.enum(["closed", "secret"]).default("closed"),
  /** The slug of the team this one is nested under. */
  parent: z.string().nullable().default(null),
  members: z.array(login).default([]),
  maintainers: z.array(login).default([]),
  repositories: z.array(z.strictObject({ name: z.string().min(1), permission: z.enum(TEAM_PERMISSIONS).default("pull") })).default([]),
});

const organization = z.strictObject({
  login,
  description: z.string().nullable().default(null),
  /** Organization owners (role `admin`). */
  admins: z.array(login).default([]),
  /** Members (role `member`). */
  members: z.array(login).default([]),
  teams: z.array(team).default([]),
});

/** The seed's top-level field, spread into the seed schema. */
export const orgSeedFields = { organizations: z.array(organization).default([]) };

type RawOrg = z.infer<typeof organization>;
export type GithubTeam = Omit<z.infer<typeof team>, "id" | "slug"> & { id: number; slug: string };
export type GithubOrganization = Omit<RawOrg, "teams"> & { teams: GithubTeam[] };

/** GitHub's slug for a team name: lower case, runs of other characters as one hyphen. */
export const slugOf = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, "-")
    .replace(/^-+|-+$/g, "") || "team";

/** The ids the seed gives its teams, for the seed's id allocator. */
export const orgGivenIds = (orgs: readonly RawOrg[]): [string, number | undefined, string][] =>
  orgs.flatMap((o, oi) =>
    o.teams.map((t, ti): [string, number | undefined, string] => ["teams", t.id, `organizations[${oi}].teams[${ti}]`]),
  );

/** What normalizing organizations needs from the seed: its problems, users, repositories and ids. */
export interface OrgSeedContext {
  problems: SeedProblems;
  userType: (login: string) => string | undefined;
  ownsRepository: (owner: string, name: string) => boolean;
  idFor: (given: number | undefined) => number;
}

function normalizeTeam(ctx: OrgSeedContext, org: RawOrg, t: z.infer<typeof team>, at: string, slugs: Set<string>): GithubTeam {
  const slug = t.slug ?? slugOf(t.name);
  ctx.problems.unique(slugs, slug, `${at}.slug`, `Duplicate team "${slug}" in ${org.login}`);
  for (const list of ["members", "maintainers"] as const)
    t[list].forEach((l, i) => {
      if (!ctx.userType(l)) ctx.problems.add(`${at}.${list}[${i}]`, `User "${l}" does not exist in users`);
    });
  t.repositories.forEach((r, i) => {
    if (!ctx.ownsRepository(org.login, r.name))
      ctx.problems.add(`${at}.repositories[${i}].name`, `Repository "${org.login}/${r.name}" does not exist in repositories`);
  });
  return { ...t, id: ctx.idFor(t.id), slug };
}

export function normalizeOrgs(ctx: OrgSeedContext, orgs: readonly RawOrg[]): GithubOrganization[] {
  const seen = new Set<string>();
  return orgs.map((o, oi) => {
    const at = `organizations[${oi}]`;
    ctx.problems.unique(seen, o.login.toLowerCase(), `${at}.login`, `Duplicate organization "${o.login}"`);
    if (ctx.userType(o.login) !== "Organization") ctx.problems.add(`${at}.login`, `User "${o.login}" is not an Organization in users`);
    for (const list of ["admins", "members"] as const)
      o[list].forEach((l, i) => {
        if (!ctx.userType(l)) ctx.problems.add(`${at}.${list}[${i}]`, `User "${l}" does not exist in users`);
      });
    const slugs = new Set<string>();
    const teams = o.teams.map((t, ti) => normalizeTeam(ctx, o, t, `${at}.teams[${ti}]`, slugs));
    teams.forEach((t, ti) => {
      if (t.parent !== null && !slugs.has(t.parent))
        ctx.problems.add(`${at}.teams[${ti}].parent`, `Team "${t.parent}" does not exist in ${o.login}`);
    });
    return { ...o, teams };
  });
}
