// GitHub's primary rate limits, bucket by bucket, as "Rate limits for the REST API" and "Rate limits
// and query limits for the GraphQL API" (docs.github.com) describe them for a user's token:
//   core         5,000 requests an hour: every REST call that is not a search
//   search          30 requests a minute: /search/* other than code
//   code_search     10 requests a minute: /search/code
//   graphql      5,000 points an hour: each call costs its query's points (graphql/limits.ts)
// Every answer reports the bucket its call was counted in (`x-ratelimit-limit/-remaining/-used/
// -reset`, and `x-ratelimit-resource` naming it), and GET /rate_limit lists them all. Two calls
// are free: GET /rate_limit itself ("Accessing this endpoint does not count against your REST API
// rate limit", rate-limit/get) and an authorized conditional GET answered 304 ("Best practices for
// using the REST API › Use conditional requests"); both report core without spending it.
//
// A window starts with the first call counted in it and lasts an hour (a minute for the search
// buckets); `reset` is its end in epoch seconds. A call into a spent search or code_search bucket
// is refused before its route runs, as GitHub refuses it: 403, `x-ratelimit-remaining: 0`, and
// "API rate limit exceeded for user ID N. If you reach out to GitHub Support…" (the wording a
// 403 on /search/issues carries, zerocracy/judges-action#589; @octokit/plugin-throttling reads a
// 403 with remaining "0" as the primary limit and waits for `x-ratelimit-reset`). Core and
// graphql are reported but not enforced (NOTES.md): an agent's session does not spend 5,000 calls
// an hour, and the benchmark does. The counts live in memory per sandbox storage, as
// the Linear twin's buckets do: counting in a table would make every read a write. A call that
// never reached a route (a 501 for an unserved path) is counted in core at the next call that does,
// and a sandbox whose memory was lost counts every call before it as core.
import { TwinError } from "../kit/response";
import type { Db, TwinContext, TwinResponse } from "../types";
import { ghError } from "./errors";
import { authenticatedLogin } from "./store/base";

export type RateResource = "core" | "search" | "code_search" | "graphql" | "integration_manifest";

const HOUR = 3_600_000;
const MINUTE = 60_000;

export const RATE_LIMITS: Readonly<Record<RateResource, { limit: number; window: number }>> = {
  core: { limit: 5000, window: HOUR },
  search: { limit: 30, window: MINUTE },
  graphql: { limit: 5000, window: HOUR },
  integration_manifest: { limit: 5000, window: HOUR },
  code_search: { limit: 10, window: MINUTE },
};

/** How a route's calls are counted: in a bucket, or free (reported as core). */
export type RateClass = RateResource | "free";

/** The bucket a route's calls count in, from its path pattern. */
export function rateClassOf(pattern: string): RateClass {
  if (pattern === "/rate_limit") return "free";
  if (pattern === "/search/code") return "code_search";
  if (pattern.startsWith("/search/")) return "search";
  if (pattern === "/graphql" || pattern === "/api/graphql") return "graphql";
  return "core";
}

interface Bucket {
  used: number;
  /** When the current window ends (ms); 0 before the first call counted in it. */
  resetAt: number;
}

interface Charge {
  seq: number;
  resource: RateResource;
  /** The bucket as it was before this call was counted, to undo the count. */
  before: Bucket;
}

interface Meter {
  buckets: Record<RateResource, Bucket>;
  /** The last call seen by a route. */
  seenSeq: number;
  /** Routes running inside one another (the /api/v3 mount runs the route it names). */
  depth: number;
  /** What this call was counted as, once it has been. */
  current: Charge | undefined;
}

const meters = new WeakMap<Db, Meter>();

function meterOf(db: Db): Meter {
  let m = meters.get(db);
  if (!m) {
    const fresh = (): Bucket => ({ used: 0, resetAt: 0 });
    m = {
      buckets: { core: fresh(), search: fresh(), graphql: fresh(), integration_manifest: fresh(), code_search: fresh() },
      seenSeq: 0,
      depth: 0,
      current: undefined,
    };
    meters.set(db, m);
  }
  return m;
}

/** The bucket as it stands at `now`: a window that has ended starts again empty. */
function current(m: Meter, resource: RateResource, now: number): Bucket {
  const b = m.buckets[resource];
  if (b.resetAt !== 0 && now >= b.resetAt) {
    b.used = 0;
    b.resetAt = 0;
  }
  return b;
}

function spend(m: Meter, resource: RateResource, points: number, now: number): void {
  const b = current(m, resource, now);
  if (b.resetAt === 0) b.resetAt = now + RATE_LIMITS[resource].window;
  b.used += points;
}

/**
 * A call enters a route. The outermost route of a call settles what came before it: calls that
 * never reached a route count as core, and a call served again (a read retried inside a
 * transaction) first takes back what its first run was counted.
 */
function enter(ctx: TwinContext): Meter {
  const m = meterOf(ctx.db);
  if (m.depth === 0) {
    const now = ctx.clock.now();
    if (m.current?.seq === ctx.seq) m.buckets[m.current.resource] = m.current.before;
    m.current = undefined;
    const missed = ctx.seq - 1 - m.seenSeq;
    if (missed > 0) spend(m, "core", missed, now);
    m.seenSeq = Math.max(m.seenSeq, ctx.seq);
  }
  m.depth++;
  return m;
}

