// A body over a limit is answered, reliably, to the clients users run: Node's own `fetch` (undici,
// which every official Node client sends through or beside) and the official clients themselves.
// The server reads and drops an oversized body before answering; refusing it unread made undici
// report `fetch failed` (EPIPE) about half the time instead of the 413. Not curl: curl waits for
// `100-continue` and so never shows the race.
import { Octokit } from "@octokit/rest";
import { beforeAll, describe, expect, it } from "vitest";
import { createSandbox, pomeUrl, stripeFor, tapeOf, type Sandbox } from "./mcp/helpers";
import { LOCAL_KEY } from "./server";

const MiB = 1024 * 1024;
/** Each promise is tried this many times in a row: one broken connection fails the test. */
const ATTEMPTS = 20;

/** What one attempt ended in: the status the client reported, or the network error it threw. */
type Outcome = { status: number; body: string } | { networkError: string };

async function post(url: string, body: BodyInit, headers: Record<string, string>): Promise<Outcome> {
  try {
    const res = await fetch(url, { method: "POST", headers, body, duplex: "half" } as RequestInit);
    return { status: res.status, body: await res.text() };
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause;
    return { networkError: `${String(err)} ${cause?.code ?? ""}` };
  }
}

async function repeat<T>(attempt: () => Promise<T>): Promise<T[]> {
  const outcomes: T[] = [];
  for (let i = 0; i < ATTEMPTS; i++) outcomes.push(await attempt());
  return outcomes;
}

const json = { authorization: `Bearer ${LOCAL_KEY}`, "content-type": "application/json" };

/** A JSON body of about `bytes` bytes: an object whose one string fills it. */
const jsonOfSize = (bytes: number) => JSON.stringify({ twins: ["github"], padding: "x".repeat(bytes) });

/** A body sent in chunks with no Content-Length, as a stream upload is. */
const chunked = (bytes: number) => {
  const chunk = new TextEncoder().encode("y".repeat(64 * 1024));
  let sent = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= bytes) return controller.close();
      controller.enqueue(chunk);
      sent += chunk.length;
    },
  });
};

describe("a control-plane body over its 4 MiB limit is answered 413 to fetch, every time", () => {
  it(`POST /v1/seeds/validate with 5 MiB, ${ATTEMPTS} times in a row`, async () => {
    const body = jsonOfSize(5 * MiB);
    const outcomes = await repeat(() => post(`${pomeUrl()}/v1/seeds/validate`, body, json));
    for (const outcome of outcomes) {
      expect(outcome).toMatchObject({ status: 413 });
      if ("body" in outcome) expect(JSON.parse(outcome.body)).toMatchObject({ error: { type: "payload_too_large" } });
    }
  });

  it(`POST /v1/sandboxes with 5 MiB, ${ATTEMPTS} times in a row, and no sandbox is made`, async () => {
    const before = await newestSandbox();
    const body = jsonOfSize(5 * MiB);
    const outcomes = await repeat(() => post(`${pomeUrl()}/v1/sandboxes`, body, json));
    for (const outcome of outcomes) expect(outcome).toMatchObject({ status: 413 });
    expect(await newestSandbox()).toBe(before);
  });

  it(`a chunked body (no Content-Length) over the limit is read only up to a bound and answered 413, ${ATTEMPTS} times`, async () => {
    const outcomes = await repeat(() => post(`${pomeUrl()}/v1/sandboxes`, chunked(6 * MiB), json));
    for (const outcome of outcomes) expect(outcome).toMatchObject({ status: 413 });
  });

  it("a chunked body within the limit is still read whole", async () => {
    const text = JSON.stringify({ twins: ["github"], seed: {} });
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(text));
        controller.close();
      },
    });
    const outcome = await post(`${pomeUrl()}/v1/seeds/validate`, stream, json);
    expect(outcome).toMatchObject({ status: 200 });
    if ("body" in outcome) expect(JSON.parse(outcome.body)).toMatchObject({ valid: true, checked: ["github"] });
  });

  it(`a call refused before its body is read (a wrong key) is answered too, ${ATTEMPTS} times`, async () => {
    const body = jsonOfSize(5 * MiB);
    const outcomes = await repeat(() => post(`${pomeUrl()}/v1/sandboxes`, body, { ...json, authorization: "Bearer pme_not_a_key" }));
    for (const outcome of outcomes) expect(outcome).toMatchObject({ status: 401 });
  });
});

/** The id of the newest sandbox the local team has (the list is newest first). */
async function newestSandbox(): Promise<string | undefined> {
  const res = await fetch(`${pomeUrl()}/v1/sandboxes?limit=1`, { headers: json });
  const list = (await res.json()) as { id: string }[];
  return list[0]?.id;
}

describe("a twin call over the twin body limit is refused in the vendor's shape, every time, and changes nothing", () => {
  let sandbox: Sandbox;
  const big = "z".repeat(2 * MiB);

  beforeAll(async () => {
    sandbox = await createSandbox({ twins: ["github", "stripe"] });
  });

  it(`@octokit/rest creating an issue with a 2 MiB body gets GitHub's 413, ${ATTEMPTS} times in a row`, async () => {
    const octokit = new Octokit({ auth: sandbox.provider_credentials.github.token, baseUrl: sandbox.per_twin.github.api_url, log: silent });
    const outcomes = await repeat(async () => {
      try {
        await octokit.rest.issues.create({ owner: "acme", repo: "web", title: "too large", body: big });
        return "created";
      } catch (err) {
        const { status, message } = err as { status?: number; message?: string };
        return `${status} ${message?.split(" - ")[0]}`;
      }
    });
    for (const outcome of outcomes) expect(outcome).toBe("413 Request body too large: the GitHub twin takes bodies up to 1048576 bytes");
    expect(await tapeOf(sandbox, "github")).toEqual([]);
  });

  it(`stripe-node creating a customer with a 2 MiB description gets Stripe's invalid_request_error error at 413, ${ATTEMPTS} times`, async () => {
    const stripe = stripeFor(sandbox);
    const outcomes = await repeat(async () => {
      try {
        await stripe.customers.create({ description: big });
        return "created";
      } catch (err) {
        // A connection failure would be a StripeConnectionError with no statusCode.
        const { rawType, statusCode } = err as { rawType?: string; statusCode?: number };
        return `${statusCode} ${rawType}`;
      }
    });
    for (const outcome of outcomes) expect(outcome).toBe("413 invalid_request_error");
    expect((await stripe.customers.list({ limit: 100 })).data.some((c) => (c.description ?? "").length > MiB)).toBe(false);
    expect((await tapeOf(sandbox, "stripe")).filter((row) => row.method === "POST")).toEqual([]);
  });

  it(`fetch posting 2 MiB to a twin gets the twin's 413, ${ATTEMPTS} times in a row`, async () => {
    const body = JSON.stringify({ title: "too large", body: big });
    const outcomes = await repeat(() =>
      post(`${sandbox.per_twin.github.api_url}/repos/acme/web/issues`, body, {
        authorization: `Bearer ${sandbox.provider_credentials.github.token}`,
        "content-type": "application/json",
      }),
    );
    for (const outcome of outcomes) expect(outcome).toMatchObject({ status: 413 });
  });
});

const silent = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };
