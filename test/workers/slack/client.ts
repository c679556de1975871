// @slack/web-api's WebClient pointed at a sandbox's Slack twin through the router (SELF), the way
// the issue configures it: slackApiUrl = api_url + "/api/", the sandbox's xoxb- token, no retries.
import { SELF } from "cloudflare:test";
import { LogLevel, WebClient, type WebAPICallResult } from "@slack/web-api";
import { expect } from "vitest";
import { createSandbox, type CreatedSandbox } from "../helpers";

/**
 * WebClient asks fetch for `redirect: "error"`, which workerd does not implement; "manual" plus a
 * refusal of any 3xx keeps the same promise (a redirect is never followed).
 */
const selfFetch: typeof fetch = async (input, init) => {
  const res = await SELF.fetch(new Request(input as RequestInfo, { ...init, redirect: "manual" }));
  if (res.status >= 300 && res.status < 400) throw new TypeError(`redirect refused: ${res.status}`);
  return res;
};

export function webFor(sandbox: CreatedSandbox, opts: { token?: string; root?: string } = {}): WebClient {
  return new WebClient(opts.token ?? sandbox.provider_credentials.slack.token, {
    slackApiUrl: `${opts.root ?? sandbox.per_twin.slack.api_url}/api/`,
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
    fetch: selfFetch,
    logLevel: LogLevel.ERROR,
  });
}

export async function slackSandbox(seed?: unknown): Promise<{ sandbox: CreatedSandbox; web: WebClient }> {
  const sandbox = await createSandbox({ twins: ["slack"], ...(seed === undefined ? {} : { seed }) });
  return { sandbox, web: webFor(sandbox) };
}

/** The Slack error code a call is refused with, as the client reports it (a WebAPIPlatformError). */
export async function slackErrorOf(promise: Promise<WebAPICallResult>): Promise<string> {
  const err: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err, "the call was expected to be refused").toBeInstanceOf(Error);
  const e = err as { code?: string; data?: { error?: string } };
  expect(e.code).toBe("slack_webapi_platform_error");
  return e.data?.error ?? "";
}

export async function stateOf(sandbox: CreatedSandbox): Promise<Record<string, unknown>> {
  const res = await SELF.fetch(`${sandbox.per_twin.slack.api_url}/_pome/state`, { headers: { authorization: `Bearer ${sandbox.agent_token}` } });
  expect(res.status).toBe(200);
  return res.json<Record<string, unknown>>();
}

export { selfFetch };
