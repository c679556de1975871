// Point reads and writes cost the same on a world of 10 customers (each with a card, a payment and
// a charge) as on one of 10,000; a list page costs its page. Measured as rows SQLite reads.
import { describe, expect, it } from "vitest";
import { stripeTwin } from "../../../durable-objects/twins/stripe";
import { inTwinWorld } from "../kit/world";

const form = (body: string) => ({ rawBody: body, headers: { "content-type": "application/x-www-form-urlencoded" } });

/** The calls an agent makes around one customer, in order against a fresh world. */
const CALLS: [string, string, ReturnType<typeof form> | { query: string } | undefined][] = [
  ["GET", "/v1/customers/cus_gen000005", undefined],
  ["POST", "/v1/customers/cus_gen000005", form("name=Renamed&metadata[tier]=gold")],
  ["GET", "/v1/charges/ch_gen000005", undefined],
  ["GET", "/v1/payment_intents/pi_gen000005", { query: "expand[0]=latest_charge&expand[1]=customer" }],
  ["POST", "/v1/refunds", form("charge=ch_gen000005&amount=100")],
  [
    "POST",
    "/v1/payment_intents",
    form("amount=2000&currency=usd&customer=cus_gen000005&payment_method=pm_gen000005&allowed_payment_method_types[0]=card&confirm=true"),
  ],
  ["GET", "/v1/balance", undefined],
  ["GET", "/v1/customers", { query: "limit=10" }],
  ["GET", "/v1/charges", { query: "limit=10&customer=cus_gen000005" }],
  ["GET", "/v1/refunds", { query: "charge=ch_gen000005" }],
  ["POST", "/v1/customers", form("email=new@example.com")],
];

async function costs(count: number): Promise<number[]> {
  return inTwinWorld(stripeTwin, stripeTwin.generateSeed?.(count), (w) => CALLS.map(([method, path, opts]) => w.cost(method, path, opts)));
}

describe("Stripe point reads and writes are constant in the world's size", () => {
  it("reads the same rows for each call on 10 and on 10,000 customers", async () => {
    const small = await costs(10);
    const large = await costs(10_000);
    const table = CALLS.map(([method, path], i) => `${method} ${path}: ${small[i]} vs ${large[i]}`);
    expect(
      small.every((n) => n > 0),
      "every call is measured",
    ).toBe(true);
    expect(large, table.join("\n")).toEqual(small);
  });
});
