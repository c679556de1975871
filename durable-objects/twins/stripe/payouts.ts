// Payouts from the platform's available balance to its bank account. A payout draws the balance
// when it is made (a `payout` balance transaction), waits `pending` until its `arrival_date` (the
// next day: test-mode payouts arrive on the schedule of a standard payout, docs.stripe.com/payouts),
// then is `paid`, as the sandbox clock passes that date. Cancelling (only while pending) and a
// failure give the money back with a second transaction, as Stripe does.
import { addTxn, availableIn } from "./balance";
import type { Call } from "./call";
import { load } from "./call";
import { fail, invalidRequest, stateError } from "./errors";
import { emit } from "./events";
import { balanceInsufficient } from "./transfers";
import { insertObject, liveOfType, newId, num, saveObject, type Rec } from "./store";

const DAY = 86400;

/** The platform's default bank account, where a payout without `destination` goes. */
export const DEFAULT_BANK_ACCOUNT = "ba_1PomeTwinDefaultBank";

export interface PayoutInput {
  amount: number;
  currency: string;
  description?: string | null;
  metadata: Record<string, string>;
  method?: string;
  statement_descriptor?: string | null;
  source_type?: string;
}

/** Makes a payout: refused with `balance_insufficient` when the available balance is short. */
export function makePayout(c: Call, p: PayoutInput): Rec {
  if (p.amount <= 0) fail(invalidRequest("Invalid positive integer", { param: "amount", code: "parameter_invalid_integer" }));
  if (availableIn(c, p.currency) < p.amount) fail(balanceInsufficient("payout"));
  const id = newId(c.db, "payout");
  const txn = addTxn(c, { amount: -p.amount, fee: 0, currency: p.currency, type: "payout", reporting_category: "payout", source: id });
  const instant = p.method === "instant";
  const payout: Rec = {
    id,
    object: "payout",
    amount: p.amount,
    application_fee: null,
    application_fee_amount: null,
    arrival_date: instant ? c.now : Math.floor(c.now / DAY) * DAY + DAY,
    automatic: false,
    balance_transaction: txn,
    created: c.now,
    currency: p.currency,
    description: p.description ?? null,
    destination: DEFAULT_BANK_ACCOUNT,
    failure_balance_transaction: null,
    failure_code: null,
    failure_message: null,
    livemode: false,
    metadata: p.metadata,
    method: instant ? "instant" : "standard",
    original_payout: null,
    payout_method: null,
    reconciliation_status: "not_applicable",
    reversed_by: null,
    source_type: p.source_type ?? "card",
    statement_descriptor: p.statement_descriptor ?? null,
    status: "pending",
    trace_id: { status: "pending", value: null },
    type: "bank_account",
  };
  insertObject(c.db, "payout", payout);
  emit(c, "payout.created", "payout", payout);
  return payout;
}

/** Marks paid every pending payout whose arrival date has come (read by the status index). */
export function settlePayouts(c: Call): void {
  for (const payout of liveOfType(c.db, "payout", { column: "status", value: "pending" })) {
    const arrival = num(payout.arrival_date) ?? 0;
    if (arrival > c.now) continue;
    const paid = { ...payout, status: "paid", trace_id: { status: "supported", value: `TRACE${String(payout.id).slice(3, 15)}` } };
    saveObject(c.db, "payout", paid);
    emit({ ...c, now: Math.max(arrival, num(payout.created) ?? 0) }, "payout.paid", "payout", paid, { status: "pending" });
  }
}

/** Cancels a pending payout: its amount returns to the available balance. */
export function cancelPayout(c: Call, id: string): Rec {
  const before = load(c, "payout", id);
  if (before.status !== "pending")
    fail(
      stateError(`Payouts can only be canceled while they are pending. This payout is ${String(before.status)}.`, "payout_not_cancelable"),
    );
  const txn = addTxn(c, {
    amount: num(before.amount) ?? 0,
    fee: 0,
    currency: String(before.currency),
    type: "payout_cancel",
    reporting_category: "payout_reversal",
    source: id,
  });
  const after = { ...before, status: "canceled", failure_balance_transaction: txn };
  saveObject(c.db, "payout", after);
  emit(c, "payout.canceled", "payout", after, { status: before.status });
  return after;
}

/**
 * Reverses a paid payout (Stripe allows it for paid payouts to US and Canadian bank accounts):
 * a new payout of the opposite sign, which gives the amount back to the balance.
 */
export function reversePayout(c: Call, id: string, metadata: Record<string, string>): Rec {
  const before = load(c, "payout", id);
  if (before.status !== "paid" || before.reversed_by)
    fail(stateError("Only paid payouts that have not been reversed can be reversed.", "payout_not_reversible"));
  const reversalId = newId(c.db, "payout");
  const amount = num(before.amount) ?? 0;
  const txn = addTxn(c, {
    amount,
    fee: 0,
    currency: String(before.currency),
    type: "payout",
    reporting_category: "payout_reversal",
    source: reversalId,
  });
  const reversal: Rec = {
    ...before,
    id: reversalId,
    balance_transaction: txn,
    created: c.now,
    arrival_date: Math.floor(c.now / DAY) * DAY + DAY,
    metadata,
    original_payout: id,
    reversed_by: null,
    status: "pending",
  };
  insertObject(c.db, "payout", reversal);
  emit(c, "payout.created", "payout", reversal);
  const after = { ...before, reversed_by: reversalId };
  saveObject(c.db, "payout", after);
  emit(c, "payout.updated", "payout", after, { reversed_by: null });
  return reversal;
}
