// The shapes of Stripe's objects in the API version stripe-node 23 pins (2026-10-28): every field
// with Stripe's default, so a seed row, a create call and an export all go through one builder.
// Builders take what was given (seed row or create parameters already read) and fill the rest.
import { idBody, num, type Rec, rec, str } from "./store";

export const API_VERSION = "2026-10-28.endive";

const nullAddress = () => ({ city: null, country: null, line1: null, line2: null, postal_code: null, state: null });
const billingDetails = (r: unknown) => ({ address: nullAddress(), email: null, name: null, phone: null, tax_id: null, ...rec(r) });

/** Zero-decimal currencies: their amounts are whole units (¥100 is `100`). */
export const ZERO_DECIMAL = new Set([
  "bif",
  "clp",
  "djf",
  "gnf",
  "jpy",
  "kmf",
  "krw",
  "mga",
  "pyg",
  "rwf",
  "ugx",
  "vnd",
  "vuv",
  "xaf",
  "xof",
  "xpf",
]);

/** Stripe's smallest chargeable amount per currency, in its minor unit. */
export function minimumAmount(currency: string): number {
  if (ZERO_DECIMAL.has(currency)) return currency === "jpy" ? 50 : 100;
  return { gbp: 30, hkd: 400, mxn: 1000, aed: 200, czk: 1500, dkk: 250, nok: 300, sek: 300, pln: 200, huf: 17500 }[currency] ?? 50;
}

export function formatAmount(amount: number, currency: string): string {
  const major = ZERO_DECIMAL.has(currency) ? String(amount) : (amount / 100).toFixed(2);
  return currency === "usd" ? `$${major}` : `${major} ${currency}`;
}

export interface Made {
  id: string;
  created: number;
}

type Builder = (r: Rec, m: Made) => Rec;

const base = (object: string, m: Made) => ({ id: m.id, object, created: m.created, livemode: false });
/** Refunds, subscription items and balance transactions carry no `livemode` (stripe-node's types, the API reference). */
const baseWithoutMode = (object: string, m: Made) => ({ id: m.id, object, created: m.created });
/** `r` minus the keys the builder sets itself. */
const rest = (r: Rec, ...keys: string[]) => Object.fromEntries(Object.entries(r).filter(([k]) => !keys.includes(k) && k !== "object"));

export const buildCustomer: Builder = (r, m) => ({
  ...base("customer", m),
  address: null,
  balance: 0,
  currency: null,
  customer_account: null,
  default_source: null,
  delinquent: false,
  description: null,
  discount: null,
  email: null,
  invoice_prefix: idBody(`prefix:${m.id}`, 8).toUpperCase(),
  livemode: false,
  metadata: {},
  name: null,
  next_invoice_sequence: 1,
  phone: null,
  preferred_locales: [],
  shipping: null,
  tax_exempt: "none",
  test_clock: null,
  ...rest(r, "invoice_settings"),
  invoice_settings: {
    custom_fields: null,
    default_payment_method: null,
    footer: null,
    rendering_options: null,
    ...rec(r.invoice_settings),
  },
});

export function cardDetails(c: Rec, fingerprintSeed: string): Rec {
  const brand = str(c.brand) ?? "visa";
  return {
    brand,
    checks: { address_line1_check: null, address_postal_code_check: null, cvc_check: "pass" },
    country: "US",
    display_brand: brand,
    exp_month: 12,
    exp_year: 2030,
    fingerprint: idBody(`fp:${fingerprintSeed}`, 16),
    funding: "credit",
    generated_from: null,
    last4: "4242",
    networks: { available: [brand], preferred: null },
    regulated_status: "unregulated",
    three_d_secure_usage: { supported: true },
    wallet: null,
    ...c,
  };
}

/**
 * A charge's card details: the payment method's card without what only a payment method shows
 * (its display brand, networks, 3D Secure support, origin), with what the authorization adds.
 */
export function chargeCardDetails(card: Rec, amount: number): Rec {
  const { display_brand: _brand, generated_from: _from, networks: _networks, three_d_secure_usage: _usage, ...details } = card;
  return { ...details, amount_authorized: amount, network: card.brand };
}

