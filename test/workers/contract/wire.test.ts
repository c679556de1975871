// The contract on the wire, for every registered twin, through the router as clients reach it: a
// path the twin does not serve is refused in the vendor's own shape, taped `unsupported`, and not
// something its official client retries; a credential of another sandbox, a forged one and an
// expired one open nothing on any transport (prefixed REST, the root form, MCP), and leave no row.
import { SELF, env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { TWIN_IDS, twinById } from "../../../durable-objects/twins/registry";
import type { TwinId } from "../../../durable-objects/twins/registry";
import type { TapeRow, TwinDefinition } from "../../../durable-objects/twins/types";
import { REDACTED, redactText } from "../../../durable-objects/redact";
import { mintAgentToken } from "../../../workers/credentials";
import { readSettings } from "../../../workers/settings";
import { ORIGIN, createSandbox, type CreatedSandbox } from "../helpers";

const UNKNOWN_PATH = "/pome-contract/no-such-endpoint";

/** The Authorization value the vendor's client sends with its credential. */
function presented(twin: TwinDefinition, token: string): string {
  return twin.credential.scheme ? `${twin.credential.scheme} ${token}` : token;
}

async function tapeOf(sandbox: CreatedSandbox, id: TwinId): Promise<TapeRow[]> {
  const res = await SELF.fetch(`${sandbox.per_twin[id].api_url}/_pome/events`, {
    headers: { authorization: `Bearer ${sandbox.agent_token}` },
  });
  expect(res.status).toBe(200);
  return res.json<TapeRow[]>();
}

const asTwinResponse = async (res: Response) => ({ status: res.status, headers: Object.fromEntries(res.headers), body: await res.text() });

/** A refusal body with its wording blanked: the keys, codes and types that say whose refusal it is. */
function shapeOf(value: unknown, key = ""): unknown {
  if (Array.isArray(value)) return value.map((v) => shapeOf(v));
  if (value && typeof value === "object")
    return Object.fromEntries(
      Object.entries(value)
        .map(([k, v]) => [k, shapeOf(v, k)])
        .sort(([a], [b]) => String(a).localeCompare(String(b))),
    );
  return typeof value === "string" && /message/i.test(key) ? "<wording>" : value;
}

/** The transports a credential is presented on, each with the request it makes. */
function transports(sandbox: CreatedSandbox, id: TwinId, authorization: string): Record<string, () => Promise<Response>> {
  return {
    "prefixed REST": () => SELF.fetch(`${sandbox.per_twin[id].api_url}${UNKNOWN_PATH}`, { headers: { authorization } }),
    "root form": () => SELF.fetch(`${ORIGIN}${UNKNOWN_PATH}`, { headers: { authorization } }),
    MCP: () =>
      SELF.fetch(sandbox.per_twin[id].mcp_url, {
        method: "POST",
        headers: { authorization, "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
      }),
  };
}

describe.each(TWIN_IDS)("the %s twin on the wire", (id) => {
  const twin = twinById(id);

  it("hands out a provider credential its own secret patterns redact", async () => {
    const sandbox = await createSandbox({ twins: [id] });
    const token = sandbox.provider_credentials[id].token;
    expect(token.startsWith(twin.credential.prefix)).toBe(true);
    expect(redactText(`the key is ${token} here`)).toBe(`the key is ${REDACTED} here`);
  });

  it("refuses an unknown path in its own shape, tapes it unsupported, and its client would not retry it", async () => {
    const sandbox = await createSandbox({ twins: [id] });
    const token = sandbox.provider_credentials[id].token;
    for (const url of [`${sandbox.per_twin[id].api_url}${UNKNOWN_PATH}`, `${ORIGIN}${UNKNOWN_PATH}`]) {
      const res = await asTwinResponse(await SELF.fetch(url, { headers: { authorization: presented(twin, token) } }));
      const expected = twin.errors.notImplemented({
        method: "GET",
        path: UNKNOWN_PATH,
        query: "",
        headers: {},
        body: "",
        baseUrl: "",
        transport: "rest",
      });
      expect(res.status).toBe(expected.status);
      expect(JSON.parse(res.body)).toEqual(JSON.parse(expected.body));
      expect(twin.clientRetries(res), "the official client would retry this refusal").toBe(false);
    }
    const tape = await tapeOf(sandbox, id);
    expect(tape.map((r) => [r.path, r.fidelity, r.operation, r.mutated])).toEqual([
      [UNKNOWN_PATH, "unsupported", "unsupported", false],
      [UNKNOWN_PATH, "unsupported", "unsupported", false],
    ]);
  });

  it("opens nothing with another sandbox's, a forged or an expired credential, on any transport", async () => {
    const mine = await createSandbox({ twins: [id] });
    const theirs = await createSandbox({ twins: [id] });
    const secret = readSettings(env).tokenSecret;
    const expired = await mintAgentToken(secret, {
      sessionId: mine.session_id,
      teamId: "team_local",
      twins: [id],
      expiresAt: Date.now() - 60_000,
    });
    const foreignKey = await mintAgentToken("another-deployment-secret", {
      sessionId: mine.session_id,
      teamId: "team_local",
      twins: [id],
      expiresAt: Date.now() + 60_000,
    });
    const ownToken = mine.provider_credentials[id].token;
    const credentials: Record<string, string> = {
      "another sandbox's agent_token": `Bearer ${theirs.agent_token}`,
      "another sandbox's provider credential": presented(twin, theirs.provider_credentials[id].token),
      "a forged provider credential": presented(twin, `${ownToken.slice(0, -4)}${ownToken.endsWith("AAAA") ? "BBBB" : "AAAA"}`),
      "an expired agent_token": `Bearer ${expired}`,
      "an agent_token signed with another key": `Bearer ${foreignKey}`,
    };
    const refusal = twin.errors.unauthorized("Bad credentials");
    for (const [what, authorization] of Object.entries(credentials)) {
      for (const [transport, send] of Object.entries(transports(mine, id, authorization))) {
        // On the root form another sandbox's valid credential simply reaches that sandbox: there
        // is no sandbox in the URL for it to contradict.
        if (transport === "root form" && what.startsWith("another sandbox")) continue;
        const res = await send();
        const label = `${what} on ${transport}`;
        // No twin claims the probe path, so on the root form the platform itself refuses; MCP
        // refuses with 401 as its authorization rule says, even for a vendor that answers 200.
        expect(res.status, label).toBe(transport === "prefixed REST" ? refusal.status : 401);
        expect(await res.text(), label).not.toContain('"tools"');
      }
    }
    expect(await tapeOf(mine, id)).toEqual([]);
    expect(await tapeOf(theirs, id)).toEqual([]);
  });

  it("refuses a forged credential on a root path it claims in its own shape, not the platform's", async () => {
    const sandbox = await createSandbox({ twins: [id] });
    // Any route will do: the credential is refused before the path's parameters are read.
    const pathOf = (pattern: string) => pattern.replace(/:\w+/g, "me");
    const route = twin.routes.find((r) => !r.pattern.includes("*") && twin.claimsRootPath(pathOf(r.pattern)));
    expect(route, "a route the root form reaches").toBeDefined();
    if (!route) return;
    const own = sandbox.provider_credentials[id].token;
    const forged = `${own.slice(0, -4)}${own.endsWith("AAAA") ? "BBBB" : "AAAA"}`;
    const res = await SELF.fetch(`${ORIGIN}${pathOf(route.pattern)}`, {
      method: route.method,
      headers: { authorization: presented(twin, forged), "content-type": "application/json" },
      ...(route.method === "GET" || route.method === "HEAD" ? {} : { body: "{}" }),
    });
    const refusal = twin.errors.unauthorized("Bad credentials");
    expect(res.status, `${route.method} ${route.pattern}`).toBe(refusal.status);
    expect(shapeOf(await res.json())).toEqual(shapeOf(JSON.parse(refusal.body)));
    expect(await tapeOf(sandbox, id)).toEqual([]);
  });
});
