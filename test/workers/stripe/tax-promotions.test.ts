// Tax rates and promotion codes through stripe-node: rates applied to invoice lines and as a
// subscription's default_tax_rates; promotion codes applied as discounts[][promotion_code].
import type Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { stripeErrorOf, stripeSandbox } from "./fixtures";

describe("tax rates", () => {
  it("are created, listed by active and archived, and keep their percentage", async () => {
    const { stripe } = await stripeSandbox();
    const vat = await stripe.taxRates.create({ display_name: "VAT", percentage: 20, inclusive: false, country: "GB", tax_type: "vat" });
    expect(vat).toMatchObject({ object: "tax_rate", percentage: 20, inclusive: false, active: true, display_name: "VAT" });
    const gst = await stripe.taxRates.create({ display_name: "GST", percentage: 7.5, inclusive: true });
    expect(gst.percentage).toBe(7.5);
    const archived = await stripe.taxRates.update(gst.id, { active: false, description: "Old rate" });
    expect(archived).toMatchObject({ active: false, description: "Old rate", percentage: 7.5 });
    expect((await stripe.taxRates.list({ active: true })).data.map((r) => r.id)).toEqual([vat.id]);
    expect((await stripe.taxRates.list({ active: false })).data.map((r) => r.id)).toEqual([gst.id]);
    const missing = await stripeErrorOf(stripe.taxRates.create({ display_name: "X", inclusive: false } as Stripe.TaxRateCreateParams));
    expect(missing).toMatchObject({ statusCode: 400, param: "percentage" });
    const ghost = await stripeErrorOf(stripe.taxRates.retrieve("txr_ghost"));
    expect(ghost.statusCode).toBe(404);
  });

  it("add exclusive tax to an invoice's lines and its total", async () => {
    const { stripe } = await stripeSandbox();
    const vat = await stripe.taxRates.create({ display_name: "VAT", percentage: 20, inclusive: false });
    const draft = await stripe.invoices.create({ customer: "cus_carol", default_tax_rates: [vat.id] });
    const inv = await stripe.invoices.addLines(draft.id, { lines: [{ amount: 10000, description: "Design work" }] });
    expect(inv).toMatchObject({ subtotal: 10000, total_excluding_tax: 10000, total: 12000, amount_due: 12000 });
    expect(inv.total_taxes?.[0]).toMatchObject({ amount: 2000, taxable_amount: 10000, tax_rate_details: { tax_rate: vat.id } });
    expect(inv.lines.data[0].taxes?.[0]).toMatchObject({ amount: 2000, tax_behavior: "exclusive" });
    const paid = await stripe.invoices.pay(inv.id);
    expect(paid).toMatchObject({ status: "paid", amount_paid: 12000 });
  });

  it("apply to a subscription's invoices as its default_tax_rates", async () => {
    const { stripe } = await stripeSandbox();
    const salesTax = await stripe.taxRates.create({ display_name: "Sales tax", percentage: 10, inclusive: false, state: "CA" });
    const sub = await stripe.subscriptions.create({
      customer: "cus_bob",
      items: [{ price: "price_pro_monthly" }],
      default_tax_rates: [salesTax.id],
      expand: ["latest_invoice"],
    });
    expect(sub.default_tax_rates?.map((r) => r.id)).toEqual([salesTax.id]);
    expect(sub.latest_invoice as Stripe.Invoice).toMatchObject({ subtotal: 2000, total: 2200, amount_paid: 2200 });
  });
});

describe("promotion codes", () => {
  it("apply their coupon to a subscription and count redemptions up to their limit", async () => {
    const { stripe } = await stripeSandbox();
    const coupon = await stripe.coupons.create({ percent_off: 25, duration: "once" });
    const promo = await stripe.promotionCodes.create({
      promotion: { type: "coupon", coupon: coupon.id },
      code: "SPRING25",
      max_redemptions: 1,
    });
    expect(promo).toMatchObject({
      object: "promotion_code",
      code: "SPRING25",
      active: true,
      promotion: { coupon: coupon.id, type: "coupon" },
    });
    expect((await stripe.promotionCodes.list({ code: "SPRING25" })).data.map((p) => p.id)).toEqual([promo.id]);
    const sub = await stripe.subscriptions.create({
      customer: "cus_bob",
      items: [{ price: "price_pro_monthly" }],
      discounts: [{ promotion_code: promo.id }],
      expand: ["latest_invoice"],
    });
    expect(sub.latest_invoice as Stripe.Invoice).toMatchObject({ subtotal: 2000, total: 1500 });
    expect(sub.discounts[0]).toMatchObject({ promotion_code: promo.id, source: { coupon: coupon.id } });
    expect((await stripe.promotionCodes.retrieve(promo.id)).times_redeemed).toBe(1);
    const usedUp = await stripeErrorOf(
      stripe.subscriptions.create({
        customer: "cus_carol",
        items: [{ price: "price_pro_monthly" }],
        discounts: [{ promotion_code: promo.id }],
      }),
    );
    expect(usedUp).toMatchObject({ statusCode: 400, param: "discounts[0][promotion_code]" });
  });

  it("apply to an invoice, refuse a duplicate active code, and stop when deactivated", async () => {
    const { stripe } = await stripeSandbox();
    const coupon = await stripe.coupons.create({ amount_off: 500, currency: "usd", duration: "once" });
    const promo = await stripe.promotionCodes.create({ promotion: { type: "coupon", coupon: coupon.id }, code: "FIVEOFF" });
    const dup = await stripeErrorOf(stripe.promotionCodes.create({ promotion: { type: "coupon", coupon: coupon.id }, code: "FIVEOFF" }));
    expect(dup).toMatchObject({ statusCode: 400, param: "code" });
    const draft = await stripe.invoices.create({ customer: "cus_carol", discounts: [{ promotion_code: promo.id }] });
    const inv = await stripe.invoices.addLines(draft.id, { lines: [{ amount: 3000, description: "Item" }] });
    expect(inv).toMatchObject({ subtotal: 3000, total: 2500 });
    expect(inv.total_discount_amounts?.[0]?.amount).toBe(500);
    const off = await stripe.promotionCodes.update(promo.id, { active: false });
    expect(off.active).toBe(false);
    const refused = await stripeErrorOf(stripe.invoices.create({ customer: "cus_carol", discounts: [{ promotion_code: promo.id }] }));
    expect(refused).toMatchObject({ statusCode: 400, param: "discounts[0][promotion_code]" });
  });
});
