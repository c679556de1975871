// Billing meters: created, listed, renamed, deactivated and reactivated; usage reported as meter
// events (a retried identifier refused, the customer and value keys required); a customer's usage
// summarised over a range by the meter's formula, whole or per hour.
import { describe, expect, it } from "vitest";
import type Stripe from "stripe";
import { stripeErrorOf, stripeSandbox } from "./fixtures";

const minute = (t: number) => Math.floor(t / 60) * 60;

describe("billing meters", () => {
  it("creates a meter with Stripe's defaults, lists, renames, deactivates and reactivates it", async () => {
    const { stripe } = await stripeSandbox();
    const meter = await stripe.billing.meters.create({
      display_name: "API calls",
      event_name: "api_call",
      default_aggregation: { formula: "sum" },
    });
    expect(meter).toMatchObject({
      object: "billing.meter",
      display_name: "API calls",
      event_name: "api_call",
      status: "active",
      default_aggregation: { formula: "sum" },
      customer_mapping: { event_payload_key: "stripe_customer_id", type: "by_id" },
      value_settings: { event_payload_key: "value" },
      status_transitions: { deactivated_at: null },
    });
    const duplicate = await stripeErrorOf(
      stripe.billing.meters.create({ display_name: "Again", event_name: "api_call", default_aggregation: { formula: "count" } }),
    );
    expect(duplicate).toMatchObject({ statusCode: 400, param: "event_name" });
    expect((await stripe.billing.meters.update(meter.id, { display_name: "Requests" })).display_name).toBe("Requests");
    const off = await stripe.billing.meters.deactivate(meter.id);
    expect(off.status).toBe("inactive");
    expect(off.status_transitions.deactivated_at).toEqual(expect.any(Number));
    expect((await stripe.billing.meters.list({ status: "inactive" })).data.map((m) => m.id)).toEqual([meter.id]);
    expect((await stripe.billing.meters.reactivate(meter.id)).status).toBe("active");
    expect((await stripe.billing.meters.retrieve(meter.id)).status).toBe("active");
    const types = (await stripe.events.list({ type: "billing.meter.*" })).data.map((e) => e.type);
    expect(types).toEqual(["billing.meter.reactivated", "billing.meter.deactivated", "billing.meter.updated", "billing.meter.created"]);
    const missing = await stripeErrorOf(
      stripe.billing.meters.create({ display_name: "x", event_name: "y" } as Stripe.Billing.MeterCreateParams),
    );
    expect(missing).toMatchObject({ code: "parameter_missing", param: "default_aggregation" });
    const badFormula = await stripeErrorOf(
      stripe.billing.meters.create({ display_name: "x", event_name: "y", default_aggregation: { formula: "avg" } }),
    );
    expect(badFormula).toMatchObject({ statusCode: 400, param: "default_aggregation[formula]" });
  });
});

