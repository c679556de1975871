// GET /search/code and GET /search/commits: repository contents and history at the default branch.
import { z } from "zod";
import type { Route } from "../../types";
import { direction, lenient, pageQuery, route } from "../declare";
import { fail, ghValidationFailed } from "../errors";
import { View } from "../serialize";
import { blobContent } from "../store/git";
import { parseCodeSearch, parseCommitSearch, searchCode, searchCommits } from "../store/search-code";
import { commitObject } from "../view-git";
import { codeItem, textMatches } from "../view-search";
import { cannotSearch, searchAnswer, searchPage, wantsTextMatches } from "./search";

/**
 * "You must always include at least one search term when searching source code. For example,
 * searching for language:go is not valid, while amazing language:go is." (GitHub's REST reference,
 * Search code). The refusal is GitHub's search 422, naming `q`.
 */
const NEEDS_TERM = "Must include at least one search term besides qualifiers.";

export const searchCodeRoutes: readonly Route[] = [
  route({
    method: "GET",
    pattern: "/search/code",
    operation: "search.code",
    summary: "Search code",
    resource: "Search",
    query: {
      q: z
        .string()
        .min(1)
        .describe(
          "The search query: at least one term, with qualifiers such as repo:, path:, filename:, extension:, language:, in:file,path",
        ),
      sort: lenient(z.enum(["indexed"])).describe("Deprecated by GitHub; results come by repository and path"),
      order: direction,
      ...pageQuery,
    },
    tool: {
      name: "search_code",
      description:
        "Search file contents at each repository's default branch, e.g. `timeoutMs repo:acme/api extension:ts` or `TODO path:src language:typescript`. At least one search term is required besides qualifiers.",
    },
    handler(ctx, { query: input }) {
      const search = parseCodeSearch(input.q);
      const page = searchPage(ctx, input.q, search.terms);
      if (!search.terms.length) fail(ghValidationFailed([{ message: NEEDS_TERM, resource: "Search", field: "q", code: "invalid" }]));
      const result = searchCode(ctx.db, search, page.limit, page.offset);
      if (!result.ok) return cannotSearch();
      const v = new View(ctx);
      const withMatches = wantsTextMatches(ctx);
      const items = result.hits.flatMap((hit) => {
        const repo = v.repoRow(hit.repo_id);
        if (!repo) return [];
        const item = codeItem(v, repo, hit);
        if (!withMatches) return [item];
        const content = blobContent(ctx.db, hit.blob_sha) ?? "";
        const fields = search.fields.size ? search.fields : new Set(["file", "path"]);
        const properties: [string, string | null][] = [];
        if (fields.has("file")) properties.push(["content", content]);
        if (fields.has("path")) properties.push(["path", hit.path]);
        return [{ ...item, text_matches: textMatches(search.terms, item.url, "FileContent", properties) }];
      });
      return searchAnswer(ctx, page, result.total, items);
    },
  }),
  route({
    method: "GET",
    pattern: "/search/commits",
    operation: "search.commits",
    summary: "Search commits",
    resource: "Search",
    query: {
      q: z
        .string()
        .min(1)
        .describe("The search query: message text with qualifiers such as repo:, author:, committer:, author-date:, merge:, hash:"),
      sort: lenient(z.enum(["author-date", "committer-date"])).describe("Sort field (default: best match)"),
      order: direction,
      ...pageQuery,
    },
    tool: {
      name: "search_commits",
      description:
        "Search commits on default branches by message and qualifiers, e.g. `fix timeout repo:acme/api author:alice author-date:>2026-01-01`.",
    },
    handler(ctx, { query: input }) {
      const search = parseCommitSearch(input.q);
      const page = searchPage(ctx, input.q, search.terms);
      const result = searchCommits(ctx.db, search, { by: input.sort, order: input.order ?? "desc" }, page.limit, page.offset);
      if (!result.ok) return cannotSearch();
      const v = new View(ctx);
      const withMatches = wantsTextMatches(ctx);
      const items = result.rows.flatMap((row) => {
        const repo = v.repoRow(row.repo_id);
        if (!repo) return [];
        const commit = commitObject(v, repo, row);
        // The description types an item's `committer` as a git user (name, email, date), not an account.
        const item = { ...commit, committer: commit.commit.committer, repository: v.repository(repo), score: 1 };
        return [
          withMatches ? { ...item, text_matches: textMatches(search.terms, commit.url, "Commit", [["message", row.message]]) } : item,
        ];
      });
      return searchAnswer(ctx, page, result.total, items);
    },
  }),
];
