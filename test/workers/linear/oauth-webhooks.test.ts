// Beyond the reference product: OAuth 2.0 authorization code with PKCE for seeded apps, and
// webhooks signed with Linear-Signature on issue and comment changes.
import { SELF } from "cloudflare:test";
import { AuthenticationLinearError } from "@linear/sdk";
import { beforeAll, describe, expect, it } from "vitest";
import { ORIGIN } from "../helpers";
import { acmeWorld, deliveries, delivered, gql, linearFor, linearSandbox, routeFetchThroughSelf } from "./fixtures";

beforeAll(routeFetchThroughSelf);

const APP = {
  clientId: "acme_bot_client",
  clientSecret: "acme_bot_secret_0001",
  name: "Acme Bot",
  redirectUris: ["https://app.example.test/callback"],
};
const b64url = (bytes: ArrayBuffer) =>
  btoa(String.fromCharCode(...new Uint8Array(bytes)))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");

async function hmacHex(secret: string, body: string) {
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return [...new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(body)))]
    .map((b) => b.toString(16).padStart(2, "0"))
    .join("");
}

async function authorize(sb: Awaited<ReturnType<typeof linearSandbox>>, challenge: string) {
  const q = new URLSearchParams({
    client_id: APP.clientId,
    redirect_uri: APP.redirectUris[0],
    response_type: "code",
    scope: "read,write",
    state: "st-1",
    code_challenge: challenge,
    code_challenge_method: "S256",
  });
  const res = await SELF.fetch(`${sb.per_twin.linear.api_url}/oauth/authorize?${q}`, {
    headers: { authorization: sb.provider_credentials.linear.token },
    redirect: "manual",
  });
  expect(res.status).toBe(302);
  const to = new URL(res.headers.get("location") ?? "");
  expect(`${to.origin}${to.pathname}`).toBe(APP.redirectUris[0]);
  expect(to.searchParams.get("state")).toBe("st-1");
  return to.searchParams.get("code") ?? "";
}

