// Every Stripe route declares its parameters once (durable-objects/twins/stripe/declare.ts): the
// kit reads them from the form or the query into the declared types and refuses a wrong one in
// Stripe's own shape, naming the parameter the Stripe way; the MCP tools and /_pome/openapi.json
// come from the same declarations.
import { describe, expect, it } from "vitest";
import type Stripe from "stripe";
import { coerce, type InputProblem } from "../../../durable-objects/twins/kit/route";
import { arg, created, paramName, refuseParam } from "../../../durable-objects/twins/stripe/declare";
import { stripeRoutes } from "../../../durable-objects/twins/stripe/routes";
import { stripeTools } from "../../../durable-objects/twins/stripe/tools";
import { twinFetch, type CreatedSandbox } from "../helpers";
import { exampleSeed, stripeErrorOf, stripeSandbox } from "./fixtures";

const stateOf = async (sandbox: CreatedSandbox) => (await twinFetch(sandbox, "/_pome/state", {}, "stripe")).text();

/** Routes that may stay undeclared, each with its reason. None today: every Stripe route is declared. */
const UNDECLARED: Readonly<Record<string, string>> = {};

const problem = (p: Partial<InputProblem>): InputProblem => ({
  place: "body",
  path: [],
  code: "invalid_type",
  message: "",
  received: undefined,
  ...p,
});

const errorOf = (res: { status: number; body: string }) => ({ status: res.status, ...(JSON.parse(res.body) as { error: unknown }) });

describe("a declaration's refusal is worded as Stripe words it", () => {
  it("names a nested parameter with brackets", () => {
    expect(paramName(["items", 0, "price"])).toBe("items[0][price]");
    expect(paramName(["amount"])).toBe("amount");
  });

  it("answers a missing, a non-integer, a non-boolean and an unknown value with Stripe's codes", () => {
    expect(errorOf(refuseParam(problem({ path: ["customer"], expected: "string" })))).toMatchObject({
      status: 400,
      error: { type: "invalid_request_error", code: "parameter_missing", param: "customer", message: "Missing required param: customer." },
    });
    expect(errorOf(refuseParam(problem({ path: ["items", 1, "quantity"], expected: "number", received: "two" })))).toMatchObject({
      error: { code: "parameter_invalid_integer", param: "items[1][quantity]", message: "Invalid integer: two" },
    });
    expect(errorOf(refuseParam(problem({ path: ["confirm"], expected: "boolean", received: "yes" })))).toMatchObject({
      error: { param: "confirm", message: "Invalid boolean: yes" },
    });
    expect(errorOf(refuseParam(problem({ path: ["metadata"], expected: "record", received: ["x"] })))).toMatchObject({
      error: { param: "metadata", message: "Invalid hash: metadata" },
    });
    expect(errorOf(refuseParam(problem({ path: ["created"], code: "invalid_union", received: { gte: "soon" } })))).toMatchObject({
      error: { code: "parameter_invalid_integer", param: "created[gte]" },
    });
  });
});

describe("form strings are read as the declared types, unions included", () => {
  const rules = { emptyIsAbsent: true };
  it('reads `created` as an exact second or a range, and "" as unset', () => {
    expect(coerce(created, "1767225600", rules)).toBe(1767225600);
    expect(coerce(created, { gte: "5", lt: "9" }, rules)).toEqual({ gte: 5, lt: 9 });
    expect(coerce(created, "", rules)).toBeUndefined();
    expect(created.safeParse(coerce(created, "yesterday", rules)).success).toBe(false);
  });

  it("reads `trial_end` as now or an integer", () => {
    const trialEnd = arg.intOr("now", "Trial end");
    expect(coerce(trialEnd, "now", rules)).toBe("now");
    expect(coerce(trialEnd, "1767225600", rules)).toBe(1767225600);
  });

  it("words a union no branch took as Stripe does", () => {
    expect(errorOf(refuseParam(problem({ path: ["trial_end"], code: "invalid_union", received: "soon" })))).toMatchObject({
      error: { code: "parameter_invalid_integer", param: "trial_end", message: "Invalid integer: soon" },
    });
    expect(errorOf(refuseParam(problem({ path: ["expand"], code: "invalid_union", received: { a: "b" } })))).toMatchObject({
      error: { param: "expand", message: "Invalid array: expand" },
    });
  });
});

