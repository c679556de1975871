// GET /search/repositories, GET /search/users, GET /search/labels and GET /search/topics.
import { z } from "zod";
import type { Route } from "../../types";
import { direction, lenient, pageQuery, route } from "../declare";
import { fail, ghNotFound } from "../errors";
import { findRepoById } from "../repos";
import { View } from "../serialize";
import type { LabelRow } from "../store/rows";
import { Conditions, contains, readWords } from "../store/search-query";
import { parseRepoSearch, parseUserSearch, searchRepositories, searchUsers } from "../store/search-repos";
import { labelItem, textMatches } from "../view-search";
import { cannotSearch, searchAnswer, searchPage, wantsTextMatches } from "./search";

export const searchRepoRoutes: readonly Route[] = [
  route({
    method: "GET",
    pattern: "/search/repositories",
    operation: "search.repos",
    summary: "Search repositories",
    resource: "Search",
    query: {
      q: z
        .string()
        .min(1)
        .describe(
          "The search query: words with qualifiers such as user:, org:, language:, topic:, stars:, created:, in:name,description,readme",
        ),
      sort: lenient(z.enum(["stars", "forks", "help-wanted-issues", "updated"])).describe("Sort field (default: best match)"),
      order: direction,
      ...pageQuery,
    },
    tool: {
      name: "search_repositories",
      description: "Search repositories by name, description, topics or README, e.g. `api org:acme`, `topic:cli language:go stars:>10`.",
    },
    handler(ctx, { query: input }) {
      const search = parseRepoSearch(input.q);
      const page = searchPage(ctx, input.q, search.terms);
      const result = searchRepositories(ctx.db, search, { by: input.sort, order: input.order ?? "desc" }, page.limit, page.offset);
      if (!result.ok) return cannotSearch();
      const v = new View(ctx);
      const withMatches = wantsTextMatches(ctx);
      const items = result.rows.map((row) => {
        const item = { ...v.repository(row), score: 1 };
        return withMatches
          ? {
              ...item,
              text_matches: textMatches(search.terms, item.url, "Repository", [
                ["name", row.name],
                ["description", row.description],
              ]),
            }
          : item;
      });
      return searchAnswer(ctx, page, result.total, items);
    },
  }),
  route({
    method: "GET",
    pattern: "/search/users",
    operation: "search.users",
    summary: "Search users",
    resource: "Search",
    query: {
      q: z
        .string()
        .min(1)
        .describe("The search query: words with qualifiers such as type:user|org, in:login,name,email, repos:, followers:"),
      sort: lenient(z.enum(["followers", "repositories", "joined"])).describe("Sort field (default: best match)"),
      order: direction,
      ...pageQuery,
    },
    tool: {
      name: "search_users",
      description: "Search users and organizations by login, name or email, e.g. `alice`, `acme type:org`, `smith in:name`.",
    },
    handler(ctx, { query: input }) {
      const search = parseUserSearch(input.q);
      const page = searchPage(ctx, input.q, search.terms);
      const result = searchUsers(ctx.db, search, { by: input.sort, order: input.order ?? "desc" }, page.limit, page.offset);
      const v = new View(ctx);
      const withMatches = wantsTextMatches(ctx);
      const items = result.rows.map((row) => {
        const item = { ...v.user(row.login), score: 1 };
        const properties: [string, string | null][] = [
          ["login", row.login],
          ["email", row.email],
          ["name", row.name],
        ];
        return withMatches ? { ...item, text_matches: textMatches(search.terms, item.url, "User", properties) } : item;
      });
      return searchAnswer(ctx, page, result.total, items);
    },
  }),
  route({
    method: "GET",
    pattern: "/search/labels",
    operation: "search.labels",
    summary: "Search labels",
    resource: "Search",
    query: {
      repository_id: z.number().int().positive().describe("The id of the repository whose labels to search"),
      q: z.string().min(1).describe("Words to find in label names and descriptions; a label matching any of them is found"),
      sort: lenient(z.enum(["created", "updated"])).describe("Sort field (default: best match)"),
      order: direction,
      ...pageQuery,
    },
    tool: { name: "search_labels", description: "Search a repository's labels by name or description (needs repository_id and q)." },
    handler(ctx, { query: input }) {
      const repo = findRepoById(ctx.db, input.repository_id) ?? fail(ghNotFound());
      const terms = readWords(input.q, () => false);
      const page = searchPage(ctx, input.q, terms);
      const c = new Conditions();
      c.add("l.repo_id = ?", repo.id);
      // GitHub's example: `q=bug+defect+enhancement` finds the labels that match any of the words.
      c.add(
        `EXISTS (SELECT 1 FROM json_each(?) want WHERE ${contains("l.name", "want.value")} OR ${contains("l.description", "want.value")})`,
        JSON.stringify(terms),
      );
      const sql = `FROM gh_labels l${c.sql()}`;
      const dir = input.order === "asc" ? "ASC" : "DESC";
      // Labels keep no times of their own: creation order stands for both sorts; best match puts an exact name first.
      const order = input.sort
        ? `l.id ${dir}`
        : "EXISTS (SELECT 1 FROM json_each(?) w WHERE w.value = l.name COLLATE NOCASE) DESC, l.position, l.id";
      const rows = ctx.db.all<LabelRow>(
        `SELECT l.* ${sql} ORDER BY ${order} LIMIT ? OFFSET ?`,
        ...c.params,
        ...(input.sort ? [] : [JSON.stringify(terms)]),
        page.limit,
        page.offset,
      );
      const total = ctx.db.one<{ n: number }>(`SELECT count(*) AS n ${sql}`, ...c.params)?.n ?? 0;
      const v = new View(ctx);
      const withMatches = wantsTextMatches(ctx);
      const items = rows.map((l) => {
        const item = labelItem(v, repo, l);
        return withMatches
          ? {
              ...item,
              text_matches: textMatches(terms, item.url, "Label", [
                ["name", l.name],
                ["description", l.description],
              ]),
            }
          : item;
      });
      return searchAnswer(ctx, page, total, items);
    },
  }),
  route({
    method: "GET",
    pattern: "/search/topics",
    operation: "search.topics",
    summary: "Search topics",
    resource: "Search",
    query: {
      q: z.string().min(1).describe("Words a topic's name contains"),
      ...pageQuery,
    },
    tool: { name: "search_topics", description: "Search the topics repositories are tagged with, by name." },
    handler(ctx, { query: input }) {
      const terms = readWords(input.q, () => false);
      const page = searchPage(ctx, input.q, terms);
      // The topics of the twin's world are the ones its repositories carry; none is featured or curated.
      const sql = `FROM gh_repos r, json_each(r.topics) tp WHERE NOT EXISTS (SELECT 1 FROM json_each(?) want WHERE NOT ${contains("tp.value", "want.value")})`;
      const rows = ctx.db.all<{ name: string; n: number; created_at: string; updated_at: string }>(
        `SELECT lower(tp.value) AS name, count(*) AS n, min(r.created_at) AS created_at, max(r.updated_at) AS updated_at ${sql}
         GROUP BY lower(tp.value) ORDER BY n DESC, name LIMIT ? OFFSET ?`,
        JSON.stringify(terms),
        page.limit,
        page.offset,
      );
      const total = ctx.db.one<{ n: number }>(`SELECT count(DISTINCT lower(tp.value)) AS n ${sql}`, JSON.stringify(terms))?.n ?? 0;
      const items = rows.map((t) => ({
        name: t.name,
        display_name: null,
        short_description: null,
        description: null,
        created_by: null,
        released: null,
        created_at: t.created_at,
        updated_at: t.updated_at,
        featured: false,
        curated: false,
        score: 1,
        repository_count: t.n,
      }));
      return searchAnswer(ctx, page, total, items);
    },
  }),
];
