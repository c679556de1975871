// The shapes of SetupIntents, Checkout Sessions and Payment Links in the API version stripe-node
// 23 pins (keys as stripe-node's SetupIntent, Checkout.Session and PaymentLink interfaces declare
// them), and of the line items both list. Builders take what was given and fill Stripe's defaults.
import type { Made } from "./objects";
import { idBody, num, type Rec, str } from "./store";

const base = (object: string, m: Made) => ({ id: m.id, object, created: m.created, livemode: false });
const rest = (r: Rec, ...keys: string[]) => Object.fromEntries(Object.entries(r).filter(([k]) => !keys.includes(k) && k !== "object"));

export const buildSetupIntent = (r: Rec, m: Made): Rec => ({
  ...base("setup_intent", m),
  allowed_payment_method_types: null,
  application: null,
  automatic_payment_methods: null,
  cancellation_reason: null,
  client_secret: `${m.id}_secret_${idBody(`secret:${m.id}`, 25)}`,
  customer: null,
  customer_account: null,
  description: null,
  excluded_payment_method_types: null,
  flow_directions: null,
  last_setup_error: null,
  latest_attempt: null,
  mandate: null,
  metadata: {},
  next_action: null,
  on_behalf_of: null,
  payment_method: null,
  payment_method_configuration_details: null,
  payment_method_options: { card: { mandate_options: null, network: null, request_three_d_secure: "automatic" } },
  payment_method_types: ["card"],
  single_use_mandate: null,
  status: "requires_payment_method",
  usage: "off_session",
  ...rest(r),
});

/** A line item of a Checkout Session or Payment Link (`object: "item"`), with its full Price. */
export function buildLineItem(id: string, price: Rec, quantity: number, description: string | null): Rec {
  const unit = num(price.unit_amount) ?? 0;
  const amount = unit * quantity;
  return {
    id,
    object: "item",
    adjustable_quantity: null,
    amount_discount: 0,
    amount_subtotal: amount,
    amount_tax: 0,
    amount_total: amount,
    currency: price.currency,
    description,
    metadata: {},
    price,
    quantity,
  };
}

/** Seconds a Checkout Session stays open unless `expires_at` says otherwise (Stripe: 24 hours). */
export const SESSION_LIFETIME = 24 * 3600;

export const buildCheckoutSession = (r: Rec, m: Made): Rec => ({
  ...base("checkout.session", m),
  adaptive_pricing: { enabled: false },
  after_expiration: null,
  allow_promotion_codes: null,
  amount_subtotal: null,
  amount_total: null,
  automatic_tax: { enabled: false, liability: null, provider: null, status: null },
  billing_address_collection: null,
  cancel_url: null,
  client_reference_id: null,
  client_secret: null,
  collected_information: null,
  consent: null,
  consent_collection: null,
  currency: null,
  currency_conversion: null,
  custom_fields: [],
  custom_text: { after_submit: null, shipping_address: null, submit: null, terms_of_service_acceptance: null },
  customer: null,
  customer_account: null,
  customer_creation: "if_required",
  customer_details: null,
  customer_email: null,
  discounts: [],
  expires_at: m.created + SESSION_LIFETIME,
  invoice: null,
  invoice_creation: null,
  locale: null,
  metadata: {},
  mode: "payment",
  origin_context: null,
  payment_intent: null,
  payment_link: null,
  payment_method_collection: "always",
  payment_method_configuration_details: null,
  payment_method_options: {},
  payment_method_types: ["card"],
  payment_status: "unpaid",
  permissions: null,
  phone_number_collection: { enabled: false },
  recovered_from: null,
  saved_payment_method_options: null,
  setup_intent: null,
  shipping_address_collection: null,
  shipping_cost: null,
  shipping_options: [],
  status: "open",
  submit_type: null,
  subscription: null,
  success_url: null,
  total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
  ui_mode: "hosted",
  url: `https://checkout.stripe.com/c/pay/${m.id}`,
  wallet_options: null,
  ...rest(r),
});

/** A Payment Link: Stripe's object carries no `created` (the store orders links by creation). */
export const buildPaymentLink = (r: Rec, m: Made): Rec => ({
  id: m.id,
  object: "payment_link",
  active: true,
  after_completion: { hosted_confirmation: { custom_message: null }, type: "hosted_confirmation" },
  allow_promotion_codes: false,
  application: null,
  application_fee_amount: null,
  application_fee_percent: null,
  automatic_tax: { enabled: false, liability: null },
  billing_address_collection: "auto",
  consent_collection: null,
  currency: "usd",
  custom_fields: [],
  custom_text: { after_submit: null, shipping_address: null, submit: null, terms_of_service_acceptance: null },
  customer_creation: "if_required",
  inactive_message: null,
  invoice_creation: null,
  livemode: false,
  metadata: {},
  on_behalf_of: null,
  payment_intent_data: null,
  payment_method_collection: "always",
  payment_method_options: null,
  payment_method_types: null,
  phone_number_collection: { enabled: false },
  restrictions: null,
  shipping_address_collection: null,
  shipping_options: [],
  submit_type: "auto",
  subscription_data: null,
  tax_id_collection: { enabled: false, required: "never" },
  transfer_data: null,
  url: `https://buy.stripe.com/test_${idBody(`plink:${m.id}`, 14)}`,
  ...rest(r),
});

/** The customer details a completed session records, from its customer. */
export function customerDetailsOf(customer: Rec | undefined, email: string | null): Rec {
  return {
    address: customer?.address ?? null,
    email: str(customer?.email) ?? email,
    name: str(customer?.name) ?? null,
    phone: str(customer?.phone) ?? null,
    tax_exempt: str(customer?.tax_exempt) ?? "none",
    tax_ids: [],
  };
}
