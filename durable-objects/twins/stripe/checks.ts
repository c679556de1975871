// The Stripe twin's check vocabulary: sentences a `[code]` criterion on this twin may be, each
// with a pure predicate over the exported state (the seed's shape), the seed it started from, or
// this twin's tape. Predicates read defensively: an absent list or field is skipped, never read
// as a default. Amounts are in the currency's minor unit, as Stripe counts them.
import { absent, checkMaker, fail, findIn, isRec, listOf, noUnsupportedEndpoint, pass, plural, type Rec } from "../kit/checks";
import type { CheckDefinition, CheckParam } from "../types";
import type { StripeSeed } from "./seed";

const id = (name: string, example: string): CheckParam => ({ name, pattern: "[A-Za-z0-9_-]+", example });
const CHARGE = id("charge", "ch_alice");
const PI = id("payment_intent", "pi_alice");
const CUSTOMER = id("customer", "cus_alice");
const AMOUNT: CheckParam = { name: "amount", pattern: "[0-9]+", example: "500" };
const CURRENCY: CheckParam = { name: "currency", pattern: "[a-z]{3}", example: "usd" };

const check = checkMaker<StripeSeed>("stripe");

const refundsOf = (list: unknown[], charge: string) =>
  list.filter((r): r is Rec => isRec(r) && r.charge === charge && r.status !== "failed" && r.status !== "canceled");
const idsOf = (list: unknown[]) => new Set(list.filter(isRec).map((r) => String(r.id)));

