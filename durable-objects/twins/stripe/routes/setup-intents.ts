// SetupIntents: saving a card for later (docs.stripe.com/payments/save-and-reuse). Create,
// retrieve, update, list, confirm with Stripe's test cards (success; decline; `requires_action` for
// the authentication cards of docs.stripe.com/testing#authentication-and-setup), cancel. On
// success the payment method is attached to the intent's customer (`payment_method.attached`).
import { threeDSecureAction } from "../three-d-secure";
import type { Route, TwinResponse } from "../../types";
import { filterOf, listResponse, load, show, type Call } from "../call";
import { arg, expand, idParam, listQuery, metadata, route } from "../declare";
import { invalidRequest, stateError } from "../errors";
import { emit } from "../events";
import { attachTo, cardError, outcomeOf, paymentMethodOfData, resolvePaymentMethod } from "../money";
import { buildSetupIntent } from "../objects-checkout";
import { insertObject, newId, rec, saveObject, str, strMap, type Rec } from "../store";
import { render } from "../view";
import {
  automaticPaymentMethods,
  automaticPaymentMethodsArg,
  namedMethodTypes,
  paymentMethodData,
  requireReturnUrl,
  returnUrl,
} from "./payments";

/**
 * Cards whose setup asks for authentication first: 4000002500003155 (`pm_card_authenticationRequiredOnSetup`),
 * 4000002760003184 (`pm_card_authenticationRequired`) and 4000000000003220 (3D Secure 2).
 */
const AUTHENTICATE_ON_SETUP = new Set(["3155", "3184", "3220"]);

const CONFIRMABLE = ["requires_payment_method", "requires_confirmation", "requires_action"];

const DECLINES: Record<string, { code: string; decline_code: string; message: string }> = {
  decline: { code: "card_declined", decline_code: "generic_decline", message: "Your card was declined." },
  insufficient_funds: { code: "card_declined", decline_code: "insufficient_funds", message: "Your card has insufficient funds." },
  lost_card: { code: "card_declined", decline_code: "lost_card", message: "Your card was declined." },
  expired_card: { code: "expired_card", decline_code: "expired_card", message: "Your card has expired." },
  incorrect_cvc: { code: "incorrect_cvc", decline_code: "incorrect_cvc", message: "Your card's security code is incorrect." },
};

/** Confirms a SetupIntent with its payment method: the test card decides where it ends. */
export function confirmSetup(c: Call, before: Rec): { si: Rec; error?: TwinResponse } {
  const pmId = str(before.payment_method);
  if (!pmId)
    return {
      si: before,
      error: invalidRequest(
        "You cannot confirm this SetupIntent because it's missing a payment method. Update the SetupIntent with a payment method and then confirm it again.",
        { code: "setup_intent_unexpected_state", param: "payment_method" },
      ),
    };
  const pm = resolvePaymentMethod(c, pmId, "payment_method");
  const last4 = String(rec(pm.card).last4);
  if (AUTHENTICATE_ON_SETUP.has(last4) && before.status !== "requires_action") {
    const si = {
      ...before,
      payment_method: pm.id,
      status: "requires_action",
      next_action: threeDSecureAction("setup_intent", String(before.id)),
    };
    saveObject(c.db, "setup_intent", si);
    emit(c, "setup_intent.requires_action", "setup_intent", si);
    return { si };
  }
  const decline = DECLINES[outcomeOf(pm)];
  if (decline) {
    const lastError = {
      ...decline,
      type: "card_error",
      doc_url: `https://stripe.com/docs/error-codes/${decline.code.replace(/_/g, "-")}`,
      payment_method: render(c.db, "payment_method", pm),
    };
    const si = { ...before, payment_method: null, status: "requires_payment_method", last_setup_error: lastError, next_action: null };
    saveObject(c.db, "setup_intent", si);
    emit(c, "setup_intent.setup_failed", "setup_intent", si);
    return {
      si,
      error: cardError(decline, { setup_intent: render(c.db, "setup_intent", si), payment_method: render(c.db, "payment_method", pm) }),
    };
  }
  const customer = str(before.customer);
  const attached = customer ? attachTo(c, pm, customer, "payment_method") : pm;
  const si = { ...before, payment_method: attached.id, status: "succeeded", last_setup_error: null, next_action: null };
  saveObject(c.db, "setup_intent", si);
  emit(c, "setup_intent.succeeded", "setup_intent", si);
  return { si };
}

