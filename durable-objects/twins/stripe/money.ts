// Money moving: test cards and what confirming with each does, charges and refunds.
import type { Call } from "./call";
import { CARD_ERROR_STATUS } from "./call";
import { fail, invalidRequest, missingParam, noSuch, stripeError } from "./errors";
import { emit } from "./events";
import { addTxn, BYPASS_PENDING_LAST4 } from "./balance";
import { buildCharge, buildPaymentMethod, cardDetails, cardFee, chargeCardDetails, formatAmount } from "./objects";
import { getObject, insertObject, newId, num, rec, saveObject, str, type Rec } from "./store";
import { settleDestinationCharge } from "./transfers";
import type { TwinResponse } from "../types";

// The balance and its schedule live in balance.ts; re-exported for the routes that move money.
export { addTxn, readBalance } from "./balance";

export type CardOutcome =
  | "succeed"
  | "decline"
  | "insufficient_funds"
  | "lost_card"
  | "expired_card"
  | "incorrect_cvc"
  | "requires_action"
  | "dispute";

export interface TestCard {
  brand: string;
  last4: string;
  outcome: CardOutcome;
}

/** Stripe's test PaymentMethod tokens this twin knows. */
export const TEST_CARDS: Record<string, TestCard> = {
  pm_card_visa: { brand: "visa", last4: "4242", outcome: "succeed" },
  pm_card_visa_debit: { brand: "visa", last4: "5556", outcome: "succeed" },
  pm_card_mastercard: { brand: "mastercard", last4: "4444", outcome: "succeed" },
  pm_card_amex: { brand: "amex", last4: "8431", outcome: "succeed" },
  pm_card_discover: { brand: "discover", last4: "1117", outcome: "succeed" },
  pm_card_jcb: { brand: "jcb", last4: "0505", outcome: "succeed" },
  pm_card_chargeDeclined: { brand: "visa", last4: "0002", outcome: "decline" },
  pm_card_chargeDeclinedInsufficientFunds: { brand: "visa", last4: "9995", outcome: "insufficient_funds" },
  pm_card_chargeDeclinedLostCard: { brand: "visa", last4: "9987", outcome: "lost_card" },
  pm_card_chargeDeclinedExpiredCard: { brand: "visa", last4: "0069", outcome: "expired_card" },
  pm_card_chargeDeclinedIncorrectCvc: { brand: "visa", last4: "0127", outcome: "incorrect_cvc" },
  pm_card_threeDSecure2Required: { brand: "visa", last4: "3220", outcome: "requires_action" },
  pm_card_authenticationRequired: { brand: "visa", last4: "3184", outcome: "requires_action" },
  // 4000 0025 0000 3155: authenticates once when set up, then pays off-session without asking again
  // (docs.stripe.com/testing#authentication-and-setup).
  pm_card_authenticationRequiredOnSetup: { brand: "visa", last4: "3155", outcome: "requires_action" },
  pm_card_createDispute: { brand: "visa", last4: "0259", outcome: "dispute" },
  // Succeeds with its funds available at once (docs.stripe.com/testing#available-balance).
  pm_card_bypassPending: { brand: "visa", last4: BYPASS_PENDING_LAST4, outcome: "succeed" },
};

/**
 * Stripe's test card tokens (docs.stripe.com/testing: `tok_visa`, `tok_chargeDeclined`, …), each
 * the same card as its `pm_card_` twin. A PaymentMethod is made from one with `card[token]`.
 */
export const TEST_TOKENS: Record<string, TestCard> = Object.fromEntries(
  Object.entries(TEST_CARDS).map(([pm, card]) => [`tok_${pm.slice("pm_card_".length)}`, card]),
);

const BY_LAST4 = new Map(Object.values(TEST_CARDS).map((t) => [t.last4, t.outcome]));

/** What a card does when charged: the test card's behaviour, by its last four digits. */
export const outcomeOf = (pm: Rec): CardOutcome => BY_LAST4.get(String(rec(pm.card).last4)) ?? "succeed";

/** A stored PaymentMethod, or a new one made from a test token (as Stripe does for `pm_card_visa`). */
export function resolvePaymentMethod(c: Call, id: string, param: string): Rec {
  const stored = getObject(c.db, "payment_method", id);
  if (stored) return stored;
  const token = TEST_CARDS[id];
  if (!token) return fail(noSuch("PaymentMethod", id, param));
  return paymentMethodOfCard(c, token);
}

