// Egress is deny-by-default (durable-objects/egress.ts, outbox.ts): a webhook endpoint the policy
// refuses is refused when it is registered, in the vendor's shape, through the official clients;
// deliveries never follow a redirect, each has a timeout, and each endpoint has its own queue.
// The receivers here answer through a stub of the runtime's fetch, which the Sandbox's outbox
// calls (the test and the Durable Object share one isolate); calls to the platform itself go on
// to the router.
import { SELF, env, runInDurableObject } from "cloudflare:test";
import { InvalidInputLinearError } from "@linear/sdk";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { DELIVERY_TIMEOUT_MS } from "../../../durable-objects/outbox";
import { sandboxStub } from "../../../workers/stubs";
import { ORIGIN, postJson } from "../helpers";
import { acmeWorld, linearFor, linearSandbox } from "../linear/fixtures";
import { stripeErrorOf, stripeSandbox } from "../stripe/fixtures";

const SECURE_ORIGIN = ORIGIN.replace(/^http:/, "https:");

interface Received {
  path: string;
  redirect: string;
  hasSignal: boolean;
  at: number;
}
const received: Received[] = [];
/** Receivers by path: what each answers (and when). Unlisted paths answer 200 at once. */
const receivers = new Map<string, (req: Request, signal: AbortSignal | undefined) => Promise<Response>>();
const arrivals = new Map<string, (() => void)[]>();

/** Resolves when a delivery to `path` arrives (an event, not a poll). */
function arrival(path: string): Promise<void> {
  if (received.some((r) => r.path === path)) return Promise.resolve();
  return new Promise((resolve) => arrivals.set(path, [...(arrivals.get(path) ?? []), resolve]));
}

beforeAll(() => {
  const stub: typeof fetch = async (input, init) => {
    const req = new Request(input as RequestInfo, init);
    if (req.url.startsWith(SECURE_ORIGIN)) return SELF.fetch(new Request(ORIGIN + req.url.slice(SECURE_ORIGIN.length), req));
    if (req.url.startsWith(ORIGIN)) return SELF.fetch(req);
    const path = new URL(req.url).pathname;
    received.push({ path, redirect: init?.redirect ?? "follow", hasSignal: init?.signal instanceof AbortSignal, at: Date.now() });
    for (const wake of arrivals.get(path) ?? []) wake();
    arrivals.delete(path);
    const answer = receivers.get(path);
    return answer ? answer(req, init?.signal ?? undefined) : new Response("ok");
  };
  vi.stubGlobal("fetch", stub);
});
afterAll(() => vi.unstubAllGlobals());

/** The outbox rows of a sandbox, oldest first. */
const outbox = (sessionId: string) =>
  runInDurableObject(sandboxStub(env, sessionId), (_i, state) =>
    state.storage.sql
      .exec<{ url: string; attempts: number; delivered_at: number | null; last_status: number | null }>(
        "SELECT url, attempts, delivered_at, last_status FROM _outbox ORDER BY id",
      )
      .toArray(),
  );

const REFUSED_EVERYWHERE = [
  "http://169.254.169.254/latest/meta-data/",
  "http://10.0.0.7:4010/hook",
  "http://0x7f000001:4010/hook",
  "http://2130706433:4010/hook",
  "http://[::ffff:127.0.0.1]:4010/hook",
  "http://user:secret@127.0.0.1:4010/hook",
  "ftp://127.0.0.1:4010/hook",
];

