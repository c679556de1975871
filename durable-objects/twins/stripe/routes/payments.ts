// PaymentIntents (create, confirm with test cards: success, decline, 3DS; manual capture with
// partial amounts; cancel), Charges and Refunds, keeping a charge's refunded amounts right.
import { settleAwaitedInvoice } from "../awaited-payment";
import { threeDSecureAction } from "../three-d-secure";
import type { Route } from "../../types";
import { filterOf, listResponse, load, show, type Call } from "../call";
import { address, arg, expand, idParam, listQuery, metadata, route } from "../declare";
import { fail, invalidRequest, missingParam, stateError, stripeError } from "../errors";
import { changed, emit } from "../events";
import { buildPaymentIntent, buildRefund, cardFee, formatAmount, minimumAmount } from "../objects";
import {
  AUTHENTICATION_REQUIRED,
  addTxn,
  amountTooSmall,
  attachTo,
  type ChargeResult,
  cardError,
  makeCharge,
  paymentMethodOfData,
  resolvePaymentMethod,
} from "../money";
import { getObject, insertObject, liveOfType, newId, num, rec, saveObject, str, strMap, type Rec } from "../store";
import { connectedAccount } from "../transfers";
import { render } from "../view";
import type { TwinResponse } from "../../types";

function checkAmount(amount: number, currency: string): void {
  const min = minimumAmount(currency);
  if (amount < min) fail(amountTooSmall(currency, min));
  if (amount > 99_999_999)
    fail(
      stripeError(400, "invalid_request_error", `Amount must be no more than ${formatAmount(99_999_999, currency)}`, {
        code: "amount_too_large",
        param: "amount",
      }),
    );
}

/** Whether a saved card was set up for later payments: a SetupIntent, or a payment saving it, succeeded with it. */
function setUpForLater(c: Call, pm: Rec): boolean {
  const id = String(pm.id);
  if (liveOfType(c.db, "setup_intent", { column: "ref", value: id }).some((s) => s.status === "succeeded")) return true;
  const customer = str(pm.customer);
  return (
    customer !== undefined &&
    liveOfType(c.db, "payment_intent", { column: "customer", value: customer }).some(
      (p) => p.payment_method === id && p.status === "succeeded" && Boolean(p.setup_future_usage),
    )
  );
}

/**
 * Whether the test card asks for 3D Secure on this payment (docs.stripe.com/testing#authentication-and-setup):
 * 4000 0027 6000 3184 and 4000 0000 0000 3220 on every payment, off-session ones included;
 * 4000 0025 0000 3155 on every on-session payment, and off-session only until it has been set up.
 */
function asksForAuthentication(c: Call, pm: Rec, offSession: boolean): boolean {
  const last4 = rec(pm.card).last4;
  if (last4 === "3220" || last4 === "3184") return true;
  if (last4 === "3155") return !(offSession && setUpForLater(c, pm));
  return false;
}

/** How a confirmation was asked for: the customer away (`off_session`), or no action allowed (`error_on_requires_action`). */
export interface ConfirmOptions {
  offSession?: boolean;
  errorOnRequiresAction?: boolean;
}

const confirmOptions = (c: Call): ConfirmOptions => ({
  offSession: c.p.bool("off_session") === true,
  errorOnRequiresAction: c.p.bool("error_on_requires_action") === true,
});

/** The intent waits for the customer to pass 3D Secure (`requires_action`, with its next action). */
function requireAuthentication(c: Call, before: Rec, pm: Rec): Rec {
  const pi = {
    ...before,
    payment_method: pm.id,
    status: "requires_action",
    next_action: threeDSecureAction("payment_intent", String(before.id)),
  };
  saveObject(c.db, "payment_intent", pi);
  emit(c, "payment_intent.requires_action", "payment_intent", pi);
  return pi;
}

/** A declined charge: the intent goes back to `requires_payment_method` and the call answers the card error. */
function declineIntent(
  c: Call,
  before: Rec,
  pm: Rec,
  charge: Rec,
  decline: NonNullable<ChargeResult["decline"]>,
): { pi: Rec; error: TwinResponse } {
  const error = {
    ...decline,
    type: "card_error",
    charge: charge.id,
    payment_method: render(c.db, "payment_method", pm),
    doc_url: `https://stripe.com/docs/error-codes/${decline.code.replace(/_/g, "-")}`,
  };
  const pi = {
    ...before,
    payment_method: null,
    status: "requires_payment_method",
    latest_charge: charge.id,
    last_payment_error: error,
    next_action: null,
  };
  saveObject(c.db, "payment_intent", pi);
  emit(c, "payment_intent.payment_failed", "payment_intent", pi);
  return {
    pi,
    error: cardError(decline, {
      charge: charge.id,
      payment_intent: render(c.db, "payment_intent", pi),
      payment_method: render(c.db, "payment_method", pm),
    }),
  };
}

