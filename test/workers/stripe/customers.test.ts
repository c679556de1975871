import { describe, expect, it } from "vitest";
import Stripe from "stripe";
import { stripeErrorOf, stripeSandbox } from "./fixtures";

describe("customers through stripe-node", () => {
  it("creates, retrieves, updates, lists and deletes", async () => {
    const { stripe } = await stripeSandbox();
    const created = await stripe.customers.create({ email: "dan@example.com", name: "Dan", metadata: { plan: "pro" } });
    expect(created.id).toMatch(/^cus_[A-Za-z0-9]{24}$/);
    expect(created).toMatchObject({ object: "customer", email: "dan@example.com", livemode: false, metadata: { plan: "pro" } });
    expect(created.lastResponse.requestId).toMatch(/^req_/);
    const got = await stripe.customers.retrieve(created.id);
    expect(got).toMatchObject({ id: created.id, email: "dan@example.com" });
    const updated = await stripe.customers.update(created.id, { name: "Daniel", metadata: { plan: "", tier: "gold" } });
    expect(updated.name).toBe("Daniel");
    expect(updated.metadata).toEqual({ tier: "gold" });
    const list = await stripe.customers.list({ limit: 2 });
    expect(list.object).toBe("list");
    expect(list.data[0].id).toBe(created.id);
    expect(list.has_more).toBe(true);
    const byEmail = await stripe.customers.list({ email: "alice@example.com" });
    expect(byEmail.data.map((c) => c.id)).toEqual(["cus_alice"]);
    const deleted = await stripe.customers.del(created.id);
    expect(deleted).toMatchObject({ id: created.id, object: "customer", deleted: true });
    const stub = await stripe.customers.retrieve(created.id);
    expect(stub.deleted).toBe(true);
  });

  it("auto-paginates both ways", async () => {
    const { stripe } = await stripeSandbox();
    for (let i = 0; i < 5; i++) await stripe.customers.create({ email: `p${i}@example.com` });
    const forward: string[] = [];
    for await (const c of stripe.customers.list({ limit: 2 })) forward.push(c.id);
    expect(forward).toHaveLength(8);
    expect(forward.slice(5)).toEqual(["cus_carol", "cus_bob", "cus_alice"]);
    const back: string[] = [];
    for await (const c of stripe.customers.list({ limit: 2, ending_before: "cus_alice" })) back.push(c.id);
    expect(back).toHaveLength(7);
    expect(new Set(back)).toEqual(new Set(forward.slice(0, 7)));
  });

  it("answers a missing customer with resource_missing and an unknown parameter with parameter_unknown", async () => {
    const { stripe } = await stripeSandbox();
    const missing = await stripeErrorOf(stripe.customers.retrieve("cus_nope"));
    expect(missing).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(missing).toMatchObject({ statusCode: 404, code: "resource_missing", param: "id", message: "No such customer: 'cus_nope'" });
    expect(missing.requestId).toMatch(/^req_/);
    const unknown = await stripeErrorOf(stripe.customers.create({ emial: "x" } as Stripe.CustomerCreateParams));
    expect(unknown).toMatchObject({ statusCode: 400, code: "parameter_unknown", param: "emial" });
  });

  it("searches with Stripe's query language and sees writes at once", async () => {
    const { stripe } = await stripeSandbox();
    await stripe.customers.create({ email: "zed@example.com", name: "Zed Zulu", metadata: { tier: "gold" } });
    const r = await stripe.customers.search({ query: "email:'zed@example.com'" });
    expect(r.object).toBe("search_result");
    expect(r.data.map((c) => c.email)).toEqual(["zed@example.com"]);
    const meta = await stripe.customers.search({ query: "metadata['tier']:'gold' AND name~'zulu'" });
    expect(meta.data).toHaveLength(1);
    const all: string[] = [];
    for await (const c of stripe.customers.search({ query: "-email:null", limit: 1 })) all.push(c.id);
    expect(all).toHaveLength(4);
  });
});
