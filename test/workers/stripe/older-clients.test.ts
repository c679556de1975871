// What older official Stripe clients send, taken as Stripe's v1 API takes it. stripe-python 5
// (Debian's python3-stripe) form-encodes booleans with Python's spelling (`confirm=True`), indexes
// lists (`expand[0]=`, `payment_method_types[0]=`) and pins its own `Stripe-Version`. Stripe's v1
// API reads `True`/`False` as booleans (stripe/stripe-dotnet#3104); lowercase is only required by v2.
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createSandbox } from "../helpers";

async function postForm(token: string, path: string, form: Record<string, string>, version?: string) {
  const res = await SELF.fetch(`http://pome.test${path}`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/x-www-form-urlencoded",
      ...(version ? { "stripe-version": version } : {}),
    },
    body: new URLSearchParams(form).toString(),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe("booleans in any case, as stripe-python 5 sends them", () => {
  it("confirms a PaymentIntent sent `confirm=True` with indexed lists and an older API version", async () => {
    const sandbox = await createSandbox({ twins: ["stripe"] });
    const token = sandbox.provider_credentials.stripe.token;
    const created = await postForm(
      token,
      "/v1/payment_intents",
      {
        amount: "2000",
        currency: "usd",
        payment_method: "pm_card_visa",
        "payment_method_types[0]": "card",
        confirm: "True",
        "expand[0]": "latest_charge",
      },
      "2022-08-01",
    );
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ status: "succeeded", latest_charge: { amount: 2000, object: "charge" } });
  });

  it("reads `False` as false and still refuses a word that is no boolean", async () => {
    const sandbox = await createSandbox({ twins: ["stripe"] });
    const token = sandbox.provider_credentials.stripe.token;
    const unconfirmed = await postForm(token, "/v1/payment_intents", {
      amount: "900",
      currency: "usd",
      "payment_method_types[0]": "card",
      confirm: "False",
    });
    expect(unconfirmed.status).toBe(200);
    expect(unconfirmed.body.status).toBe("requires_payment_method");
    const refused = await postForm(token, "/v1/payment_intents", { amount: "900", currency: "usd", confirm: "yes" });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ error: { type: "invalid_request_error", param: "confirm", message: "Invalid boolean: yes" } });
  });
});
