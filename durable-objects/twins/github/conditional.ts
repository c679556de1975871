// Conditional requests as GitHub serves them: every successful answer carries an `ETag` (weak,
// `W/"…"`, for JSON, as api.github.com sends; strong for raw bytes), single resources with an
// `updated_at` carry `Last-Modified`, and a GET whose `If-None-Match` (or, without one,
// `If-Modified-Since`) still holds is answered 304 with an empty body. Source: GitHub's REST docs,
// "Best practices: use conditional requests if appropriate", and the etag / last-modified headers
// of @octokit/fixtures' recordings (get-repository, get-content, labels).
import type { TwinContext, TwinResponse } from "../types";

/**
 * A 64-hex digest of the body, cheap enough for every answer: four independent 32-bit
 * multiply-xor lanes over the UTF-16 code units (not cryptographic; an ETag only has to change
 * when the body does).
 */
export function bodyDigest(body: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ body.length;
  let c = 0x9e3779b1;
  let d = 0x85ebca77 ^ body.length;
  for (let i = 0; i < body.length; i++) {
    const ch = body.charCodeAt(i);
    a = Math.imul(a ^ ch, 0x01000193);
    b = Math.imul(b ^ ch, 0x5bd1e995);
    c = Math.imul(c ^ ch, 0x27d4eb2f);
    d = Math.imul(d ^ ch, 0x165667b1);
  }
  const mix = (h: number, k: number) => {
    let x = Math.imul(h ^ (h >>> 16), 0x85ebca6b ^ k);
    x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
    return (x ^ (x >>> 16)) >>> 0;
  };
  const lanes = [a, b, c, d, a ^ c, b ^ d, a ^ d, b ^ c].map((h, i) => mix(h, i));
  return lanes.map((h) => h.toString(16).padStart(8, "0")).join("");
}

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

/** The HTTP date of a single resource's `updated_at`, as GitHub's Last-Modified; undefined for lists. */
export function lastModifiedOf(res: TwinResponse): string | undefined {
  // Only an object that has the field anywhere is parsed (a file's contents never are).
  if (!isJson(res) || !res.body.startsWith("{") || !res.body.includes('"updated_at"')) return undefined;
  let updated: unknown;
  try {
    updated = (JSON.parse(res.body) as Record<string, unknown>).updated_at;
  } catch {
    return undefined;
  }
  const ms = typeof updated === "string" ? Date.parse(updated) : Number.NaN;
  return Number.isNaN(ms) ? undefined : new Date(ms).toUTCString();
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
