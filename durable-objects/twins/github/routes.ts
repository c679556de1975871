// The GitHub twin's route table. Each entry names Octokit's operation for the tape.
import type { Route } from "../types";
import { authenticatedLogin, ok, route } from "./context";
import { fail, ghNotFound } from "./errors";
import { findUser, requireRepo } from "./repos";
import { fullUser, repository } from "./serialize";

export const githubRoutes: readonly Route[] = [
  route("GET", "/user", "users.getAuthenticated", "Get the authenticated user", (ctx) => {
    const user = findUser(ctx, authenticatedLogin(ctx)) ?? fail(ghNotFound());
    return ok(fullUser(ctx, user));
  }),
  route("GET", "/users/:username", "users.getByUsername", "Get a user", (ctx) => {
    const user = findUser(ctx, ctx.params.username) ?? fail(ghNotFound());
    return ok(fullUser(ctx, user));
  }),
  route("GET", "/repos/:owner/:repo", "repos.get", "Get a repository", (ctx) => ok(repository(ctx, requireRepo(ctx)))),
];