const exchange = (sb: Awaited<ReturnType<typeof linearSandbox>>, form: Record<string, string>) =>
  SELF.fetch(`${sb.per_twin.linear.api_url}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ grant_type: "authorization_code", client_id: APP.clientId, redirect_uri: APP.redirectUris[0], ...form }),
  });

describe("linear twin: OAuth 2.0 with PKCE", () => {
  it("issues a token for a verified code, which @linear/sdk uses as accessToken until it is revoked", async () => {
    const sb = await linearSandbox(acmeWorld({ oauthApplications: [APP] }));
    const verifier = "a-verifier-of-forty-three-characters-0123456789";
    const challenge = b64url(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier)));
    const code = await authorize(sb, challenge);
    const wrong = await exchange(sb, { code, code_verifier: "not-the-verifier" });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({ error: "invalid_grant" });
    const ok = await exchange(sb, { code, code_verifier: verifier });
    expect(ok.status).toBe(200);
    const token = await ok.json<{ access_token: string; token_type: string; scope: string }>();
    expect(token.token_type).toBe("Bearer");
    expect(token.access_token.startsWith("lin_oauth_")).toBe(true);
    expect((await exchange(sb, { code, code_verifier: verifier })).status).toBe(400);

    const client = linearFor(sb, { accessToken: token.access_token });
    expect((await client.viewer).email).toBe("ada@acme.test");
    // The root form routes the issued token to its sandbox too.
    const root = await SELF.fetch(`${ORIGIN}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token.access_token}` },
      body: JSON.stringify({ query: "{ viewer { email } }" }),
    });
    expect(await root.json()).toEqual({ data: { viewer: { email: "ada@acme.test" } } });

    const revoked = await SELF.fetch(`${sb.per_twin.linear.api_url}/oauth/revoke`, {
      method: "POST",
      headers: { authorization: `Bearer ${token.access_token}` },
    });
    expect(revoked.status).toBe(200);
    await expect(client.viewer).rejects.toBeInstanceOf(AuthenticationLinearError);
  });

  it("refuses an unknown client and an unregistered redirect", async () => {
    const sb = await linearSandbox(acmeWorld({ oauthApplications: [APP] }));
    const q = (o: Record<string, string>) =>
      new URLSearchParams({ client_id: APP.clientId, redirect_uri: APP.redirectUris[0], response_type: "code", ...o });
    const auth = { authorization: sb.provider_credentials.linear.token };
    expect(
      (await SELF.fetch(`${sb.per_twin.linear.api_url}/oauth/authorize?${q({ client_id: "nope" })}`, { headers: auth, redirect: "manual" }))
        .status,
    ).toBe(400);
    expect(
      (
        await SELF.fetch(`${sb.per_twin.linear.api_url}/oauth/authorize?${q({ redirect_uri: "https://evil.test/cb" })}`, {
          headers: auth,
          redirect: "manual",
        })
      ).status,
    ).toBe(400);
    const forged = await gql(sb, "{ viewer { id } }", {}, `Bearer lin_oauth_${sb.session_id.slice(4)}deadbeef`);
    expect(forged.status).toBe(401);
  });
});

describe("linear twin: webhooks", () => {
  it("POSTs issue and comment changes to the registered URL, signed with Linear-Signature", async () => {
    const secret = "lin_wh_test_secret_1";
    const sb = await linearSandbox(
      acmeWorld({ webhooks: [{ url: "http://127.0.0.1:9/linear", resourceTypes: ["Issue", "Comment"], team: "ENG", secret }] }),
    );
    const client = linearFor(sb);
    const before = delivered.length;
    const team = (await client.teams()).nodes[0];
    const created = await client.createIssue({ teamId: team.id, title: "Hooked" });
    const [issueHook] = (await deliveries(before + 1)).slice(before);
    expect(issueHook.url).toBe("http://127.0.0.1:9/linear");
    expect(issueHook.headers.get("linear-event")).toBe("Issue");
    expect(issueHook.headers.get("linear-signature")).toBe(await hmacHex(secret, issueHook.body));
    const body = JSON.parse(issueHook.body) as {
      action: string;
      type: string;
      data: { identifier: string; state: { name: string } };
      webhookTimestamp: number;
    };
    expect(body).toMatchObject({ action: "create", type: "Issue", data: { identifier: "ENG-3", state: { name: "Todo" } } });
    expect(typeof body.webhookTimestamp).toBe("number");
    await client.createComment({ issueId: created.issueId ?? "", body: "Noted." });
    const [commentHook] = (await deliveries(before + 2)).slice(before + 1);
    expect(commentHook.headers.get("linear-event")).toBe("Comment");
    expect(JSON.parse(commentHook.body)).toMatchObject({
      action: "create",
      type: "Comment",
      data: { body: "Noted.", issue: { identifier: "ENG-3" } },
    });
    expect(commentHook.headers.get("linear-signature")).toBe(await hmacHex(secret, commentHook.body));
  });

  it("registers an endpoint with webhookCreate; updates carry updatedFrom; unsupported resource types answer 501", async () => {
    const sb = await linearSandbox();
    const client = linearFor(sb);
    const team = (await client.teams()).nodes[0];
    const hook = await (
      await client.createWebhook({
        url: "http://127.0.0.1:9/runtime",
        resourceTypes: ["Issue"],
        teamId: team.id,
        secret: "runtime_secret_1",
      })
    ).webhook;
    expect(hook?.enabled).toBe(true);
    expect((await client.webhooks()).nodes.map((w) => w.url)).toEqual(["http://127.0.0.1:9/runtime"]);
    const before = delivered.length;
    await client.updateIssue("ENG-1", { priority: 3 });
    const [hit] = (await deliveries(before + 1)).slice(before);
    expect(hit.url).toBe("http://127.0.0.1:9/runtime");
    expect(hit.headers.get("linear-signature")).toBe(await hmacHex("runtime_secret_1", hit.body));
    expect(JSON.parse(hit.body)).toMatchObject({
      action: "update",
      type: "Issue",
      data: { identifier: "ENG-1", priority: 3 },
      updatedFrom: { priority: 1 },
    });
    const other = await gql(
      sb,
      'mutation { webhookCreate(input: { url: "http://127.0.0.1:9/p", resourceTypes: ["IssueSLA"], allPublicTeams: true }) { success } }',
    );
    expect(other.status).toBe(501);
    await client.deleteWebhook(hook?.id ?? "");
    expect((await client.webhooks()).nodes).toEqual([]);
  });
});