/** Stripe's refusal of a raw card number where a test token was expected (test mode, raw card data off). */
export const rawCardRefused = (param: string) =>
  invalidRequest(
    "Sending credit card numbers directly to the Stripe API is generally unsafe. We suggest you use test tokens that map to the test card you are using, see https://stripe.com/docs/testing. To enable raw card data APIs in test mode, see https://support.stripe.com/questions/enabling-access-to-raw-card-data-apis.",
    { param },
  );

/**
 * The payment method an intent's `payment_method_data` makes for this one payment or setup
 * (`payment_method_data[type]=card&payment_method_data[card][token]=tok_visa`, as Stripe takes a
 * test token there); naming `payment_method` as well is refused, as on Stripe.
 */
export function paymentMethodOfData(c: Call): Rec | undefined {
  const data = c.p.sub("payment_method_data");
  if (!data) return undefined;
  if (c.p.str("payment_method"))
    fail(
      invalidRequest("You may only specify one of these parameters: payment_method, payment_method_data.", {
        param: "payment_method_data",
      }),
    );
  data.allow(["type", "card", "billing_details", "metadata", "allow_redisplay"]);
  const type = data.str("type") ?? fail(missingParam("payment_method_data[type]"));
  if (type !== "card")
    fail(invalidRequest(`The payment method type "${type}" is not supported by this twin.`, { param: "payment_method_data[type]" }));
  const card = data.sub("card") ?? fail(missingParam("payment_method_data[card]"));
  const token = card.str("token");
  if (!token) return fail(rawCardRefused("payment_method_data[card][number]"));
  card.allow(["token"]);
  const testCard = TEST_TOKENS[token] ?? fail(noSuch("token", token, "payment_method_data[card][token]"));
  const billing = data.sub("billing_details");
  return paymentMethodOfCard(c, testCard, {
    metadata: data.metadata(),
    allow_redisplay: data.oneOf("allow_redisplay", ["always", "limited", "unspecified"]) ?? "unspecified",
    ...(billing ? { billing_details: billing.allow(["address", "email", "name", "phone", "tax_id"]).raw } : {}),
  });
}

/** A new, unattached card PaymentMethod for a test card. */
export function paymentMethodOfCard(c: Call, token: TestCard, extra: Rec = {}): Rec {
  const pm = buildPaymentMethod(
    {
      type: "card",
      card: { brand: token.brand, last4: token.last4, exp_month: 12, exp_year: new Date(c.now * 1000).getUTCFullYear() + 3 },
      ...extra,
    },
    { id: newId(c.db, "payment_method"), created: c.now },
  );
  insertObject(c.db, "payment_method", pm);
  return pm;
}

const DECLINES: Record<string, { decline: string; message: string; code?: string }> = {
  decline: { decline: "generic_decline", message: "Your card was declined." },
  insufficient_funds: { decline: "insufficient_funds", message: "Your card has insufficient funds." },
  lost_card: { decline: "lost_card", message: "Your card was declined." },
  expired_card: { decline: "expired_card", message: "Your card has expired.", code: "expired_card" },
  incorrect_cvc: { decline: "incorrect_cvc", message: "Your card's security code is incorrect.", code: "incorrect_cvc" },
  // A card that asks for authentication when the customer cannot give it (`off_session=true`, or
  // `error_on_requires_action=true`): docs.stripe.com/payments/save-and-reuse, "Charge the saved
  // payment method later", and docs.stripe.com/declines/codes (authentication_required).
  authentication_required: {
    decline: "authentication_required",
    message: "Your card was declined. This transaction requires authentication.",
    code: "authentication_required",
  },
};

/** The decline a payment attempt ends in when its card asks for authentication nobody can give. */
export const AUTHENTICATION_REQUIRED = "authentication_required";

export interface ChargeResult {
  charge: Rec;
  /** The card error when the charge was declined. */
  decline?: { code: string; decline_code: string; message: string };
}

/**
 * Makes the charge of one payment attempt; a successful captured charge moves the balance.
 * `declineAs` declines it whatever the card (AUTHENTICATION_REQUIRED).
 */