/** A charge that went through: captured (`succeeded`), or held for a manual capture (`requires_capture`). */
function settleIntent(c: Call, before: Rec, pm: Rec, charge: Rec, manual: boolean): Rec {
  // A payment that sets the card up for future use saves it to the customer, as on Stripe
  // (docs.stripe.com/payments/save-during-payment).
  if (before.setup_future_usage && typeof before.customer === "string") attachTo(c, pm, before.customer, "payment_method");
  const amount = num(before.amount) ?? 0;
  const pi = manual
    ? {
        ...before,
        payment_method: pm.id,
        status: "requires_capture",
        amount_capturable: amount,
        latest_charge: charge.id,
        last_payment_error: null,
        next_action: null,
      }
    : {
        ...before,
        payment_method: pm.id,
        status: "succeeded",
        amount_received: amount,
        latest_charge: charge.id,
        last_payment_error: null,
        next_action: null,
      };
  saveObject(c.db, "payment_intent", pi);
  emit(c, manual ? "payment_intent.amount_capturable_updated" : "payment_intent.succeeded", "payment_intent", pi);
  return pi;
}

/** Confirms an intent with its payment method: the card's behaviour decides where it ends. */
export function confirmIntent(c: Call, before: Rec, opts: ConfirmOptions = {}): { pi: Rec; error?: TwinResponse } {
  const pmId = str(before.payment_method);
  if (!pmId) {
    return {
      pi: before,
      error: invalidRequest(
        "You cannot confirm this PaymentIntent because it's missing a payment method. To confirm the PaymentIntent with cus, specify a payment method attached to this customer along with the customer ID.",
        { code: "payment_intent_unexpected_state", param: "payment_method" },
      ),
    };
  }
  const pm = resolvePaymentMethod(c, pmId, "payment_method");
  const manual = before.capture_method === "manual";
  // Confirming again once the customer has authenticated goes on to the charge.
  if (asksForAuthentication(c, pm, opts.offSession === true) && before.status !== "requires_action") {
    // A customer who is away, or an integration that handles no action, cannot authenticate: the
    // attempt is declined with authentication_required (402), the intent back to requires_payment_method
    // (docs.stripe.com/payments/save-and-reuse, "Charge the saved payment method later").
    if (!opts.offSession && !opts.errorOnRequiresAction) return { pi: requireAuthentication(c, before, pm) };
    const refused = makeCharge(c, before, pm, !manual, AUTHENTICATION_REQUIRED);
    if (refused.decline) return declineIntent(c, before, pm, refused.charge, refused.decline);
  }
  const result = makeCharge(c, before, pm, !manual);
  if (result.decline) return declineIntent(c, before, pm, result.charge, result.decline);
  return { pi: settleIntent(c, before, pm, result.charge, manual) };
}

/**
 * The payment method types a call names: `allowed_payment_method_types` in the pinned API version
 * (stripe-node 23's CHANGELOG: `payment_method_types` removed from PaymentIntent and SetupIntent
 * create/update params in its favour), or the older `payment_method_types` older clients send.
 */
export function namedMethodTypes(c: Call): { param: string; types: string[] } | undefined {
  for (const param of ["allowed_payment_method_types", "payment_method_types"]) {
    const types = c.p.strList(param);
    if (types) return { param, types };
  }
  return undefined;
}

/**
 * Automatic payment methods as the pinned API version defaults them (changelog 2023-08-16,
 * docs.stripe.com/changelog/2023-08-16/automatic-payment-methods): on, allowing redirects, unless
 * the call names its payment method types; both at once are refused.
 */
export function automaticPaymentMethods(c: Call): Rec | null {
  const apm = c.p.sub("automatic_payment_methods");
  const named = namedMethodTypes(c);
  const types = named?.types;
  if (apm && named)
    fail(
      invalidRequest(`You may only specify one of these parameters: automatic_payment_methods, ${named.param}.`, {
        param: "automatic_payment_methods",
      }),
    );
  if (types) return null;
  if (!apm) return { allow_redirects: "always", enabled: true };
  apm.allow(["enabled", "allow_redirects"]);
  const enabled = apm.bool("enabled") ?? fail(missingParam("automatic_payment_methods[enabled]"));
  return { allow_redirects: apm.oneOf("allow_redirects", ["always", "never"]) ?? "always", enabled };
}