function withPaymentMethod(c: Call, si: Rec): Rec {
  const made = paymentMethodOfData(c);
  if (made) return { ...si, payment_method: String(made.id) };
  const pm = c.p.str("payment_method");
  return pm ? { ...si, payment_method: String(resolvePaymentMethod(c, pm, "payment_method").id) } : si;
}

const answer = (c: Call, r: { si: Rec; error?: TwinResponse }) => r.error ?? show(c, "setup_intent", r.si);

const methodTypes = {
  allowed_payment_method_types: arg.strings('Payment method types instead of automatic ones, e.g. ["card"]'),
  payment_method_types: arg.strings("The older name of allowed_payment_method_types"),
};
const paymentMethodOptions = arg.anyHash("Options per payment method type");
const flowDirections = arg.strings("inbound, outbound or both: how the saved method will move money");

export const setupIntentRoutes: readonly Route[] = [
  route({
    method: "POST",
    pattern: "/v1/setup_intents",
    operation: "setupIntents.create",
    summary: "Create a SetupIntent",
    body: {
      customer: arg.text("The customer the card is saved to"),
      payment_method: arg.text("A payment method id or test token, e.g. pm_card_visa"),
      payment_method_data: paymentMethodData,
      confirm: arg.bool("Confirm immediately"),
      usage: arg.oneOf(["on_session", "off_session"], "How the saved card will be used (default off_session)"),
      description: arg.text("An arbitrary description"),
      metadata,
      automatic_payment_methods: automaticPaymentMethodsArg,
      ...methodTypes,
      return_url: returnUrl,
      attach_to_self: arg.bool("Attach the method to the account itself"),
      flow_directions: flowDirections,
      payment_method_options: paymentMethodOptions,
      use_stripe_sdk: arg.bool("Whether Stripe.js handles next actions"),
      on_behalf_of: arg.text("The connected account the intent is for"),
      expand,
    },
    tool: {
      name: "create_setup_intent",
      description:
        "Create a SetupIntent to save a card for later; with confirm: true and a payment_method it is saved to the customer at once.",
    },
    handler(c, { body }) {
      const customer = body.customer;
      if (customer) load(c, "customer", customer, "customer");
      const apm = automaticPaymentMethods(c);
      const confirm = body.confirm === true;
      const redirect = confirm ? requireReturnUrl(c, apm, "Setup Intent") : undefined;
      if (redirect) return redirect;
      let si = buildSetupIntent(
        {
          customer: customer ?? null,
          description: body.description ?? null,
          metadata: c.p.metadata(),
          usage: body.usage ?? "off_session",
          automatic_payment_methods: apm,
          allowed_payment_method_types: namedMethodTypes(c)?.types ?? null,
          payment_method_types: namedMethodTypes(c)?.types ?? ["card"],
          attach_to_self: body.attach_to_self,
        },
        { id: newId(c.db, "setup_intent"), created: c.now },
      );
      if (si.attach_to_self === undefined) delete si.attach_to_self;
      si = withPaymentMethod(c, si);
      if (si.payment_method) si.status = "requires_confirmation";
      insertObject(c.db, "setup_intent", si);
      emit(c, "setup_intent.created", "setup_intent", si);
      return confirm ? answer(c, confirmSetup(c, si)) : show(c, "setup_intent", si);
    },
  }),
  route({
    method: "GET",
    pattern: "/v1/setup_intents",
    operation: "setupIntents.list",
    summary: "List SetupIntents",
    query: {
      ...listQuery,
      customer: arg.text("Only this customer's"),
      payment_method: arg.text("Only those with this payment method"),
      attach_to_self: arg.bool("Only those attaching to the account itself, or only the others"),
    },
    tool: { name: "list_setup_intents", description: "List SetupIntents, newest first." },
    handler(c, { query }) {
      const attachToSelf = query.attach_to_self;
      return listResponse(
        c,
        "setup_intent",
        "/v1/setup_intents",
        [...filterOf(c, "customer", "customer"), ...filterOf(c, "payment_method", "ref")],
        attachToSelf === undefined ? undefined : (o) => (o.attach_to_self === true) === attachToSelf,
      );
    },
  }),
  route({
    method: "GET",
    pattern: "/v1/setup_intents/:id",
    operation: "setupIntents.retrieve",
    summary: "Retrieve a SetupIntent",
    params: idParam("The SetupIntent's id, seti_…"),
    query: { client_secret: arg.text("The intent's client secret (publishable-key callers)"), expand },
    tool: { name: "get_setup_intent", description: "Retrieve a SetupIntent." },
    handler: (c, { params }) => show(c, "setup_intent", load(c, "setup_intent", params.id)),
  }),
  route({
    method: "POST",
    pattern: "/v1/setup_intents/:id",
    operation: "setupIntents.update",
    summary: "Update a SetupIntent",
    params: idParam("The SetupIntent's id"),
    body: {
      customer: arg.text("The customer the card is saved to"),
      description: arg.unsettable("An arbitrary description"),
      metadata,
      payment_method: arg.text("A payment method id or test token"),
      ...methodTypes,
      attach_to_self: arg.bool("Attach the method to the account itself"),
      flow_directions: flowDirections,
      payment_method_options: paymentMethodOptions,
      expand,
    },
    tool: { name: "update_setup_intent", description: "Update a SetupIntent's payment method, customer, description or metadata." },
    handler(c, { params, body }) {
      const before = load(c, "setup_intent", params.id);
      if (!CONFIRMABLE.includes(String(before.status)) && (c.p.has("payment_method") || c.p.has("customer")))
        return stateError(
          `You cannot update this SetupIntent because it has a status of ${String(before.status)}.`,
          "setup_intent_unexpected_state",
        );
      let after: Rec = { ...before, metadata: c.p.metadata(strMap(before.metadata)) };
      const description = c.p.nullable("description");
      if (description !== undefined) after.description = description;
      if (body.customer) after.customer = load(c, "customer", body.customer, "customer").id;
      const types = namedMethodTypes(c)?.types;
      if (types) after = { ...after, allowed_payment_method_types: types, payment_method_types: types };
      after = withPaymentMethod(c, after);
      if (after.payment_method && before.status === "requires_payment_method") after.status = "requires_confirmation";
      // Stripe has no `setup_intent.updated` event: an update emits nothing.
      saveObject(c.db, "setup_intent", after);
      return show(c, "setup_intent", after);
    },
  }),
  route({
    method: "POST",
    pattern: "/v1/setup_intents/:id/confirm",
    operation: "setupIntents.confirm",
    summary: "Confirm a SetupIntent",
    params: idParam("The SetupIntent's id"),
    body: {
      payment_method: arg.text("A payment method id or test token"),
      payment_method_data: paymentMethodData,
      return_url: returnUrl,
      mandate_data: arg.anyHash("The customer's acceptance of a mandate"),
      payment_method_options: paymentMethodOptions,
      use_stripe_sdk: arg.bool("Whether Stripe.js handles next actions"),
      expand,
    },
    tool: {
      name: "confirm_setup_intent",
      description: "Confirm a SetupIntent: on success its card is attached to its customer; authentication cards answer requires_action.",
    },
    handler(c, { params }) {
      const before = load(c, "setup_intent", params.id);
      if (!CONFIRMABLE.includes(String(before.status)))
        return stateError(
          before.status === "succeeded"
            ? "You cannot confirm this SetupIntent because it has already succeeded after being previously confirmed."
            : `You cannot confirm this SetupIntent because it has a status of ${String(before.status)}. Only a SetupIntent with one of the following statuses may be confirmed: requires_payment_method, requires_confirmation, requires_action.`,
          "setup_intent_unexpected_state",
        );
      const redirect = requireReturnUrl(c, before.automatic_payment_methods, "Setup Intent");
      if (redirect) return redirect;
      return answer(c, confirmSetup(c, withPaymentMethod(c, before)));
    },
  }),
  route({
    method: "POST",
    pattern: "/v1/setup_intents/:id/cancel",
    operation: "setupIntents.cancel",
    summary: "Cancel a SetupIntent",
    params: idParam("The SetupIntent's id"),
    body: { cancellation_reason: arg.oneOf(["abandoned", "duplicate", "requested_by_customer"], "Why"), expand },
    tool: { name: "cancel_setup_intent", description: "Cancel a SetupIntent that has not succeeded.", destructive: true },
    handler(c, { params, body }) {
      const before = load(c, "setup_intent", params.id);
      if (!CONFIRMABLE.includes(String(before.status)))
        return stateError(
          `You cannot cancel this SetupIntent because it has a status of ${String(before.status)}. Only a SetupIntent with one of the following statuses may be canceled: requires_payment_method, requires_confirmation, requires_action.`,
          "setup_intent_unexpected_state",
        );
      const after = { ...before, status: "canceled", cancellation_reason: body.cancellation_reason ?? null, next_action: null };
      saveObject(c.db, "setup_intent", after);
      emit(c, "setup_intent.canceled", "setup_intent", after);
      return show(c, "setup_intent", after);
    },
  }),
];
