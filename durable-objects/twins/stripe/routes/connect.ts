// Connect: the platform account (GET /v1/account), connected accounts, account and login links,
// transfers and their reversals, and application fees.
import { z } from "zod";
import { actingAccount } from "../acting-account";
import type { Route, TwinResponse } from "../../types";
import { filterOf, listResponse, load, ok, show, type Call } from "../call";
import { type AccountType, buildAccount, hostedUrl, readPlatformAccount, typeOfController } from "../connect";
import { arg, expand, idParam, listQuery, metadata, route } from "../declare";
import { invalidRequest, noSuch } from "../errors";
import { changed, emit } from "../events";
import { deleteObject, insertObject, newId, rec, saveObject, strMap, type Rec } from "../store";
import { buildBankAccount } from "../external-accounts";
import { makeTransfer, reverseTransfer } from "../transfers";
import { checkEmail } from "../validate";

const ACCOUNT_TYPES = ["express", "custom", "standard"] as const;

const accountFields = {
  business_profile: arg.anyHash("Business details: name, url, mcc, support_email, product_description"),
  business_type: arg.oneOf(["individual", "company", "non_profit", "government_entity"], "The kind of business"),
  capabilities: arg.anyHash("Capabilities to request, e.g. { card_payments: { requested: true }, transfers: { requested: true } }"),
  company: arg.anyHash("Company details"),
  individual: arg.anyHash("Individual details"),
  default_currency: arg.text("Three-letter ISO currency code the account settles in"),
  email: arg.text("The account's email address"),
  metadata,
  settings: arg.anyHash("Account settings (branding, payouts schedule)"),
  tos_acceptance: arg.anyHash("When and where the terms of service were accepted"),
  expand,
};

/** Requested capabilities as Stripe shows them: each one asked for is active on a test account. */
function capabilitiesOf(raw: unknown): Rec | undefined {
  if (raw === undefined) return undefined;
  const out: Rec = {};
  for (const [name, v] of Object.entries(rec(raw))) if (rec(v).requested === "true" || rec(v).requested === true) out[name] = "active";
  return out;
}

function createAccount(c: Call, body: { type?: string; country?: string; email?: string }): TwinResponse {
  const controller = c.p.sub("controller");
  if (body.type && controller)
    return invalidRequest("You cannot specify both `type` and `controller`; use `controller` only.", { param: "controller" });
  const type: AccountType = (body.type as AccountType | undefined) ?? (controller ? typeOfController(controller.raw) : "standard");
  if (body.email) checkEmail(body.email, "email");
  const id = newId(c.db, "account");
  const acct = buildAccount(
    {
      type,
      country: body.country?.toUpperCase(),
      default_currency: c.p.currency("default_currency"),
      email: body.email ?? null,
      business_profile: c.p.sub("business_profile")?.raw,
      business_type: c.p.str("business_type"),
      capabilities: capabilitiesOf(c.p.raw.capabilities),
      metadata: c.p.metadata(),
      settings: c.p.sub("settings")?.raw,
    },
    { id, created: c.now },
  );
  insertObject(c.db, "account", acct);
  // A bank account given at creation becomes the account's first external account.
  if (c.p.raw.external_account !== undefined) insertObject(c.db, "bank_account", buildBankAccount(c, acct, false));
  emit(c, "account.updated", "account", acct);
  return show(c, "account", acct);
}

function updateAccount(c: Call, id: string): TwinResponse {
  const before = load(c, "account", id);
  const after: Rec = { ...before, metadata: c.p.metadata(strMap(before.metadata)) };
  const email = c.p.email("email");
  if (email !== undefined) after.email = email;
  const profile = c.p.sub("business_profile");
  if (profile) after.business_profile = { ...rec(before.business_profile), ...profile.raw };
  const currency = c.p.currency("default_currency");
  if (currency) after.default_currency = currency;
  const businessType = c.p.str("business_type");
  if (businessType) after.business_type = businessType;
  const caps = capabilitiesOf(c.p.raw.capabilities);
  if (caps) after.capabilities = { ...rec(before.capabilities), ...caps };
  saveObject(c.db, "account", after);
  emit(c, "account.updated", "account", after, changed(before, after));
  return show(c, "account", after);
}

