// Rate limits by method tier, the opt-in fault a seed's `rate_limits` turns on: a call past its
// method's limit is HTTP 429 with Retry-After and {"ok":false,"error":"ratelimited"}, which
// @slack/web-api reads as Slack's own (rejectRateLimitedCalls throws, the default waits and retries).
import { SELF } from "cloudflare:test";
import { ErrorCode, LogLevel, WebClient, WebClientEvent } from "@slack/web-api";
import { describe, expect, it } from "vitest";
import { retryAfter, tierOf, tieredMethods, windowOf } from "../../../durable-objects/twins/slack/ratelimit";
import { slackRoutes } from "../../../durable-objects/twins/slack/routes";
import { selfFetch, slackSandbox, webFor } from "./client";
import { acmeSeed } from "./fixtures";

async function refusalOf(promise: Promise<unknown>): Promise<{ code?: string; retryAfter?: number }> {
  const err: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err, "the call was expected to be rate limited").toBeInstanceOf(Error);
  return err as { code?: string; retryAfter?: number };
}

describe("the window a call counts in (pure)", () => {
  it("gives each method its tier's minute, and chat.postMessage a second per channel", () => {
    expect(tierOf("users.list")).toBe(2);
    expect(tierOf("conversations.history")).toBe(3);
    expect(tierOf("users.info")).toBe(4);
    expect(windowOf({ per_minute: {} }, "users.info", "bot", undefined)).toEqual({ key: "users.info|bot", limit: 100, ms: 60_000 });
    expect(windowOf({ per_minute: {} }, "chat.postMessage", "bot", "C1")).toEqual({ key: "chat.postMessage|bot|C1", limit: 1, ms: 1000 });
    expect(windowOf({ per_minute: { "users.info": 2 } }, "users.info", "user", undefined).limit).toBe(2);
  });

  it("gives every method the twin serves the tier its docs.slack.dev page gives, and nothing else", () => {
    const served = new Set(slackRoutes.flatMap((r) => (r.pattern.startsWith("/api/") ? [r.operation] : [])));
    expect(new Set(tieredMethods())).toEqual(served);
    // The ones an earlier map had wrong: bookmarks.list and the public-link pair are Tier 3.
    expect([tierOf("bookmarks.list"), tierOf("files.sharedPublicURL"), tierOf("files.revokePublicURL")]).toEqual([3, 3, 3]);
    expect([tierOf("users.conversations"), tierOf("conversations.close"), tierOf("reactions.remove")]).toEqual([3, 2, 2]);
  });

  it("lets the Special methods that allow hundreds a minute (auth.test, chat.getPermalink) make 600", () => {
    expect(tierOf("auth.test")).toBe("special");
    expect(windowOf({ per_minute: {} }, "auth.test", "bot", undefined)).toEqual({ key: "auth.test|bot", limit: 600, ms: 60_000 });
    expect(windowOf({ per_minute: {} }, "chat.getPermalink", "bot", "C1").limit).toBe(600);
  });

  it("asks to wait until the oldest counted call leaves the window", () => {
    const window = { key: "k", limit: 2, ms: 60_000 };
    expect(retryAfter([0], window, 1000)).toBeUndefined();
    expect(retryAfter([0, 10_000], window, 20_000)).toBe(40);
    // Calls that left the window do not count.
    expect(retryAfter([0, 10_000], window, 60_001)).toBeUndefined();
  });
});

describe("without rate_limits in the seed nothing is limited", () => {
  it("serves more calls than a tier allows", async () => {
    const { web } = await slackSandbox(acmeSeed());
    for (let i = 0; i < 22; i++) expect((await web.users.list({})).ok).toBe(true);
  });
});

describe("a method past its tier is answered 429 with Retry-After, per method and per token", () => {
  it("refuses the 21st conversations.list of a minute (Tier 2) as ratelimited, and not another method", async () => {
    const { web } = await slackSandbox(acmeSeed({ rate_limits: {} }));
    for (let i = 0; i < 20; i++) await web.conversations.list({});
    const err = await refusalOf(web.conversations.list({}));
    expect(err.code).toBe(ErrorCode.RateLimitedError);
    expect(err.retryAfter).toBeGreaterThanOrEqual(1);
    expect(err.retryAfter).toBeLessThanOrEqual(60);
    expect((await web.auth.test()).ok).toBe(true);
  });

  it("answers Slack's wire form: HTTP 429, Retry-After seconds, ok:false ratelimited, and counts the user token apart", async () => {
    const seed = acmeSeed({ rate_limits: { per_minute: { "users.list": 2 } } });
    const withUserScope = { ...seed, installation: { ...seed.installation, authed_user: { id: "U0ALICE", scope: "users:read" } } };
    const { sandbox, web } = await slackSandbox(withUserScope);
    await web.users.list({});
    await web.users.list({});
    const res = await SELF.fetch(`${sandbox.per_twin.slack.api_url}/api/users.list`, {
      method: "POST",
      headers: { authorization: `Bearer ${sandbox.provider_credentials.slack.token}` },
    });
    expect(res.status).toBe(429);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(await res.json()).toEqual({ ok: false, error: "ratelimited" });
    const user = webFor(sandbox, { token: sandbox.provider_credentials.slack.user_token });
    expect((await user.users.list({})).ok).toBe(true);
  });
});

describe("chat.postMessage allows one message a second per channel", () => {
  it("limits a second post to the same channel, not to another one", async () => {
    const { web } = await slackSandbox(acmeSeed({ rate_limits: {} }));
    await web.chat.postMessage({ channel: "C0GENERAL", text: "one" });
    expect((await web.chat.postMessage({ channel: "C0INCIDENT", text: "elsewhere" })).ok).toBe(true);
    const err = await refusalOf(web.chat.postMessage({ channel: "C0GENERAL", text: "two" }));
    expect(err).toMatchObject({ code: ErrorCode.RateLimitedError, retryAfter: 1 });
  });

  it("lets the client's own retry handler wait Retry-After and post", async () => {
    const { sandbox } = await slackSandbox(acmeSeed({ rate_limits: {} }));
    const web = new WebClient(sandbox.provider_credentials.slack.token, {
      slackApiUrl: `${sandbox.per_twin.slack.api_url}/api/`,
      retryConfig: { retries: 1, minTimeout: 0, maxTimeout: 0 },
      fetch: selfFetch,
      logLevel: LogLevel.ERROR,
    });
    const waits: number[] = [];
    web.on(WebClientEvent.RATE_LIMITED, (seconds: number) => waits.push(seconds));
    await web.chat.postMessage({ channel: "C0GENERAL", text: "one" });
    const second = await web.chat.postMessage({ channel: "C0GENERAL", text: "two" });
    expect(second.ok).toBe(true);
    expect(waits).toEqual([1]);
    const history = await web.conversations.history({ channel: "C0GENERAL", limit: 2 });
    expect(history.messages?.map((m) => m.text)).toEqual(["two", "one"]);
  });
});
