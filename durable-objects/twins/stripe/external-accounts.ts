// A connected account's external accounts (bank accounts), where its payouts go: made from a test
// token (`btok_us_verified`…) or from raw `external_account[object]=bank_account` fields, one
// default per currency. Stripe's test account numbers decide how a payout to the account ends
// (docs.stripe.com/connect/testing#payouts): 000123456789 is paid, 000111111116 fails with
// `no_account`, 000111111113 with `account_closed`, 000222222227 with `insufficient_funds`,
// 000333333335 with `debit_not_authorized`, 000444444440 with `invalid_currency`.
import type { Db } from "../types";
import type { Call } from "./call-shape";
import { fail, invalidRequest, missingParam, noSuch } from "./errors";
import type { Params } from "./params";
import { idBody, liveOfType, newId, rec, str, type Rec } from "./store";

/** Stripe's US test routing number (STRIPE TEST BANK). */
export const TEST_ROUTING = "110000000";

/**
 * How a payout to each failing test account number ends. The messages are the descriptions of
 * Stripe's payout failure codes (docs.stripe.com/api/payouts/failures; the same text documents
 * `Payout.failure_code` in stripe-node's types); that a live payout's `failure_message` carries
 * exactly this text is not confirmed (see NOTES.md).
 */
export const PAYOUT_FAILURES: Readonly<Record<string, { code: string; message: string }>> = {
  "000111111116": {
    code: "no_account",
    message: "The bank account details on file are probably incorrect. No bank account could be located with those details.",
  },
  "000111111113": { code: "account_closed", message: "The bank account has been closed." },
  "000222222227": { code: "insufficient_funds", message: "Your Stripe account has insufficient funds to cover the payout." },
  "000333333335": {
    code: "debit_not_authorized",
    message:
      "Debit transactions are not approved on the bank account. (Stripe requires bank accounts to be set up for both credit and debit payouts.)",
  },
  "000444444440": {
    code: "invalid_currency",
    message:
      "The bank was unable to process this payout because of its currency. This is probably because the bank account cannot accept payments in that currency.",
  },
};

/** The test tokens of docs.stripe.com/connect/testing, each standing for a test account number. */
const TOKENS: Readonly<Record<string, string>> = {
  btok_us_verified: "000123456789",
  btok_us_verified_noAccount: "000111111116",
  btok_us_verified_accountClosed: "000111111113",
  btok_us_verified_insufficientFunds: "000222222227",
  btok_us_verified_debitNotAuthorized: "000333333335",
  btok_us_verified_invalidCurrency: "000444444440",
};

const requirements = () => ({ currently_due: [], errors: [], past_due: [], pending_verification: [] });

interface BankDetails {
  number: string;
  routing: string;
  country: string;
  currency: string;
  holderName: string | null;
  holderType: string | null;
}

/** The bank details `external_account` gives: a test token, or the raw fields of a bank account. */
function detailsOf(c: Call, account: Rec): BankDetails {
  const token = c.p.raw.external_account;
  if (typeof token === "string") {
    const number = TOKENS[token];
    if (!number) return fail(noSuch("token", token, "external_account"));
    return { number, routing: TEST_ROUTING, country: "US", currency: "usd", holderName: null, holderType: null };
  }
  const raw = c.p.sub("external_account") ?? fail(missingParam("external_account"));
  raw.allow([
    "object",
    "country",
    "currency",
    "account_number",
    "routing_number",
    "account_holder_name",
    "account_holder_type",
    "metadata",
  ]);
  if (raw.str("object") !== "bank_account")
    fail(invalidRequest("Invalid external_account[object]: must be bank_account", { param: "external_account[object]" }));
  const number = raw.req("account_number");
  if (!/^\d{4,17}$/.test(number))
    fail(invalidRequest("Invalid account number: it must contain 4 to 17 digits.", { param: "external_account[account_number]" }));
  return {
    number,
    routing: raw.str("routing_number") ?? fail(missingParam("external_account[routing_number]")),
    country: (raw.str("country") ?? str(account.country) ?? "US").toUpperCase(),
    currency: raw.currency("currency") ?? str(account.default_currency) ?? "usd",
    holderName: raw.str("account_holder_name") ?? null,
    holderType: holderType(raw),
  };
}

const holderType = (p: Params) => p.oneOf("account_holder_type", ["individual", "company"]) ?? null;

/**
 * A bank account for `account` from the call's `external_account`; `ownParams` is false when the
 * call creates the account itself (its metadata is the account's).
 */
export function buildBankAccount(c: Call, account: Rec, ownParams = true): Rec {
  const d = detailsOf(c, account);
  const id = newId(c.db, "bank_account");
  const isFirst = !defaultFor(c, String(account.id), d.currency);
  return {
    id,
    object: "bank_account",
    account: account.id,
    account_holder_name: d.holderName,
    account_holder_type: d.holderType,
    account_type: null,
    available_payout_methods: ["standard", "instant"],
    bank_name: d.routing === TEST_ROUTING ? "STRIPE TEST BANK" : null,
    country: d.country,
    currency: d.currency,
    customer: null,
    default_for_currency: isFirst || (ownParams && c.p.bool("default_for_currency") === true),
    fingerprint: idBody(`bank:${d.routing}:${d.number}`, 16),
    future_requirements: requirements(),
    last4: d.number.slice(-4),
    metadata: ownParams ? c.p.metadata() : {},
    requirements: requirements(),
    routing_number: d.routing,
    status: "new",
    // Kept aside: the full number decides how payouts to it end (Stripe never shows it), and
    // `created` orders the account's list (Stripe's BankAccount has no such field).
    account_number: d.number,
    created: c.now,
  };
}

/** The account's bank accounts, in creation order. */
export const bankAccountsOf = (db: Db, account: string): Rec[] => liveOfType(db, "bank_account", { column: "ref", value: account });

/** The account's default bank account for a currency. */
export function defaultFor(c: Call, account: string, currency: string): Rec | undefined {
  return bankAccountsOf(c.db, account).find((b) => b.currency === currency && b.default_for_currency === true);
}

/** How a payout to the bank account ends: its failure, or undefined when it is paid. */
export const payoutFailureOf = (bank: Rec | undefined) => (bank ? PAYOUT_FAILURES[String(bank.account_number)] : undefined);

/** A bank account's wire form: without the fields kept aside. */
export function bankAccountWire(o: Rec): Rec {
  const { account_number: _number, created: _created, ...wire } = o;
  return wire;
}

/** The account's `external_accounts` list as the Account object embeds it. */
export function externalAccountsList(db: Db, account: Rec): Rec {
  const data = bankAccountsOf(db, String(account.id)).reverse().map(bankAccountWire);
  const list = rec(account.external_accounts);
  return { ...list, object: "list", data: data.slice(0, 10), has_more: data.length > 10, total_count: data.length };
}
