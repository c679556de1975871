// GET /search/issues and GET /rate_limit (its buckets: rate-limit.ts), and the rules every search shares (routes/search-*.ts).
import { z } from "zod";
import type { Route, TwinContext } from "../../types";
import { ok } from "../context";
import { direction, lenient, pageQuery, route } from "../declare";
import { fail, ghValidationFailed } from "../errors";
import { type Page, pageOf, paged } from "../pagination";
import { rateLimitBody } from "../rate-limit";
import { View } from "../serialize";
import { parseSearch, searchIssues } from "../store/search";
import { issueObject, loadExtras } from "../view-issues";

/** GitHub serves at most the first 1000 results of a search. */
export const SEARCH_CAP = 1000;

/**
 * GitHub refuses a query whose text is over 256 characters ("Queries longer than 256 characters
 * are not supported", docs.github.com › Troubleshooting search queries) with a 422 naming `q`.
 * GitHub counts the free text, not the qualifiers; the twin also bounds the whole query (four
 * times that) so a query of thousands of qualifiers cannot become thousands of SQL conditions.
 */
const MAX_QUERY_TEXT = 256;
const MAX_QUERY = 4 * MAX_QUERY_TEXT;
const TOO_LONG = `The search is longer than ${MAX_QUERY_TEXT} characters.`;

const tooLong = (q: string, terms: readonly string[]) => q.length > MAX_QUERY || terms.join(" ").length > MAX_QUERY_TEXT;

/**
 * The checks every search shares, before any is run: a query that is there, within GitHub's
 * length rule, and a page within the first 1000 results. Returns the page to read.
 */
export function searchPage(ctx: TwinContext, q: string, terms: readonly string[]): Page {
  if (!q.trim()) fail(ghValidationFailed([{ resource: "Search", field: "q", code: "missing" }]));
  if (tooLong(q, terms)) fail(ghValidationFailed([{ message: TOO_LONG, resource: "Search", field: "q", code: "invalid" }]));
  const page = pageOf(ctx);
  if (page.offset >= SEARCH_CAP) fail(ghValidationFailed([], "Only the first 1000 search results are available"));
  return page;
}

/** GitHub's 422 for a `repo:`, `user:` or `org:` that names nothing it can search. */
export function cannotSearch(): never {
  const message =
    "The listed users and repositories cannot be searched either because the resources do not exist or you do not have permission to view them.";
  return fail(ghValidationFailed([{ resource: "Search", field: "q", code: "invalid", message }]));
}

/** A search's answer: the count, GitHub's `incomplete_results`, the page, and Link headers up to the cap. */
export const searchAnswer = (ctx: TwinContext, page: Page, total: number, items: unknown[]) =>
  paged(ctx, { total_count: total, incomplete_results: false, items }, page, Math.min(total, SEARCH_CAP));

/** Whether the caller asked for text match metadata (`Accept: application/vnd.github.text-match+json`). */
export const wantsTextMatches = (ctx: TwinContext) => /text-match/i.test(ctx.req.headers.accept ?? "");

export const searchRoutes: readonly Route[] = [
  route({
    method: "GET",
    pattern: "/search/issues",
    operation: "search.issuesAndPullRequests",
    summary: "Search issues and pull requests",
    resource: "Search",
    query: {
      q: z.string().min(1).describe("The search query, in GitHub's issue search syntax"),
      sort: lenient(z.enum(["comments", "reactions", "interactions", "created", "updated", "best-match"])).describe(
        "Sort field (default: best match)",
      ),
      order: direction,
      ...pageQuery,
    },
    tool: {
      name: "search_issues",
      description:
        "Search issues and pull requests with GitHub's search syntax, e.g. `repo:acme/api is:issue is:open timeout in:title` or `repo:acme/api label:bug`. Use it to find duplicates before filing a new issue.",
    },
    handler(ctx, { query: input }) {
      const query = parseSearch(input.q);
      const page = searchPage(ctx, input.q, query.terms);
      const result = searchIssues(ctx.db, query, { by: input.sort ?? "best-match", order: input.order ?? "desc" }, page.limit, page.offset);
      if (!result.ok) return cannotSearch();
      const v = new View(ctx);
      const extras = loadExtras(v, result.rows);
      const items = result.rows.flatMap((row) => {
        const repo = v.repoRow(row.repo_id);
        return repo ? [{ ...issueObject(v, repo, row, extras), score: 1 }] : [];
      });
      return searchAnswer(ctx, page, result.total, items);
    },
  }),
  route({
    method: "GET",
    pattern: "/rate_limit",
    operation: "rateLimit.get",
    summary: "Get rate limit status for the authenticated user",
    tool: {
      name: "get_rate_limit",
      description: "Get the API rate limit: how many calls remain in the current window and when it resets.",
    },
    handler: (ctx) => ok(rateLimitBody(ctx)),
  }),
];