export const buildPaymentMethod: Builder = (r, m) => ({
  ...base("payment_method", m),
  allow_redisplay: "unspecified",
  customer: null,
  customer_account: null,
  metadata: {},
  type: "card",
  ...rest(r, "billing_details", "card"),
  billing_details: billingDetails(r.billing_details),
  ...(r.type === undefined || r.type === "card"
    ? { card: cardDetails(rec(r.card), `${str(rec(r.card).brand)}${str(rec(r.card).last4)}`) }
    : {}),
});

export const buildPaymentIntent: Builder = (r, m) => {
  const status = str(r.status) ?? "requires_payment_method";
  const amount = num(r.amount) ?? 0;
  return {
    ...base("payment_intent", m),
    amount,
    allowed_payment_method_types: null,
    amount_capturable: status === "requires_capture" ? amount : 0,
    amount_details: { tip: {} },
    amount_received: status === "succeeded" ? amount : 0,
    application: null,
    application_fee_amount: null,
    automatic_payment_methods: null,
    canceled_at: null,
    cancellation_reason: null,
    capture_method: "automatic_async",
    client_secret: `${m.id}_secret_${idBody(`secret:${m.id}`, 25)}`,
    confirmation_method: "automatic",
    currency: "usd",
    customer: null,
    customer_account: null,
    description: null,
    excluded_payment_method_types: null,
    last_payment_error: null,
    latest_charge: null,
    managed_payments: null,
    metadata: {},
    next_action: null,
    on_behalf_of: null,
    payment_method: null,
    payment_method_configuration_details: null,
    payment_method_options: { card: { installments: null, mandate_options: null, network: null, request_three_d_secure: "automatic" } },
    payment_method_types: ["card"],
    processing: null,
    receipt_email: null,
    review: null,
    setup_future_usage: null,
    shipping: null,
    source: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    status,
    transfer_data: null,
    transfer_group: null,
    ...rest(r),
  };
};

export const buildCharge: Builder = (r, m) => {
  const status = str(r.status) ?? "succeeded";
  const captured = r.captured === undefined ? status === "succeeded" : r.captured === true;
  const amount = num(r.amount) ?? 0;
  return {
    ...base("charge", m),
    amount,
    amount_captured: captured ? amount : 0,
    amount_refunded: 0,
    application: null,
    application_fee: null,
    application_fee_amount: null,
    balance_transaction: null,
    calculated_statement_descriptor: "POME TWIN",
    captured,
    currency: "usd",
    customer: null,
    description: null,
    disputed: false,
    failure_balance_transaction: null,
    failure_code: null,
    failure_message: null,
    fraud_details: {},
    metadata: {},
    on_behalf_of: null,
    outcome:
      status === "failed"
        ? {
            advice_code: null,
            network_advice_code: null,
            network_decline_code: null,
            network_status: "declined_by_network",
            reason: "generic_decline",
            risk_level: "normal",
            risk_score: 40,
            seller_message: "The bank did not return any further details with this decline.",
            type: "issuer_declined",
          }
        : {
            advice_code: null,
            network_advice_code: null,
            network_decline_code: null,
            network_status: "approved_by_network",
            reason: null,
            risk_level: "normal",
            risk_score: 32,
            seller_message: "Payment complete.",
            type: "authorized",
          },
    paid: status === "succeeded",
    payment_intent: null,
    payment_method: null,
    payment_method_details: null,
    receipt_email: null,
    receipt_number: null,
    receipt_url: null,
    refunded: false,
    review: null,
    shipping: null,
    source: null,
    source_transfer: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    status,
    transfer_data: null,
    transfer_group: null,
    ...rest(r, "billing_details"),
    billing_details: billingDetails(r.billing_details),
  };
};

