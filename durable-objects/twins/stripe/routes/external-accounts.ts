// A connected account's external accounts (bank accounts): create from a test token or raw
// fields, list, retrieve, update (`default_for_currency`, holder details, metadata), delete.
// Shapes: stripe-node's BankAccount and ExternalAccountCreateParams; spec3's `bank_account`.
import { z } from "zod";
import type { Route, TwinResponse } from "../../types";
import { listResponse, load, ok, show, type Call } from "../call";
import { arg, expand, listQuery, metadata, route } from "../declare";
import { fail, invalidRequest, noSuch } from "../errors";
import { changed, emit } from "../events";
import { bankAccountsOf, buildBankAccount } from "../external-accounts";
import { deleteObject, getObject, insertObject, saveObject, strMap, type Rec } from "../store";

const accountParam = { account: z.string().describe("The connected account's id, acct_…") };
const bothParams = { ...accountParam, id: z.string().describe("The external account's id, ba_…") };

/** The external account `id` of `account`, or Stripe's 404 naming it. */
function loadExternal(c: Call, account: string, id: string): Rec {
  load(c, "account", account);
  const bank = getObject(c.db, "bank_account", id);
  return bank && bank.account === account ? bank : fail(noSuch("external account", id));
}

/** Makes `bank` the account's default for its currency; the former default is one no longer. */
function makeDefault(c: Call, bank: Rec): void {
  for (const other of bankAccountsOf(c.db, String(bank.account))) {
    if (other.id === bank.id || other.currency !== bank.currency || other.default_for_currency !== true) continue;
    saveObject(c.db, "bank_account", { ...other, default_for_currency: false });
  }
}

function updateExternal(c: Call, account: string, id: string): TwinResponse {
  const before = getObject(c.db, "bank_account", id);
  if (!before || before.account !== account) return noSuch("external account", id);
  const after: Rec = { ...before, metadata: c.p.metadata(strMap(before.metadata)) };
  const name = c.p.nullable("account_holder_name");
  if (name !== undefined) after.account_holder_name = name;
  const holder = c.p.oneOf("account_holder_type", ["individual", "company"]);
  if (holder) after.account_holder_type = holder;
  const type = c.p.oneOf("account_type", ["checking", "futsu", "savings", "toza"]);
  if (type) after.account_type = type;
  if (c.p.bool("default_for_currency") === true) {
    makeDefault(c, after);
    after.default_for_currency = true;
  }
  saveObject(c.db, "bank_account", after);
  emit(c, "account.external_account.updated", "bank_account", after, changed(before, after));
  return show(c, "bank_account", after);
}

export const externalAccountRoutes: readonly Route[] = [
  route({
    method: "POST",
    pattern: "/v1/accounts/:account/external_accounts",
    operation: "accounts.createExternalAccount",
    summary: "Add a bank account to a connected account",
    params: accountParam,
    body: {
      external_account: z
        .union([z.string(), z.record(z.string(), z.unknown())])
        .describe(
          "A bank account token (btok_us_verified) or a hash: object=bank_account, country, currency, account_number, routing_number, account_holder_name, account_holder_type",
        ),
      default_for_currency: arg.bool("Make it the default for its currency"),
      metadata,
      expand,
    },
    tool: {
      name: "create_external_account",
      description: "Add a bank account (token btok_us_verified, or raw details with routing 110000000) to a connected account.",
    },
    handler(c, { params }) {
      const account = load(c, "account", params.account);
      const bank = buildBankAccount(c, account);
      if (bank.default_for_currency === true) makeDefault(c, bank);
      insertObject(c.db, "bank_account", bank);
      emit(c, "account.external_account.created", "bank_account", bank);
      return show(c, "bank_account", bank);
    },
  }),
  route({
    method: "GET",
    pattern: "/v1/accounts/:account/external_accounts",
    operation: "accounts.listExternalAccounts",
    summary: "List a connected account's external accounts",
    params: accountParam,
    query: { ...listQuery, object: arg.oneOf(["bank_account", "card"], "Only bank accounts or only cards") },
    tool: { name: "list_external_accounts", description: "List a connected account's bank accounts." },
    handler(c, { params, query }) {
      load(c, "account", params.account);
      const url = `/v1/accounts/${params.account}/external_accounts`;
      // The twin keeps bank accounts only: asked for cards, the list is empty.
      return listResponse(c, "bank_account", url, [{ column: "ref", value: params.account }], () => query.object !== "card");
    },
  }),
  route({
    method: "GET",
    pattern: "/v1/accounts/:account/external_accounts/:id",
    operation: "accounts.retrieveExternalAccount",
    summary: "Retrieve an external account",
    params: bothParams,
    query: { expand },
    tool: { name: "get_external_account", description: "Retrieve one of a connected account's bank accounts." },
    handler: (c, { params }) => show(c, "bank_account", loadExternal(c, params.account, params.id)),
  }),
  route({
    method: "POST",
    pattern: "/v1/accounts/:account/external_accounts/:id",
    operation: "accounts.updateExternalAccount",
    summary: "Update an external account",
    params: bothParams,
    body: {
      default_for_currency: arg.bool("Make it the default for its currency"),
      account_holder_name: arg.unsettable("The holder's name"),
      account_holder_type: arg.oneOf(["individual", "company"], "individual or company"),
      account_type: arg.oneOf(["checking", "futsu", "savings", "toza"], "The bank account type"),
      metadata,
      expand,
    },
    tool: {
      name: "update_external_account",
      description: "Make a bank account the default for its currency, or update its holder or metadata.",
    },
    handler(c, { params }) {
      load(c, "account", params.account);
      return updateExternal(c, params.account, params.id);
    },
  }),
  route({
    method: "DELETE",
    pattern: "/v1/accounts/:account/external_accounts/:id",
    operation: "accounts.deleteExternalAccount",
    summary: "Delete an external account",
    params: bothParams,
    tool: { name: "delete_external_account", description: "Delete a bank account that is not the default one.", destructive: true },
    handler(c, { params }) {
      const account = load(c, "account", params.account);
      const bank = loadExternal(c, params.account, params.id);
      if (bank.default_for_currency === true && bank.currency === account.default_currency)
        return invalidRequest(
          "You cannot delete the default external account for your default currency. Please make another external account the default using the `default_for_currency` param, and then delete this one.",
        );
      const gone = deleteObject(c.db, "bank_account", params.id);
      emit(c, "account.external_account.deleted", "bank_account", bank);
      return ok(gone);
    },
  }),
];