/**
 * The confirmation rule that comes with automatic payment methods (same changelog): a `return_url`
 * is required unless `off_session=true` or redirects are off (`allow_redirects: never`).
 */
export function requireReturnUrl(c: Call, apm: unknown, noun: "Payment Intent" | "Setup Intent"): TwinResponse | undefined {
  const a = rec(apm);
  if (a.enabled !== true || a.allow_redirects === "never") return undefined;
  if (c.p.str("return_url") || (noun === "Payment Intent" && c.p.bool("off_session") === true)) return undefined;
  // The message Stripe answers, as quoted in aschmelyun/laravel-vue-stripe-cashier#4.
  return invalidRequest(
    `A \`return_url\` must be specified because this ${noun} is configured to automatically accept the payment methods enabled in the Dashboard, some of which may require a full page redirect to succeed. If you do not want to accept redirect-based payment methods, set \`automatic_payment_methods[enabled]\` to \`true\` and \`automatic_payment_methods[allow_redirects]\` to \`never\` when creating Setup Intents and Payment Intents.`,
  );
}

function confirmParams(c: Call, pi: Rec): Rec {
  const made = paymentMethodOfData(c);
  if (made) return { ...pi, payment_method: String(made.id) };
  const pm = c.p.str("payment_method");
  if (pm) return { ...pi, payment_method: String(resolvePaymentMethod(c, pm, "payment_method").id) };
  return pi;
}

const CONFIRMABLE = ["requires_payment_method", "requires_confirmation", "requires_action"];

function answerConfirm(c: Call, r: { pi: Rec; error?: TwinResponse }): TwinResponse {
  settleAwaitedInvoice(c, r.pi);
  return r.error ?? show(c, "payment_intent", r.pi);
}

function capture(c: Call, pi: Rec, param = "amount_to_capture"): TwinResponse {
  if (pi.status !== "requires_capture") {
    return stateError(
      `This PaymentIntent could not be captured because it has a status of ${String(pi.status)}. Only a PaymentIntent with one of the following statuses may be captured: requires_capture.`,
      "payment_intent_unexpected_state",
    );
  }
  const capturable = num(pi.amount_capturable) ?? 0;
  const amount = c.p.int(param) ?? capturable;
  if (amount > capturable)
    return invalidRequest(`The amount to capture (${amount}) is greater than the amount capturable (${capturable}).`, {
      code: "amount_too_large",
      param,
    });
  if (amount <= 0) return invalidRequest("The amount to capture must be positive.", { param });
  const chargeBefore = load(c, "charge", String(pi.latest_charge), "charge");
  const currency = String(pi.currency);
  const txn = addTxn(c, {
    amount,
    fee: cardFee(amount, currency),
    currency,
    type: "charge",
    reporting_category: "charge",
    source: String(chargeBefore.id),
  });
  const charge = { ...chargeBefore, captured: true, amount_captured: amount, balance_transaction: txn };
  saveObject(c.db, "charge", charge);
  emit(c, "charge.captured", "charge", charge, changed(chargeBefore, charge));
  const next = { ...pi, status: "succeeded", amount_capturable: 0, amount_received: amount, metadata: c.p.metadata(strMap(pi.metadata)) };
  saveObject(c.db, "payment_intent", next);
  emit(c, "payment_intent.succeeded", "payment_intent", next);
  return show(c, "payment_intent", next);
}