export const buildRefund: Builder = (r, m) => ({
  ...baseWithoutMode("refund", m),
  amount: 0,
  balance_transaction: null,
  charge: null,
  currency: "usd",
  customer: null,
  customer_account: null,
  destination_details: {
    card: { reference_status: "available", reference_type: "acquirer_reference_number", type: "refund" },
    type: "card",
  },
  metadata: {},
  payment_intent: null,
  payment_method: null,
  reason: null,
  receipt_number: null,
  source_transfer_reversal: null,
  status: "succeeded",
  transfer_reversal: null,
  ...rest(r),
});

export const buildProduct: Builder = (r, m) => ({
  ...base("product", m),
  active: true,
  default_price: null,
  description: null,
  images: [],
  marketing_features: [],
  metadata: {},
  name: "",
  package_dimensions: null,
  shippable: null,
  statement_descriptor: null,
  tax_code: null,
  type: "service",
  unit_label: null,
  updated: m.created,
  url: null,
  ...rest(r),
});

export function recurringOf(r: unknown): Rec | null {
  if (r === null || r === undefined) return null;
  return { interval: "month", interval_count: 1, meter: null, trial_period_days: null, usage_type: "licensed", ...rec(r) };
}

export const buildPrice: Builder = (r, m) => {
  const recurring = recurringOf(r.recurring);
  const unit = num(r.unit_amount) ?? null;
  return {
    ...base("price", m),
    active: true,
    billing_scheme: "per_unit",
    currency: "usd",
    custom_unit_amount: null,
    lookup_key: null,
    metadata: {},
    nickname: null,
    product: "",
    tax_behavior: "unspecified",
    tiers_mode: null,
    transform_quantity: null,
    type: recurring ? "recurring" : "one_time",
    unit_amount: unit,
    unit_amount_decimal: unit === null ? null : String(unit),
    ...rest(r, "recurring"),
    recurring,
  };
};

export const buildCoupon: Builder = (r, m) => ({
  ...base("coupon", m),
  amount_off: null,
  currency: null,
  duration: "once",
  duration_in_months: null,
  max_redemptions: null,
  metadata: {},
  name: null,
  percent_off: null,
  redeem_by: null,
  times_redeemed: 0,
  valid: true,
  ...rest(r),
});

export interface ItemMade extends Made {
  subscription: string;
  periodStart: number;
  periodEnd: number;
}

/** A subscription item as stored: `price` is the price's id; the view expands it, as Stripe always does. */
export function buildItem(r: Rec, m: ItemMade): Rec {
  return {
    ...baseWithoutMode("subscription_item", m),
    billing_thresholds: null,
    current_period_end: m.periodEnd,
    current_period_start: m.periodStart,
    discounts: [],
    metadata: {},
    quantity: 1,
    subscription: m.subscription,
    tax_rates: [],
    ...rest(r, "plan"),
  };
}

export const buildSubscription: Builder = (r, m) => ({
  ...base("subscription", m),
  application: null,
  application_fee_percent: null,
  automatic_tax: { disabled_reason: null, enabled: false, liability: null },
  billing_cycle_anchor: m.created,
  billing_cycle_anchor_config: null,
  billing_mode: { type: "classic" },
  billing_thresholds: null,
  cancel_at: null,
  cancel_at_period_end: false,
  canceled_at: null,
  cancellation_details: { comment: null, feedback: null, reason: null },
  collection_method: "charge_automatically",
  currency: "usd",
  customer: "",
  customer_account: null,
  days_until_due: null,
  default_payment_method: null,
  default_source: null,
  default_tax_rates: [],
  description: null,
  discounts: [],
  ended_at: null,
  invoice_settings: { account_tax_ids: null, issuer: { type: "self" } },
  latest_invoice: null,
  managed_payments: null,
  metadata: {},
  next_pending_invoice_item_invoice: null,
  on_behalf_of: null,
  pause_collection: null,
  payment_settings: { payment_method_options: null, payment_method_types: null, save_default_payment_method: "off" },
  pending_invoice_item_interval: null,
  pending_setup_intent: null,
  pending_update: null,
  schedule: null,
  start_date: m.created,
  billing_schedules: [],
  status: "active",
  test_clock: null,
  transfer_data: null,
  trial_end: null,
  trial_settings: { end_behavior: { missing_payment_method: "create_invoice" } },
  trial_start: null,
  ...rest(r),
});

