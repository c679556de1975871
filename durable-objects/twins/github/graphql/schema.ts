// The twin's executable schema, built from its SDL on first use (once per isolate, never at
// import), and the field resolver graphql-js runs: the type's resolver for the field when it has
// one, else the source's property of that name.
import { buildSchema, type GraphQLFieldResolver, type GraphQLSchema } from "graphql";
import type { Gql, Resolver, Resolvers } from "./context";
import { activityResolvers } from "./resolvers/activity";
import { actorResolvers } from "./resolvers/actors";
import { gitResolvers } from "./resolvers/git";
import { issueResolvers } from "./resolvers/issues";
import { mutationResolvers } from "./resolvers/mutations";
import { queryResolvers } from "./resolvers/query";
import { repositoryResolvers } from "./resolvers/repository";
import { threadResolvers } from "./resolvers/review-threads";
import { teamResolvers } from "./resolvers/teams";
import { GITHUB_TWIN_SDL } from "./schema-sdl";

let built: GraphQLSchema | undefined;

export function githubSchema(): GraphQLSchema {
  built ??= buildSchema(GITHUB_TWIN_SDL);
  return built;
}

const RESOLVERS: Resolvers = {
  ...queryResolvers,
  ...mutationResolvers,
  ...actorResolvers,
  ...repositoryResolvers,
  ...issueResolvers,
  ...gitResolvers,
  ...threadResolvers,
  ...teamResolvers,
  ...activityResolvers,
};

type AnyResolver = (src: unknown, args: unknown, gql: Gql) => unknown;

export const fieldResolver: GraphQLFieldResolver<unknown, Gql> = (src, args, gql, info) => {
  const own: Resolver | undefined = RESOLVERS[info.parentType.name]?.[info.fieldName];
  // A dry run prices the call without running it: root fields other than `rateLimit` are null.
  if (gql.dryRun && info.parentType.name === "Query" && info.fieldName !== "rateLimit") return null;
  if (own) return (own as AnyResolver)(src, args, gql);
  return typeof src === "object" && src !== null ? (src as Record<string, unknown>)[info.fieldName] : undefined;
};