describe("a declared route refuses a wrong-typed parameter in Stripe's shape, naming it, and changes nothing", () => {
  it("refuses a non-integer amount, a nested non-integer quantity and a value outside an enum through stripe-node", async () => {
    const { sandbox, stripe } = await stripeSandbox(exampleSeed());
    const before = await stateOf(sandbox);
    const amount = await stripeErrorOf(stripe.paymentIntents.create({ amount: "ten" as unknown as number, currency: "usd" }));
    expect(amount).toMatchObject({
      type: "StripeInvalidRequestError",
      statusCode: 400,
      code: "parameter_invalid_integer",
      param: "amount",
      message: "Invalid integer: ten",
    });
    const quantity = await stripeErrorOf(
      stripe.subscriptions.create({
        customer: "cus_alice",
        items: [{ price: "price_pro_monthly", quantity: "many" as unknown as number }],
      }),
    );
    expect(quantity).toMatchObject({ code: "parameter_invalid_integer", param: "items[0][quantity]" });
    const reason = await stripeErrorOf(stripe.refunds.create({ charge: "ch_alice", reason: "bored" as Stripe.RefundCreateParams.Reason }));
    expect(reason).toMatchObject({
      param: "reason",
      message: "Invalid reason: must be one of duplicate, fraudulent, requested_by_customer",
    });
    const missing = await stripeErrorOf(stripe.paymentMethods.attach("pm_card_visa", {} as Stripe.PaymentMethodAttachParams));
    expect(missing).toMatchObject({ code: "parameter_missing", param: "customer" });
    expect(await stateOf(sandbox)).toBe(before);
  });

  it("reads a GET's nested query (a created range) into its declared types", async () => {
    const { stripe } = await stripeSandbox(exampleSeed());
    expect((await stripe.customers.list({ created: { gte: 1767225600 } })).data.map((c) => c.id)).toEqual(["cus_alice"]);
    const bad = await stripeErrorOf(stripe.customers.list({ created: { gte: "soon" } } as unknown as Stripe.CustomerListParams));
    expect(bad).toMatchObject({ code: "parameter_invalid_integer", param: "created[gte]" });
  });
});

interface OpenApiParameter {
  name: string;
  in: string;
  required: boolean;
  schema: Record<string, unknown>;
}
interface OpenApiOperation {
  parameters?: OpenApiParameter[];
  requestBody?: { required: boolean; content: Record<string, { schema: { properties?: Record<string, unknown>; required?: string[] } }> };
}

describe("/_pome/openapi.json lists the parameters and request body of Stripe's routes", () => {
  it("derives path and query parameters and the form body from the declarations", async () => {
    const { sandbox } = await stripeSandbox();
    const doc = await (await twinFetch(sandbox, "/_pome/openapi.json", {}, "stripe")).json<{
      paths: Record<string, Record<string, OpenApiOperation>>;
    }>();
    const list = doc.paths["/v1/customers"]?.get;
    expect(list?.parameters?.find((p) => p.name === "limit")).toMatchObject({ in: "query", required: false, schema: { type: "integer" } });
    expect(list?.parameters?.map((p) => p.name)).toEqual(expect.arrayContaining(["email", "starting_after", "created", "expand"]));
    expect(doc.paths["/v1/customers/{id}"]?.get?.parameters?.[0]).toMatchObject({ name: "id", in: "path", required: true });

    const create = doc.paths["/v1/payment_intents"]?.post?.requestBody?.content["application/x-www-form-urlencoded"]?.schema;
    expect(create?.required).toEqual(expect.arrayContaining(["amount", "currency"]));
    expect(create?.properties).toMatchObject({ amount: { type: "integer" }, confirm: { type: "boolean" } });
    const refund = doc.paths["/v1/refunds"]?.post?.requestBody?.content["application/x-www-form-urlencoded"]?.schema;
    expect(refund?.properties?.reason).toMatchObject({ enum: ["duplicate", "fraudulent", "requested_by_customer"] });
    const items = doc.paths["/v1/subscriptions"]?.post?.requestBody?.content["application/x-www-form-urlencoded"]?.schema;
    expect(items?.properties?.items).toMatchObject({ type: "array", items: { type: "object" } });
  });
});

describe("every Stripe route carries its declaration, and the tools come from them", () => {
  it("declares every route, or names why not", () => {
    const undeclared = stripeRoutes.filter((r) => !r.declaration).map((r) => r.operation);
    expect(undeclared.sort()).toEqual(Object.keys(UNDECLARED).sort());
  });

  it("derives one tool per tooled route, with the route's parameters as its arguments", () => {
    const tooled = stripeRoutes.filter((r) => r.declaration?.tool).map((r) => r.declaration?.tool?.name);
    expect(stripeTools.map((t) => t.name)).toEqual(tooled);
    const create = stripeTools.find((t) => t.name === "create_payment_intent");
    expect(create?.toRequest({ amount: 500, currency: "usd", confirm: true })).toEqual({
      method: "POST",
      path: "/v1/payment_intents",
      query: {},
      body: { amount: 500, currency: "usd", confirm: true },
    });
    expect(() => create?.toRequest({ amount: 500, currency: "usd", colour: "red" })).toThrow();
  });

  it("sends a list tool's nested arguments in the query the way Stripe reads them", () => {
    const list = stripeTools.find((t) => t.name === "list_customers");
    expect(list?.toRequest({ limit: 3, created: { gte: 5 }, expand: ["data.default_source", "data.test_clock"] })).toEqual({
      method: "GET",
      path: "/v1/customers",
      query: { limit: "3", "created[gte]": "5", "expand[0]": "data.default_source", "expand[1]": "data.test_clock" },
    });
    const pms = stripeTools.find((t) => t.name === "get_customer_payment_method");
    expect(pms?.toRequest({ customer: "cus_a", payment_method: "pm_b" })).toMatchObject({
      path: "/v1/customers/cus_a/payment_methods/pm_b",
    });
  });
});
