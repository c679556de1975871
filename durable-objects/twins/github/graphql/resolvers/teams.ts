// Teams as GraphQL's Team type answers them, from the organization's team store (store/orgs.ts):
// what a review request of a team names. Shapes: @octokit/graphql-schema's Team.
import { findTeam } from "../../store/orgs";
import type { Gql, Resolvers, TeamSource } from "../context";
import { nodeId } from "../ids";
import { actorSource } from "../sources";

const WEB = "https://github.com";
const teamPath = (t: TeamSource) => `/orgs/${t.row.org}/teams/${t.row.slug}`;

export const teamResolvers: Resolvers = {
  Team: {
    // The same global id as REST's team node_id (view-orgs.ts).
    id: (t: TeamSource) => nodeId("Team", t.row.id),
    databaseId: (t: TeamSource) => t.row.id,
    name: (t: TeamSource) => t.row.name,
    slug: (t: TeamSource) => t.row.slug,
    combinedSlug: (t: TeamSource) => `${t.row.org}/${t.row.slug}`,
    description: (t: TeamSource) => t.row.description,
    // REST's "closed" is GraphQL's VISIBLE (seen by every member of the organization).
    privacy: (t: TeamSource) => (t.row.privacy === "secret" ? "SECRET" : "VISIBLE"),
    createdAt: (t: TeamSource) => t.row.created_at,
    updatedAt: (t: TeamSource) => t.row.updated_at,
    url: (t: TeamSource) => `${WEB}${teamPath(t)}`,
    resourcePath: (t: TeamSource) => teamPath(t),
    organization: (t: TeamSource, _a: unknown, gql: Gql) => actorSource(gql, t.row.org),
    parentTeam: (t: TeamSource, _a: unknown, gql: Gql) => {
      const parent = t.row.parent_slug ? findTeam(gql.ctx.db, t.row.org, t.row.parent_slug) : undefined;
      return parent ? { __typename: "Team", row: parent } : null;
    },
  },
};
