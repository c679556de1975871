// A customer's balance transactions: adjust the balance (credit is negative, a debit positive),
// read and list them, update their description and metadata. Invoices apply the balance when
// they are finalized, and credit notes credit it (billing.ts, credit-notes.ts).
import type { Route } from "../../types";
import { filterOf, listResponse, load, show, type Call } from "../call";
import { arg, expand, listQuery, metadata, route } from "../declare";
import { fail, invalidRequest, noSuch } from "../errors";
import { recordBalanceChange } from "../customer-balance";
import { getObject, saveObject, strMap, type Rec } from "../store";
import { z } from "zod";

const customerParam = { customer: z.string().describe("The customer's id, cus_…") };
const txnParams = { ...customerParam, transaction: z.string().describe("The transaction's id, cbtxn_…") };

/** One of this customer's balance transactions, else Stripe's 404. */
function loadTxn(c: Call, customer: string, id: string): Rec {
  load(c, "customer", customer, "customer");
  const txn = getObject(c.db, "customer_balance_transaction", id);
  if (!txn || txn.customer !== customer) return fail(noSuch("customer_balance_transaction", id));
  return txn;
}

export const customerBalanceRoutes: readonly Route[] = [
  route({
    method: "POST",
    pattern: "/v1/customers/:customer/balance_transactions",
    operation: "customers.createBalanceTransaction",
    summary: "Adjust a customer's balance",
    params: customerParam,
    body: {
      amount: arg.reqInt("Amount in the smallest unit: negative credits the customer, positive is owed by them"),
      currency: arg.id("Three-letter ISO currency code; must be the customer's currency once it has one"),
      description: arg.text("Description"),
      metadata,
      expand,
    },
    tool: {
      name: "create_customer_balance_transaction",
      description: "Credit (negative amount) or debit (positive) a customer's balance; their next invoices apply it.",
    },
    handler(c, { params, body }) {
      const customer = load(c, "customer", params.customer, "customer");
      const currency = c.p.reqCurrency("currency");
      if (customer.currency && customer.currency !== currency)
        return invalidRequest(
          `The currency ${currency} does not match the customer's currency ${String(customer.currency)}: a customer's balance is kept in one currency.`,
          { param: "currency" },
        );
      const txn = recordBalanceChange(c, customer, body.amount, {
        type: "adjustment",
        currency,
        description: body.description ?? null,
        metadata: c.p.metadata(),
      });
      return show(c, "customer_balance_transaction", txn);
    },
  }),
  route({
    method: "GET",
    pattern: "/v1/customers/:customer/balance_transactions",
    operation: "customers.listBalanceTransactions",
    summary: "List a customer's balance transactions",
    params: customerParam,
    query: { ...listQuery, invoice: arg.text("Only those of this invoice") },
    tool: { name: "list_customer_balance_transactions", description: "List a customer's balance transactions, newest first." },
    handler(c, { params }) {
      const customer = load(c, "customer", params.customer, "customer");
      return listResponse(c, "customer_balance_transaction", `/v1/customers/${String(customer.id)}/balance_transactions`, [
        { column: "customer", value: String(customer.id) },
        ...filterOf(c, "invoice", "ref"),
      ]);
    },
  }),
  route({
    method: "GET",
    pattern: "/v1/customers/:customer/balance_transactions/:transaction",
    operation: "customers.retrieveBalanceTransaction",
    summary: "Retrieve a customer balance transaction",
    params: txnParams,
    query: { expand },
    tool: { name: "get_customer_balance_transaction", description: "Retrieve one of a customer's balance transactions." },
    handler: (c, { params }) => show(c, "customer_balance_transaction", loadTxn(c, params.customer, params.transaction)),
  }),
  route({
    method: "POST",
    pattern: "/v1/customers/:customer/balance_transactions/:transaction",
    operation: "customers.updateBalanceTransaction",
    summary: "Update a customer balance transaction",
    params: txnParams,
    body: { description: arg.unsettable("Description"), metadata, expand },
    tool: { name: "update_customer_balance_transaction", description: "Update a balance transaction's description or metadata." },
    handler(c, { params }) {
      const before = loadTxn(c, params.customer, params.transaction);
      const description = c.p.nullable("description");
      const after = { ...before, metadata: c.p.metadata(strMap(before.metadata)), ...(description !== undefined ? { description } : {}) };
      saveObject(c.db, "customer_balance_transaction", after);
      return show(c, "customer_balance_transaction", after);
    },
  }),
];