const accountRoutes: Route[] = [
  route({
    method: "GET",
    pattern: "/v1/account",
    operation: "accounts.retrieveCurrent",
    summary: "Retrieve the account the key belongs to (or the Stripe-Account it acts as)",
    query: { expand },
    tool: { name: "get_account", description: "Retrieve the Stripe account: its business profile, country and default currency." },
    handler(c) {
      const acct = actingAccount(c);
      return acct.id === readPlatformAccount(c.db).id ? ok(acct) : show(c, "account", acct);
    },
  }),
  route({
    method: "POST",
    pattern: "/v1/accounts",
    operation: "accounts.create",
    summary: "Create a connected account",
    body: {
      type: arg.oneOf(ACCOUNT_TYPES, "express, custom or standard (or describe it with controller)"),
      controller: arg.anyHash("Who controls the account: fees[payer], losses[payments], stripe_dashboard[type], requirement_collection"),
      country: arg.text("Two-letter country code, e.g. US"),
      external_account: arg.text("A bank account or card token for payouts"),
      ...accountFields,
    },
    tool: { name: "create_connected_account", description: "Create a connected account (express, custom or standard) for a seller." },
    handler: (c, { body }) => createAccount(c, body),
  }),
  route({
    method: "GET",
    pattern: "/v1/accounts",
    operation: "accounts.list",
    summary: "List connected accounts",
    query: listQuery,
    tool: { name: "list_connected_accounts", description: "List the platform's connected accounts, newest first." },
    handler: (c) => listResponse(c, "account", "/v1/accounts"),
  }),
  route({
    method: "GET",
    pattern: "/v1/accounts/:id",
    operation: "accounts.retrieve",
    summary: "Retrieve a connected account",
    params: idParam("The account's id, acct_…"),
    query: { expand },
    tool: { name: "get_connected_account", description: "Retrieve a connected account." },
    handler(c, { params }) {
      const platform = readPlatformAccount(c.db);
      return params.id === platform.id ? ok(platform) : show(c, "account", load(c, "account", params.id));
    },
  }),
  route({
    method: "POST",
    pattern: "/v1/accounts/:id",
    operation: "accounts.update",
    summary: "Update a connected account",
    params: idParam("The account's id"),
    body: accountFields,
    tool: { name: "update_connected_account", description: "Update a connected account's profile, email or metadata." },
    handler: (c, { params }) => updateAccount(c, params.id),
  }),
  route({
    method: "DELETE",
    pattern: "/v1/accounts/:id",
    operation: "accounts.del",
    summary: "Delete a connected account",
    params: idParam("The account's id"),
    tool: { name: "delete_connected_account", description: "Delete a connected account.", destructive: true },
    handler(c, { params }) {
      load(c, "account", params.id);
      return ok(deleteObject(c.db, "account", params.id));
    },
  }),
  route({
    method: "POST",
    pattern: "/v1/account_links",
    operation: "accountLinks.create",
    summary: "Create an onboarding link for a connected account",
    body: {
      account: arg.id("The connected account's id"),
      type: z.enum(["account_onboarding", "account_update"]).describe("account_onboarding or account_update"),
      refresh_url: arg.text("Where the account is sent when the link has expired"),
      return_url: arg.text("Where the account returns when done"),
      collect: arg.text("currently_due or eventually_due"),
      collection_options: arg.anyHash("What to collect"),
      expand,
    },
    tool: { name: "create_account_link", description: "Create a one-time onboarding link for a connected account." },
    handler(c, { body }) {
      load(c, "account", body.account, "account");
      const seed = `${body.account}:${c.now}:${newId(c.db, "request")}`;
      return ok({ object: "account_link", created: c.now, expires_at: c.now + 300, url: hostedUrl("setup", seed) });
    },
  }),
  route({
    method: "POST",
    pattern: "/v1/accounts/:id/login_links",
    operation: "accounts.createLoginLink",
    summary: "Create an Express dashboard login link",
    params: idParam("The Express account's id"),
    body: { expand },
    tool: { name: "create_login_link", description: "Create a login link to an Express account's dashboard." },
    handler(c, { params }) {
      const acct = load(c, "account", params.id, "account");
      // Stripe makes login links for Express accounts only.
      if (acct.type !== "express")
        return invalidRequest("Cannot create a login link for an account that is not an Express account.", { param: "account" });
      return ok({ object: "login_link", created: c.now, url: hostedUrl("express", `${params.id}:${newId(c.db, "request")}`) });
    },
  }),
];

