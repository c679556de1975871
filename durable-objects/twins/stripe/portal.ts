// The customer portal: configurations (what a customer may do there) and sessions (a short-lived
// link for one customer). Stripe hosts the portal page at billing.stripe.com; the twin has none,
// so a session's url has Stripe's shape (`https://billing.stripe.com/p/session/test_…`) and leads
// nowhere. Stripe refuses a session without a configuration until the account saved its portal
// settings in the Dashboard; a twin has no Dashboard, so every sandbox's account counts as having
// saved them once: a default configuration exists (made when first needed), as in most accounts
// that use the portal.
import type { Db } from "../types";
import { getObject, idBody, insertObject, rec, type Rec } from "./store";

export const DEFAULT_CONFIGURATION_ID = "bpc_1PomeTwinDefaultPortal";

/** A form hash read as Stripe types it: "true"/"false" are booleans, lists by index are arrays. */
export function typedForm(v: unknown): unknown {
  if (v === "true") return true;
  if (v === "false") return false;
  if (Array.isArray(v)) return v.map(typedForm);
  if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, typedForm(x)]));
  return v;
}

/** Stripe's portal features, each off unless a configuration turns it on. */
export function portalFeatures(given: Rec): Rec {
  const f = (name: string, defaults: Rec) => ({ ...defaults, ...rec(typedForm(given[name])) });
  return {
    customer_update: f("customer_update", { allowed_updates: [], enabled: false }),
    invoice_history: f("invoice_history", { enabled: false }),
    payment_method_update: f("payment_method_update", { enabled: false, payment_method_configuration: null }),
    subscription_cancel: f("subscription_cancel", {
      cancellation_reason: { enabled: false, options: [] },
      enabled: false,
      mode: "at_period_end",
      proration_behavior: "none",
    }),
    subscription_pause: f("subscription_pause", { enabled: false }),
    subscription_update: f("subscription_update", {
      billing_cycle_anchor: null,
      default_allowed_updates: [],
      enabled: false,
      products: [],
      proration_behavior: "none",
      schedule_at_period_end: { conditions: [] },
      trial_update_behavior: "end_trial",
    }),
  };
}

export function buildConfiguration(r: Rec, m: { id: string; created: number }): Rec {
  return {
    id: m.id,
    object: "billing_portal.configuration",
    active: true,
    application: null,
    business_profile: { headline: null, privacy_policy_url: null, terms_of_service_url: null, ...rec(r.business_profile) },
    created: m.created,
    default_return_url: r.default_return_url ?? null,
    features: portalFeatures(rec(r.features)),
    is_default: r.is_default === true,
    livemode: false,
    login_page: {
      enabled: typedForm(rec(r.login_page).enabled) === true,
      url: typedForm(rec(r.login_page).enabled) === true ? `https://billing.stripe.com/p/login/test_${idBody(`login:${m.id}`, 14)}` : null,
    },
    metadata: rec(r.metadata),
    name: r.name ?? null,
    updated: m.created,
  };
}

/** The default configuration as boot makes it, at `created`. */
export function builtDefaultConfiguration(created: number): Rec {
  return buildConfiguration(
    {
      is_default: true,
      features: {
        customer_update: { allowed_updates: ["email", "address"], enabled: true },
        invoice_history: { enabled: true },
        payment_method_update: { enabled: true },
        subscription_cancel: { enabled: true },
      },
    },
    { id: DEFAULT_CONFIGURATION_ID, created },
  );
}

/**
 * The default configuration. Boot makes it (world.ts), as a Stripe account has one from the
 * start, so a read never writes; a seed may give its own under the same id.
 */
export function defaultConfiguration(db: Db, now: number): Rec {
  const found = getObject(db, "billing_portal.configuration", DEFAULT_CONFIGURATION_ID);
  if (found) return found;
  const made = builtDefaultConfiguration(now);
  insertObject(db, "billing_portal.configuration", made);
  return made;
}

/** Whether a stored configuration is the default as boot made it, untouched since (export leaves it out). */
export const isUntouchedDefault = (o: Rec): boolean =>
  o.id === DEFAULT_CONFIGURATION_ID && JSON.stringify(o) === JSON.stringify(builtDefaultConfiguration(Number(o.created)));

/** A portal session's link, in the shape Stripe returns. */
export const sessionUrl = (id: string) => `https://billing.stripe.com/p/session/test_${idBody(`portal:${id}`, 40)}`;
