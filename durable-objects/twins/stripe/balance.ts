// The account balance on Stripe's schedule: a card payment's funds wait in `pending` until their
// balance transaction's `available_on` (the start of the UTC day of the payment plus the payout
// schedule's `delay_days`, 2 on a new US account: docs.stripe.com/payouts#payout-speed), then move
// to `available`; refunds, disputes, payouts and transfers draw on `available` at once. The test
// card 4000 0000 0000 0077 (`pm_card_bypassPending`, docs.stripe.com/testing#available-balance)
// skips `pending`. The running balance is kept beside the transactions so reading it costs one
// row.
//
// "Now" for a payment is the sandbox clock, or its customer's test clock when that is further on:
// a payment made while a test clock advanced matures as that clock moves.
import type { Call } from "./call";
import { delayDays, readPlatformAccount } from "./connect";
import { buildBalanceTransaction } from "./objects";
import { balanceOf } from "./seed";
import { getObject, insertObject, liveOfType, newId, num, rec, saveObject, str, type Rec } from "./store";

const DAY = 86400;

const readMeta = (c: Call, key: string): unknown => {
  const row = c.db.one<{ value: string }>("SELECT value FROM st_meta WHERE key = ?", key);
  return row ? (JSON.parse(row.value) as unknown) : undefined;
};
const writeMeta = (c: Call, key: string, value: unknown) =>
  c.db.run("INSERT OR REPLACE INTO st_meta (key, value) VALUES (?, ?)", key, JSON.stringify(value));

/** The stored balance as of its last change (what `settleBalance` brings up to date). */
function storedBalance(c: Call): Rec {
  const v = readMeta(c, "balance");
  return v === undefined ? balanceOf([]) : rec(v);
}

type Slot = "available" | "pending";

/** Adds `amount` to one currency's slot of the balance, making the currency's slots when new. */
function move(balance: Rec, slot: Slot, currency: string, amount: number): Rec {
  const lists: Record<Slot, Rec[]> = {
    available: Array.isArray(balance.available) ? balance.available.map(rec) : [],
    pending: Array.isArray(balance.pending) ? balance.pending.map(rec) : [],
  };
  for (const s of ["available", "pending"] as const)
    if (!lists[s].some((x) => x.currency === currency)) lists[s].push({ amount: 0, currency, source_types: { card: 0 } });
  const target = lists[slot].find((x) => x.currency === currency) ?? {};
  target.amount = (num(target.amount) ?? 0) + amount;
  target.source_types = { card: (num(rec(target.source_types).card) ?? 0) + amount };
  return { ...balance, available: lists.available, pending: lists.pending };
}

/** The test clock of a payment's customer, read from its charge. */
function clockOfCharge(c: Call, chargeId: unknown): string | null {
  const charge = typeof chargeId === "string" ? getObject(c.db, "charge", chargeId) : undefined;
  const customer = str(charge?.customer);
  return (customer ? str(getObject(c.db, "customer", customer)?.test_clock) : undefined) ?? null;
}

const clockTime = (c: Call, clock: string | null): number =>
  (clock ? num(getObject(c.db, "test_helpers.test_clock", clock)?.frozen_time) : undefined) ?? 0;

/**
 * Moves every pending transaction whose `available_on` has come to `available`. The pending ones
 * are read by the status index, so this costs what is pending, not the whole ledger.
 */
export function settleBalance(c: Call): void {
  const pending = liveOfType(c.db, "balance_transaction", { column: "status", value: "pending" });
  let balance: Rec | undefined;
  for (const txn of pending) {
    const on = num(txn.available_on) ?? 0;
    if (on > c.now && on > clockTime(c, clockOfCharge(c, txn.source))) continue;
    const currency = str(txn.currency) ?? "usd";
    const net = num(txn.net) ?? 0;
    balance = move(move(balance ?? storedBalance(c), "pending", currency, -net), "available", currency, net);
    saveObject(c.db, "balance_transaction", { ...txn, status: "available" });
  }
  if (balance) writeMeta(c, "balance", balance);
}

/** The balance as of now: pending funds whose day has come are available. */
export function readBalance(c: Call): Rec {
  settleBalance(c);
  return storedBalance(c);
}

/** What one currency's available balance holds now. */
export function availableIn(c: Call, currency: string): number {
  const slots = readBalance(c).available;
  const slot = Array.isArray(slots) ? slots.map(rec).find((s) => s.currency === currency) : undefined;
  return num(slot?.amount) ?? 0;
}

export interface TxnInput {
  amount: number;
  fee: number;
  currency: string;
  type: string;
  reporting_category: string;
  source: string;
  description?: string | null;
  /** For a card payment not yet stored: whether its card skips the pending balance. */
  bypassPending?: boolean;
  /** When the funds become available, for a transaction that follows another's schedule (a transfer funded by a charge). */
  availableOn?: number;
}

/** Whether a card payment waits in pending: all do but the bypass-pending test card's. */
function waitsPending(c: Call, t: TxnInput): boolean {
  if (t.type !== "charge" && t.type !== "payment") return false;
  if (t.bypassPending !== undefined) return !t.bypassPending;
  const charge = getObject(c.db, "charge", t.source);
  return str(rec(rec(charge?.payment_method_details).card).last4) !== BYPASS_PENDING_LAST4;
}

/** The last four digits of Stripe's test card that bypasses the pending balance. */
export const BYPASS_PENDING_LAST4 = "0077";

/** Records a balance transaction and moves the balance by its net, pending or at once. */
export function addTxn(c: Call, t: TxnInput): string {
  settleBalance(c);
  const waits = waitsPending(c, t);
  const availableOn = t.availableOn ?? (waits ? Math.floor(c.now / DAY) * DAY + delayDays(readPlatformAccount(c.db)) * DAY : c.now);
  const pending = availableOn > c.now;
  const { bypassPending: _bypass, availableOn: _on, ...fields } = t;
  const txn = buildBalanceTransaction(
    { ...fields, description: t.description ?? null, available_on: availableOn, status: pending ? "pending" : "available" },
    { id: newId(c.db, "balance_transaction"), created: c.now },
  );
  insertObject(c.db, "balance_transaction", txn);
  writeMeta(c, "balance", move(storedBalance(c), pending ? "pending" : "available", t.currency, t.amount - t.fee));
  return String(txn.id);
}
