// The customer portal: sessions (a link for one customer) and configurations.
import type { Route, TwinResponse } from "../../types";
import { listResponse, load, show, type Call } from "../call";
import { arg, expand, idParam, listQuery, metadata, route } from "../declare";
import { invalidRequest, missingParam } from "../errors";
import { changed, emit } from "../events";
import { buildConfiguration, DEFAULT_CONFIGURATION_ID, defaultConfiguration, portalFeatures, sessionUrl } from "../portal";
import { insertObject, newId, rec, saveObject, strMap, type Rec } from "../store";

const configurationFields = {
  business_profile: arg.anyHash("headline, privacy_policy_url, terms_of_service_url"),
  default_return_url: arg.unsettable("Where customers return from the portal by default"),
  login_page: arg.anyHash("{ enabled: true } makes a shareable login link"),
  name: arg.unsettable("A name for the configuration"),
  metadata,
  expand,
};

function createSession(
  c: Call,
  body: { customer?: string; configuration?: string; return_url?: string; locale?: string; on_behalf_of?: string },
): TwinResponse {
  if (!body.customer) return missingParam("customer");
  const customer = load(c, "customer", body.customer, "customer");
  const configuration = body.configuration
    ? load(c, "billing_portal.configuration", body.configuration, "configuration")
    : defaultConfiguration(c.db, c.now);
  if (configuration.active !== true)
    return invalidRequest("The configuration is not active; activate it or use another.", { param: "configuration" });
  const id = newId(c.db, "billing_portal.session");
  const flow = c.p.sub("flow_data");
  const session: Rec = {
    id,
    object: "billing_portal.session",
    configuration: configuration.id,
    created: c.now,
    customer: customer.id,
    customer_account: null,
    flow: flow ? { after_completion: { hosted_confirmation: null, redirect: null, type: "portal_homepage" }, ...flow.raw } : null,
    livemode: false,
    locale: body.locale ?? null,
    on_behalf_of: body.on_behalf_of ?? null,
    return_url: body.return_url ?? configuration.default_return_url ?? null,
    url: sessionUrl(id),
  };
  insertObject(c.db, "billing_portal.session", session);
  return show(c, "billing_portal.session", session);
}

function updateConfiguration(c: Call, id: string): TwinResponse {
  const before = load(c, "billing_portal.configuration", id);
  const after: Rec = { ...before, metadata: c.p.metadata(strMap(before.metadata)), updated: c.now };
  const active = c.p.bool("active");
  if (active === false && id === DEFAULT_CONFIGURATION_ID)
    return invalidRequest("You cannot deactivate the default configuration.", { param: "active" });
  if (active !== undefined) after.active = active;
  const features = c.p.sub("features");
  if (features) after.features = portalFeatures({ ...rec(before.features), ...mergeFeatures(rec(before.features), features.raw) });
  const profile = c.p.sub("business_profile");
  if (profile) after.business_profile = { ...rec(before.business_profile), ...profile.raw };
  for (const key of ["default_return_url", "name"] as const) {
    const v = c.p.nullable(key);
    if (v !== undefined) after[key] = v;
  }
  saveObject(c.db, "billing_portal.configuration", after);
  emit(c, "billing_portal.configuration.updated", "billing_portal.configuration", after, changed(before, after));
  return show(c, "billing_portal.configuration", after);
}

/** Each named feature's fields over what it had. */
const mergeFeatures = (before: Rec, given: Rec): Rec =>
  Object.fromEntries(Object.entries(given).map(([k, v]) => [k, { ...rec(before[k]), ...rec(v) }]));

export const portalRoutes: readonly Route[] = [
  route({
    method: "POST",
    pattern: "/v1/billing_portal/sessions",
    operation: "billingPortal.sessions.create",
    summary: "Create a customer portal session",
    body: {
      customer: arg.text("The customer the portal is for, cus_…"),
      configuration: arg.text("The configuration to use (default: the account's default one)"),
      return_url: arg.text("Where the customer returns from the portal"),
      locale: arg.text("The portal's language, e.g. auto or fr"),
      on_behalf_of: arg.text("The connected account the portal acts for"),
      flow_data: arg.anyHash("A deep link into one flow, e.g. { type: 'subscription_cancel', subscription_cancel: { subscription } }"),
      customer_account: arg.text("The customer's account (Accounts v2)"),
      expand,
    },
    tool: {
      name: "create_billing_portal_session",
      description: "Create a customer portal link where a customer manages their subscriptions, payment methods and invoices.",
    },
    handler: (c, { body }) => createSession(c, body),
  }),
  route({
    method: "POST",
    pattern: "/v1/billing_portal/configurations",
    operation: "billingPortal.configurations.create",
    summary: "Create a customer portal configuration",
    body: {
      features: arg.anyHash("What customers may do: invoice_history, customer_update, subscription_cancel, …"),
      ...configurationFields,
    },
    tool: { name: "create_billing_portal_configuration", description: "Configure what customers may do in the customer portal." },
    handler(c, { body }) {
      if (!body.features) return missingParam("features");
      const features = c.p.sub("features")?.raw ?? {};
      const id = newId(c.db, "billing_portal.configuration");
      const config = buildConfiguration(
        {
          features,
          business_profile: c.p.sub("business_profile")?.raw,
          default_return_url: c.p.nullable("default_return_url"),
          login_page: c.p.sub("login_page")?.raw,
          name: c.p.nullable("name"),
          metadata: c.p.metadata(),
        },
        { id, created: c.now },
      );
      insertObject(c.db, "billing_portal.configuration", config);
      emit(c, "billing_portal.configuration.created", "billing_portal.configuration", config);
      return show(c, "billing_portal.configuration", config);
    },
  }),
  route({
    method: "GET",
    pattern: "/v1/billing_portal/configurations",
    operation: "billingPortal.configurations.list",
    summary: "List customer portal configurations",
    query: {
      ...listQuery,
      active: arg.bool("Only active (or inactive) ones"),
      is_default: arg.bool("Only the default one (or the others)"),
    },
    tool: { name: "list_billing_portal_configurations", description: "List customer portal configurations." },
    handler(c, { query }) {
      const filters = query.active === undefined ? [] : [{ column: "status" as const, value: String(query.active) }];
      const keep = (o: Rec) => query.is_default === undefined || o.is_default === query.is_default;
      return listResponse(c, "billing_portal.configuration", "/v1/billing_portal/configurations", filters, keep);
    },
  }),
  route({
    method: "GET",
    pattern: "/v1/billing_portal/configurations/:id",
    operation: "billingPortal.configurations.retrieve",
    summary: "Retrieve a customer portal configuration",
    params: idParam("The configuration's id, bpc_…"),
    query: { expand },
    tool: { name: "get_billing_portal_configuration", description: "Retrieve a customer portal configuration." },
    handler(c, { params }) {
      return show(c, "billing_portal.configuration", load(c, "billing_portal.configuration", params.id));
    },
  }),
  route({
    method: "POST",
    pattern: "/v1/billing_portal/configurations/:id",
    operation: "billingPortal.configurations.update",
    summary: "Update a customer portal configuration",
    params: idParam("The configuration's id"),
    body: { active: arg.bool("Whether it can be used"), features: arg.anyHash("Features to change"), ...configurationFields },
    tool: {
      name: "update_billing_portal_configuration",
      description: "Change a customer portal configuration's features or deactivate it.",
    },
    handler(c, { params }) {
      if (params.id === DEFAULT_CONFIGURATION_ID) defaultConfiguration(c.db, c.now);
      return updateConfiguration(c, params.id);
    },
  }),
];
