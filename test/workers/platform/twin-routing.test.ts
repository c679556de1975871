import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ORIGIN, api, createSandbox, octokitFor, twinFetch } from "../helpers";

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe("a sandbox's credentials open that sandbox and nothing else", () => {
  it("accepts the agent_token and the provider credential in GitHub's header forms", async () => {
    const sandbox = await createSandbox();
    for (const value of [
      `Bearer ${sandbox.agent_token}`,
      `token ${sandbox.provider_credentials.github.token}`,
      `bearer ${sandbox.provider_credentials.github.token}`,
    ]) {
      expect((await twinFetch(sandbox, "/user", { headers: { authorization: value } })).status).toBe(200);
    }
  });

  it("refuses another sandbox's token, a forged token, and no token with 401", async () => {
    const mine = await createSandbox();
    const theirs = await createSandbox();
    const forged = mine.provider_credentials.github.token.slice(0, -4) + "AAAA";
    for (const headers of [bearer(theirs.agent_token), bearer(theirs.provider_credentials.github.token), bearer(forged), {}]) {
      const res = await SELF.fetch(`${mine.per_twin.github.api_url}/user`, { headers });
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ message: "Bad credentials" });
    }
  });

  it("refuses a GitHub credential on another twin of the same sandbox", async () => {
    const sandbox = await createSandbox({ twins: ["github", "slack"] });
    const res = await SELF.fetch(`${sandbox.per_twin.slack.api_url}/api/auth.test`, {
      headers: bearer(sandbox.provider_credentials.github.token),
    });
    // Slack refusals travel as HTTP 200 with ok:false, because its client retries anything else.
    expect(await res.json()).toMatchObject({ ok: false, error: "invalid_auth" });
  });

  it("guards the /_pome endpoints with the same bearer", async () => {
    const sandbox = await createSandbox();
    for (const path of ["state", "events", "health"]) {
      expect((await SELF.fetch(`${sandbox.per_twin.github.api_url}/_pome/${path}`)).status).toBe(401);
      expect((await twinFetch(sandbox, `/_pome/${path}`)).status).toBe(200);
    }
  });
});

describe("the credential-routed root form reaches the same twin", () => {
  it("serves GitHub's own paths on the origin to an Octokit configured with the origin", async () => {
    const sandbox = await createSandbox();
    const octokit = octokitFor({ ...sandbox, per_twin: { github: { ...sandbox.per_twin.github, api_url: ORIGIN } } });
    const { data } = await octokit.repos.get({ owner: "acme", repo: "api" });
    expect(data.full_name).toBe("acme/api");
    // Absolute URLs point at the root form the client used.
    expect(data.url).toBe(`${ORIGIN}/repos/acme/api`);
    const tape = await (await twinFetch(sandbox, "/_pome/events")).json<{ path: string }[]>();
    expect(tape.map((r) => r.path)).toEqual(["/repos/acme/api"]);
  });

  it("routes /v1 to the control plane with a team key and to Stripe with a Stripe key", async () => {
    const sandbox = await createSandbox({ twins: ["stripe"] });
    expect((await api("/v1/me")).status).toBe(200);
    const res = await SELF.fetch(`${ORIGIN}/v1/customers/cus_alice`, { headers: bearer(sandbox.provider_credentials.stripe.token) });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id: "cus_alice", object: "customer" });
    // A Stripe route the twin does not implement refuses honestly, in Stripe's shape, and says not to retry.
    const payouts = await SELF.fetch(`${ORIGIN}/v1/issuing/cards`, { headers: bearer(sandbox.provider_credentials.stripe.token) });
    expect(payouts.status).toBe(501);
    expect(payouts.headers.get("stripe-should-retry")).toBe("false");
    expect(await payouts.json()).toMatchObject({ error: { type: "api_error" } });
    const tape = await (await twinFetch(sandbox, "/_pome/events", {}, "stripe")).json<{ fidelity: string; path: string }[]>();
    expect(tape).toMatchObject([
      { fidelity: "supported", path: "/v1/customers/cus_alice" },
      { fidelity: "unsupported", path: "/v1/issuing/cards" },
    ]);
  });

  it("answers 401 on a root path with a credential it does not recognize", async () => {
    const res = await SELF.fetch(`${ORIGIN}/repos/acme/api`, { headers: bearer("github_pat_notarealtokenatall_123") });
    expect(res.status).toBe(401);
  });
});

describe("a route the twin does not implement", () => {
  it("answers 501 in GitHub's error shape and is taped as unsupported", async () => {
    const sandbox = await createSandbox();
    const res = await twinFetch(sandbox, "/repos/acme/api/deployments");
    expect(res.status).toBe(501);
    expect(await res.json()).toMatchObject({ message: expect.stringContaining("does not implement GET /repos/acme/api/deployments") });
    const tape = await (await twinFetch(sandbox, "/_pome/events")).json<{ fidelity: string; operation: string; status: number }[]>();
    expect(tape).toMatchObject([{ fidelity: "unsupported", operation: "unsupported", status: 501 }]);
  });

  it("lists what it does implement in /_pome/openapi.json", async () => {
    const sandbox = await createSandbox();
    const doc = await (await twinFetch(sandbox, "/_pome/openapi.json")).json<{
      paths: Record<string, Record<string, { operationId: string }>>;
    }>();
    expect(doc.paths["/repos/{owner}/{repo}"].get.operationId).toBe("repos.get");
  });
});
