// Worlds for the Linear twin's tests, and the official client pointed at a sandbox.
import { SELF } from "cloudflare:test";
import { InvalidInputLinearError, LinearClient, type LinearError } from "@linear/sdk";
import { expect, vi } from "vitest";
import { ORIGIN, createSandbox, type CreatedSandbox } from "../helpers";

/** The issue's example world: Acme, two people, team ENG with cycles, a project, two issues. */
export function acmeWorld(extra: Record<string, unknown> = {}) {
  return {
    organization: { name: "Acme", urlKey: "acme" },
    viewer: "ada@acme.test",
    users: [
      { email: "ada@acme.test", name: "Ada Lovelace", displayName: "ada", admin: true },
      { email: "bob@acme.test", name: "Bob Stone" },
    ],
    labels: [{ name: "Customer", color: "#f2994a" }],
    teams: [
      {
        key: "ENG",
        name: "Engineering",
        members: ["ada@acme.test", "bob@acme.test"],
        issueEstimationType: "fibonacci",
        defaultIssueState: "Todo",
        states: [
          { name: "Backlog", type: "backlog" },
          { name: "Todo", type: "unstarted" },
          { name: "In Progress", type: "started" },
          { name: "Done", type: "completed" },
          { name: "Canceled", type: "canceled" },
        ],
        labels: [
          { name: "Bug", color: "#eb5757" },
          { name: "Feature", color: "#bb87fc" },
        ],
        cycles: [{ number: 1, startsAt: "2026-07-06T00:00:00Z", endsAt: "2026-07-20T00:00:00Z" }],
      },
    ],
    projects: [{ name: "Checkout revamp", teams: ["ENG"], state: "started", lead: "ada@acme.test" }],
    issues: [
      {
        identifier: "ENG-1",
        title: "Checkout fails with 500",
        description: "Steps: pay with an expired card.",
        state: "Todo",
        priority: 1,
        estimate: 3,
        assignee: "bob@acme.test",
        creator: "ada@acme.test",
        labels: ["Bug"],
        project: "Checkout revamp",
        cycle: 1,
        dueDate: "2026-08-01",
        relations: [{ type: "blocks", relatedIssue: "ENG-2" }],
        attachments: [{ title: "Sentry event", url: "https://sentry.example.test/e/1" }],
        comments: [{ user: "bob@acme.test", body: "Seen on iOS too.", children: [{ user: "ada@acme.test", body: "Thanks, looking." }] }],
        createdAt: "2026-07-01T10:00:00Z",
      },
      { identifier: "ENG-2", title: "Refund flow times out", parent: "ENG-1", createdAt: "2026-07-02T10:00:00Z" },
    ],
    ...extra,
  };
}

export const linearSandbox = (seed: unknown = acmeWorld()) => createSandbox({ twins: ["linear"], seed });

/** Requests @linear/sdk sent (it calls globalThis.fetch; see routeFetchThroughSelf). */
export const sent: { url: string; body: string }[] = [];
/** Webhook POSTs the sandbox sent to endpoints outside the platform. */
export const delivered: { url: string; headers: Headers; body: string }[] = [];
let waiters: (() => void)[] = [];

/** Resolves once `count` webhooks in all have been delivered (an event, not a poll). */
export function deliveries(count: number): Promise<typeof delivered> {
  if (delivered.length >= count) return Promise.resolve(delivered);
  return new Promise((resolve) => {
    const check = () => {
      if (delivered.length >= count) resolve(delivered);
      else waiters.push(check);
    };
    waiters.push(check);
  });
}

/**
 * @linear/sdk has no fetch option: it calls globalThis.fetch. In this runtime that fetch is
 * pointed at the router for the platform's origin; anything else (a webhook endpoint) is
 * recorded and answered 200, the way a receiver would.
 */
export function routeFetchThroughSelf(): void {
  const stub: typeof fetch = async (input, init) => {
    const req = new Request(input as RequestInfo, init);
    if (req.url.startsWith(SECURE_ORIGIN)) {
      const body = await req.clone().text();
      sent.push({ url: req.url, body });
      return SELF.fetch(new Request(ORIGIN + req.url.slice(SECURE_ORIGIN.length), req));
    }
    delivered.push({ url: req.url, headers: req.headers, body: await req.text() });
    const woken = waiters;
    waiters = [];
    for (const w of woken) w();
    return new Response("ok", { status: 200 });
  };
  vi.stubGlobal("fetch", stub);
}

/** SDK 98 insists on https for a non-local host; the test stub maps it back to the test origin. */
const SECURE_ORIGIN = ORIGIN.replace(/^http:/, "https:");

export function linearFor(sandbox: CreatedSandbox, opts: { accessToken?: string; apiKey?: string } = {}): LinearClient {
  const apiUrl = `${sandbox.per_twin.linear.api_url}/graphql`.replace(ORIGIN, SECURE_ORIGIN);
  return opts.accessToken
    ? new LinearClient({ accessToken: opts.accessToken, apiUrl })
    : new LinearClient({ apiKey: opts.apiKey ?? sandbox.provider_credentials.linear.token, apiUrl });
}

/** A hand-written GraphQL call through plain fetch, the way agents often send them. */
export async function gql(
  sandbox: CreatedSandbox,
  query: string,
  variables: Record<string, unknown> = {},
  auth = sandbox.provider_credentials.linear.token,
) {
  const res = await SELF.fetch(`${sandbox.per_twin.linear.api_url}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: auth },
    body: JSON.stringify({ query, variables }),
  });
  return {
    status: res.status,
    body: (await res.json()) as {
      data?: Record<string, unknown> | null;
      errors?: { message: string; path?: string[]; extensions: Record<string, unknown> }[];
    },
  };
}

/** An id that names nothing in any test world. */
export const UNKNOWN_ID = "0a1b2c3d-0000-4000-8000-00000000dead";

/** The refusal a call ends in: an InvalidInputLinearError whose message names what is missing. */
export async function refusedInput(call: Promise<unknown>, message: RegExp): Promise<LinearError> {
  const err = await call.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(InvalidInputLinearError);
  expect((err as LinearError).message).toMatch(message);
  return err as LinearError;
}