describe("meter events and usage summaries", () => {
  it("sums a customer's reported usage over a range and per hour, ignoring other customers", async () => {
    const { stripe } = await stripeSandbox();
    const meter = await stripe.billing.meters.create({
      display_name: "Tokens",
      event_name: "tokens",
      default_aggregation: { formula: "sum" },
    });
    const now = Math.floor(Date.now() / 1000);
    const hourAgo = now - 3600;
    const event = await stripe.billing.meterEvents.create({
      event_name: "tokens",
      payload: { stripe_customer_id: "cus_alice", value: "120" },
      identifier: "req-1",
      timestamp: hourAgo,
    });
    expect(event).toEqual({
      object: "billing.meter_event",
      created: expect.any(Number),
      event_name: "tokens",
      identifier: "req-1",
      livemode: false,
      payload: { stripe_customer_id: "cus_alice", value: "120" },
      timestamp: hourAgo,
    });
    await stripe.billing.meterEvents.create({ event_name: "tokens", payload: { stripe_customer_id: "cus_alice", value: "30" } });
    await stripe.billing.meterEvents.create({ event_name: "tokens", payload: { stripe_customer_id: "cus_bob", value: "999" } });
    const retry = await stripeErrorOf(
      stripe.billing.meterEvents.create({
        event_name: "tokens",
        payload: { stripe_customer_id: "cus_alice", value: "120" },
        identifier: "req-1",
      }),
    );
    expect(retry).toMatchObject({ statusCode: 400, param: "identifier" });

    const start = minute(hourAgo) - 3600;
    const end = minute(now) + 60;
    const whole = await stripe.billing.meters.listEventSummaries(meter.id, { customer: "cus_alice", start_time: start, end_time: end });
    expect(whole.data).toEqual([
      {
        id: expect.stringMatching(/^mtrusg_/),
        object: "billing.meter_event_summary",
        aggregated_value: 150,
        end_time: end,
        livemode: false,
        meter: meter.id,
        start_time: start,
      },
    ]);
    const hourly = await stripe.billing.meters.listEventSummaries(meter.id, {
      customer: "cus_alice",
      start_time: start,
      end_time: end,
      value_grouping_window: "hour",
    });
    expect(hourly.data.reduce((s, x) => s + x.aggregated_value, 0)).toBe(150);
    expect(hourly.data[0].start_time).toBe(start);
    const unaligned = await stripeErrorOf(
      stripe.billing.meters.listEventSummaries(meter.id, { customer: "cus_alice", start_time: start + 1, end_time: end }),
    );
    expect(unaligned).toMatchObject({ statusCode: 400, param: "start_time" });
  });

  it("refuses events without the customer or a numeric value, or from too long ago", async () => {
    const { stripe } = await stripeSandbox();
    await stripe.billing.meters.create({ display_name: "Tokens", event_name: "tokens", default_aggregation: { formula: "sum" } });
    const noCustomer = await stripeErrorOf(stripe.billing.meterEvents.create({ event_name: "tokens", payload: { value: "1" } }));
    expect(noCustomer).toMatchObject({ code: "parameter_missing", param: "payload[stripe_customer_id]" });
    const noValue = await stripeErrorOf(
      stripe.billing.meterEvents.create({ event_name: "tokens", payload: { stripe_customer_id: "cus_alice" } }),
    );
    expect(noValue).toMatchObject({ code: "parameter_missing", param: "payload[value]" });
    const word = await stripeErrorOf(
      stripe.billing.meterEvents.create({ event_name: "tokens", payload: { stripe_customer_id: "cus_alice", value: "lots" } }),
    );
    expect(word).toMatchObject({ statusCode: 400, param: "payload[value]" });
    const old = await stripeErrorOf(
      stripe.billing.meterEvents.create({
        event_name: "tokens",
        payload: { stripe_customer_id: "cus_alice", value: "1" },
        timestamp: Math.floor(Date.now() / 1000) - 40 * 86400,
      }),
    );
    expect(old).toMatchObject({ statusCode: 400, param: "timestamp" });
  });

  it("counts events for a count meter without a value, and takes the latest for a last meter", async () => {
    const { stripe } = await stripeSandbox();
    const seats = await stripe.billing.meters.create({
      display_name: "Seats",
      event_name: "seats",
      default_aggregation: { formula: "last" },
    });
    const logins = await stripe.billing.meters.create({
      display_name: "Logins",
      event_name: "login",
      default_aggregation: { formula: "count" },
    });
    const now = Math.floor(Date.now() / 1000);
    await stripe.billing.meterEvents.create({
      event_name: "seats",
      payload: { stripe_customer_id: "cus_bob", value: "5" },
      timestamp: now - 120,
    });
    await stripe.billing.meterEvents.create({
      event_name: "seats",
      payload: { stripe_customer_id: "cus_bob", value: "3" },
      timestamp: now - 60,
    });
    await stripe.billing.meterEvents.create({ event_name: "login", payload: { stripe_customer_id: "cus_bob" } });
    await stripe.billing.meterEvents.create({ event_name: "login", payload: { stripe_customer_id: "cus_bob" } });
    const range = { customer: "cus_bob", start_time: minute(now) - 600, end_time: minute(now) + 60 };
    expect((await stripe.billing.meters.listEventSummaries(seats.id, range)).data[0].aggregated_value).toBe(3);
    expect((await stripe.billing.meters.listEventSummaries(logins.id, range)).data[0].aggregated_value).toBe(2);
  });
});
