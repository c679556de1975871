// Conditional requests as GitHub serves them: every successful answer carries an `ETag` (weak,
// `W/"…"`, for JSON, as api.github.com sends; strong for raw bytes), single resources with an
// `updated_at` carry `Last-Modified`, and a GET whose `If-None-Match` (or, without one,
// `If-Modified-Since`) still holds is answered 304 with an empty body. Source: GitHub's REST docs,
// "Best practices: use conditional requests if appropriate", and the etag / last-modified headers
// of @octokit/fixtures' recordings (get-repository, get-content, labels).
import { createHash } from "node:crypto";
import type { TwinContext, TwinResponse } from "../types";

/**
 * The body's SHA-256 in hex, as long as GitHub's own ETags. The runtime's native hash (the
 * `nodejs_compat` flag) reads a 20 KB page three to four times faster than the multiply-xor lanes
 * written out in JavaScript it replaced, on every answer the twin gives.
 */
export const bodyDigest = (body: string): string => createHash("sha256").update(body).digest("hex");

const READ_CACHE_HEADERS = {
  "cache-control": "private, max-age=60, s-maxage=60",
  vary: "Accept, Authorization, Cookie, X-GitHub-OTP, Accept-Encoding",
};

const isJson = (res: TwinResponse) => /json/i.test(res.headers["content-type"] ?? "");

export const etagFor = (res: TwinResponse) => (isJson(res) ? `W/"${bodyDigest(res.body)}"` : `"${bodyDigest(res.body)}"`);

/** `If-None-Match` holds when it lists the ETag (compared weakly, RFC 9110 §13.1.2) or is `*`. */
export function noneMatchHolds(header: string, etag: string): boolean {
  const bare = (tag: string) => tag.trim().replace(/^W\//, "");
  const wanted = bare(etag);
  return header.split(",").some((tag) => tag.trim() === "*" || bare(tag) === wanted);
}

/** The HTTP date of an ISO timestamp; undefined for anything else. */
function httpDate(updated: unknown): string | undefined {
  const ms = typeof updated === "string" ? Date.parse(updated) : Number.NaN;
  return Number.isNaN(ms) ? undefined : new Date(ms).toUTCString();
}

/**
 * The `Last-Modified` of an answer about to be written from `body`: the answers handlers build
 * carry it from the object itself, so `conditional` need not parse the text back to find it.
 */
export function lastModifiedHeader(body: unknown): Record<string, string> {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return {};
  const date = httpDate((body as Record<string, unknown>).updated_at);
  return date ? { "last-modified": date } : {};
}

/** The HTTP date of a single resource's `updated_at`, as GitHub's Last-Modified; undefined for lists. */
export function lastModifiedOf(res: TwinResponse): string | undefined {
  if (res.headers["last-modified"] !== undefined) return res.headers["last-modified"];
  // Only an object that has the field anywhere is parsed (a file's contents never are).
  if (!isJson(res) || !res.body.startsWith("{") || !res.body.includes('"updated_at"')) return undefined;
  let updated: unknown;
  try {
    updated = (JSON.parse(res.body) as Record<string, unknown>).updated_at;
  } catch {
    return undefined;
  }
  return httpDate(updated);
}

/** `If-Modified-Since` holds when the resource has not changed since (second resolution). */
export function notModifiedSince(header: string, lastModified: string): boolean {
  const since = Date.parse(header);
  const modified = Date.parse(lastModified);
  return !Number.isNaN(since) && !Number.isNaN(modified) && modified <= since;
}

/** Adds the validators to a successful answer, and turns a GET whose validator holds into a 304. */
export function conditional(ctx: TwinContext, res: TwinResponse): TwinResponse {
  if (res.status < 200 || res.status >= 300 || res.status === 204 || res.headers.etag) return res;
  const etag = etagFor(res);
  const lastModified = lastModifiedOf(res);
  const validators: Record<string, string> = { etag, ...(lastModified ? { "last-modified": lastModified } : {}) };
  if (ctx.req.method !== "GET" && ctx.req.method !== "HEAD") return { ...res, headers: { ...res.headers, ...validators } };
  // What api.github.com sends with every authenticated GET (the recordings' cache-control and vary).
  const withValidators = { ...res, headers: { ...res.headers, ...validators, ...READ_CACHE_HEADERS } };
  const ifNoneMatch = ctx.req.headers["if-none-match"];
  const ifModifiedSince = ctx.req.headers["if-modified-since"];
  // RFC 9110 §13.2.2: If-None-Match, when present, decides; If-Modified-Since only without it.
  const unchanged =
    ifNoneMatch !== undefined
      ? noneMatchHolds(ifNoneMatch, etag)
      : ifModifiedSince !== undefined && lastModified !== undefined && notModifiedSince(ifModifiedSince, lastModified);
  if (!unchanged) return withValidators;
  return { status: 304, headers: { ...validators, ...cacheHeaders(withValidators) }, body: "" };
}

/** A 304 repeats the headers a cache would otherwise refresh from the 200 (RFC 9110 §15.4.5). */
function cacheHeaders(res: TwinResponse): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of ["cache-control", "vary", "link"]) {
    const value = res.headers[key];
    if (value !== undefined) out[key] = value;
  }
  return out;
}