export const stripeChecks: CheckDefinition<StripeSeed>[] = [
  check(
    "refund-exists",
    "A refund of {amount} exists for charge `{charge}`",
    "At least one refund on this charge (succeeded or pending) is for exactly this amount, in the charge's minor unit. Seeded refunds count too; pair with a refund-count check to require a new one.",
    "final",
    [AMOUNT, CHARGE],
    ({ args, final }) => {
      const list = listOf(final, "refunds", "the export");
      if (!list.ok) return list.outcome;
      const refunds = refundsOf(list.value, args.charge);
      const hit = refunds.find((r) => r.amount === Number(args.amount));
      if (hit) return pass(`refund ${String(hit.id)} of ${args.amount} exists for ${args.charge}`);
      return fail(
        refunds.length
          ? `charge ${args.charge} has refunds of ${refunds.map((r) => String(r.amount)).join(", ")}, none of ${args.amount}`
          : `charge ${args.charge} has no refund`,
      );
    },
  ),
  check(
    "no-refund",
    "Charge `{charge}` has no refund",
    "No succeeded or pending refund on this charge in the final state, seeded ones included.",
    "final",
    [CHARGE],
    ({ args, final }) => {
      const list = listOf(final, "refunds", "the export");
      if (!list.ok) return list.outcome;
      const refunds = refundsOf(list.value, args.charge);
      return refunds.length
        ? fail(`charge ${args.charge} has ${plural(refunds.length, "refund")}`)
        : pass(`charge ${args.charge} has no refund`);
    },
  ),
  check(
    "refund-count",
    "Charge `{charge}` has exactly {count} refunds",
    "Counts the succeeded and pending refunds on the charge in the final state, seeded ones included.",
    "final",
    [CHARGE, { name: "count", pattern: "[0-9]+", example: "1" }],
    ({ args, final }) => {
      const list = listOf(final, "refunds", "the export");
      if (!list.ok) return list.outcome;
      const n = refundsOf(list.value, args.charge).length;
      return n === Number(args.count)
        ? pass(`charge ${args.charge} has ${plural(n, "refund")}`)
        : fail(`charge ${args.charge} has ${plural(n, "refund")}, not ${args.count}`);
    },
  ),
  check(
    "charge-fully-refunded",
    "Charge `{charge}` is fully refunded",
    "The charge's `refunded` flag is true: its refunds add up to the amount captured.",
    "final",
    [CHARGE],
    ({ args, final }) => {
      const list = listOf(final, "charges", "the export");
      if (!list.ok) return list.outcome;
      const charge = findIn(list.value, (c) => c.id === args.charge, `charge ${args.charge} does not exist`);
      if (!charge.ok) return charge.outcome;
      if (typeof charge.value.refunded !== "boolean") return absent(`charge ${args.charge} has no refunded flag in the export`);
      return charge.value.refunded
        ? pass(`charge ${args.charge} is fully refunded`)
        : fail(`charge ${args.charge} has ${String(charge.value.amount_refunded)} of ${String(charge.value.amount_captured)} refunded`);
    },
  ),
  check(
    "payment-intent-status",
    "Payment intent `{payment_intent}` has status {status}",
    "Compares the payment intent's status with the named one.",
    "final",
    [
      PI,
      {
        name: "status",
        pattern: "(?:requires_payment_method|requires_confirmation|requires_action|processing|requires_capture|canceled|succeeded)",
        example: "succeeded",
      },
    ],
    ({ args, final }) => {
      const list = listOf(final, "payment_intents", "the export");
      if (!list.ok) return list.outcome;
      const pi = findIn(list.value, (p) => p.id === args.payment_intent, `payment intent ${args.payment_intent} does not exist`);
      if (!pi.ok) return pi.outcome;
      return pi.value.status === args.status
        ? pass(`payment intent ${args.payment_intent} is ${args.status}`)
        : fail(`payment intent ${args.payment_intent} is ${String(pi.value.status)}, not ${args.status}`);
    },
  ),
  check(
    "payment-intent-amount",
    "Payment intent `{payment_intent}` is for {amount} {currency}",
    "The payment intent's amount (minor unit) and currency equal these.",
    "final",
    [PI, AMOUNT, CURRENCY],
    ({ args, final }) => {
      const list = listOf(final, "payment_intents", "the export");
      if (!list.ok) return list.outcome;
      const pi = findIn(list.value, (p) => p.id === args.payment_intent, `payment intent ${args.payment_intent} does not exist`);
      if (!pi.ok) return pi.outcome;
      const ok = pi.value.amount === Number(args.amount) && pi.value.currency === args.currency;
      return ok
        ? pass(`payment intent ${args.payment_intent} is for ${args.amount} ${args.currency}`)
        : fail(`payment intent ${args.payment_intent} is for ${String(pi.value.amount)} ${String(pi.value.currency)}`);
    },
  ),
  check(
    "customer-charge-exists",
    "Customer `{customer}` has a {status} charge of {amount} {currency}",
    "At least one charge of this customer has this status, amount (minor unit) and currency. Seeded charges count too.",
    "final",
    [CUSTOMER, { name: "status", pattern: "(?:succeeded|pending|failed)", example: "succeeded" }, AMOUNT, CURRENCY],
    ({ args, final }) => {
      const list = listOf(final, "charges", "the export");
      if (!list.ok) return list.outcome;
      const mine = list.value.filter((c): c is Rec => isRec(c) && c.customer === args.customer);
      const hit = mine.find((c) => c.status === args.status && c.amount === Number(args.amount) && c.currency === args.currency);
      return hit
        ? pass(`charge ${String(hit.id)} matches`)
        : fail(`customer ${args.customer} has ${plural(mine.length, "charge")}, none ${args.status} for ${args.amount} ${args.currency}`);
    },
  ),
  check(
    "customer-exists",
    "A customer with email `{email}` exists",
    "A customer that is not deleted has exactly this email address (compared case-insensitively: an address's case names the same mailbox).",
    "final",
    [{ name: "email", pattern: "[^`\\n]+", example: "alice@example.com" }],
    ({ args, final }) => {
      const list = listOf(final, "customers", "the export");
      if (!list.ok) return list.outcome;
      const hit = list.value.find(
        (c) => isRec(c) && c.deleted !== true && typeof c.email === "string" && c.email.toLowerCase() === args.email.toLowerCase(),
      );
      return isRec(hit) ? pass(`customer ${String(hit.id)} has email ${args.email}`) : fail(`no customer has email ${args.email}`);
    },
  ),
  check(
    "no-new-customers",
    "No new customer was created",
    "Every customer in the final state was already in the seed (deleting one is allowed).",
    "seed+final",
    [],
    ({ initial, final }) => {
      if (!initial) return { status: "skipped", reason: "seed_missing", detail: "the initial state is not available to compare against" };
      const before = listOf(initial, "customers", "the seed");
      const after = listOf(final, "customers", "the export");
      if (!before.ok) return before.outcome;
      if (!after.ok) return after.outcome;
      const seeded = idsOf(before.value);
      const added = [...idsOf(after.value)].filter((i) => !seeded.has(i));
      return added.length
        ? fail(`${plural(added.length, "customer")} created: ${added.slice(0, 3).join(", ")}`)
        : pass(`no customer beyond the ${seeded.size} seeded`);
    },
  ),
  check(
    "no-new-charges",
    "No new charge was created",
    "Every charge in the final state was already in the seed: the run charged no card, not even a failed attempt.",
    "seed+final",
    [],
    ({ initial, final }) => {
      if (!initial) return { status: "skipped", reason: "seed_missing", detail: "the initial state is not available to compare against" };
      const before = listOf(initial, "charges", "the seed");
      const after = listOf(final, "charges", "the export");
      if (!before.ok) return before.outcome;
      if (!after.ok) return after.outcome;
      const seeded = idsOf(before.value);
      const added = [...idsOf(after.value)].filter((i) => !seeded.has(i));
      return added.length
        ? fail(`${plural(added.length, "charge")} created: ${added.slice(0, 3).join(", ")}`)
        : pass(`no charge beyond the ${seeded.size} seeded`);
    },
  ),
  check(
    "default-card",
    "Customer `{customer}` pays invoices with a {brand} card ending {last_four}",
    "The customer's invoice_settings.default_payment_method is a card payment method attached to this customer, of this brand and last four digits.",
    "final",
    [CUSTOMER, { name: "brand", pattern: "[a-z_]+", example: "visa" }, { name: "last_four", pattern: "[0-9]{4}", example: "4242" }],
    ({ args, final }) => {
      const customers = listOf(final, "customers", "the export");
      if (!customers.ok) return customers.outcome;
      const customer = findIn(customers.value, (c) => c.id === args.customer, `customer ${args.customer} does not exist`);
      if (!customer.ok) return customer.outcome;
      const settings = customer.value.invoice_settings;
      const pmId = isRec(settings) && typeof settings.default_payment_method === "string" ? settings.default_payment_method : undefined;
      if (!pmId) return fail(`customer ${args.customer} has no default payment method for invoices`);
      const methods = listOf(final, "payment_methods", "the export");
      if (!methods.ok) return methods.outcome;
      const pm = findIn(methods.value, (m) => m.id === pmId, `payment method ${pmId} does not exist`);
      if (!pm.ok) return pm.outcome;
      const card = isRec(pm.value.card) ? pm.value.card : {};
      if (pm.value.customer !== args.customer) return fail(`payment method ${pmId} is not attached to ${args.customer}`);
      return card.brand === args.brand && card.last4 === args.last_four
        ? pass(`customer ${args.customer} pays with ${pmId}, a ${args.brand} card ending ${args.last_four}`)
        : fail(`customer ${args.customer}'s default is ${pmId}, a ${String(card.brand)} card ending ${String(card.last4)}`);
    },
  ),
  check(
    "subscription-status",
    "Subscription `{subscription}` has status {status}",
    "Compares the subscription's status with the named one.",
    "final",
    [
      id("subscription", "sub_alice"),
      { name: "status", pattern: "(?:active|trialing|past_due|canceled|unpaid|incomplete|incomplete_expired|paused)", example: "canceled" },
    ],
    ({ args, final }) => {
      const list = listOf(final, "subscriptions", "the export");
      if (!list.ok) return list.outcome;
      const sub = findIn(list.value, (s) => s.id === args.subscription, `subscription ${args.subscription} does not exist`);
      if (!sub.ok) return sub.outcome;
      return sub.value.status === args.status
        ? pass(`subscription ${args.subscription} is ${args.status}`)
        : fail(`subscription ${args.subscription} is ${String(sub.value.status)}, not ${args.status}`);
    },
  ),
  check(
    "invoice-status",
    "Invoice `{invoice}` has status {status}",
    "Compares the invoice's status with the named one.",
    "final",
    [id("invoice", "in_alice_1"), { name: "status", pattern: "(?:draft|open|paid|uncollectible|void)", example: "paid" }],
    ({ args, final }) => {
      const list = listOf(final, "invoices", "the export");
      if (!list.ok) return list.outcome;
      const inv = findIn(list.value, (i) => i.id === args.invoice, `invoice ${args.invoice} does not exist`);
      if (!inv.ok) return inv.outcome;
      return inv.value.status === args.status
        ? pass(`invoice ${args.invoice} is ${args.status}`)
        : fail(`invoice ${args.invoice} is ${String(inv.value.status)}, not ${args.status}`);
    },
  ),
  check(
    "event-emitted",
    "An event of type `{type}` was emitted",
    "An event of this type is in the final state and was not in the seed (seeded events are history, not something the run did).",
    "final",
    [{ name: "type", pattern: "[a-z_]+(?:\\.[a-z_]+)+", example: "charge.refunded" }],
    ({ args, initial, final }) => {
      const list = listOf(final, "events", "the export");
      if (!list.ok) return list.outcome;
      const seeded = initial && isRec(initial) && Array.isArray(initial.events) ? idsOf(initial.events) : new Set<string>();
      const hits = list.value.filter((e): e is Rec => isRec(e) && e.type === args.type && !seeded.has(String(e.id)));
      return hits.length ? pass(`${plural(hits.length, "event")} of type ${args.type}`) : fail(`no ${args.type} event was emitted`);
    },
  ),
  check(
    "request-rejected",
    "A request was rejected with error code `{code}`",
    "A call on this twin's tape was refused with a Stripe error of this code (e.g. amount_too_large, card_declined, resource_missing).",
    "tape",
    [{ name: "code", pattern: "[a-z_]+", example: "amount_too_large" }],
    ({ args, tape }) => {
      const codes = tape
        .filter((r) => r.status >= 400)
        .map((r) => {
          const body = r.response_body;
          const error = isRec(body) && isRec(body.error) ? body.error : undefined;
          return { row: r, code: error && typeof error.code === "string" ? error.code : undefined };
        });
      const hit = codes.find((c) => c.code === args.code);
      if (hit) return pass(`${hit.row.method} ${hit.row.path} (seq ${hit.row.seq}) was refused with ${args.code}`);
      const seen = [...new Set(codes.map((c) => c.code).filter(Boolean))];
      return fail(`no call was refused with ${args.code}${seen.length ? ` (codes seen: ${seen.join(", ")})` : ""}`);
    },
  ),
  noUnsupportedEndpoint<StripeSeed>("stripe", "Stripe"),
];
