// Linear's rate limits, as linear.app/developers/rate-limiting describes them: two leaky buckets
// per authenticated user (requests and query complexity), each refilled at a constant
// LIMIT_AMOUNT / LIMIT_PERIOD, reported on every response in these headers (the names
// @linear/sdk 98's RatelimitedLinearError reads, dist/index.mjs):
//   X-RateLimit-Requests-Limit / -Remaining / -Reset   (reset: UTC epoch milliseconds)
//   X-Complexity                                          (the query's own complexity)
//   X-RateLimit-Complexity-Limit / -Remaining / -Reset
// and queried through `rateLimitStatus` (RateLimitPayload: `limits[]` with allowedAmount, period
// and reset in milliseconds). A call the buckets cannot pay for is refused with Linear's
// RATELIMITED error, which api.linear.app sends as HTTP 400 with `extensions.statusCode: 429`
// (observed live: vanillagreencom/kendex#1018).
//
// Limits: an API key 5,000 requests and 3,000,000 complexity points an hour, an OAuth app
// 5,000 requests and 2,000,000 points (Linear's rate-limiting page); a seed may lower them
// (`rateLimits`) so that a task can exercise the refusal. The buckets live in memory per sandbox
// storage: Linear counts every request, refused or not, so a rolled-back call still pays, and a
// restarted sandbox starts with full buckets (a declared divergence: NOTES.md).
import type { Db } from "../types";
import type { TwinResponse } from "../types";
import { graphqlBody } from "./errors";

export const HOUR_MS = 3_600_000;

/** Linear's published hourly limits. */
export const LINEAR_RATE_LIMITS = {
  apiKey: { requests: 5_000, complexity: 3_000_000 },
  oauth: { requests: 5_000, complexity: 2_000_000 },
} as const;

export interface RateLimits {
  requests: number;
  complexity: number;
}

/** One leaky bucket: `level` is what is left at `at` (ms); it refills `limit` per hour. */
interface Bucket {
  limit: number;
  level: number;
  at: number;
}

/** The level a bucket has reached by `now`: refilled at a constant rate, never past its limit. */
export function levelAt(b: Bucket, now: number): number {
  const elapsed = Math.max(0, now - b.at);
  return Math.min(b.limit, b.level + (elapsed * b.limit) / HOUR_MS);
}

/** When a bucket at `level` is full again (epoch ms), refilling at limit/hour. */
export const fullAt = (limit: number, level: number, now: number): number =>
  Math.ceil(now + ((limit - level) * HOUR_MS) / Math.max(limit, 1));

interface Buckets {
  requests: Bucket;
  complexity: Bucket;
}

/** Buckets per sandbox storage, then per viewer (Linear limits per user, whatever key they use). */
const byStorage = new WeakMap<Db, Map<string, Buckets>>();

function bucketsOf(db: Db, who: string, limits: RateLimits, now: number): Buckets {
  let users = byStorage.get(db);
  if (!users) {
    users = new Map();
    byStorage.set(db, users);
  }
  let b = users.get(who);
  if (!b || b.requests.limit !== limits.requests || b.complexity.limit !== limits.complexity) {
    b = {
      requests: { limit: limits.requests, level: limits.requests, at: now },
      complexity: { limit: limits.complexity, level: limits.complexity, at: now },
    };
    users.set(who, b);
  }
  return b;
}

export interface RateState {
  requestsLimit: number;
  requestsRemaining: number;
  requestsReset: number;
  complexity: number;
  complexityLimit: number;
  complexityRemaining: number;
  complexityReset: number;
}

export interface Charge {
  state: RateState;
  /** Which bucket could not pay, if any: the call is then refused and charged nothing more. */
  refused?: "requests" | "complexity";
}

/**
 * Charges one request of the given complexity to `who`'s buckets at `now`. A request the request
 * bucket cannot pay for, or whose complexity is more than the complexity bucket holds, is refused.
 */
export function charge(db: Db, who: string, limits: RateLimits, complexity: number, now: number): Charge {
  const b = bucketsOf(db, who, limits, now);
  const requests = levelAt(b.requests, now);
  const points = levelAt(b.complexity, now);
  let refused: Charge["refused"];
  if (requests < 1) refused = "requests";
  else if (complexity > points) refused = "complexity";
  const requestsLeft = refused === "requests" ? requests : requests - 1;
  const pointsLeft = refused ? points : points - complexity;
  b.requests = { limit: limits.requests, level: requestsLeft, at: now };
  b.complexity = { limit: limits.complexity, level: pointsLeft, at: now };
  return {
    refused,
    state: {
      requestsLimit: limits.requests,
      requestsRemaining: Math.max(0, Math.floor(requestsLeft)),
      requestsReset: fullAt(limits.requests, requestsLeft, now),
      complexity,
      complexityLimit: limits.complexity,
      complexityRemaining: Math.max(0, Math.floor(pointsLeft)),
      complexityReset: fullAt(limits.complexity, pointsLeft, now),
    },
  };
}

/** The buckets as they stand, without charging anything (for `rateLimitStatus`). */
export function peek(db: Db, who: string, limits: RateLimits, now: number): { requests: number; complexity: number } {
  const b = bucketsOf(db, who, limits, now);
  return { requests: levelAt(b.requests, now), complexity: levelAt(b.complexity, now) };
}

/** The headers Linear sends on every API response. */
export function rateHeaders(s: RateState): Record<string, string> {
  return {
    "x-ratelimit-requests-limit": String(s.requestsLimit),
    "x-ratelimit-requests-remaining": String(s.requestsRemaining),
    "x-ratelimit-requests-reset": String(s.requestsReset),
    "x-complexity": String(s.complexity),
    "x-ratelimit-complexity-limit": String(s.complexityLimit),
    "x-ratelimit-complexity-remaining": String(s.complexityRemaining),
    "x-ratelimit-complexity-reset": String(s.complexityReset),
  };
}

export const withHeaders = (res: TwinResponse, headers: Record<string, string>): TwinResponse => ({
  ...res,
  headers: { ...res.headers, ...headers },
});

/**
 * Linear's refusal when a bucket is empty: HTTP 400, `RATELIMITED`, `statusCode: 429`, no data.
 * @linear/sdk picks RatelimitedLinearError from `extensions.type` and reads the headers above.
 */
export function rateLimitedBody(s: RateState, which: "requests" | "complexity", now: number): TwinResponse {
  const message =
    which === "requests"
      ? "Rate limit exceeded: too many requests. Please wait before sending more."
      : `Rate limit exceeded: the query's complexity (${s.complexity}) is more than the ${s.complexityRemaining} points left this hour.`;
  const reset = which === "requests" ? s.requestsReset : s.complexityReset;
  // Time until one request (or the query's complexity) is affordable again, in whole seconds.
  const per = which === "requests" ? HOUR_MS / s.requestsLimit : ((s.complexity - s.complexityRemaining) * HOUR_MS) / s.complexityLimit;
  const retryAfter = Math.max(1, Math.ceil(Math.min(per, reset - now) / 1000));
  return withHeaders(
    graphqlBody(
      400,
      [
        {
          message: "Rate limit exceeded",
          extensions: {
            type: "ratelimited",
            code: "RATELIMITED",
            statusCode: 429,
            userError: true,
            userPresentableMessage: message,
          },
        },
      ],
      false,
    ),
    { ...rateHeaders(s), "retry-after": String(retryAfter) },
  );
}
