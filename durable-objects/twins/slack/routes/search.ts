// search.messages, search.files and search.all: user-token methods (with the bot token they are
// `not_allowed_token_type`, as on Slack: "search:read" is a user scope), over what the user can
// see, with `in:` and `from:` modifiers, `sort` (score or timestamp), `sort_dir`, `count` and
// `page` (store/search.ts).
import type { Route } from "../../types";
import { method } from "../context";
import { int, text } from "../declare";
import { parseQuery, searchFiles, searchMessages, searchPage } from "../store/search";

const searchArgs = {
  query: text().optional().describe("Words, with in:#channel and from:@user"),
  count: int().optional().describe("Matches per page (1-100, default 20)"),
  page: int().optional().describe("The page, from 1 (at most 100)"),
  sort: text().optional().describe("score (default) or timestamp"),
  sort_dir: text().optional().describe("desc (default) or asc"),
  highlight: text().optional().describe("Accepted; the twin marks no matches"),
};

const NEEDS_USER = "needs a user token; the bot token is refused with not_allowed_token_type, as on Slack";

export const searchRoutes: Route[] = [
  ...method({
    name: "search.messages",
    summary: "Messages matching a query, in conversations the user can see",
    scopes: ["search:read"],
    token: "user",
    args: searchArgs,
    tool: { description: `Searches messages (${NEEDS_USER}). Supports in:#channel and from:@user.`, readOnly: true },
    handler: (call, args) => {
      const raw = args.query ?? "";
      return { query: raw, messages: searchMessages(call, parseQuery(call, raw), searchPage(args)) };
    },
  }),
  ...method({
    name: "search.files",
    summary: "Files matching a query (name, title, text content) that the user can see",
    scopes: ["search:read"],
    token: "user",
    args: searchArgs,
    tool: {
      description: `Searches files by name, title and text content (${NEEDS_USER}). Supports in:#channel and from:@user.`,
      readOnly: true,
    },
    handler: (call, args) => {
      const raw = args.query ?? "";
      return { query: raw, files: searchFiles(call, parseQuery(call, raw), searchPage(args)) };
    },
  }),
  ...method({
    name: "search.all",
    summary: "Messages and files matching a query",
    scopes: ["search:read"],
    token: "user",
    args: searchArgs,
    tool: { description: `Searches messages and files at once (${NEEDS_USER}). Supports in:#channel and from:@user.`, readOnly: true },
    handler: (call, args) => {
      const raw = args.query ?? "";
      const q = parseQuery(call, raw);
      const page = searchPage(args);
      return { query: raw, messages: searchMessages(call, q, page), files: searchFiles(call, q, page), posts: { total: 0, matches: [] } };
    },
  }),
];
