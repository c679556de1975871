// Tax rates (create, retrieve, update, list) and promotion codes (create, retrieve, update, list).
// Tax rates apply to invoice lines and subscriptions (`tax_rates`, `default_tax_rates`); promotion
// codes apply their coupon as `discounts[][promotion_code]` (billing.ts, tax.ts).
import type { Route } from "../../types";
import { filterOf, listResponse, load, show } from "../call";
import { arg, expand, idParam, listQuery, metadata, route } from "../declare";
import { invalidRequest, missingParam } from "../errors";
import { changed, emit } from "../events";
import { activeCode, buildPromotionCode, buildTaxRate } from "../tax";
import { idBody, insertObject, newId, rec, saveObject, strMap, type Rec } from "../store";

const TAX_TYPES = [
  "amusement_tax",
  "communications_tax",
  "gst",
  "hst",
  "igst",
  "jct",
  "lease_tax",
  "pst",
  "qst",
  "retail_delivery_fee",
  "rst",
  "sales_tax",
  "service_tax",
  "vat",
] as const;

const taxRateFields = {
  active: arg.bool("Whether it can be applied to new invoices and subscriptions"),
  country: arg.text("Two-letter country code"),
  description: arg.text("Description for internal use"),
  display_name: arg.text("Name shown to customers, e.g. VAT or Sales tax"),
  jurisdiction: arg.text("Jurisdiction shown to customers"),
  metadata,
  state: arg.text("ISO 3166-2 subdivision code, e.g. CA"),
  tax_type: arg.oneOf(TAX_TYPES, "The kind of tax"),
  expand,
};

const promotionRestrictions = arg.hash(
  {
    first_time_transaction: arg.bool("Only for customers who have never paid"),
    minimum_amount: arg.int("Minimum amount the order must reach"),
    minimum_amount_currency: arg.text("Currency of minimum_amount"),
  },
  "Conditions on using the code",
);

/** A code a customer types: when none is given Stripe makes one of letters and digits. */
const generatedCode = (id: string) => idBody(`code:${id}`, 8).toUpperCase();