const transferRoutes: Route[] = [
  route({
    method: "POST",
    pattern: "/v1/transfers",
    operation: "transfers.create",
    summary: "Transfer funds to a connected account",
    body: {
      amount: arg.reqInt("Amount in the currency's smallest unit"),
      currency: arg.id('Three-letter ISO currency code, e.g. "usd"'),
      destination: arg.id("The connected account's id, acct_…"),
      description: arg.text("An arbitrary description"),
      metadata,
      source_transaction: arg.text("A charge whose funds pay for the transfer"),
      source_type: arg.oneOf(["bank_account", "card", "fpx"], "The balance the transfer draws on"),
      transfer_group: arg.text("A string identifying a group of transfers and charges"),
      expand,
    },
    tool: { name: "create_transfer", description: "Send funds from the platform's balance to a connected account." },
    handler(c, { body }) {
      if (body.amount <= 0) return invalidRequest("Invalid positive integer", { param: "amount", code: "parameter_invalid_integer" });
      if (body.source_transaction) load(c, "charge", body.source_transaction, "source_transaction");
      const transfer = makeTransfer(c, {
        amount: body.amount,
        currency: c.p.reqCurrency("currency"),
        destination: body.destination,
        description: body.description ?? null,
        metadata: c.p.metadata(),
        source_transaction: body.source_transaction ?? null,
        transfer_group: body.transfer_group ?? null,
      });
      return show(c, "transfer", transfer);
    },
  }),
  route({
    method: "GET",
    pattern: "/v1/transfers",
    operation: "transfers.list",
    summary: "List transfers",
    query: { ...listQuery, destination: arg.text("Only transfers to this account"), transfer_group: arg.text("Only this group's") },
    tool: { name: "list_transfers", description: "List transfers, newest first, optionally to one connected account." },
    handler: (c) =>
      listResponse(c, "transfer", "/v1/transfers", [...filterOf(c, "destination", "ref"), ...filterOf(c, "transfer_group", "ref2")]),
  }),
  route({
    method: "GET",
    pattern: "/v1/transfers/:id",
    operation: "transfers.retrieve",
    summary: "Retrieve a transfer",
    params: idParam("The transfer's id, tr_…"),
    query: { expand },
    tool: { name: "get_transfer", description: "Retrieve a transfer." },
    handler: (c, { params }) => show(c, "transfer", load(c, "transfer", params.id)),
  }),
  route({
    method: "POST",
    pattern: "/v1/transfers/:id",
    operation: "transfers.update",
    summary: "Update a transfer's description or metadata",
    params: idParam("The transfer's id"),
    body: { description: arg.text("An arbitrary description"), metadata, expand },
    tool: { name: "update_transfer", description: "Update a transfer's description or metadata." },
    handler(c, { params, body }) {
      const before = load(c, "transfer", params.id);
      const after = { ...before, metadata: c.p.metadata(strMap(before.metadata)), description: body.description ?? before.description };
      saveObject(c.db, "transfer", after);
      emit(c, "transfer.updated", "transfer", after, changed(before, after));
      return show(c, "transfer", after);
    },
  }),
  route({
    method: "POST",
    pattern: "/v1/transfers/:id/reversals",
    operation: "transfers.createReversal",
    summary: "Reverse a transfer, in part or whole",
    params: idParam("The transfer's id"),
    body: {
      amount: arg.int("Amount to reverse (default: all that is left)"),
      description: arg.text("An arbitrary description"),
      metadata,
      refund_application_fee: arg.bool("Also refund the application fee"),
      expand,
    },
    tool: { name: "reverse_transfer", description: "Take back some or all of a transfer from the connected account." },
    handler: (c, { params, body }) =>
      show(c, "transfer_reversal", reverseTransfer(c, params.id, body.amount, { metadata: c.p.metadata() })),
  }),
  route({
    method: "GET",
    pattern: "/v1/transfers/:id/reversals",
    operation: "transfers.listReversals",
    summary: "List a transfer's reversals",
    params: idParam("The transfer's id"),
    query: listQuery,
    tool: { name: "list_transfer_reversals", description: "List a transfer's reversals." },
    handler(c, { params }) {
      load(c, "transfer", params.id);
      return listResponse(c, "transfer_reversal", `/v1/transfers/${params.id}/reversals`, [{ column: "ref", value: params.id }]);
    },
  }),
  route({
    method: "GET",
    pattern: "/v1/transfers/:transfer/reversals/:id",
    operation: "transfers.retrieveReversal",
    summary: "Retrieve a transfer reversal",
    params: { transfer: z.string().describe("The transfer's id"), id: z.string().describe("The reversal's id, trr_…") },
    query: { expand },
    tool: { name: "get_transfer_reversal", description: "Retrieve one reversal of a transfer." },
    handler(c, { params }) {
      const reversal = load(c, "transfer_reversal", params.id);
      if (reversal.transfer !== params.transfer) return noSuch("transfer reversal", params.id);
      return show(c, "transfer_reversal", reversal);
    },
  }),
  route({
    method: "GET",
    pattern: "/v1/application_fees",
    operation: "applicationFees.list",
    summary: "List application fees",
    query: { ...listQuery, charge: arg.text("Only this charge's") },
    tool: { name: "list_application_fees", description: "List the application fees the platform collected." },
    handler: (c) => listResponse(c, "application_fee", "/v1/application_fees", filterOf(c, "charge", "ref")),
  }),
  route({
    method: "GET",
    pattern: "/v1/application_fees/:id",
    operation: "applicationFees.retrieve",
    summary: "Retrieve an application fee",
    params: idParam("The fee's id, fee_…"),
    query: { expand },
    tool: { name: "get_application_fee", description: "Retrieve an application fee." },
    handler: (c, { params }) => show(c, "application_fee", load(c, "application_fee", params.id)),
  }),
];

export const connectRoutes: readonly Route[] = [...accountRoutes, ...transferRoutes];
