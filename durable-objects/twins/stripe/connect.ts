// Connect: the platform account a key belongs to, connected accounts (Express, Custom, Standard,
// or described by `controller`), and what a controller implies, as Stripe's Account object shows
// it (stripe-node `Account`, API 2026-10-28).
import type { Db } from "../types";
import { idBody, rec, str, type Rec } from "./store";

/** The platform account's id when the seed names none: stable for every sandbox. */
export const PLATFORM_ACCOUNT_ID = "acct_1PomeTwinPlatform0";

export type AccountType = "express" | "custom" | "standard";

/**
 * The controller Stripe reports for each legacy `type` (docs.stripe.com/connect/migrate-to-controller-properties):
 * Standard is a full-dashboard account that pays its own fees and losses, Express an Express-dashboard
 * one whose platform is liable, Custom one with no Stripe dashboard.
 */
export function controllerOf(type: AccountType): Rec {
  const application = type !== "standard";
  return {
    fees: { payer: type === "standard" ? "account" : type === "express" ? "application_express" : "application_custom" },
    is_controller: true,
    losses: { payments: application ? "application" : "stripe" },
    requirement_collection: type === "custom" ? "application" : "stripe",
    stripe_dashboard: { type: type === "standard" ? "full" : type === "express" ? "express" : "none" },
    type: "application",
  };
}

/** The legacy type a `controller` hash describes (the inverse of `controllerOf`). */
export function typeOfController(controller: Rec): AccountType {
  const dashboard = str(rec(controller.stripe_dashboard).type);
  if (dashboard === "express") return "express";
  if (dashboard === "none") return "custom";
  if (dashboard === "full") return "standard";
  return rec(controller.losses).payments === "application" ? "express" : "standard";
}

const emptyRequirements = () => ({
  alternatives: [],
  current_deadline: null,
  currently_due: [],
  disabled_reason: null,
  errors: [],
  eventually_due: [],
  past_due: [],
  pending_verification: [],
});

/**
 * Onboarding a connected account happens on Stripe's hosted pages, which a twin has none of: a
 * new account is created as test accounts are once onboarded (details submitted, charges and
 * payouts enabled), so a marketplace agent can move money to it at once.
 */
export function buildAccount(r: Rec, m: { id: string; created: number }): Rec {
  const type = (str(r.type) ?? "standard") as AccountType;
  const country = str(r.country) ?? "US";
  const currency = str(r.default_currency) ?? (country === "US" ? "usd" : "eur");
  const settings = rec(r.settings);
  return {
    id: m.id,
    object: "account",
    business_profile: {
      annual_revenue: null,
      estimated_worker_count: null,
      mcc: null,
      minority_owned_business_designation: null,
      name: null,
      product_description: null,
      support_address: null,
      support_email: null,
      support_phone: null,
      support_url: null,
      url: null,
      ...rec(r.business_profile),
    },
    business_type: r.business_type ?? null,
    capabilities: r.capabilities ?? { card_payments: "active", transfers: "active" },
    charges_enabled: true,
    controller: controllerOf(type),
    country,
    created: m.created,
    default_currency: currency,
    details_submitted: true,
    email: r.email ?? null,
    external_accounts: { object: "list", data: [], has_more: false, total_count: 0, url: `/v1/accounts/${m.id}/external_accounts` },
    future_requirements: emptyRequirements(),
    metadata: rec(r.metadata),
    payouts_enabled: true,
    requirements: emptyRequirements(),
    settings: {
      branding: { icon: null, logo: null, primary_color: null, secondary_color: null, ...rec(settings.branding) },
      card_payments: { decline_on: { avs_failure: false, cvc_failure: false }, statement_descriptor_prefix: null },
      dashboard: { display_name: str(rec(r.business_profile).name) ?? null, timezone: "Etc/UTC" },
      payments: { statement_descriptor: null, statement_descriptor_kana: null, statement_descriptor_kanji: null },
      payouts: {
        debit_negative_balances: type !== "standard",
        schedule: { delay_days: 2, interval: "daily", ...rec(rec(settings.payouts).schedule) },
        statement_descriptor: null,
      },
    },
    tos_acceptance: { date: null, ip: null, user_agent: null, ...rec(r.tos_acceptance) },
    type,
  };
}

/** The account every sandbox key belongs to when the seed describes none. */
export function defaultPlatformAccount(): Rec {
  return buildAccount(
    {
      type: "standard",
      email: "owner@example.com",
      business_profile: { name: "Pome Twin Platform", url: "https://example.com" },
      business_type: "company",
    },
    { id: PLATFORM_ACCOUNT_ID, created: 1767225600 },
  );
}

/** A seeded platform account: the fields the seed gives over the default ones. */
export function platformAccountOf(seeded: Rec): Rec {
  const base = defaultPlatformAccount();
  const id = str(seeded.id) ?? PLATFORM_ACCOUNT_ID;
  const built = buildAccount(
    { type: "standard", ...base, ...seeded },
    { id, created: typeof seeded.created === "number" ? seeded.created : 1767225600 },
  );
  return { ...built, business_profile: { ...rec(built.business_profile), ...rec(seeded.business_profile) } };
}

/** The platform account: the seeded one (kept in st_meta by boot), else the default. */
export function readPlatformAccount(db: Db): Rec {
  const row = db.one<{ value: string }>("SELECT value FROM st_meta WHERE key = 'account'");
  return row ? rec(JSON.parse(row.value)) : defaultPlatformAccount();
}

/** Days a card payment waits in the pending balance: the account's payout schedule's delay. */
export function delayDays(account: Rec): number {
  const days = rec(rec(rec(account.settings).payouts).schedule).delay_days;
  return typeof days === "number" && days >= 0 ? days : 2;
}

/** A one-time link into hosted onboarding or the Express dashboard (Stripe serves them; the twin names them). */
export const hostedUrl = (kind: "setup" | "express", seed: string) =>
  kind === "setup"
    ? `https://connect.stripe.com/setup/s/${idBody(`link:${seed}`, 12)}`
    : `https://connect.stripe.com/express/${idBody(`login:${seed}`, 12)}`;