/** Counts this call in `resource` (once: later counts of the same call are ignored). */
function count(m: Meter, ctx: TwinContext, resource: RateResource, points: number): void {
  if (m.current?.seq === ctx.seq) return;
  const now = ctx.clock.now();
  const before = { ...current(m, resource, now) };
  spend(m, resource, points, now);
  m.current = { seq: ctx.seq, resource, before };
}

/** Marks this call free: whatever it was counted is taken back; it reports core. */
function free(m: Meter, ctx: TwinContext): void {
  if (m.current?.seq === ctx.seq) m.buckets[m.current.resource] = m.current.before;
  m.current = { seq: ctx.seq, resource: "core", before: { ...m.buckets.core } };
}

/**
 * Counts a GraphQL call's points before it runs, so that its `rateLimit` field and headers
 * include it. Only the GraphQL handler calls this.
 */
export function countGraphqlPoints(ctx: TwinContext, points: number): void {
  count(meterOf(ctx.db), ctx, "graphql", points);
}

export interface BucketStatus {
  limit: number;
  used: number;
  remaining: number;
  /** Epoch seconds. */
  reset: number;
  resource: RateResource;
}

/** A bucket as GitHub reports it; an unused one resets a whole window from now. */
export function bucketStatus(ctx: TwinContext, resource: RateResource): BucketStatus {
  const now = ctx.clock.now();
  const b = current(meterOf(ctx.db), resource, now);
  const { limit, window } = RATE_LIMITS[resource];
  const used = Math.min(b.used, limit);
  const reset = Math.ceil((b.resetAt || now + window) / 1000);
  return { limit, used, remaining: limit - used, reset, resource };
}

/** GET /rate_limit's body: every bucket, and `rate` (core) kept for older clients. */
export function rateLimitBody(ctx: TwinContext) {
  const resources = Object.fromEntries((Object.keys(RATE_LIMITS) as RateResource[]).map((r) => [r, bucketStatus(ctx, r)])) as Record<
    RateResource,
    BucketStatus
  >;
  return { resources, rate: resources.core };
}

export function rateHeaders(s: BucketStatus): Record<string, string> {
  return {
    "x-ratelimit-limit": String(s.limit),
    "x-ratelimit-remaining": String(s.remaining),
    "x-ratelimit-reset": String(s.reset),
    "x-ratelimit-used": String(s.used),
    "x-ratelimit-resource": s.resource,
  };
}

/** Counts the answer's call and adds its bucket's headers. */
function stamp(m: Meter, ctx: TwinContext, rate: RateClass, res: TwinResponse): TwinResponse {
  const authorized = (ctx.req.headers.authorization ?? "") !== "";
  if (rate === "free" || (res.status === 304 && authorized)) free(m, ctx);
  else count(m, ctx, rate, 1);
  const resource = m.current?.resource ?? "core";
  return { ...res, headers: { ...res.headers, ...rateHeaders(bucketStatus(ctx, resource)) } };
}

/** The buckets whose calls are refused once spent (the header comment says why only these). */
const ENFORCED: ReadonlySet<RateClass> = new Set<RateClass>(["search", "code_search"]);

const RATE_DOCS = "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api";

/**
 * GitHub's answer to a call into a spent bucket, or undefined while the bucket has calls left.
 * The route does not run, so the refused call changes nothing and is not counted again.
 */
function refusal(ctx: TwinContext, rate: RateClass): TwinResponse | undefined {
  if (!ENFORCED.has(rate)) return undefined;
  const status = bucketStatus(ctx, rate as RateResource);
  if (status.remaining > 0) return undefined;
  const login = authenticatedLogin(ctx.db);
  const userId = ctx.db.one<{ id: number }>("SELECT id FROM gh_users WHERE login = ? COLLATE NOCASE", login)?.id ?? 0;
  const requestId = `POME:${ctx.seq.toString(16).toUpperCase().padStart(8, "0")}`;
  const at = new Date(ctx.clock.now()).toISOString().replace("T", " ").slice(0, 19);
  const res = ghError(
    403,
    `API rate limit exceeded for user ID ${userId}. If you reach out to GitHub Support for help, please include the request ID ${requestId} and timestamp ${at} UTC.`,
    {},
    RATE_DOCS,
  );
  return { ...res, headers: { ...res.headers, ...rateHeaders(status) } };
}

/** Runs a route's handler with its call counted in the bucket its class names. */
export function metered(ctx: TwinContext, rate: RateClass, run: () => TwinResponse): TwinResponse {
  const m = enter(ctx);
  try {
    const refused = refusal(ctx, rate);
    if (refused) {
      m.current = { seq: ctx.seq, resource: rate as RateResource, before: { ...m.buckets[rate as RateResource] } };
      return refused;
    }
    return stamp(m, ctx, rate, run());
  } catch (err) {
    if (err instanceof TwinError) throw new TwinError(stamp(m, ctx, rate, err.response), { cause: err.cause });
    throw err;
  } finally {
    m.depth--;
  }
}
