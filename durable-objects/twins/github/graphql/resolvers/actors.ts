// Users and organizations (GitHub's `Actor` and `RepositoryOwner`), read from gh_users.
import type { ActorSource, Gql, Resolvers } from "../context";
import { nodeId } from "../ids";
import { findRepository, repositorySource } from "../sources";

const WEB = "https://github.com";
/** The REST answers' profile dates (serialize.ts `fullUser`): the world keeps none. */
const PROFILE_CREATED = "2020-01-01T00:00:00Z";

const actorFields = {
  id: (a: ActorSource) => nodeId(a.__typename, a.row?.id ?? 0),
  databaseId: (a: ActorSource) => a.row?.id ?? null,
  login: (a: ActorSource) => a.login,
  name: (a: ActorSource) => a.row?.name ?? null,
  url: (a: ActorSource) => `${WEB}/${a.login}`,
  resourcePath: (a: ActorSource) => `/${a.login}`,
  avatarUrl: (a: ActorSource, args: { size?: number | null }) =>
    `https://avatars.githubusercontent.com/u/${a.row?.id ?? 0}?v=4${typeof args.size === "number" ? `&s=${args.size}` : ""}`,
  createdAt: () => PROFILE_CREATED,
  repository: (a: ActorSource, args: { name: string }, gql: Gql) => {
    const repo = findRepository(gql, a.login, args.name);
    return repo ? repositorySource(repo) : null;
  },
};

export const actorResolvers: Resolvers = {
  User: {
    ...actorFields,
    // GitHub's `email` is the public email, "" when none is public.
    email: (a: ActorSource) => a.row?.email ?? "",
    isViewer: (a: ActorSource, _args: unknown, gql: Gql) => a.login.toLowerCase() === gql.view.actor.toLowerCase(),
  },
  Organization: { ...actorFields, email: (a: ActorSource) => a.row?.email ?? null },
};
