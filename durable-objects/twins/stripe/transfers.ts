// Moving money to connected accounts: transfers (drawn on the platform's available balance, or
// tied to the charge that funds them), their reversals, and the application fees a destination
// charge leaves the platform (docs.stripe.com/connect/separate-charges-and-transfers,
// docs.stripe.com/connect/destination-charges).
import { addTxn, availableIn } from "./balance";
import type { Call } from "./call";
import { load } from "./call";
import { fail, invalidRequest, stripeError } from "./errors";
import { emit } from "./events";
import { getObject, insertObject, newId, num, rec, saveObject, str, type Rec } from "./store";

/**
 * Stripe's refusal of a transfer or payout the available balance cannot cover (code
 * `balance_insufficient`; its message points at the bypass-pending test card).
 */
export const balanceInsufficient = (what: "transfer" | "payout") =>
  stripeError(
    400,
    "invalid_request_error",
    `You have insufficient available funds in your Stripe account. Try adding funds directly to your available balance by creating Charges using the 4000000000000077 test card. See: https://stripe.com/docs/testing#available-balance`,
    { code: "balance_insufficient", ...(what === "payout" ? { param: "amount" } : {}) },
  );

export interface TransferInput {
  amount: number;
  currency: string;
  destination: string;
  description?: string | null;
  metadata?: Record<string, string>;
  source_transaction?: string | null;
  transfer_group?: string | null;
  /** The funding charge's balance transaction, when not stored yet (a destination charge being made). */
  fundedBy?: string | null;
}

/**
 * A transfer funded by a charge (`source_transaction`) is drawn from that charge's funds: it
 * waits in pending with them and needs no available balance (docs.stripe.com/connect/separate-charges-and-transfers#transfer-availability).
 */
function fundingAvailableOn(c: Call, t: TransferInput): number | undefined {
  if (!t.source_transaction) return undefined;
  const txnId = t.fundedBy ?? str(getObject(c.db, "charge", t.source_transaction)?.balance_transaction);
  const txn = txnId ? getObject(c.db, "balance_transaction", txnId) : undefined;
  return txn?.status === "pending" ? num(txn.available_on) : undefined;
}

/** A connected account named by `param`, or Stripe's 404 naming it. */
export function connectedAccount(c: Call, id: string, param: string): Rec {
  const acct = getObject(c.db, "account", id);
  if (!acct) return fail(invalidRequest(`No such destination: '${id}'`, { code: "resource_missing", param }));
  return acct;
}

/** Makes a transfer: draws the platform's balance (unless a charge funds it) and tells its destination. */
export function makeTransfer(c: Call, t: TransferInput): Rec {
  connectedAccount(c, t.destination, "destination");
  if (!t.source_transaction && availableIn(c, t.currency) < t.amount) fail(balanceInsufficient("transfer"));
  const id = newId(c.db, "transfer");
  const txn = addTxn(c, {
    amount: -t.amount,
    fee: 0,
    currency: t.currency,
    type: "transfer",
    reporting_category: "transfer",
    source: id,
    description: t.description ?? null,
    availableOn: fundingAvailableOn(c, t),
  });
  const transfer: Rec = {
    id,
    object: "transfer",
    amount: t.amount,
    amount_reversed: 0,
    balance_transaction: txn,
    created: c.now,
    currency: t.currency,
    description: t.description ?? null,
    destination: t.destination,
    destination_payment: `py_${id.slice(3)}`,
    livemode: false,
    metadata: t.metadata ?? {},
    reversals: { object: "list", data: [], has_more: false, total_count: 0, url: `/v1/transfers/${id}/reversals` },
    reversed: false,
    source_transaction: t.source_transaction ?? null,
    source_type: "card",
    transfer_group: t.transfer_group ?? null,
  };
  insertObject(c.db, "transfer", transfer);
  emit(c, "transfer.created", "transfer", transfer);
  return transfer;
}

/** Reverses part or all of a transfer: the amount returns to the platform's available balance. */
export function reverseTransfer(c: Call, transferId: string, amount: number | undefined, extra: Rec): Rec {
  const before = load(c, "transfer", transferId);
  const left = (num(before.amount) ?? 0) - (num(before.amount_reversed) ?? 0);
  const take = amount ?? left;
  if (take <= 0 || take > left)
    fail(
      invalidRequest(`You have requested a reversal of ${take} but this transfer only has ${left} remaining to be reversed.`, {
        param: "amount",
      }),
    );
  const id = newId(c.db, "transfer_reversal");
  const currency = String(before.currency);
  const txn = addTxn(c, { amount: take, fee: 0, currency, type: "transfer_refund", reporting_category: "transfer_reversal", source: id });
  const reversal: Rec = {
    id,
    object: "transfer_reversal",
    amount: take,
    balance_transaction: txn,
    created: c.now,
    currency,
    destination_payment_refund: `pyr_${id.slice(4)}`,
    metadata: {},
    source_refund: null,
    transfer: transferId,
    ...extra,
  };
  insertObject(c.db, "transfer_reversal", reversal);
  const list = rec(before.reversals);
  const data = [reversal, ...(Array.isArray(list.data) ? list.data : [])];
  const reversed = (num(before.amount_reversed) ?? 0) + take;
  const after: Rec = {
    ...before,
    amount_reversed: reversed,
    reversed: reversed === num(before.amount),
    reversals: { ...list, data, total_count: data.length },
  };
  saveObject(c.db, "transfer", after);
  emit(c, "transfer.reversed", "transfer", after, { amount_reversed: before.amount_reversed, reversed: before.reversed });
  return reversal;
}

/**
 * A destination charge's money movement: the charge's amount goes to the destination (or the
 * `transfer_data[amount]`), and what the platform keeps (`application_fee_amount`) is recorded as
 * an application fee on the platform's balance.
 */
export function settleDestinationCharge(c: Call, pi: Rec, charge: Rec): void {
  const destination = str(rec(pi.transfer_data).destination);
  const amount = num(charge.amount) ?? 0;
  const currency = String(charge.currency);
  const feeAmount = num(pi.application_fee_amount);
  if (destination) {
    const sent = num(rec(pi.transfer_data).amount) ?? amount - (feeAmount ?? 0);
    const transfer = makeTransfer(c, {
      amount: sent,
      currency,
      destination,
      source_transaction: String(charge.id),
      fundedBy: str(charge.balance_transaction) ?? null,
      transfer_group: str(pi.transfer_group) ?? `group_${String(pi.id)}`,
    });
    charge.transfer = transfer.id;
    charge.transfer_data = { amount: rec(pi.transfer_data).amount ?? null, destination };
  }
  if (feeAmount === undefined) return;
  const account = destination ?? str(pi.on_behalf_of) ?? "";
  const id = newId(c.db, "application_fee");
  const fee: Rec = {
    id,
    object: "application_fee",
    account,
    amount: feeAmount,
    amount_refunded: 0,
    application: "ca_PomeTwinPlatformApp",
    balance_transaction: null,
    charge: charge.id,
    created: c.now,
    currency,
    fee_source: { charge: charge.id, type: "charge" },
    livemode: false,
    originating_transaction: null,
    refunded: false,
    refunds: { object: "list", data: [], has_more: false, total_count: 0, url: `/v1/application_fees/${id}/refunds` },
  };
  insertObject(c.db, "application_fee", fee);
  charge.application_fee = id;
  charge.application_fee_amount = feeAmount;
  emit(c, "application_fee.created", "application_fee", fee);
}
