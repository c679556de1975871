// A customer's credit balance through stripe-node: adjustments are balance transactions that move
// `balance`, and the next invoice applies a credit as Stripe does (starting_balance, ending_balance).
import type Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { stripeErrorOf, stripeSandbox } from "./fixtures";

describe("balance transactions move the customer's balance", () => {
  it("records each adjustment with the balance it ended at, listable and editable", async () => {
    const { stripe } = await stripeSandbox();
    const credit = await stripe.customers.createBalanceTransaction("cus_bob", {
      amount: -1500,
      currency: "usd",
      description: "Goodwill credit",
    });
    expect(credit).toMatchObject({
      object: "customer_balance_transaction",
      amount: -1500,
      ending_balance: -1500,
      type: "adjustment",
      customer: "cus_bob",
    });
    const debit = await stripe.customers.createBalanceTransaction("cus_bob", { amount: 500, currency: "usd" });
    expect(debit.ending_balance).toBe(-1000);
    expect(((await stripe.customers.retrieve("cus_bob")) as Stripe.Customer).balance).toBe(-1000);
    const listed = await stripe.customers.listBalanceTransactions("cus_bob");
    expect(listed.data.map((t) => t.id)).toEqual([debit.id, credit.id]);
    const updated = await stripe.customers.updateBalanceTransaction("cus_bob", credit.id, { metadata: { ticket: "T-9" } });
    expect(updated.metadata).toEqual({ ticket: "T-9" });
    const elsewhere = await stripeErrorOf(stripe.customers.retrieveBalanceTransaction("cus_alice", credit.id));
    expect(elsewhere.statusCode).toBe(404);
  });

  it("refuses another currency once the customer has one, and a missing amount", async () => {
    const { stripe } = await stripeSandbox();
    await stripe.customers.createBalanceTransaction("cus_bob", { amount: -100, currency: "usd" });
    const eur = await stripeErrorOf(stripe.customers.createBalanceTransaction("cus_bob", { amount: -100, currency: "eur" }));
    expect(eur).toMatchObject({ statusCode: 400, param: "currency" });
    const missing = await stripeErrorOf(
      stripe.customers.createBalanceTransaction("cus_bob", { currency: "usd" } as Stripe.CustomerCreateBalanceTransactionParams),
    );
    expect(missing).toMatchObject({ statusCode: 400, param: "amount" });
  });
});

describe("invoices apply a credit balance when finalized", () => {
  it("uses the credit up to the invoice's total and keeps the rest", async () => {
    const { stripe } = await stripeSandbox();
    await stripe.customers.createBalanceTransaction("cus_bob", { amount: -3000, currency: "usd" });
    const draft = await stripe.invoices.create({ customer: "cus_bob" });
    await stripe.invoices.addLines(draft.id, { lines: [{ amount: 2000, description: "Month" }] });
    const open = await stripe.invoices.finalizeInvoice(draft.id);
    expect(open).toMatchObject({ total: 2000, starting_balance: -3000, ending_balance: -1000, amount_due: 0 });
    expect(((await stripe.customers.retrieve("cus_bob")) as Stripe.Customer).balance).toBe(-1000);
    const applied = await stripe.customers.listBalanceTransactions("cus_bob", { limit: 1 });
    expect(applied.data[0]).toMatchObject({ type: "applied_to_invoice", amount: 2000, invoice: open.id, ending_balance: -1000 });

    const sub = await stripe.subscriptions.create({
      customer: "cus_bob",
      items: [{ price: "price_pro_monthly" }],
      expand: ["latest_invoice"],
    });
    const first = sub.latest_invoice as Stripe.Invoice;
    expect(first).toMatchObject({ total: 2000, starting_balance: -1000, ending_balance: 0, amount_due: 1000, amount_paid: 1000 });
  });
});
