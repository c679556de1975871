// A customer's credit balance: every change is a customer balance transaction (stripe-node 23's
// CustomerBalanceTransaction) that records the balance it ended at, and moves the customer's
// `balance` with it. A negative balance is credit the next invoices use; a positive one is owed.
import type { Call } from "./call";
import { emit } from "./events";
import { insertObject, newId, num, saveObject, str, type Rec } from "./store";

export function buildCustomerBalanceTransaction(r: Rec, m: { id: string; created: number }): Rec {
  return {
    id: m.id,
    object: "customer_balance_transaction",
    amount: 0,
    checkout_session: null,
    created: m.created,
    credit_note: null,
    currency: "usd",
    customer: "",
    customer_account: null,
    description: null,
    ending_balance: 0,
    invoice: null,
    livemode: false,
    metadata: {},
    type: "adjustment",
    ...r,
  };
}

/**
 * Moves a customer's balance by `amount` and records it. The customer takes the transaction's
 * currency when it has none yet (Stripe sets it with the first balance or invoice).
 */
export function recordBalanceChange(c: Call, customer: Rec, amount: number, fields: Rec): Rec {
  const ending = (num(customer.balance) ?? 0) + amount;
  const txn = buildCustomerBalanceTransaction(
    { ...fields, amount, customer: customer.id, ending_balance: ending, currency: str(fields.currency) ?? str(customer.currency) ?? "usd" },
    { id: newId(c.db, "customer_balance_transaction"), created: c.now },
  );
  insertObject(c.db, "customer_balance_transaction", txn);
  const after = { ...customer, balance: ending, currency: customer.currency ?? txn.currency };
  saveObject(c.db, "customer", after);
  emit(c, "customer.updated", "customer", after, { balance: customer.balance ?? 0 });
  return txn;
}