export function makeCharge(c: Call, pi: Rec, pm: Rec, capture: boolean, declineAs?: string): ChargeResult {
  const outcome = declineAs ?? outcomeOf(pm);
  const declined = DECLINES[outcome];
  const amount = num(pi.amount) ?? 0;
  const currency = String(pi.currency);
  const id = newId(c.db, "charge");
  const card = cardDetails(rec(pm.card), String(pm.id));
  const charge = buildCharge(
    {
      amount,
      currency,
      customer: pi.customer ?? null,
      description: pi.description ?? null,
      metadata: rec(pi.metadata),
      payment_intent: pi.id,
      payment_method: pm.id,
      status: declined ? "failed" : "succeeded",
      captured: !declined && capture,
      failure_code: declined ? (declined.code ?? "card_declined") : null,
      failure_message: declined ? declined.message : null,
      payment_method_details: { card: chargeCardDetails(card, amount), type: "card" },
      receipt_url: `https://pay.stripe.com/receipts/payment/${id}`,
      billing_details: pm.billing_details,
    },
    { id, created: c.now },
  );
  if (!declined && capture) {
    charge.balance_transaction = addTxn(c, {
      amount,
      fee: cardFee(amount, currency),
      currency,
      type: "charge",
      reporting_category: "charge",
      source: id,
      description: str(pi.description) ?? null,
      bypassPending: str(rec(pm.card).last4) === BYPASS_PENDING_LAST4,
    });
  }
  // A destination charge moves its funds on to the connected account and records the platform's fee.
  if (!declined && capture && (pi.transfer_data || pi.application_fee_amount != null)) settleDestinationCharge(c, pi, charge);
  insertObject(c.db, "charge", charge);
  emit(c, declined ? "charge.failed" : "charge.succeeded", "charge", charge);
  if (!declined && outcome === "dispute" && capture) {
    openDispute(c, charge);
    // The dispute flags its charge, and the flag is kept (a retrieve reads `disputed: true`).
    saveObject(c.db, "charge", charge);
  }
  return declined
    ? { charge, decline: { code: declined.code ?? "card_declined", decline_code: declined.decline, message: declined.message } }
    : { charge };
}

function openDispute(c: Call, charge: Rec): void {
  const amount = num(charge.amount) ?? 0;
  const id = newId(c.db, "dispute");
  const txn = addTxn(c, {
    amount: -amount,
    fee: 1500,
    currency: String(charge.currency),
    type: "adjustment",
    reporting_category: "dispute",
    source: id,
    description: "Chargeback withdrawal",
  });
  const dispute = {
    id,
    object: "dispute",
    amount,
    balance_transactions: [txn],
    charge: charge.id,
    created: c.now,
    currency: charge.currency,
    enhanced_eligibility_types: [],
    evidence: {},
    evidence_details: { due_by: c.now + 7 * 86400, enhanced_eligibility: {}, has_evidence: false, past_due: false, submission_count: 0 },
    is_charge_refundable: false,
    livemode: false,
    metadata: {},
    payment_intent: charge.payment_intent,
    payment_method_details: {
      card: { brand: rec(rec(charge.payment_method_details).card).brand ?? "visa", case_type: "chargeback", network_reason_code: "4837" },
      type: "card",
    },
    reason: "fraudulent",
    status: "needs_response",
  };
  insertObject(c.db, "dispute", dispute);
  charge.disputed = true;
  emit(c, "charge.dispute.created", "dispute", dispute);
}

/** Attaches a payment method to a customer, as a successful setup (or a payment with `setup_future_usage`) does; refuses one owned by another. */
export function attachTo(c: Call, pm: Rec, customerId: string, param: string): Rec {
  if (pm.customer === customerId) return pm;
  if (pm.customer) fail(invalidRequest("The payment method you provided has already been attached to a customer.", { param }));
  const next = { ...pm, customer: customerId };
  saveObject(c.db, "payment_method", next);
  emit(c, "payment_method.attached", "payment_method", next);
  return next;
}

/** A card error answer: 402 with the attempt's objects, as stripe-node's StripeCardError carries them. */
export function cardError(d: NonNullable<ChargeResult["decline"]>, extra: Rec): TwinResponse {
  return stripeError(CARD_ERROR_STATUS, "card_error", d.message, { code: d.code, decline_code: d.decline_code, extra });
}

export const amountTooSmall = (currency: string, min: number) =>
  stripeError(400, "invalid_request_error", `Amount must be at least ${formatAmount(min, currency)}`, {
    code: "amount_too_small",
    param: "amount",
  });
