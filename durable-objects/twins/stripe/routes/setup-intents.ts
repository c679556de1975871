// SetupIntents: saving a card for later (docs.stripe.com/payments/save-and-reuse). Create,
// retrieve, update, list, confirm with Stripe's test cards (success; decline; `requires_action` for
// the authentication cards of docs.stripe.com/testing#authentication-and-setup), cancel. On
// success the payment method is attached to the intent's customer (`payment_method.attached`).
import type { Route, TwinResponse } from "../../types";
import { filterOf, LIST_PARAMS, listResponse, load, route, show, type Call } from "../call";
import { invalidRequest, stateError } from "../errors";
import { emit } from "../events";
import { attachTo, cardError, outcomeOf, resolvePaymentMethod } from "../money";
import { buildSetupIntent } from "../objects-checkout";
import { insertObject, newId, rec, saveObject, str, strMap, type Rec } from "../store";
import { render } from "../view";
import { automaticPaymentMethods, namedMethodTypes, requireReturnUrl } from "./payments";

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
      next_action: {
        type: "use_stripe_sdk",
        use_stripe_sdk: {
          type: "three_d_secure_redirect",
          stripe_js: `https://hooks.stripe.com/3d_secure_2/hosted?setup_intent=${String(before.id)}`,
          source: `src_${String(before.id).slice(5)}`,
        },
      },
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
  const pm = c.p.str("payment_method");
  return pm ? { ...si, payment_method: String(resolvePaymentMethod(c, pm, "payment_method").id) } : si;
}

const answer = (c: Call, r: { si: Rec; error?: TwinResponse }) => r.error ?? show(c, "setup_intent", r.si);

export const setupIntentRoutes: readonly Route[] = [
  route(
    "POST",
    "/v1/setup_intents",
    "setupIntents.create",
    "Create a SetupIntent",
    [
      "customer",
      "payment_method",
      "confirm",
      "usage",
      "description",
      "metadata",
      "automatic_payment_methods",
      "allowed_payment_method_types",
      "payment_method_types",
      "return_url",
      "attach_to_self",
      "flow_directions",
      "payment_method_options",
      "use_stripe_sdk",
      "on_behalf_of",
    ],
    (c) => {
      const customer = c.p.str("customer");
      if (customer) load(c, "customer", customer, "customer");
      const apm = automaticPaymentMethods(c);
      const confirm = c.p.bool("confirm") === true;
      const redirect = confirm ? requireReturnUrl(c, apm, "Setup Intent") : undefined;
      if (redirect) return redirect;
      let si = buildSetupIntent(
        {
          customer: customer ?? null,
          description: c.p.str("description") ?? null,
          metadata: c.p.metadata(),
          usage: c.p.oneOf("usage", ["on_session", "off_session"]) ?? "off_session",
          automatic_payment_methods: apm,
          allowed_payment_method_types: namedMethodTypes(c)?.types ?? null,
          payment_method_types: namedMethodTypes(c)?.types ?? ["card"],
          attach_to_self: c.p.bool("attach_to_self") ?? undefined,
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
  ),
  route(
    "GET",
    "/v1/setup_intents",
    "setupIntents.list",
    "List SetupIntents",
    [...LIST_PARAMS, "customer", "payment_method", "attach_to_self"],
    (c) => {
      const attachToSelf = c.p.bool("attach_to_self");
      return listResponse(
        c,
        "setup_intent",
        "/v1/setup_intents",
        [...filterOf(c, "customer", "customer"), ...filterOf(c, "payment_method", "ref")],
        attachToSelf === undefined ? undefined : (o) => (o.attach_to_self === true) === attachToSelf,
      );
    },
  ),
  route("GET", "/v1/setup_intents/:id", "setupIntents.retrieve", "Retrieve a SetupIntent", ["client_secret"], (c) =>
    show(c, "setup_intent", load(c, "setup_intent", c.ctx.params.id)),
  ),
  route(
    "POST",
    "/v1/setup_intents/:id",
    "setupIntents.update",
    "Update a SetupIntent",
    [
      "customer",
      "description",
      "metadata",
      "payment_method",
      "allowed_payment_method_types",
      "payment_method_types",
      "attach_to_self",
      "flow_directions",
      "payment_method_options",
    ],
    (c) => {
      const before = load(c, "setup_intent", c.ctx.params.id);
      if (!CONFIRMABLE.includes(String(before.status)) && (c.p.has("payment_method") || c.p.has("customer")))
        return stateError(
          `You cannot update this SetupIntent because it has a status of ${String(before.status)}.`,
          "setup_intent_unexpected_state",
        );
      let after: Rec = { ...before, metadata: c.p.metadata(strMap(before.metadata)) };
      const description = c.p.nullable("description");
      if (description !== undefined) after.description = description;
      const customer = c.p.str("customer");
      if (customer) after.customer = load(c, "customer", customer, "customer").id;
      const types = namedMethodTypes(c)?.types;
      if (types) after = { ...after, allowed_payment_method_types: types, payment_method_types: types };
      after = withPaymentMethod(c, after);
      if (after.payment_method && before.status === "requires_payment_method") after.status = "requires_confirmation";
      // Stripe has no `setup_intent.updated` event: an update emits nothing.
      saveObject(c.db, "setup_intent", after);
      return show(c, "setup_intent", after);
    },
  ),
  route(
    "POST",
    "/v1/setup_intents/:id/confirm",
    "setupIntents.confirm",
    "Confirm a SetupIntent",
    ["payment_method", "return_url", "mandate_data", "payment_method_options", "use_stripe_sdk"],
    (c) => {
      const before = load(c, "setup_intent", c.ctx.params.id);
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
  ),
  route("POST", "/v1/setup_intents/:id/cancel", "setupIntents.cancel", "Cancel a SetupIntent", ["cancellation_reason"], (c) => {
    const before = load(c, "setup_intent", c.ctx.params.id);
    if (!CONFIRMABLE.includes(String(before.status)))
      return stateError(
        `You cannot cancel this SetupIntent because it has a status of ${String(before.status)}. Only a SetupIntent with one of the following statuses may be canceled: requires_payment_method, requires_confirmation, requires_action.`,
        "setup_intent_unexpected_state",
      );
    const reason = c.p.oneOf("cancellation_reason", ["abandoned", "duplicate", "requested_by_customer"]) ?? null;
    const after = { ...before, status: "canceled", cancellation_reason: reason, next_action: null };
    saveObject(c.db, "setup_intent", after);
    emit(c, "setup_intent.canceled", "setup_intent", after);
    return show(c, "setup_intent", after);
  }),
];
