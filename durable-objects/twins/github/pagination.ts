// GitHub's pagination: `per_page` (default 30, at most 100) and `page`, and the `Link` header
// exactly as GitHub writes it: absolute URLs, the request's own query with `page` set,
// repository lists addressed as /repositories/{id}/..., and rels in GitHub's order.
import type { TwinContext, TwinResponse } from "../types";
import { ghJson } from "./errors";

export interface Page {
  page: number;
  perPage: number;
  limit: number;
  offset: number;
}

/**
 * The furthest page the twin reads: far past any world's end, and small enough that
 * `(page - 1) * per_page` stays an exact integer SQLite accepts as an OFFSET.
 */
const MAX_PAGE = 1_000_000_000;

/** A positive integer from the query; anything else (negative, decimal, words) reads as absent, as on GitHub. */
function positiveInt(value: string | null): number | undefined {
  if (value === null || !/^\d+$/.test(value.trim())) return undefined;
  const n = Number(value);
  return n > 0 ? n : undefined;
}

export function pageOf(ctx: TwinContext, defaults: { perPage?: number; max?: number } = {}): Page {
  const max = defaults.max ?? 100;
  const perPage = Math.min(positiveInt(ctx.query.get("per_page")) ?? defaults.perPage ?? 30, max);
  // A page past the end is an empty page, however far past: huge values are clamped, not refused.
  const page = Math.min(positiveInt(ctx.query.get("page")) ?? 1, MAX_PAGE);
  return { page, perPage, limit: perPage, offset: (page - 1) * perPage };
}

/** The path links point at: repository lists use GitHub's stable /repositories/{id} form. */
function linkPath(ctx: TwinContext, repoId?: number): string {
  if (repoId === undefined) return ctx.req.path;
  return ctx.req.path.replace(/^\/(?:repos\/[^/]+\/[^/]+|repositories\/\d+)/, `/repositories/${repoId}`);
}

export function linkHeader(ctx: TwinContext, page: Page, total: number, repoId?: number): string | undefined {
  const last = Math.max(1, Math.ceil(total / page.perPage));
  if (last <= 1 && page.page <= 1) return undefined;
  const base = `${ctx.req.baseUrl}${linkPath(ctx, repoId)}`;
  const url = (n: number) => {
    const params = new URLSearchParams(ctx.req.query);
    params.set("page", String(n));
    return `<${base}?${params.toString()}>`;
  };
  const links: string[] = [];
  if (page.page > 1) links.push(`${url(page.page - 1)}; rel="prev"`);
  if (page.page < last) links.push(`${url(page.page + 1)}; rel="next"`, `${url(last)}; rel="last"`);
  if (page.page > 1) links.push(`${url(1)}; rel="first"`);
  return links.length ? links.join(", ") : undefined;
}

/** A JSON list response with its Link header. */
export function paged(ctx: TwinContext, body: unknown, page: Page, total: number, repoId?: number): TwinResponse {
  const link = linkHeader(ctx, page, total, repoId);
  return ghJson(200, body, link ? { link } : {});
}