export const taxRoutes: readonly Route[] = [
  route({
    method: "POST",
    pattern: "/v1/tax_rates",
    operation: "taxRates.create",
    summary: "Create a tax rate",
    body: {
      ...taxRateFields,
      percentage: arg.decimal("The rate in percent, e.g. 20 or 7.25"),
      inclusive: arg.bool("Whether the rate is included in the amounts it applies to"),
    },
    tool: {
      name: "create_tax_rate",
      description: "Create a tax rate (percentage, inclusive or exclusive) for invoices and subscriptions.",
    },
    handler(c, { body }) {
      const percentage = c.p.num("percentage") ?? (undefined as number | undefined);
      if (percentage === undefined) return missingParam("percentage");
      if (body.display_name === undefined) return missingParam("display_name");
      if (body.inclusive === undefined) return missingParam("inclusive");
      if (percentage < 0 || percentage > 100)
        return invalidRequest("Percentage must be greater than or equal to 0 and less than or equal to 100.", { param: "percentage" });
      const rate = buildTaxRate(
        {
          active: body.active ?? true,
          country: body.country ?? null,
          description: body.description ?? null,
          display_name: body.display_name,
          effective_percentage: percentage,
          inclusive: body.inclusive,
          jurisdiction: body.jurisdiction ?? null,
          metadata: c.p.metadata(),
          percentage,
          state: body.state ?? null,
          tax_type: body.tax_type ?? null,
        },
        { id: newId(c.db, "tax_rate"), created: c.now },
      );
      insertObject(c.db, "tax_rate", rate);
      emit(c, "tax_rate.created", "tax_rate", rate);
      return show(c, "tax_rate", rate);
    },
  }),
  route({
    method: "GET",
    pattern: "/v1/tax_rates",
    operation: "taxRates.list",
    summary: "List tax rates",
    query: {
      ...listQuery,
      active: arg.bool("Only active (true) or archived (false) rates"),
      inclusive: arg.bool("Only inclusive or exclusive rates"),
    },
    tool: { name: "list_tax_rates", description: "List tax rates." },
    handler(c, { query }) {
      const keep = (o: Rec) => query.inclusive === undefined || o.inclusive === query.inclusive;
      const active = query.active === undefined ? [] : [{ column: "status" as const, value: String(query.active) }];
      return listResponse(c, "tax_rate", "/v1/tax_rates", active, keep);
    },
  }),
  route({
    method: "GET",
    pattern: "/v1/tax_rates/:id",
    operation: "taxRates.retrieve",
    summary: "Retrieve a tax rate",
    params: idParam("The tax rate's id, txr_…"),
    query: { expand },
    tool: { name: "get_tax_rate", description: "Retrieve a tax rate." },
    handler: (c, { params }) => show(c, "tax_rate", load(c, "tax_rate", params.id)),
  }),
  route({
    method: "POST",
    pattern: "/v1/tax_rates/:id",
    operation: "taxRates.update",
    summary: "Update a tax rate",
    params: idParam("The tax rate's id"),
    body: taxRateFields,
    tool: { name: "update_tax_rate", description: "Update a tax rate's name, description, metadata, or archive it (active: false)." },
    handler(c, { params, body }) {
      const before = load(c, "tax_rate", params.id);
      // The percentage and inclusiveness are fixed once created: only these fields change.
      const given = Object.fromEntries(
        (["active", "country", "description", "display_name", "jurisdiction", "state", "tax_type"] as const)
          .filter((k) => body[k] !== undefined)
          .map((k) => [k, body[k]]),
      );
      const after = { ...before, ...given, metadata: c.p.metadata(strMap(before.metadata)) };
      saveObject(c.db, "tax_rate", after);
      emit(c, "tax_rate.updated", "tax_rate", after, changed(before, after));
      return show(c, "tax_rate", after);
    },
  }),
  route({
    method: "POST",
    pattern: "/v1/promotion_codes",
    operation: "promotionCodes.create",
    summary: "Create a promotion code",
    body: {
      promotion: arg.hash(
        { type: arg.oneOf(["coupon"], "What the code promotes"), coupon: arg.text("The coupon's id") },
        "The coupon the code applies",
      ),
      code: arg.text("The code customers enter (generated when absent)"),
      active: arg.bool("Whether it can be redeemed"),
      customer: arg.text("Only this customer may redeem it"),
      expires_at: arg.int("Unix time it stops being redeemable"),
      max_redemptions: arg.int("How many times it can be redeemed"),
      restrictions: promotionRestrictions,
      metadata,
      expand,
    },
    tool: { name: "create_promotion_code", description: "Create a customer-facing code for a coupon, e.g. SPRING25." },
    handler(c, { body }) {
      const promotion = c.p.sub("promotion");
      if (!promotion) return missingParam("promotion");
      if (body.promotion?.type === undefined) return missingParam("promotion[type]");
      const coupon = load(c, "coupon", promotion.req("coupon"), "promotion[coupon]");
      if (body.customer) load(c, "customer", body.customer, "customer");
      const id = newId(c.db, "promotion_code");
      const code = body.code ?? generatedCode(id);
      if (activeCode(c, code))
        return invalidRequest("An active promotion code with `code: " + code + "` already exists.", { param: "code" });
      const r = rec(body.restrictions);
      const promo = buildPromotionCode(
        {
          active: body.active ?? true,
          code,
          customer: body.customer ?? null,
          expires_at: body.expires_at ?? null,
          max_redemptions: body.max_redemptions ?? null,
          metadata: c.p.metadata(),
          promotion: { coupon: coupon.id, type: "coupon" },
          restrictions: {
            first_time_transaction: r.first_time_transaction ?? false,
            minimum_amount: r.minimum_amount ?? null,
            minimum_amount_currency: r.minimum_amount_currency ?? null,
          },
        },
        { id, created: c.now },
      );
      insertObject(c.db, "promotion_code", promo);
      emit(c, "promotion_code.created", "promotion_code", promo);
      return show(c, "promotion_code", promo);
    },
  }),
  route({
    method: "GET",
    pattern: "/v1/promotion_codes",
    operation: "promotionCodes.list",
    summary: "List promotion codes",
    query: {
      ...listQuery,
      active: arg.bool("Only active or inactive codes"),
      code: arg.text("Only this code (case-sensitive)"),
      coupon: arg.text("Only this coupon's codes"),
      customer: arg.text("Only codes restricted to this customer"),
    },
    tool: { name: "list_promotion_codes", description: "List promotion codes, e.g. to find one by its code." },
    handler(c, { query }) {
      const active = query.active === undefined ? [] : [{ column: "status" as const, value: String(query.active) }];
      return listResponse(c, "promotion_code", "/v1/promotion_codes", [
        ...active,
        ...filterOf(c, "code", "ref2"),
        ...filterOf(c, "coupon", "ref"),
        ...filterOf(c, "customer", "customer"),
      ]);
    },
  }),
  route({
    method: "GET",
    pattern: "/v1/promotion_codes/:id",
    operation: "promotionCodes.retrieve",
    summary: "Retrieve a promotion code",
    params: idParam("The promotion code's id, promo_…"),
    query: { expand },
    tool: { name: "get_promotion_code", description: "Retrieve a promotion code." },
    handler: (c, { params }) => show(c, "promotion_code", load(c, "promotion_code", params.id)),
  }),
  route({
    method: "POST",
    pattern: "/v1/promotion_codes/:id",
    operation: "promotionCodes.update",
    summary: "Update a promotion code",
    params: idParam("The promotion code's id"),
    body: {
      active: arg.bool("Whether it can be redeemed"),
      metadata,
      restrictions: arg.anyHash("Currency options of the restrictions"),
      expand,
    },
    tool: { name: "update_promotion_code", description: "Deactivate or reactivate a promotion code, or change its metadata." },
    handler(c, { params, body }) {
      const before = load(c, "promotion_code", params.id);
      if (body.active === true && before.active !== true && activeCode(c, String(before.code)))
        return invalidRequest(`An active promotion code with \`code: ${String(before.code)}\` already exists.`, { param: "active" });
      const after = { ...before, active: body.active ?? before.active, metadata: c.p.metadata(strMap(before.metadata)) };
      saveObject(c.db, "promotion_code", after);
      emit(c, "promotion_code.updated", "promotion_code", after, changed(before, after));
      return show(c, "promotion_code", after);
    },
  }),
];
