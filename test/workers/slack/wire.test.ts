// The wire as @slack/web-api and curl see it: every refusal at HTTP 200 with Slack's code,
// `not_authed` vs `invalid_auth`, the token in a form/JSON field or the query, the origin-root
// form, method_not_supported for what the twin lacks, scope headers, and /_pome keeping its 401.
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { TapeRow } from "../../../durable-objects/twins/types";
import { ORIGIN, createSandbox } from "../helpers";
import { slackErrorOf, slackSandbox, webFor } from "./client";
import { acmeSeed } from "./fixtures";

const tapeOf = async (sandbox: { per_twin: Record<string, { api_url: string }>; agent_token: string }) =>
  (
    await SELF.fetch(`${sandbox.per_twin.slack.api_url}/_pome/events`, { headers: { authorization: `Bearer ${sandbox.agent_token}` } })
  ).json<TapeRow[]>();

describe("slack wire", () => {
  it("refuses a missing token with not_authed and a bad or foreign one with invalid_auth, at HTTP 200", async () => {
    const { sandbox } = await slackSandbox(acmeSeed());
    const other = await createSandbox({ twins: ["slack"] });
    const url = `${sandbox.per_twin.slack.api_url}/api/auth.test`;
    const none = await SELF.fetch(url, { method: "POST" });
    expect(none.status).toBe(200);
    expect(await none.json()).toEqual({ ok: false, error: "not_authed" });
    const forged = `${sandbox.provider_credentials.slack.token.slice(0, -4)}AAAA`;
    for (const token of [forged, other.provider_credentials.slack.token, "xoxb-nonsense"]) {
      const res = await SELF.fetch(url, { method: "POST", headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ ok: false, error: "invalid_auth" });
    }
    // Through the client: a WebAPIPlatformError, not an HTTP error it would retry.
    expect(await slackErrorOf(webFor(sandbox, { token: forged }).auth.test())).toBe("invalid_auth");
    // The sandbox endpoints keep the platform's 401.
    expect((await SELF.fetch(`${sandbox.per_twin.slack.api_url}/_pome/state`)).status).toBe(401);
    expect(
      (await SELF.fetch(`${sandbox.per_twin.slack.api_url}/_pome/state`, { headers: { authorization: `Bearer ${forged}` } })).status,
    ).toBe(401);
    expect(await tapeOf(sandbox)).toEqual([]);
  });

  it("accepts the token as a form field, a JSON field or a query parameter", async () => {
    const { sandbox } = await slackSandbox(acmeSeed());
    const token = sandbox.provider_credentials.slack.token;
    const url = `${sandbox.per_twin.slack.api_url}/api/auth.test`;
    const form = await SELF.fetch(url, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: `token=${token}`,
    });
    expect(await form.json()).toMatchObject({ ok: true, user_id: "U0BOT" });
    const json = await SELF.fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json; charset=utf-8" },
      body: JSON.stringify({ token }),
    });
    expect(await json.json()).toMatchObject({ ok: true, user_id: "U0BOT" });
    const query = await SELF.fetch(`${url}?token=${token}`);
    expect(await query.json()).toMatchObject({ ok: true, user_id: "U0BOT" });
    const bad = await SELF.fetch(url, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "token=xoxb-wrong",
    });
    expect(await bad.json()).toEqual({ ok: false, error: "invalid_auth" });
  });

  it("serves the Web API at the origin root, the sandbox taken from the token", async () => {
    const { sandbox } = await slackSandbox(acmeSeed());
    const web = webFor(sandbox, { root: ORIGIN });
    const posted = await web.chat.postMessage({ channel: "C0GENERAL", text: "from the root" });
    expect(posted.ok).toBe(true);
    const history = await webFor(sandbox).conversations.history({ channel: "C0GENERAL" });
    expect(history.messages?.[0]?.text).toBe("from the root");
    const none = await SELF.fetch(`${ORIGIN}/api/auth.test`, { method: "POST" });
    expect(none.status).toBe(200);
    expect(await none.json()).toEqual({ ok: false, error: "not_authed" });
    const bad = await SELF.fetch(`${ORIGIN}/api/auth.test`, { method: "POST", headers: { authorization: "Bearer xoxb-wrong" } });
    expect(await bad.json()).toEqual({ ok: false, error: "invalid_auth" });
    const viaField = await SELF.fetch(`${ORIGIN}/api/auth.test`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: `token=${sandbox.provider_credentials.slack.token}`,
    });
    expect(await viaField.json()).toMatchObject({ ok: true, team_id: "T0ACME" });
  });

  it("answers a method it lacks with method_not_supported, taped under the method asked for", async () => {
    const { sandbox, web } = await slackSandbox(acmeSeed());
    expect(await slackErrorOf(web.apiCall("admin.users.list"))).toBe("method_not_supported");
    // A path with no method's shape has no name to tape.
    const odd = await SELF.fetch(`${sandbox.per_twin.slack.api_url}/api/..%2Fx`, {
      method: "POST",
      headers: { authorization: `Bearer ${sandbox.provider_credentials.slack.token}` },
    });
    expect(await odd.json()).toEqual({ ok: false, error: "method_not_supported" });
    const tape = await tapeOf(sandbox);
    expect(tape.map((r) => [r.operation, r.fidelity, r.status, r.mutated])).toEqual([
      ["admin.users.list", "unsupported", 200, false],
      ["unsupported", "unsupported", 200, false],
    ]);
  });

  it("tapes each call under its method name; a refusal is HTTP 200 and mutated false", async () => {
    const { sandbox, web } = await slackSandbox(acmeSeed());
    await web.chat.postMessage({ channel: "C0GENERAL", text: "hi" });
    expect(await slackErrorOf(web.apiCall("chat.postMessage", { channel: "C0GENERAL" }))).toBe("no_text");
    const tape = await tapeOf(sandbox);
    expect(tape.map((r) => [r.operation, r.status, r.mutated])).toEqual([
      ["chat.postMessage", 200, true],
      ["chat.postMessage", 200, false],
    ]);
  });

  it("sends the installation's scopes and the method's accepted scopes on every answer, refusals too", async () => {
    const { web } = await slackSandbox(acmeSeed());
    const ok = await web.conversations.list();
    expect(ok.response_metadata?.scopes).toContain("channels:read");
    expect(ok.response_metadata?.acceptedScopes).toEqual(["channels:read", "groups:read", "im:read", "mpim:read"]);
    const err: unknown = await web.conversations.info({ channel: "C0NOPE" }).catch((e: unknown) => e);
    expect((err as { data?: { response_metadata?: { acceptedScopes?: string[] } } }).data?.response_metadata?.acceptedScopes).toContain(
      "channels:read",
    );
  });

  it("refuses a method outside the installation's scope with missing_scope, needed and provided", async () => {
    const { sandbox } = await slackSandbox(
      acmeSeed({ installation: { app_id: "A0DEPLOY", bot_user_id: "U0BOT", scope: "chat:write,channels:read" } }),
    );
    const res = await SELF.fetch(`${sandbox.per_twin.slack.api_url}/api/users.list`, {
      method: "POST",
      headers: { authorization: `Bearer ${sandbox.provider_credentials.slack.token}` },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: false, error: "missing_scope", needed: "users:read", provided: "chat:write,channels:read" });
    expect(res.headers.get("x-accepted-oauth-scopes")).toBe("users:read");
    expect(res.headers.get("x-oauth-scopes")).toBe("chat:write,channels:read");
  });

  it("reads arguments from a GET query and a JSON body as well as a form", async () => {
    const { sandbox } = await slackSandbox(acmeSeed());
    const auth = { authorization: `Bearer ${sandbox.provider_credentials.slack.token}` };
    const get = await SELF.fetch(`${sandbox.per_twin.slack.api_url}/api/conversations.info?channel=C0INCIDENT`, { headers: auth });
    expect(await get.json()).toMatchObject({ ok: true, channel: { id: "C0INCIDENT", name: "incidents" } });
    const json = await SELF.fetch(`${sandbox.per_twin.slack.api_url}/api/chat.postMessage`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json; charset=utf-8" },
      body: JSON.stringify({ channel: "#incidents", blocks: [{ type: "section", text: { type: "mrkdwn", text: "*hi*" } }] }),
    });
    const body = await json.json<{ ok: boolean; channel: string; message: { blocks: unknown[] } }>();
    expect(body).toMatchObject({ ok: true, channel: "C0INCIDENT" });
    expect(body.message.blocks).toHaveLength(1);
  });

  it("reports not_authed and missing_scope through the client as WebAPIPlatformErrors", async () => {
    const seed = acmeSeed();
    const { sandbox } = await slackSandbox({ ...seed, installation: { ...seed.installation, scope: "chat:write" } });
    expect(await slackErrorOf(webFor(sandbox, { token: "" }).auth.test())).toBe("not_authed");
    const err: unknown = await webFor(sandbox)
      .users.list({})
      .catch((e: unknown) => e);
    expect((err as { data?: unknown }).data).toMatchObject({
      ok: false,
      error: "missing_scope",
      needed: "users:read",
      provided: "chat:write",
    });
  });

  it("lets the agent_token act as the bot, like the xoxb- token", async () => {
    const { sandbox } = await slackSandbox(acmeSeed());
    const me = await webFor(sandbox, { token: sandbox.agent_token }).auth.test();
    expect(me).toMatchObject({ user_id: "U0BOT", bot_id: "B0BOT" });
  });

  it("runs files.uploadV2 on the origin root too: the upload URL stays on the root form", async () => {
    const { sandbox } = await slackSandbox(acmeSeed());
    const web = webFor(sandbox, { root: ORIGIN });
    const reserved = await web.files.getUploadURLExternal({ filename: "r.txt", length: 4 });
    expect(reserved.upload_url).toBe(`${ORIGIN}/upload/v1/${reserved.file_id}`);
    const up = await web.filesUploadV2({ channel_id: "C0GENERAL", content: "root", filename: "root.txt" });
    expect(up.ok).toBe(true);
    const history = await webFor(sandbox).conversations.history({ channel: "C0GENERAL", limit: 1 });
    expect(history.messages?.[0]?.files?.[0]).toMatchObject({ name: "root.txt", size: 4 });
  });
});