describe("registration refuses a URL the egress policy refuses, in the vendor's shape", () => {
  it("Stripe answers 400 invalid_request_error on param url, and creates nothing", async () => {
    const { sandbox, stripe } = await stripeSandbox();
    const ownOrigin = `${sandbox.per_twin.stripe.api_url}/v1/customers`;
    for (const url of [...REFUSED_EVERYWHERE, ownOrigin, "http://127.0.0.1/hook", "https://hooks.example.com/stripe"]) {
      const err = await stripeErrorOf(stripe.webhookEndpoints.create({ url, enabled_events: ["customer.created"] }));
      expect(err, url).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
      expect({ status: err.statusCode, type: err.type, param: err.param }).toEqual({
        status: 400,
        type: "StripeInvalidRequestError",
        param: "url",
      });
      expect(err.message).toMatch(/^Invalid URL: /);
    }
    expect((await stripe.webhookEndpoints.list()).data).toEqual([]);
    const we = await stripe.webhookEndpoints.create({ url: "http://127.0.0.1:4010/stripe", enabled_events: ["customer.created"] });
    const err = await stripeErrorOf(stripe.webhookEndpoints.update(we.id, { url: "http://169.254.169.254/" }));
    expect({ status: err.statusCode, param: err.param }).toEqual({ status: 400, param: "url" });
    expect((await stripe.webhookEndpoints.retrieve(we.id)).url).toBe("http://127.0.0.1:4010/stripe");
  });

  it("Stripe allows 16 webhook endpoints per account and refuses the 17th", async () => {
    const { stripe } = await stripeSandbox();
    for (let i = 0; i < 16; i++) await stripe.webhookEndpoints.create({ url: `http://127.0.0.1:4010/e${i}`, enabled_events: ["*"] });
    const err = await stripeErrorOf(stripe.webhookEndpoints.create({ url: "http://127.0.0.1:4010/e16", enabled_events: ["*"] }));
    expect({ status: err.statusCode, type: err.type }).toEqual({ status: 400, type: "StripeInvalidRequestError" });
    expect(err.message).toMatch(/maximum of 16 webhook endpoints/);
    expect((await stripe.webhookEndpoints.list({ limit: 100 })).data).toHaveLength(16);
  });

  it("Linear answers its invalid-input GraphQL error to webhookCreate and webhookUpdate, and changes nothing", async () => {
    const sb = await linearSandbox();
    const client = linearFor(sb);
    const team = (await client.teams()).nodes[0];
    for (const url of [
      ...REFUSED_EVERYWHERE,
      `${SECURE_ORIGIN}/linear/s/${sb.session_id}/graphql`,
      `${ORIGIN}/slack/s/x/api/chat.postMessage`,
    ]) {
      const err = await client.createWebhook({ url, resourceTypes: ["Issue"], teamId: team.id }).catch((e: unknown) => e);
      expect(err, url).toBeInstanceOf(InvalidInputLinearError);
    }
    expect((await client.webhooks()).nodes).toEqual([]);
    const hook = (await client.createWebhook({ url: "http://127.0.0.1:4010/linear", resourceTypes: ["Issue"], teamId: team.id })).webhook;
    const id = (await hook)?.id ?? "";
    const err = await client.updateWebhook(id, { url: "http://[fe80::1]/x" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidInputLinearError);
    expect((await client.webhooks()).nodes.map((w) => w.url)).toEqual(["http://127.0.0.1:4010/linear"]);
  });

  it("refuses seeds that register such URLs, with the failing path", async () => {
    type Refusal = { error: { details: { twin: string; issues: { path: string; message: string }[] } } };
    const pathsOf = async (twin: string, seed: unknown) => {
      const res = await postJson("/v1/seeds/validate", { twins: [twin], seed });
      expect(res.status).toBe(422);
      return (await res.json<Refusal>()).error.details.issues.map((i) => i.path);
    };
    expect(await pathsOf("stripe", { webhook_endpoints: [{ url: "http://169.254.169.254/x", enabled_events: ["*"] }] })).toEqual([
      "webhook_endpoints[0].url",
    ]);
    const linearSeed = acmeWorld({ webhooks: [{ url: "http://0x7f000001:4010/x", resourceTypes: ["Issue"], team: "ENG" }] });
    expect(await pathsOf("linear", linearSeed)).toEqual(["webhooks[0].url"]);
    const seventeen = Array.from({ length: 17 }, (_, i) => ({ url: `http://127.0.0.1:4010/e${i}`, enabled_events: ["*"] }));
    expect(await pathsOf("stripe", { webhook_endpoints: seventeen })).toEqual(["webhook_endpoints"]);
  });
});

describe("deliveries never follow a redirect", () => {
  it("asks the runtime not to follow, and records a 3xx as a failed delivery", async () => {
    receivers.set("/moved", async () => new Response(null, { status: 302, headers: { location: "http://127.0.0.1:4010/followed" } }));
    const { sandbox, stripe } = await stripeSandbox();
    await stripe.webhookEndpoints.create({ url: "http://127.0.0.1:4010/moved", enabled_events: ["customer.created"] });
    await stripe.customers.create({ email: "redirect@example.com" });
    await arrival("/moved");
    await vi.waitFor(async () => expect((await outbox(sandbox.session_id))[0]?.attempts).toBe(1));
    expect(received.find((r) => r.path === "/moved")?.redirect).toBe("manual");
    expect(received.some((r) => r.path === "/followed")).toBe(false);
    expect(await outbox(sandbox.session_id)).toEqual([
      { url: "http://127.0.0.1:4010/moved", attempts: 1, delivered_at: null, last_status: 302 },
    ]);
  });
});

describe("each endpoint has its own queue", () => {
  it("delivers to a fast endpoint while a slow one has not answered", async () => {
    let releaseSlow = () => {};
    const slowReleased = new Promise<void>((resolve) => {
      releaseSlow = resolve;
    });
    const events: string[] = [];
    receivers.set("/slow", async () => {
      events.push("slow received");
      // Held until the fast endpoint has its delivery; a shared queue would never get there.
      await Promise.race([slowReleased, new Promise((resolve) => setTimeout(resolve, DELIVERY_TIMEOUT_MS - 1000))]);
      events.push("slow answered");
      return new Response("ok");
    });
    receivers.set("/fast", async () => {
      events.push("fast received");
      releaseSlow();
      return new Response("ok");
    });
    const { sandbox, stripe } = await stripeSandbox();
    // The slow endpoint is registered first, so its delivery is queued first.
    await stripe.webhookEndpoints.create({ url: "http://127.0.0.1:4010/slow", enabled_events: ["customer.created"] });
    await stripe.webhookEndpoints.create({ url: "http://127.0.0.1:4010/fast", enabled_events: ["customer.created"] });
    await stripe.customers.create({ email: "queues@example.com" });
    await Promise.all([arrival("/slow"), arrival("/fast")]);
    await vi.waitFor(async () => expect((await outbox(sandbox.session_id)).every((r) => r.delivered_at !== null)).toBe(true));
    expect(events).toEqual(["slow received", "fast received", "slow answered"]);
  });
});

describe("each delivery has a timeout", () => {
  it(
    "gives up on a receiver that never answers, and records the attempt as failed",
    async () => {
      receivers.set("/silent", (_req, signal) => {
        return new Promise<Response>((_resolve, reject) => {
          signal?.addEventListener("abort", () => reject(signal.reason));
        });
      });
      const { sandbox, stripe } = await stripeSandbox();
      await stripe.webhookEndpoints.create({ url: "http://127.0.0.1:4010/silent", enabled_events: ["customer.created"] });
      const start = Date.now();
      await stripe.customers.create({ email: "silent@example.com" });
      await arrival("/silent");
      expect(received.find((r) => r.path === "/silent")?.hasSignal).toBe(true);
      await vi.waitFor(async () => expect((await outbox(sandbox.session_id))[0]?.attempts).toBe(1), {
        timeout: DELIVERY_TIMEOUT_MS + 5000,
        interval: 250,
      });
      expect(Date.now() - start).toBeGreaterThanOrEqual(DELIVERY_TIMEOUT_MS - 100);
      expect(await outbox(sandbox.session_id)).toEqual([
        { url: "http://127.0.0.1:4010/silent", attempts: 1, delivered_at: null, last_status: 0 },
      ]);
      const failures = await runInDurableObject(sandboxStub(env, sandbox.session_id), (_i, state) =>
        state.storage.sql.exec<{ twin: string; kind: string }>("SELECT twin, kind FROM _delivery_failures").toArray(),
      );
      expect(failures).toEqual([{ twin: "stripe", kind: "webhook" }]);
    },
    DELIVERY_TIMEOUT_MS + 15_000,
  );
});