export function buildLine(r: Rec, m: Made & { invoice: string; currency: string; unitAmount: number | null; product: string | null }): Rec {
  const quantity = num(r.quantity) ?? 1;
  const amount = num(r.amount) ?? (m.unitAmount ?? 0) * quantity;
  const pricing = rec(r.pricing);
  const details = rec(pricing.price_details);
  return {
    id: m.id,
    object: "line_item",
    amount,
    currency: m.currency,
    description: null,
    discount_amounts: [],
    discountable: true,
    discounts: [],
    invoice: m.invoice,
    livemode: false,
    metadata: {},
    parent: null,
    period: { end: m.created, start: m.created },
    pretax_credit_amounts: [],
    quantity,
    quantity_decimal: String(quantity),
    subscription: null,
    subtotal: amount,
    taxes: [],
    ...rest(r, "pricing", "id", "created"),
    pricing: details.price
      ? {
          type: "price_details",
          unit_amount_decimal: m.unitAmount === null ? null : String(m.unitAmount),
          ...pricing,
          price_details: { product: m.product, ...details },
        }
      : null,
  };
}

export const buildInvoice: Builder = (r, m) => ({
  ...base("invoice", m),
  account_country: "US",
  account_name: "Pome Twin",
  account_tax_ids: null,
  amount_due: 0,
  amount_overpaid: 0,
  amount_paid: 0,
  amount_remaining: 0,
  amount_shipping: 0,
  application: null,
  attempt_count: 0,
  attempted: false,
  auto_advance: false,
  automatic_tax: { disabled_reason: null, enabled: false, liability: null, provider: null, status: null },
  automatically_finalizes_at: null,
  billing_reason: "manual",
  collection_method: "charge_automatically",
  confirmation_secret: null,
  currency: "usd",
  custom_fields: null,
  customer: "",
  customer_account: null,
  customer_address: null,
  customer_email: null,
  customer_name: null,
  customer_phone: null,
  customer_shipping: null,
  customer_tax_exempt: "none",
  customer_tax_ids: [],
  default_payment_method: null,
  default_source: null,
  default_tax_rates: [],
  description: null,
  discounts: [],
  due_date: null,
  effective_at: null,
  ending_balance: null,
  footer: null,
  from_invoice: null,
  hosted_invoice_url: null,
  invoice_pdf: null,
  issuer: { type: "self" },
  last_finalization_error: null,
  latest_revision: null,
  metadata: {},
  next_payment_attempt: null,
  number: null,
  on_behalf_of: null,
  parent: null,
  payment_settings: { default_mandate: null, payment_method_options: null, payment_method_types: null },
  period_end: m.created,
  period_start: m.created,
  post_payment_credit_notes_amount: 0,
  pre_payment_credit_notes_amount: 0,
  receipt_number: null,
  rendering: null,
  shipping_cost: null,
  shipping_details: null,
  starting_balance: 0,
  statement_descriptor: null,
  status: "draft",
  status_transitions: { finalized_at: null, marked_uncollectible_at: null, paid_at: null, voided_at: null },
  subtotal: 0,
  subtotal_excluding_tax: 0,
  test_clock: null,
  total: 0,
  total_discount_amounts: [],
  total_excluding_tax: 0,
  total_pretax_credit_amounts: [],
  total_taxes: [],
  webhooks_delivered_at: null,
  ...rest(r, "lines"),
});

/** An invoice's totals from its lines; `amount_paid` follows the status. */
export function invoiceTotals(inv: Rec, lines: Rec[]): Rec {
  const subtotal = lines.reduce((s, l) => s + (num(l.amount) ?? 0), 0);
  const status = str(inv.status);
  const paid = status === "paid" ? subtotal : 0;
  return {
    subtotal,
    subtotal_excluding_tax: subtotal,
    total: subtotal,
    total_excluding_tax: subtotal,
    amount_due: subtotal,
    amount_paid: paid,
    amount_remaining: status === "void" || status === "paid" ? 0 : subtotal - paid,
  };
}

