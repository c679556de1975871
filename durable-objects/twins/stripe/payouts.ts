// Payouts from the platform's available balance to its bank account. A payout draws the balance
// when it is made (a `payout` balance transaction), waits `pending` until its `arrival_date` (the
// next day: test-mode payouts arrive on the schedule of a standard payout, docs.stripe.com/payouts),
// then is `paid`, as the sandbox clock passes that date. Cancelling (only while pending) and a
// failure give the money back with a second transaction, as Stripe does.
import { connectedAccountOf } from "./acting-account";
import { addTxn, availableIn } from "./balance";
import type { Call } from "./call";
import { load } from "./call";
import { fail, invalidRequest, noSuch, stateError } from "./errors";
import { defaultFor, payoutFailureOf } from "./external-accounts";
import { emit } from "./events";
import { balanceInsufficient } from "./transfers";
import { getObject, insertObject, liveOfType, newId, num, saveObject, type Rec } from "./store";

const DAY = 86400;

/** The platform's default bank account, where a payout without `destination` goes. */
export const DEFAULT_BANK_ACCOUNT = "ba_1PomeTwinDefaultBank";

/**
 * What a connected account can pay out: the twin keeps no ledger per connected account, so its
 * balance is what the platform's transfers brought it (less reversals) less its payouts not
 * returned (failed or canceled).
 */
function connectedAvailable(c: Call, account: string, currency: string): number {
  const sum = (rows: Rec[], f: (r: Rec) => number) => rows.filter((r) => r.currency === currency).reduce((s, r) => s + f(r), 0);
  const received = sum(
    liveOfType(c.db, "transfer", { column: "ref", value: account }),
    (t) => (num(t.amount) ?? 0) - (num(t.amount_reversed) ?? 0),
  );
  const paidOut = sum(
    liveOfType(c.db, "payout", { column: "ref", value: account }).filter((p) => p.status !== "failed" && p.status !== "canceled"),
    (p) => num(p.amount) ?? 0,
  );
  return received - paidOut;
}

/** Where a connected account's payout goes: the named external account, else its default for the currency. */
function connectedDestination(c: Call, account: string, currency: string, named: string | undefined): string {
  if (named) {
    const bank = getObject(c.db, "bank_account", named);
    if (!bank || bank.account !== account) return fail(noSuch("external account", named, "destination"));
    return named;
  }
  const bank = defaultFor(c, account, currency);
  // Stripe's wording, as integrators' code and tests quote and match it (found with the code
  // search of NOTES.md); its `param` is not documented, the twin names `currency`.
  if (!bank)
    return fail(invalidRequest(`Sorry, you don't have any external accounts in that currency (${currency}).`, { param: "currency" }));
  return String(bank.id);
}

export interface PayoutInput {
  amount: number;
  currency: string;
  description?: string | null;
  metadata: Record<string, string>;
  method?: string;
  statement_descriptor?: string | null;
  source_type?: string;
  destination?: string;
  /** The connected account the payout is made as (`Stripe-Account`); absent, the platform's. */
  account?: string;
}

/** Makes a payout: refused with `balance_insufficient` when the available balance is short. */
export function makePayout(c: Call, p: PayoutInput): Rec {
  if (p.amount <= 0) fail(invalidRequest("Invalid positive integer", { param: "amount", code: "parameter_invalid_integer" }));
  const destination = p.account ? connectedDestination(c, p.account, p.currency, p.destination) : DEFAULT_BANK_ACCOUNT;
  const available = p.account ? connectedAvailable(c, p.account, p.currency) : availableIn(c, p.currency);
  if (available < p.amount) fail(balanceInsufficient("payout"));
  const id = newId(c.db, "payout");
  // A connected account's payout draws on no ledger the twin keeps (see connectedAvailable).
  const txn = p.account
    ? null
    : addTxn(c, { amount: -p.amount, fee: 0, currency: p.currency, type: "payout", reporting_category: "payout", source: id });
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
    destination,
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
    ...(p.account ? { on_account: p.account } : {}),
  };
  insertObject(c.db, "payout", payout);
  emit(c, "payout.created", "payout", payout);
  return payout;
}

/**
 * A payout of the account the call acts as: a connected account's payouts are seen only under
 * its `Stripe-Account`, the platform's only without one (docs.stripe.com/connect/authentication).
 */
export function loadPayout(c: Call, id: string): Rec {
  const payout = load(c, "payout", id);
  const account = connectedAccountOf(c);
  return (payout.on_account ?? undefined) === account?.id ? payout : fail(noSuch("payout", id));
}

/** The list filter for the payouts of the account the call acts as. */
export const payoutsOfActingAccount = (c: Call) => ({ column: "ref" as const, value: String(connectedAccountOf(c)?.id ?? "platform") });

/** Marks paid every pending payout whose arrival date has come (read by the status index). */
export function settlePayouts(c: Call): void {
  for (const payout of liveOfType(c.db, "payout", { column: "status", value: "pending" })) {
    const arrival = num(payout.arrival_date) ?? 0;
    if (arrival > c.now) continue;
    const at = { ...c, now: Math.max(arrival, num(payout.created) ?? 0) };
    const bank = getObject(c.db, "bank_account", String(payout.destination));
    const failure = payoutFailureOf(bank);
    if (failure && bank) {
      failPayout(at, payout, bank, failure);
      continue;
    }
    const paid = { ...payout, status: "paid", trace_id: { status: "supported", value: `TRACE${String(payout.id).slice(3, 15)}` } };
    saveObject(c.db, "payout", paid);
    emit(at, "payout.paid", "payout", paid, { status: "pending" });
  }
}

/**
 * A payout the bank returns (a failing test account number): `failed` with Stripe's failure code,
 * its amount back in the balance it came from, and the bank account `errored` until it is
 * updated (docs.stripe.com/api/external_account_bank_accounts/object#account_bank_account_object-status).
 */
function failPayout(c: Call, payout: Rec, bank: Rec, failure: { code: string; message: string }): void {
  const txn = payout.on_account
    ? null
    : addTxn(c, {
        amount: num(payout.amount) ?? 0,
        fee: 0,
        currency: String(payout.currency),
        type: "payout_failure",
        reporting_category: "payout_reversal",
        source: String(payout.id),
      });
  const failed = {
    ...payout,
    status: "failed",
    failure_code: failure.code,
    failure_message: failure.message,
    failure_balance_transaction: txn,
  };
  saveObject(c.db, "payout", failed);
  emit(c, "payout.failed", "payout", failed, { status: "pending", failure_code: null, failure_message: null });
  saveObject(c.db, "bank_account", { ...bank, status: "errored" });
}

/** Cancels a pending payout: its amount returns to the available balance. */
export function cancelPayout(c: Call, id: string): Rec {
  const before = loadPayout(c, id);
  if (before.status !== "pending")
    fail(
      stateError(`Payouts can only be canceled while they are pending. This payout is ${String(before.status)}.`, "payout_not_cancelable"),
    );
  const txn = before.on_account
    ? null
    : addTxn(c, {
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
  const before = loadPayout(c, id);
  if (before.status !== "paid" || before.reversed_by)
    fail(stateError("Only paid payouts that have not been reversed can be reversed.", "payout_not_reversible"));
  const reversalId = newId(c.db, "payout");
  const amount = num(before.amount) ?? 0;
  const txn = before.on_account
    ? null
    : addTxn(c, {
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