function createRefund(c: Call): TwinResponse {
  const chargeId = c.p.str("charge");
  const piId = c.p.str("payment_intent");
  if (!chargeId && !piId) return missingParam("charge");
  let charge: Rec;
  if (chargeId) charge = load(c, "charge", chargeId, "charge");
  else {
    const pi = load(c, "payment_intent", String(piId), "payment_intent");
    const latest = str(pi.latest_charge);
    if (!latest || pi.status !== "succeeded")
      return invalidRequest(`This PaymentIntent (${String(pi.id)}) does not have a successful charge to refund.`, {
        code: "charge_not_refundable",
        param: "payment_intent",
      });
    charge = load(c, "charge", latest, "payment_intent");
  }
  if (charge.status !== "succeeded" || charge.captured !== true)
    return invalidRequest(`Charge ${String(charge.id)} has not been captured and cannot be refunded.`, {
      code: "charge_not_refundable",
      param: "charge",
    });
  const remaining = (num(charge.amount_captured) ?? 0) - (num(charge.amount_refunded) ?? 0);
  if (remaining <= 0)
    return invalidRequest(`Charge ${String(charge.id)} has already been refunded.`, {
      code: "charge_already_refunded",
      param: chargeId ? "charge" : "payment_intent",
    });
  const amount = c.p.int("amount") ?? remaining;
  const currency = String(charge.currency);
  if (amount <= 0) return invalidRequest("Refund amount must be positive.", { code: "parameter_invalid_integer", param: "amount" });
  if (amount > remaining) {
    return invalidRequest(
      `Refund amount (${formatAmount(amount, currency)}) is greater than unrefunded amount on charge (${formatAmount(remaining, currency)})`,
      { code: "amount_too_large", param: "amount" },
    );
  }
  const reason = c.p.oneOf("reason", ["duplicate", "fraudulent", "requested_by_customer"]) ?? null;
  const id = newId(c.db, "refund");
  const txn = addTxn(c, { amount: -amount, fee: 0, currency, type: "refund", reporting_category: "refund", source: id });
  const refund = buildRefund(
    {
      amount,
      balance_transaction: txn,
      charge: charge.id,
      currency,
      customer: charge.customer ?? null,
      metadata: c.p.metadata(),
      payment_intent: charge.payment_intent ?? null,
      payment_method: charge.payment_method ?? null,
      reason,
    },
    { id, created: c.now },
  );
  insertObject(c.db, "refund", refund);
  const refunded = (num(charge.amount_refunded) ?? 0) + amount;
  const nextCharge = { ...charge, amount_refunded: refunded, refunded: refunded >= (num(charge.amount_captured) ?? 0) };
  saveObject(c.db, "charge", nextCharge);
  emit(c, "refund.created", "refund", refund);
  emit(c, "charge.refunded", "charge", nextCharge, changed(charge, nextCharge));
  return show(c, "refund", refund);
}

const shipping = arg.hash(
  {
    name: arg.text("Recipient name"),
    phone: arg.text("Recipient phone"),
    address: address("Shipping address"),
    carrier: arg.text("The delivery service"),
    tracking_number: arg.text("The tracking number"),
  },
  "Shipping information",
);

export const automaticPaymentMethodsArg = arg.hash(
  {
    enabled: arg.bool("Whether automatic payment methods are on"),
    allow_redirects: arg.oneOf(["always", "never"], "never: only payment methods that need no redirect, so no return_url"),
  },
  'On by default, allowing redirects; { enabled: true, allow_redirects: "never" } confirms without a return_url',
);

export const returnUrl = arg.text(
  "Where a redirect-based payment method returns the customer; needed to confirm while redirects are allowed",
);
const offSession = arg.bool("The customer is not present (a saved card charged later): no return_url needed");
/** `payment_method_data`: a payment method made for this intent, from a test token (money.ts). */
export const paymentMethodData = arg.hash(
  {
    type: arg.text('The payment method type: "card"'),
    card: arg.hash({ token: arg.text("A test token, e.g. tok_visa") }, "The card, as a test token"),
    billing_details: arg.anyHash("Billing details of the payment method"),
    metadata: arg.anyHash("Metadata of the payment method"),
    allow_redisplay: arg.oneOf(["always", "limited", "unspecified"], "Whether the method may be shown to the customer again"),
  },
  'A new payment method for this intent instead of payment_method, e.g. { type: "card", card: { token: "tok_visa" } }',
);
const captureMethod = arg.oneOf(["automatic", "automatic_async", "manual"], "manual: authorize now, capture later");
const amountArg = (what: string) => arg.int(`${what}, in the currency's smallest unit (cents for usd; whole yen for jpy)`);

/** A destination charge's fields, its connected account checked (transfers.ts moves the money). */
function destinationOf(
  c: Call,
  body: {
    transfer_data?: { destination: string; amount?: number };
    application_fee_amount?: number;
    on_behalf_of?: string;
    transfer_group?: string;
  },
): Rec {
  const out: Rec = {};
  if (body.transfer_data) {
    connectedAccount(c, body.transfer_data.destination, "transfer_data[destination]");
    // A PaymentIntent's transfer_data names its amount only when one was given (stripe-node: `amount?: number`).
    const { amount, destination } = body.transfer_data;
    out.transfer_data = amount === undefined ? { destination } : { amount, destination };
  }
  if (body.on_behalf_of) out.on_behalf_of = connectedAccount(c, body.on_behalf_of, "on_behalf_of").id;
  if (body.application_fee_amount !== undefined) out.application_fee_amount = body.application_fee_amount;
  if (body.transfer_group) out.transfer_group = body.transfer_group;
  return out;
}

