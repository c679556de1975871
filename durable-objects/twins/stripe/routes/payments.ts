// PaymentIntents (create, confirm with test cards: success, decline, 3DS; manual capture with
// partial amounts; cancel), Charges and Refunds, keeping a charge's refunded amounts right.
import type { Route } from "../../types";
import { filterOf, LIST_PARAMS, listResponse, load, route, show, type Call } from "../call";
import { fail, invalidRequest, missingParam, stateError, stripeError } from "../errors";
import { changed, emit } from "../events";
import { buildPaymentIntent, buildRefund, cardFee, formatAmount, minimumAmount } from "../objects";
import { addTxn, amountTooSmall, attachTo, cardError, makeCharge, resolvePaymentMethod } from "../money";
import { getObject, insertObject, newId, num, rec, saveObject, str, strMap, type Rec } from "../store";
import { render } from "../view";
import type { TwinResponse } from "../../types";

const PI_FIELDS = [
  "amount",
  "currency",
  "customer",
  "payment_method",
  "confirm",
  "capture_method",
  "description",
  "metadata",
  "automatic_payment_methods",
  "allowed_payment_method_types",
  "payment_method_types",
  "receipt_email",
  "statement_descriptor",
  "statement_descriptor_suffix",
  "setup_future_usage",
  "return_url",
  "off_session",
  "confirmation_method",
  "shipping",
  "error_on_requires_action",
  "transfer_group",
];

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

/** Confirms an intent with its payment method: the card's behaviour decides where it ends. */
export function confirmIntent(c: Call, before: Rec): { pi: Rec; error?: TwinResponse } {
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
  if (rec(pm.card).last4 === "3220" || rec(pm.card).last4 === "3184") {
    if (before.status !== "requires_action") {
      const pi = {
        ...before,
        payment_method: pm.id,
        status: "requires_action",
        next_action: {
          type: "use_stripe_sdk",
          use_stripe_sdk: {
            type: "three_d_secure_redirect",
            stripe_js: `https://hooks.stripe.com/3d_secure_2/hosted?payment_intent=${String(before.id)}`,
            source: `src_${String(before.id).slice(3)}`,
          },
        },
      };
      saveObject(c.db, "payment_intent", pi);
      emit(c, "payment_intent.requires_action", "payment_intent", pi);
      return { pi };
    }
  }
  const manual = before.capture_method === "manual";
  const result = makeCharge(c, before, pm, !manual);
  if (result.decline) {
    const error = {
      ...result.decline,
      type: "card_error",
      charge: result.charge.id,
      payment_method: render(c.db, "payment_method", pm),
      doc_url: `https://stripe.com/docs/error-codes/${result.decline.code.replace(/_/g, "-")}`,
    };
    const pi = {
      ...before,
      payment_method: null,
      status: "requires_payment_method",
      latest_charge: result.charge.id,
      last_payment_error: error,
      next_action: null,
    };
    saveObject(c.db, "payment_intent", pi);
    emit(c, "payment_intent.payment_failed", "payment_intent", pi);
    return {
      pi,
      error: cardError(result.decline, {
        charge: result.charge.id,
        payment_intent: render(c.db, "payment_intent", pi),
        payment_method: render(c.db, "payment_method", pm),
      }),
    };
  }
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
        latest_charge: result.charge.id,
        last_payment_error: null,
        next_action: null,
      }
    : {
        ...before,
        payment_method: pm.id,
        status: "succeeded",
        amount_received: amount,
        latest_charge: result.charge.id,
        last_payment_error: null,
        next_action: null,
      };
  saveObject(c.db, "payment_intent", pi);
  emit(c, manual ? "payment_intent.amount_capturable_updated" : "payment_intent.succeeded", "payment_intent", pi);
  return { pi };
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
  const pm = c.p.str("payment_method");
  if (pm) return { ...pi, payment_method: String(resolvePaymentMethod(c, pm, "payment_method").id) };
  return pi;
}

const CONFIRMABLE = ["requires_payment_method", "requires_confirmation", "requires_action"];

