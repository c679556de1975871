// One /graphql call's place in its user's rate-limit buckets (ratelimit.ts): charged once, before
// the document runs (or, for a body refused before it is measured, as a request of no complexity),
// then written into the answer's headers and read by `rateLimitStatus`.
import type { TwinContext, TwinResponse } from "../types";
import { worldConstants } from "./meta";
import { OAUTH_TOKEN_PREFIX, bearer } from "./oauth";
import {
  HOUR_MS,
  LINEAR_RATE_LIMITS,
  charge,
  fullAt,
  peek,
  rateHeaders,
  rateLimitedBody,
  withHeaders,
  type RateLimits,
  type RateState,
} from "./ratelimit";

/** What `rateLimitStatus` answers (RateLimitPayload, RateLimitResultPayload). */
export interface RateLimitStatus {
  identifier: string;
  kind: string;
  limits: { type: string; allowedAmount: number; remainingAmount: number; requestedAmount: number; period: number; reset: number }[];
}

export class RateMeter {
  private state: RateState | undefined;
  private readonly limits: RateLimits;
  private readonly oauth: boolean;

  constructor(
    private readonly ctx: TwinContext,
    private readonly viewerId: string,
  ) {
    this.oauth = bearer(ctx).startsWith(OAUTH_TOKEN_PREFIX);
    this.limits = worldConstants(ctx.db).rateLimits ?? (this.oauth ? LINEAR_RATE_LIMITS.oauth : LINEAR_RATE_LIMITS.apiKey);
  }

  /** Charges the call; Linear's RATELIMITED refusal when its buckets cannot pay, else undefined. */
  admit(complexity: number): TwinResponse | undefined {
    const now = this.ctx.clock.now();
    const { state, refused } = charge(this.ctx.db, this.viewerId, this.limits, complexity, now);
    this.state = state;
    return refused ? rateLimitedBody(state, refused, now) : undefined;
  }

  /** The answer with the headers of this call's charge (a request of no complexity if none was made). */
  decorate(res: TwinResponse): TwinResponse {
    if (!this.state) this.admit(0);
    return this.state ? withHeaders(res, rateHeaders(this.state)) : res;
  }

  /** The buckets as they stand after this call, in RateLimitPayload's shape. */
  readonly status = (): RateLimitStatus => {
    const now = this.ctx.clock.now();
    const left = peek(this.ctx.db, this.viewerId, this.limits, now);
    const entry = (type: string, allowed: number, remaining: number, requested: number) => ({
      type,
      allowedAmount: allowed,
      remainingAmount: Math.max(0, Math.floor(remaining)),
      requestedAmount: requested,
      period: HOUR_MS,
      reset: fullAt(allowed, remaining, now),
    });
    return {
      identifier: this.viewerId,
      kind: this.oauth ? "oauthApp" : "apiKey",
      limits: [
        entry("requestCount", this.limits.requests, left.requests, 1),
        entry("complexity", this.limits.complexity, left.complexity, this.state?.complexity ?? 0),
      ],
    };
  };
}