export const paymentRoutes: readonly Route[] = [
  route({
    method: "POST",
    pattern: "/v1/payment_intents",
    operation: "paymentIntents.create",
    summary: "Create a payment intent",
    body: {
      amount: arg.reqInt("Amount in the currency's smallest unit (cents for usd; whole yen for jpy)"),
      currency: arg.id('Three-letter ISO currency code, lower case, e.g. "usd"'),
      customer: arg.text("The paying customer's id"),
      payment_method: arg.text("A payment method id or test token, e.g. pm_card_visa"),
      payment_method_data: paymentMethodData,
      confirm: arg.bool("Confirm immediately"),
      capture_method: captureMethod,
      description: arg.text("An arbitrary description"),
      metadata,
      automatic_payment_methods: automaticPaymentMethodsArg,
      allowed_payment_method_types: arg.strings('Payment method types instead of automatic ones, e.g. ["card"]'),
      payment_method_types: arg.strings("The older name of allowed_payment_method_types"),
      receipt_email: arg.text("Where the receipt is sent"),
      statement_descriptor: arg.text("Text on the customer's statement"),
      statement_descriptor_suffix: arg.text("Suffix of the statement descriptor"),
      setup_future_usage: arg.text("on_session or off_session: save the card to the customer for later"),
      return_url: returnUrl,
      off_session: offSession,
      confirmation_method: arg.oneOf(["automatic", "manual"], "How the intent is confirmed"),
      shipping,
      error_on_requires_action: arg.bool("Fail rather than ask for authentication"),
      transfer_group: arg.text("A string identifying a group of transfers"),
      // Destination charges (Connect): the funds go on to a connected account, less the platform's fee.
      transfer_data: arg.hash(
        { destination: arg.id("The connected account, acct_…"), amount: arg.int("Amount transferred (default: the charge less the fee)") },
        "Send the charge's funds on to a connected account",
      ),
      application_fee_amount: arg.int("The platform's fee, kept from the charge, in the smallest unit"),
      on_behalf_of: arg.text("The connected account that is the settlement merchant"),
      expand,
    },
    tool: {
      name: "create_payment_intent",
      description: "Create a payment intent for an amount; with confirm: true and a payment_method it is charged at once.",
    },
    handler(c, { body }) {
      const amount = body.amount;
      const currency = c.p.reqCurrency("currency");
      checkAmount(amount, currency);
      const customer = body.customer;
      if (customer) load(c, "customer", customer, "customer");
      const apm = automaticPaymentMethods(c);
      let pi = buildPaymentIntent(
        {
          amount,
          currency,
          customer: customer ?? null,
          description: body.description ?? null,
          metadata: c.p.metadata(),
          capture_method: body.capture_method ?? "automatic_async",
          receipt_email: c.p.email("receipt_email") ?? null,
          automatic_payment_methods: apm,
          allowed_payment_method_types: namedMethodTypes(c)?.types ?? null,
          payment_method_types: namedMethodTypes(c)?.types ?? ["card"],
          statement_descriptor: body.statement_descriptor ?? null,
          setup_future_usage: body.setup_future_usage ?? null,
          ...destinationOf(c, body),
        },
        { id: newId(c.db, "payment_intent"), created: c.now },
      );
      const redirect = body.confirm ? requireReturnUrl(c, apm, "Payment Intent") : undefined;
      if (redirect) return redirect;
      pi = confirmParams(c, pi);
      if (pi.payment_method) pi.status = "requires_confirmation";
      insertObject(c.db, "payment_intent", pi);
      emit(c, "payment_intent.created", "payment_intent", pi);
      if (body.confirm) return answerConfirm(c, confirmIntent(c, pi, confirmOptions(c)));
      return show(c, "payment_intent", pi);
    },
  }),
  route({
    method: "GET",
    pattern: "/v1/payment_intents",
    operation: "paymentIntents.list",
    summary: "List payment intents",
    query: { ...listQuery, customer: arg.text("Only this customer's") },
    tool: { name: "list_payment_intents", description: "List payment intents, newest first, optionally a customer's." },
    handler: (c) => listResponse(c, "payment_intent", "/v1/payment_intents", filterOf(c, "customer", "customer")),
  }),
  route({
    method: "GET",
    pattern: "/v1/payment_intents/:id",
    operation: "paymentIntents.retrieve",
    summary: "Retrieve a payment intent",
    params: idParam("The payment intent's id, pi_…"),
    query: { client_secret: arg.text("The intent's client secret (publishable-key callers)"), expand },
    tool: { name: "get_payment_intent", description: "Retrieve a payment intent: its status, amount and latest charge." },
    handler: (c, { params }) => show(c, "payment_intent", load(c, "payment_intent", params.id)),
  }),
  route({
    method: "POST",
    pattern: "/v1/payment_intents/:id",
    operation: "paymentIntents.update",
    summary: "Update a payment intent",
    params: idParam("The payment intent's id"),
    body: {
      amount: amountArg("The new amount"),
      currency: arg.text("Three-letter ISO currency code"),
      customer: arg.text("The paying customer's id"),
      payment_method: arg.text("A payment method id or test token"),
      description: arg.unsettable("Description"),
      metadata,
      receipt_email: arg.unsettable("Where the receipt is sent"),
      setup_future_usage: arg.text("on_session or off_session"),
      statement_descriptor: arg.unsettable("Text on the customer's statement"),
      shipping,
      capture_method: captureMethod,
      expand,
    },
    tool: {
      name: "update_payment_intent",
      description: "Update a payment intent's amount, payment method, description or metadata before it is confirmed.",
    },
    handler(c, { params, body }) {
      const before = load(c, "payment_intent", params.id);
      if (!CONFIRMABLE.includes(String(before.status)) && (c.p.has("amount") || c.p.has("currency") || c.p.has("payment_method"))) {
        return stateError(
          `This PaymentIntent's amount could not be updated because it has a status of ${String(before.status)}.`,
          "payment_intent_unexpected_state",
        );
      }
      let after: Rec = { ...before, metadata: c.p.metadata(strMap(before.metadata)) };
      const amount = body.amount;
      const currency = c.p.currency("currency");
      if (amount !== undefined || currency) checkAmount(amount ?? num(before.amount) ?? 0, currency ?? String(before.currency));
      if (amount !== undefined) after.amount = amount;
      if (currency) after.currency = currency;
      if (body.customer) after.customer = load(c, "customer", body.customer, "customer").id;
      for (const key of ["description", "receipt_email", "statement_descriptor"]) {
        const v = c.p.nullable(key);
        if (v !== undefined) after[key] = v;
      }
      after = confirmParams(c, after);
      if (after.payment_method && before.status === "requires_payment_method") after.status = "requires_confirmation";
      saveObject(c.db, "payment_intent", after);
      return show(c, "payment_intent", after);
    },
  }),
  route({
    method: "POST",
    pattern: "/v1/payment_intents/:id/confirm",
    operation: "paymentIntents.confirm",
    summary: "Confirm a payment intent",
    params: idParam("The payment intent's id"),
    body: {
      payment_method: arg.text("A payment method id or test token"),
      payment_method_data: paymentMethodData,
      return_url: returnUrl,
      off_session: offSession,
      receipt_email: arg.text("Where the receipt is sent"),
      setup_future_usage: arg.text("on_session or off_session"),
      error_on_requires_action: arg.bool("Fail rather than ask for authentication"),
      capture_method: captureMethod,
      expand,
    },
    tool: {
      name: "confirm_payment_intent",
      description: "Confirm a payment intent, charging its payment method (a declined card answers a card_error).",
    },
    handler(c, { params }) {
      const before = load(c, "payment_intent", params.id);
      if (!CONFIRMABLE.includes(String(before.status))) {
        return stateError(
          `You cannot confirm this PaymentIntent because it has a status of ${String(before.status)}. Only a PaymentIntent with one of the following statuses may be confirmed: requires_payment_method, requires_confirmation, requires_action.`,
          "payment_intent_unexpected_state",
        );
      }
      const redirect = requireReturnUrl(c, before.automatic_payment_methods, "Payment Intent");
      if (redirect) return redirect;
      return answerConfirm(c, confirmIntent(c, confirmParams(c, before), confirmOptions(c)));
    },
  }),
  route({
    method: "POST",
    pattern: "/v1/payment_intents/:id/capture",
    operation: "paymentIntents.capture",
    summary: "Capture a payment intent",
    params: idParam("The payment intent's id"),
    body: {
      amount_to_capture: amountArg("How much to capture (default: all that is capturable)"),
      metadata,
      final_capture: arg.bool("Whether this is the last capture"),
      statement_descriptor: arg.text("Text on the customer's statement"),
      expand,
    },
    tool: { name: "capture_payment_intent", description: "Capture an authorized payment intent, all of it or amount_to_capture." },
    handler: (c, { params }) => capture(c, load(c, "payment_intent", params.id)),
  }),
  route({
    method: "POST",
    pattern: "/v1/payment_intents/:id/cancel",
    operation: "paymentIntents.cancel",
    summary: "Cancel a payment intent",
    params: idParam("The payment intent's id"),
    body: {
      cancellation_reason: arg.oneOf(["duplicate", "fraudulent", "requested_by_customer", "abandoned"], "Why"),
      expand,
    },
    tool: { name: "cancel_payment_intent", description: "Cancel a payment intent that has not succeeded.", destructive: true },
    handler(c, { params, body }) {
      const before = load(c, "payment_intent", params.id);
      if (before.status === "succeeded" || before.status === "canceled") {
        return stateError(
          `You cannot cancel this PaymentIntent because it has a status of ${String(before.status)}. Only a PaymentIntent with one of the following statuses may be canceled: requires_payment_method, requires_capture, requires_confirmation, requires_action, processing.`,
          "payment_intent_unexpected_state",
        );
      }
      const after = {
        ...before,
        status: "canceled",
        canceled_at: c.now,
        cancellation_reason: body.cancellation_reason ?? null,
        amount_capturable: 0,
        next_action: null,
      };
      if (before.status === "requires_capture" && before.latest_charge) {
        // The authorization is released: Stripe shows the uncaptured charge as refunded.
        const charge = getObject(c.db, "charge", String(before.latest_charge));
        if (charge) saveObject(c.db, "charge", { ...charge, amount_refunded: charge.amount, refunded: true });
      }
      saveObject(c.db, "payment_intent", after);
      emit(c, "payment_intent.canceled", "payment_intent", after);
      return show(c, "payment_intent", after);
    },
  }),
  route({
    method: "GET",
    pattern: "/v1/charges",
    operation: "charges.list",
    summary: "List charges",
    query: {
      ...listQuery,
      customer: arg.text("Only this customer's"),
      payment_intent: arg.text("Only this payment intent's"),
      transfer_group: arg.text("Only this transfer group's"),
    },
    tool: { name: "list_charges", description: "List charges, newest first, optionally a customer's or a payment intent's." },
    handler: (c) =>
      listResponse(c, "charge", "/v1/charges", [...filterOf(c, "customer", "customer"), ...filterOf(c, "payment_intent", "ref")]),
  }),
  // No tool: list_refunds with its charge argument lists the same (stripeUntooled).
  route({
    method: "GET",
    pattern: "/v1/charges/:id/refunds",
    operation: "charges.listRefunds",
    summary: "List a charge's refunds",
    params: idParam("The charge's id"),
    query: listQuery,
    handler(c, { params }) {
      const charge = load(c, "charge", params.id);
      return listResponse(c, "refund", `/v1/charges/${String(charge.id)}/refunds`, [{ column: "ref", value: String(charge.id) }]);
    },
  }),
  route({
    method: "GET",
    pattern: "/v1/charges/:id",
    operation: "charges.retrieve",
    summary: "Retrieve a charge",
    params: idParam("The charge's id, ch_…"),
    query: { expand },
    tool: { name: "get_charge", description: "Retrieve a charge: amount, amount_captured, amount_refunded, refunded, status." },
    handler: (c, { params }) => show(c, "charge", load(c, "charge", params.id)),
  }),
  route({
    method: "POST",
    pattern: "/v1/charges/:id",
    operation: "charges.update",
    summary: "Update a charge",
    params: idParam("The charge's id"),
    body: {
      metadata,
      description: arg.unsettable("Description"),
      receipt_email: arg.unsettable("Where the receipt is sent"),
      fraud_details: arg.hash({ user_report: arg.oneOf(["fraudulent", "safe"], "Your fraud report") }, "Fraud details"),
      shipping,
      expand,
    },
    tool: { name: "update_charge", description: "Update a charge's description or metadata." },
    handler(c, { params }) {
      const before = load(c, "charge", params.id);
      const after: Rec = { ...before, metadata: c.p.metadata(strMap(before.metadata)) };
      for (const key of ["description", "receipt_email"]) {
        const v = c.p.nullable(key);
        if (v !== undefined) after[key] = v;
      }
      const report = c.p.sub("fraud_details")?.str("user_report");
      if (report) after.fraud_details = { ...rec(before.fraud_details), user_report: report };
      const ship = c.p.sub("shipping");
      if (ship) {
        const given = ship.raw;
        const address = ["city", "country", "line1", "line2", "postal_code", "state"].map((k) => [k, rec(given.address)[k] ?? null]);
        after.shipping = {
          address: Object.fromEntries(address),
          carrier: given.carrier ?? null,
          name: given.name ?? null,
          phone: given.phone ?? null,
          tracking_number: given.tracking_number ?? null,
        };
      }
      saveObject(c.db, "charge", after);
      emit(c, "charge.updated", "charge", after, changed(before, after));
      return show(c, "charge", after);
    },
  }),
  route({
    method: "POST",
    pattern: "/v1/charges/:id/capture",
    operation: "charges.capture",
    summary: "Capture a charge",
    params: idParam("The charge's id"),
    body: {
      amount: amountArg("How much to capture (default: all of it)"),
      metadata,
      receipt_email: arg.text("Where the receipt is sent"),
      statement_descriptor: arg.text("Text on the customer's statement"),
      expand,
    },
    tool: { name: "capture_charge", description: "Capture an uncaptured charge, all of it or amount." },
    handler(c, { params }) {
      const charge = load(c, "charge", params.id);
      if (charge.captured === true)
        return invalidRequest(`Charge ${String(charge.id)} has already been captured.`, { code: "charge_already_captured" });
      const pi = charge.payment_intent ? getObject(c.db, "payment_intent", String(charge.payment_intent)) : undefined;
      if (!pi) return invalidRequest(`Charge ${String(charge.id)} cannot be captured.`);
      const res = capture(c, pi, "amount");
      if (res.status !== 200) return res;
      return show(c, "charge", load(c, "charge", String(charge.id)));
    },
  }),
  route({
    method: "POST",
    pattern: "/v1/refunds",
    operation: "refunds.create",
    summary: "Create a refund",
    body: {
      charge: arg.text("The charge to refund"),
      payment_intent: arg.text("The payment intent whose charge to refund"),
      amount: amountArg("How much to refund (default: all that is left)"),
      reason: arg.oneOf(["duplicate", "fraudulent", "requested_by_customer"], "Why the refund is made"),
      metadata,
      refund_application_fee: arg.bool("Whether the application fee is refunded too"),
      reverse_transfer: arg.bool("Whether the transfer is reversed"),
      instructions_email: arg.text("Where refund instructions are sent"),
      expand,
    },
    tool: { name: "create_refund", description: "Refund a charge or a payment intent, fully or an amount of it." },
    handler: (c) => createRefund(c),
  }),
  route({
    method: "GET",
    pattern: "/v1/refunds",
    operation: "refunds.list",
    summary: "List refunds",
    query: { ...listQuery, charge: arg.text("Only this charge's"), payment_intent: arg.text("Only this payment intent's") },
    tool: { name: "list_refunds", description: "List refunds, newest first, optionally a charge's or a payment intent's." },
    handler: (c) => listResponse(c, "refund", "/v1/refunds", [...filterOf(c, "charge", "ref"), ...filterOf(c, "payment_intent", "ref2")]),
  }),
  route({
    method: "GET",
    pattern: "/v1/refunds/:id",
    operation: "refunds.retrieve",
    summary: "Retrieve a refund",
    params: idParam("The refund's id, re_…"),
    query: { expand },
    tool: { name: "get_refund", description: "Retrieve a refund." },
    handler: (c, { params }) => show(c, "refund", load(c, "refund", params.id)),
  }),
  route({
    method: "POST",
    pattern: "/v1/refunds/:id",
    operation: "refunds.update",
    summary: "Update a refund",
    params: idParam("The refund's id"),
    body: { metadata, expand },
    tool: { name: "update_refund", description: "Update a refund's metadata." },
    handler(c, { params }) {
      const before = load(c, "refund", params.id);
      const after = { ...before, metadata: c.p.metadata(strMap(before.metadata)) };
      saveObject(c.db, "refund", after);
      emit(c, "refund.updated", "refund", after, changed(before, after));
      return show(c, "refund", after);
    },
  }),
  route({
    method: "POST",
    pattern: "/v1/refunds/:id/cancel",
    operation: "refunds.cancel",
    summary: "Cancel a refund",
    params: idParam("The refund's id"),
    body: { expand },
    tool: { name: "cancel_refund", description: "Cancel a refund that requires action.", destructive: true },
    handler(c, { params }) {
      const refund = load(c, "refund", params.id);
      return stateError(
        `You cannot cancel this refund because it has a status of ${String(refund.status)}. Only refunds with a status of requires_action may be canceled.`,
        "refund_unexpected_state",
      );
    },
  }),
];
