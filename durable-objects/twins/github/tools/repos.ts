// Who the credentials act as, users, and repositories.
import { z } from "zod";
import type { TwinTool } from "../../types";
import { direction, pageArgs, query, repoArgs, repoPath, seg, tool } from "./define";

const repoSort = z.enum(["created", "updated", "pushed", "full_name"]).optional().describe("What to sort by");
const visibility = z.enum(["all", "public", "private"]).optional().describe("Which repositories by visibility (default all)");

export const repoTools: readonly TwinTool[] = [
  tool({
    name: "get_me",
    description: 'Get the GitHub user these credentials act as: login, name, email. Use it to learn who "you" are before acting.',
    input: {},
    readOnly: true,
    toRequest: () => ({ method: "GET", path: "/user" }),
  }),
  tool({
    name: "get_user",
    description: "Get a user or organization by login: name, type and public profile.",
    input: { username: z.string().min(1).describe("The account's login") },
    readOnly: true,
    toRequest: (a) => ({ method: "GET", path: `/users/${seg(a.username)}` }),
  }),
  tool({
    name: "get_repository",
    description: "Get a repository: description, default branch, visibility, open issue count and topics.",
    input: repoArgs,
    readOnly: true,
    toRequest: (a) => ({ method: "GET", path: repoPath(a) }),
  }),
  tool({
    name: "list_my_repositories",
    description: "List the repositories the authenticated user can access, by full name unless sorted otherwise.",
    input: { visibility, sort: repoSort, direction, ...pageArgs },
    readOnly: true,
    toRequest: (a) => ({ method: "GET", path: "/user/repos", query: query(a) }),
  }),
  tool({
    name: "list_user_repositories",
    description: "List the repositories a user owns, by full name unless sorted otherwise.",
    input: { username: z.string().min(1).describe("The user's login"), sort: repoSort, direction, ...pageArgs },
    readOnly: true,
    toRequest: ({ username, ...q }) => ({ method: "GET", path: `/users/${seg(username)}/repos`, query: query(q) }),
  }),
  tool({
    name: "list_org_repositories",
    description: "List an organization's repositories, newest first unless sorted otherwise.",
    input: {
      org: z.string().min(1).describe("The organization's login"),
      type: z.enum(["all", "public", "private", "forks", "sources", "member"]).optional().describe("Which repositories (default all)"),
      sort: repoSort,
      direction,
      ...pageArgs,
    },
    readOnly: true,
    toRequest: ({ org, ...q }) => ({ method: "GET", path: `/orgs/${seg(org)}/repos`, query: query(q) }),
  }),
  tool({
    name: "get_rate_limit",
    description: "Get the API rate limit: how many calls remain in the current window and when it resets.",
    input: {},
    readOnly: true,
    toRequest: () => ({ method: "GET", path: "/rate_limit" }),
  }),
];
