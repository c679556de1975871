// Payouts: create (drawing the available balance), list, retrieve, update, cancel and reverse.
// Each call first marks paid the payouts whose arrival date the sandbox clock has passed.
import type { Route } from "../../types";
import { filterOf, listResponse, show } from "../call";
import { arg, expand, idParam, listQuery, metadata, route } from "../declare";
import { changed, emit } from "../events";
import { connectedAccountOf } from "../acting-account";
import { cancelPayout, loadPayout, makePayout, payoutsOfActingAccount, reversePayout, settlePayouts } from "../payouts";
import { saveObject, str, strMap } from "../store";

export const payoutRoutes: readonly Route[] = [
  route({
    method: "POST",
    pattern: "/v1/payouts",
    operation: "payouts.create",
    summary: "Create a payout to the platform's bank account",
    body: {
      amount: arg.reqInt("Amount to pay out, in the currency's smallest unit; at most the available balance"),
      currency: arg.id('Three-letter ISO currency code, lower case, e.g. "usd"'),
      description: arg.text("An arbitrary description"),
      destination: arg.text("The bank account to pay out to (default: the account's default bank account)"),
      metadata,
      method: arg.oneOf(["standard", "instant"], "standard (arrives next day) or instant"),
      source_type: arg.oneOf(["bank_account", "card", "fpx"], "The balance the payout draws on"),
      statement_descriptor: arg.text("Text on the bank statement"),
      expand,
    },
    tool: { name: "create_payout", description: "Pay out part of the available balance to the platform's bank account." },
    handler(c, { body }) {
      settlePayouts(c);
      const payout = makePayout(c, {
        amount: body.amount,
        currency: c.p.reqCurrency("currency"),
        description: body.description ?? null,
        metadata: c.p.metadata(),
        method: body.method,
        statement_descriptor: body.statement_descriptor ?? null,
        source_type: body.source_type,
        destination: body.destination,
        account: str(connectedAccountOf(c)?.id),
      });
      return show(c, "payout", payout);
    },
  }),
  route({
    method: "GET",
    pattern: "/v1/payouts",
    operation: "payouts.list",
    summary: "List payouts",
    query: {
      ...listQuery,
      status: arg.oneOf(["pending", "paid", "failed", "canceled"], "Only payouts in this status"),
      destination: arg.text("Only payouts to this bank account"),
      arrival_date: arg.anyHash("Only payouts arriving in this range"),
    },
    tool: { name: "list_payouts", description: "List payouts, newest first, optionally in one status." },
    handler(c) {
      settlePayouts(c);
      return listResponse(c, "payout", "/v1/payouts", [
        payoutsOfActingAccount(c),
        ...filterOf(c, "status", "status"),
        ...filterOf(c, "destination", "ref2"),
      ]);
    },
  }),
  route({
    method: "GET",
    pattern: "/v1/payouts/:id",
    operation: "payouts.retrieve",
    summary: "Retrieve a payout",
    params: idParam("The payout's id, po_…"),
    query: { expand },
    tool: { name: "get_payout", description: "Retrieve a payout: its status and arrival date." },
    handler(c, { params }) {
      settlePayouts(c);
      return show(c, "payout", loadPayout(c, params.id));
    },
  }),
  route({
    method: "POST",
    pattern: "/v1/payouts/:id",
    operation: "payouts.update",
    summary: "Update a payout's metadata",
    params: idParam("The payout's id"),
    body: { metadata, expand },
    tool: { name: "update_payout", description: "Set metadata on a payout." },
    handler(c, { params }) {
      settlePayouts(c);
      const before = loadPayout(c, params.id);
      const after = { ...before, metadata: c.p.metadata(strMap(before.metadata)) };
      saveObject(c.db, "payout", after);
      emit(c, "payout.updated", "payout", after, changed(before, after));
      return show(c, "payout", after);
    },
  }),
  route({
    method: "POST",
    pattern: "/v1/payouts/:id/cancel",
    operation: "payouts.cancel",
    summary: "Cancel a pending payout",
    params: idParam("The payout's id"),
    body: { expand },
    tool: {
      name: "cancel_payout",
      description: "Cancel a payout that is still pending; its amount returns to the balance.",
      destructive: true,
    },
    handler(c, { params }) {
      settlePayouts(c);
      return show(c, "payout", cancelPayout(c, params.id));
    },
  }),
  route({
    method: "POST",
    pattern: "/v1/payouts/:id/reverse",
    operation: "payouts.reverse",
    summary: "Reverse a paid payout",
    params: idParam("The payout's id"),
    body: { metadata, expand },
    tool: { name: "reverse_payout", description: "Reverse a paid payout: a new payout that returns the amount to the balance." },
    handler(c, { params }) {
      settlePayouts(c);
      return show(c, "payout", reversePayout(c, params.id, c.p.metadata()));
    },
  }),
];