function answerConfirm(c: Call, r: { pi: Rec; error?: TwinResponse }): TwinResponse {
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

export const paymentRoutes: readonly Route[] = [
  route("POST", "/v1/payment_intents", "paymentIntents.create", "Create a payment intent", PI_FIELDS, (c) => {
    const amount = c.p.reqInt("amount");
    const currency = c.p.reqCurrency("currency");
    checkAmount(amount, currency);
    const customer = c.p.str("customer");
    if (customer) load(c, "customer", customer, "customer");
    const apm = automaticPaymentMethods(c);
    const captureMethod = c.p.oneOf("capture_method", ["automatic", "automatic_async", "manual"]) ?? "automatic_async";
    let pi = buildPaymentIntent(
      {
        amount,
        currency,
        customer: customer ?? null,
        description: c.p.str("description") ?? null,
        metadata: c.p.metadata(),
        capture_method: captureMethod,
        receipt_email: c.p.email("receipt_email") ?? null,
        automatic_payment_methods: apm,
        allowed_payment_method_types: namedMethodTypes(c)?.types ?? null,
        payment_method_types: namedMethodTypes(c)?.types ?? ["card"],
        statement_descriptor: c.p.str("statement_descriptor") ?? null,
        setup_future_usage: c.p.str("setup_future_usage") ?? null,
      },
      { id: newId(c.db, "payment_intent"), created: c.now },
    );
    const redirect = c.p.bool("confirm") ? requireReturnUrl(c, apm, "Payment Intent") : undefined;
    if (redirect) return redirect;
    pi = confirmParams(c, pi);
    if (pi.payment_method) pi.status = "requires_confirmation";
    insertObject(c.db, "payment_intent", pi);
    emit(c, "payment_intent.created", "payment_intent", pi);
    if (c.p.bool("confirm")) return answerConfirm(c, confirmIntent(c, pi));
    return show(c, "payment_intent", pi);
  }),
  route("GET", "/v1/payment_intents", "paymentIntents.list", "List payment intents", [...LIST_PARAMS, "customer"], (c) =>
    listResponse(c, "payment_intent", "/v1/payment_intents", filterOf(c, "customer", "customer")),
  ),
  route("GET", "/v1/payment_intents/:id", "paymentIntents.retrieve", "Retrieve a payment intent", ["client_secret"], (c) =>
    show(c, "payment_intent", load(c, "payment_intent", c.ctx.params.id)),
  ),
  route(
    "POST",
    "/v1/payment_intents/:id",
    "paymentIntents.update",
    "Update a payment intent",
    [
      "amount",
      "currency",
      "customer",
      "payment_method",
      "description",
      "metadata",
      "receipt_email",
      "setup_future_usage",
      "statement_descriptor",
      "shipping",
      "capture_method",
    ],
    (c) => {
      const before = load(c, "payment_intent", c.ctx.params.id);
      if (!CONFIRMABLE.includes(String(before.status)) && (c.p.has("amount") || c.p.has("currency") || c.p.has("payment_method"))) {
        return stateError(
          `This PaymentIntent's amount could not be updated because it has a status of ${String(before.status)}.`,
          "payment_intent_unexpected_state",
        );
      }
      let after: Rec = { ...before, metadata: c.p.metadata(strMap(before.metadata)) };
      const amount = c.p.int("amount");
      const currency = c.p.currency("currency");
      if (amount !== undefined || currency) checkAmount(amount ?? num(before.amount) ?? 0, currency ?? String(before.currency));
      if (amount !== undefined) after.amount = amount;
      if (currency) after.currency = currency;
      const customer = c.p.str("customer");
      if (customer) after.customer = load(c, "customer", customer, "customer").id;
      for (const key of ["description", "receipt_email", "statement_descriptor"]) {
        const v = c.p.nullable(key);
        if (v !== undefined) after[key] = v;
      }
      after = confirmParams(c, after);
      if (after.payment_method && before.status === "requires_payment_method") after.status = "requires_confirmation";
      saveObject(c.db, "payment_intent", after);
      return show(c, "payment_intent", after);
    },
  ),
  route(
    "POST",
    "/v1/payment_intents/:id/confirm",
    "paymentIntents.confirm",
    "Confirm a payment intent",
    ["payment_method", "return_url", "off_session", "receipt_email", "setup_future_usage", "error_on_requires_action", "capture_method"],
    (c) => {
      const before = load(c, "payment_intent", c.ctx.params.id);
      if (!CONFIRMABLE.includes(String(before.status))) {
        return stateError(
          `You cannot confirm this PaymentIntent because it has a status of ${String(before.status)}. Only a PaymentIntent with one of the following statuses may be confirmed: requires_payment_method, requires_confirmation, requires_action.`,
          "payment_intent_unexpected_state",
        );
      }
      const redirect = requireReturnUrl(c, before.automatic_payment_methods, "Payment Intent");
      if (redirect) return redirect;
      return answerConfirm(c, confirmIntent(c, confirmParams(c, before)));
    },
  ),
  route(
    "POST",
    "/v1/payment_intents/:id/capture",
    "paymentIntents.capture",
    "Capture a payment intent",
    ["amount_to_capture", "metadata", "final_capture", "statement_descriptor"],
    (c) => capture(c, load(c, "payment_intent", c.ctx.params.id)),
  ),
  route("POST", "/v1/payment_intents/:id/cancel", "paymentIntents.cancel", "Cancel a payment intent", ["cancellation_reason"], (c) => {
    const before = load(c, "payment_intent", c.ctx.params.id);
    if (before.status === "succeeded" || before.status === "canceled") {
      return stateError(
        `You cannot cancel this PaymentIntent because it has a status of ${String(before.status)}. Only a PaymentIntent with one of the following statuses may be canceled: requires_payment_method, requires_capture, requires_confirmation, requires_action, processing.`,
        "payment_intent_unexpected_state",
      );
    }
    const reason = c.p.oneOf("cancellation_reason", ["duplicate", "fraudulent", "requested_by_customer", "abandoned"]) ?? null;
    const after = {
      ...before,
      status: "canceled",
      canceled_at: c.now,
      cancellation_reason: reason,
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
  }),
  route("GET", "/v1/charges", "charges.list", "List charges", [...LIST_PARAMS, "customer", "payment_intent", "transfer_group"], (c) =>
    listResponse(c, "charge", "/v1/charges", [...filterOf(c, "customer", "customer"), ...filterOf(c, "payment_intent", "ref")]),
  ),
  route("GET", "/v1/charges/:id/refunds", "charges.listRefunds", "List a charge's refunds", [...LIST_PARAMS], (c) => {
    const charge = load(c, "charge", c.ctx.params.id);
    return listResponse(c, "refund", `/v1/charges/${String(charge.id)}/refunds`, [{ column: "ref", value: String(charge.id) }]);
  }),
  route("GET", "/v1/charges/:id", "charges.retrieve", "Retrieve a charge", [], (c) =>
    show(c, "charge", load(c, "charge", c.ctx.params.id)),
  ),
  route(
    "POST",
    "/v1/charges/:id",
    "charges.update",
    "Update a charge",
    ["metadata", "description", "receipt_email", "fraud_details", "shipping"],
    (c) => {
      const before = load(c, "charge", c.ctx.params.id);
      const after: Rec = { ...before, metadata: c.p.metadata(strMap(before.metadata)) };
      for (const key of ["description", "receipt_email"]) {
        const v = c.p.nullable(key);
        if (v !== undefined) after[key] = v;
      }
      saveObject(c.db, "charge", after);
      emit(c, "charge.updated", "charge", after, changed(before, after));
      return show(c, "charge", after);
    },
  ),
  route(
    "POST",
    "/v1/charges/:id/capture",
    "charges.capture",
    "Capture a charge",
    ["amount", "metadata", "receipt_email", "statement_descriptor"],
    (c) => {
      const charge = load(c, "charge", c.ctx.params.id);
      if (charge.captured === true)
        return invalidRequest(`Charge ${String(charge.id)} has already been captured.`, { code: "charge_already_captured" });
      const pi = charge.payment_intent ? getObject(c.db, "payment_intent", String(charge.payment_intent)) : undefined;
      if (!pi) return invalidRequest(`Charge ${String(charge.id)} cannot be captured.`);
      const res = capture(c, pi, "amount");
      if (res.status !== 200) return res;
      return show(c, "charge", load(c, "charge", String(charge.id)));
    },
  ),
  route(
    "POST",
    "/v1/refunds",
    "refunds.create",
    "Create a refund",
    ["charge", "payment_intent", "amount", "reason", "metadata", "refund_application_fee", "reverse_transfer", "instructions_email"],
    createRefund,
  ),
  route("GET", "/v1/refunds", "refunds.list", "List refunds", [...LIST_PARAMS, "charge", "payment_intent"], (c) =>
    listResponse(c, "refund", "/v1/refunds", [...filterOf(c, "charge", "ref"), ...filterOf(c, "payment_intent", "ref2")]),
  ),
  route("GET", "/v1/refunds/:id", "refunds.retrieve", "Retrieve a refund", [], (c) =>
    show(c, "refund", load(c, "refund", c.ctx.params.id)),
  ),
  route("POST", "/v1/refunds/:id", "refunds.update", "Update a refund", ["metadata"], (c) => {
    const before = load(c, "refund", c.ctx.params.id);
    const after = { ...before, metadata: c.p.metadata(strMap(before.metadata)) };
    saveObject(c.db, "refund", after);
    emit(c, "refund.updated", "refund", after, changed(before, after));
    return show(c, "refund", after);
  }),
  route("POST", "/v1/refunds/:id/cancel", "refunds.cancel", "Cancel a refund", [], (c) => {
    const refund = load(c, "refund", c.ctx.params.id);
    return stateError(
      `You cannot cancel this refund because it has a status of ${String(refund.status)}. Only refunds with a status of requires_action may be canceled.`,
      "refund_unexpected_state",
    );
  }),
];
