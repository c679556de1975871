// Invoice items as plain functions: the InvoiceItem object (stripe-node 23's type), its amount
// worked out the way Stripe reads `amount`, `quantity`, `unit_amount_decimal` and a price, the
// line it becomes on an invoice, and the pending items (no invoice yet) an invoice picks up.
import type { Call } from "./call";
import { fail, invalidRequest } from "./errors";
import { buildLine, type Made } from "./objects";
import { pendingTaxes } from "./tax";
import { liveOfType, num, rec, saveObject, str, type Rec } from "./store";

export function buildInvoiceItem(r: Rec, m: Made): Rec {
  return {
    id: m.id,
    object: "invoiceitem",
    amount: 0,
    currency: "usd",
    customer: "",
    customer_account: null,
    date: m.created,
    description: null,
    discountable: true,
    discounts: [],
    invoice: null,
    livemode: false,
    metadata: {},
    net_amount: num(r.amount) ?? 0,
    parent: null,
    period: { end: m.created, start: m.created },
    pricing: null,
    proration: false,
    proration_details: { credited_items: null, discount_amounts: [] },
    quantity: 1,
    quantity_decimal: "1",
    tax_rates: [],
    test_clock: null,
    ...r,
  };
}

/** What an item costs: its amount, its quantity and the unit amount behind both. */
export interface ItemAmount {
  amount: number;
  quantity: number;
  unitDecimal: string | null;
}

/**
 * `amount` is the whole item's amount and cannot come with a quantity (Stripe: "You may only
 * specify one of these parameters: amount, quantity.", stripe/stripe-php#777); a unit amount
 * (`unit_amount_decimal`, the older `unit_amount`, or a price's) times the quantity otherwise.
 * A unit amount and `amount` together are refused the same way (stripe/stripe-dotnet#1254).
 */
export function itemAmount(
  given: { amount?: number; quantity?: number; unitAmount?: number; unitDecimal?: string },
  priceUnit: number | undefined,
): ItemAmount {
  if (given.amount !== undefined && given.quantity !== undefined)
    fail(invalidRequest("You may only specify one of these parameters: amount, quantity.", { param: "amount" }));
  if (given.amount !== undefined && (given.unitAmount !== undefined || given.unitDecimal !== undefined))
    fail(
      invalidRequest(
        `You may only specify one of these parameters: amount, ${given.unitAmount !== undefined ? "unit_amount" : "unit_amount_decimal"}.`,
        { param: "amount" },
      ),
    );
  if (given.amount !== undefined) return { amount: given.amount, quantity: 1, unitDecimal: String(given.amount) };
  const quantity = given.quantity ?? 1;
  if (quantity < 0) fail(invalidRequest("This value must be greater than or equal to 0.", { param: "quantity" }));
  const unit = given.unitDecimal !== undefined ? decimalUnit(given.unitDecimal) : (given.unitAmount ?? priceUnit);
  if (unit === undefined) fail(invalidRequest("Missing required param: amount.", { code: "parameter_missing", param: "amount" }));
  const exact = (unit ?? 0) * quantity;
  return { amount: Math.round(exact), quantity, unitDecimal: given.unitDecimal ?? String(unit) };
}

/** A decimal unit amount (`0.5`, `1250.25`): at most 12 decimal places, as Stripe allows. */
function decimalUnit(v: string): number {
  if (!/^-?\d+(\.\d{1,12})?$/.test(v))
    fail(invalidRequest(`Invalid decimal: ${v}`, { code: "parameter_invalid_decimal", param: "unit_amount_decimal" }));
  return Number(v);
}

/** The line an invoice item is on an invoice: it names the item as its parent. */
export function lineOfItem(item: Rec, invoice: string, lineId: string): Rec {
  const pricing = rec(item.pricing);
  const details = rec(pricing.price_details);
  const subscription = str(rec(rec(item.parent).subscription_details).subscription) ?? null;
  return buildLine(
    {
      amount: item.amount,
      quantity: item.quantity,
      description: item.description,
      discountable: item.discountable,
      metadata: item.metadata,
      period: item.period,
      subscription,
      taxes: pendingTaxes((Array.isArray(item.tax_rates) ? item.tax_rates : []).map((t) => str(rec(t).id) ?? String(t))),
      parent: {
        invoice_item_details: {
          invoice_item: item.id,
          proration: item.proration === true,
          proration_details: { credited_items: null },
          subscription,
        },
        subscription_item_details: null,
        type: "invoice_item_details",
      },
      ...(details.price ? { pricing: { price_details: { price: details.price } } } : {}),
    },
    {
      id: lineId,
      created: num(item.date) ?? 0,
      invoice,
      currency: String(item.currency),
      unitAmount:
        pricing.unit_amount_decimal === null || pricing.unit_amount_decimal === undefined ? null : Number(pricing.unit_amount_decimal),
      product: str(details.product) ?? null,
    },
  );
}

/** The line id an item's line carries on its invoice: stable, so updates find it again. */
export const lineIdOf = (item: Rec): string => `il_${String(item.id).slice(3)}`;

/** Whether a line is the one standing for this invoice item. */
export const isLineOf = (line: Rec, itemId: string): boolean => rec(rec(line.parent).invoice_item_details).invoice_item === itemId;

/**
 * A customer's pending items (on no invoice yet), oldest first; for a subscription's invoice the
 * items of that subscription and those of none.
 */
export function pendingItems(c: Call, customer: string, subscription?: string): Rec[] {
  return liveOfType(c.db, "invoiceitem", { column: "customer", value: customer }).filter((it) => {
    if (it.invoice !== null && it.invoice !== undefined) return false;
    const sub = str(rec(rec(it.parent).subscription_details).subscription);
    return sub === undefined || sub === subscription;
  });
}

/** Moves pending items onto an invoice: each item names the invoice, each becomes a line. */
export function claimItems(c: Call, items: Rec[], invoice: string): Rec[] {
  return items.map((it) => {
    saveObject(c.db, "invoiceitem", { ...it, invoice });
    return lineOfItem(it, invoice, lineIdOf(it));
  });
}
