// The account a call acts as: the connected account its `Stripe-Account` header names
// (docs.stripe.com/connect/authentication), else the platform the key belongs to.
import type { Call } from "./call-shape";
import { readPlatformAccount } from "./connect";
import type { TwinResponse } from "../types";
import { fail, invalidRequest, stripeError } from "./errors";
import { getObject, type Rec } from "./store";

/**
 * The connected account `Stripe-Account` names, or undefined for the platform. Stripe answers a
 * Stripe-Account the platform does not control as it answers an unknown one: an
 * `account_invalid` refusal (docs.stripe.com/connect/authentication).
 */
export function connectedAccountOf(c: Call): Rec | undefined {
  const header = c.ctx.req.headers["stripe-account"];
  if (typeof header !== "string" || !header) return undefined;
  const platform = readPlatformAccount(c.db);
  if (header === platform.id) return undefined;
  return (
    getObject(c.db, "account", header) ??
    fail(
      invalidRequest(`The provided key does not have access to account '${header}' (or that account does not exist).`, {
        code: "account_invalid",
      }),
    )
  );
}

/** The account the call acts as: the connected one, else the platform. */
export const actingAccount = (c: Call): Rec => connectedAccountOf(c) ?? readPlatformAccount(c.db);

/** The operations that act as the connected account `Stripe-Account` names, by path. */
const SCOPED_PATHS = [/^\/v1\/account$/, /^\/v1\/payouts(?:\/|$)/];

/**
 * Every call with a `Stripe-Account` header: an account the platform does not control is refused
 * as Stripe refuses it, whatever the operation; a connected one is honoured only where the twin
 * keeps that account's objects apart (its account and its payouts). Elsewhere the call would
 * read or write the platform's objects, so it is answered 501 rather than answered wrongly.
 */
export function checkStripeAccount(c: Call): TwinResponse | undefined {
  const account = connectedAccountOf(c);
  if (!account || SCOPED_PATHS.some((p) => p.test(c.ctx.req.path))) return undefined;
  return stripeError(
    501,
    "api_error",
    `The Stripe twin does not implement ${c.ctx.req.method} ${c.ctx.req.path} as a connected account (Stripe-Account): it acts as one for GET /v1/account and /v1/payouts.`,
    { code: "not_implemented" },
  );
}