export function buildBalanceTransaction(r: Rec, m: Made): Rec {
  const amount = num(r.amount) ?? 0;
  const fee = num(r.fee) ?? 0;
  const currency = str(r.currency) ?? "usd";
  return {
    ...baseWithoutMode("balance_transaction", m),
    amount,
    available_on: m.created,
    balance_type: "payments",
    currency,
    description: null,
    exchange_rate: null,
    fee,
    fee_details: fee ? [{ amount: fee, application: null, currency, description: "Stripe processing fees", type: "stripe_fee" }] : [],
    net: amount - fee,
    reporting_category: str(r.type) ?? "charge",
    source: null,
    status: "available",
    type: "charge",
    ...rest(r),
  };
}

/** Stripe's test-mode card fee: 2.9% + 30 minor units (none on zero-decimal rounding below 1). */
export const cardFee = (amount: number, currency: string) => Math.round(amount * 0.029) + (ZERO_DECIMAL.has(currency) ? 0 : 30);

const nullEvidence = () =>
  Object.fromEntries(
    [
      "access_activity_log",
      "billing_address",
      "cancellation_policy",
      "cancellation_policy_disclosure",
      "cancellation_rebuttal",
      "customer_communication",
      "customer_email_address",
      "customer_name",
      "customer_purchase_ip",
      "customer_signature",
      "duplicate_charge_documentation",
      "duplicate_charge_explanation",
      "duplicate_charge_id",
      "product_description",
      "receipt",
      "refund_policy",
      "refund_policy_disclosure",
      "refund_refusal_explanation",
      "service_date",
      "service_documentation",
      "shipping_address",
      "shipping_carrier",
      "shipping_date",
      "shipping_documentation",
      "shipping_tracking_number",
      "uncategorized_file",
      "uncategorized_text",
    ].map((k) => [k, null]),
  );

export const buildDispute: Builder = (r, m) => ({
  ...base("dispute", m),
  amount: 0,
  balance_transactions: [],
  charge: "",
  currency: "usd",
  enhanced_eligibility_types: [],
  evidence_details: { due_by: m.created + 7 * 86400, enhanced_eligibility: {}, has_evidence: false, past_due: false, submission_count: 0 },
  is_charge_refundable: false,
  metadata: {},
  payment_intent: null,
  payment_method_details: { card: { brand: "visa", case_type: "chargeback", network_reason_code: "10.4" }, type: "card" },
  reason: "general",
  status: "needs_response",
  ...rest(r, "evidence"),
  evidence: { ...nullEvidence(), enhanced_evidence: {}, ...rec(r.evidence) },
});

export const buildInvoicePayment: Builder = (r, m) => ({
  ...base("invoice_payment", m),
  amount_paid: null,
  amount_requested: 0,
  currency: "usd",
  invoice: "",
  is_default: true,
  status: "open",
  ...rest(r, "payment", "status_transitions"),
  payment: { type: "payment_intent", ...rec(r.payment) },
  status_transitions: { canceled_at: null, paid_at: null, ...rec(r.status_transitions) },
});

export const buildEvent: Builder = (r, m) => ({
  ...base("event", m),
  api_version: API_VERSION,
  data: { object: {} },
  pending_webhooks: 0,
  request: { id: null, idempotency_key: null },
  type: "",
  ...rest(r),
});

export const buildWebhookEndpoint: Builder = (r, m) => ({
  ...base("webhook_endpoint", m),
  api_version: null,
  application: null,
  description: null,
  enabled_events: [],
  metadata: {},
  status: "enabled",
  url: "",
  secret: `whsec_${idBody(`whsec:${m.id}`, 32)}`,
  ...rest(r),
});

export const buildTestClock: Builder = (r, m) => ({
  ...base("test_helpers.test_clock", m),
  deletes_after: m.created + 30 * 86400,
  frozen_time: m.created,
  name: null,
  status: "ready",
  status_details: {},
  ...rest(r),
});
