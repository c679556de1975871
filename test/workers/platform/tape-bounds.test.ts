// One call's answer and tape row are bounded (durable-objects/twins/kit/response-bounds.ts): an
// answer over MAX_RESPONSE_BODY_BYTES is refused in the twin's own shape instead of being sent
// or stored, whatever the call wrote is rolled back, and no tape row holds a body over the bound.
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { dispatch } from "../../../durable-objects/dispatch";
import { Db } from "../../../durable-objects/sql";
import { appendTape, readTape } from "../../../durable-objects/tape";
import { MAX_RESPONSE_BODY_BYTES } from "../../../durable-objects/twins/kit/response-bounds";
import { linearTwin } from "../../../durable-objects/twins/linear";
import { TWIN_IDS, twinById } from "../../../durable-objects/twins/registry";
import type { TwinDefinition, TwinRequest } from "../../../durable-objects/twins/types";
import { twinFetch } from "../helpers";
import { acmeWorld, gql, linearSandbox } from "../linear/fixtures";

const request = (path: string): TwinRequest => ({
  method: "GET",
  path,
  query: "",
  headers: {},
  body: "",
  baseUrl: "http://twin.test",
  transport: "rest",
});

/** A twin whose one route answers a body of the size asked, and whose refusal is its own. */
function answeringTwin(): TwinDefinition {
  return {
    ...linearTwin,
    routes: [
      {
        method: "GET",
        pattern: "/bytes/:n",
        operation: "bytes",
        summary: "a body of n bytes",
        handler: ({ params }) => ({ status: 200, headers: {}, body: "x".repeat(Number(params.n)) }),
      },
    ],
    operationOf: undefined,
    readsOnly: undefined,
    faults: undefined,
  } as TwinDefinition;
}

describe("an answer over the response bound is refused in the twin's shape, never sent or taped whole", () => {
  it("passes an answer at the bound and refuses one a byte over it", async () => {
    await runInDurableObject(env.SANDBOX.get(env.SANDBOX.newUniqueId()), (_instance, state) => {
      const db = new Db(state.storage.sql);
      const clock = { now: () => Date.now() };
      const twin = answeringTwin();
      const at = dispatch(twin, db, clock, request(`/bytes/${MAX_RESPONSE_BODY_BYTES}`), { sessionId: "ses_t", seq: 1 });
      expect(at.response.status).toBe(200);
      expect(at.response.body.length).toBe(MAX_RESPONSE_BODY_BYTES);
      const over = dispatch(twin, db, clock, request(`/bytes/${MAX_RESPONSE_BODY_BYTES + 1}`), { sessionId: "ses_t", seq: 2 });
      expect(over.response.status).toBe(400);
      expect(JSON.parse(over.response.body)).toMatchObject({
        errors: [{ message: "Query too complex", extensions: { code: "INPUT_ERROR" } }],
      });
      expect(over.tape.responseBody).toBe(over.response.body);
      expect(over.tape.responseBody.length).toBeLessThan(1000);
    });
  });

  it("has every registered twin refuse an oversized answer in its own shape, one its client does not retry", async () => {
    for (const id of TWIN_IDS) {
      const twin = twinById(id);
      const refusal = twin.errors.responseTooLarge(MAX_RESPONSE_BODY_BYTES);
      // A 4xx rolls the call's writes back; Slack's refusals are HTTP 200 `ok: false`, as all of Slack's are.
      if (refusal.status === 200) expect(JSON.parse(refusal.body).ok, id).toBe(false);
      else expect(refusal.status >= 400 && refusal.status < 500, `${id} answers ${refusal.status}`).toBe(true);
      expect(twin.clientRetries(refusal), id).toBe(false);
      expect(refusal.body.length, id).toBeLessThan(1000);
    }
  });
});

describe("no tape row holds a body over the bound", () => {
  it("stores a note of the size instead of a body that got past every other bound", async () => {
    await runInDurableObject(env.SANDBOX.get(env.SANDBOX.newUniqueId()), (_instance, state) => {
      const db = new Db(state.storage.sql);
      appendTape(db, 1, {
        at: Date.now(),
        twin: "linear",
        transport: "rest",
        method: "POST",
        path: "/x",
        query: "",
        headers: {},
        requestBody: "y".repeat(MAX_RESPONSE_BODY_BYTES + 1),
        status: 200,
        responseBody: '{"ok":true}',
        mutated: false,
        fidelity: "supported",
        operation: "x",
      });
      const [row] = readTape(db);
      expect(row.request_body).toEqual({ pome_omitted: { characters: MAX_RESPONSE_BODY_BYTES + 1, reason: expect.any(String) } });
      expect(row.response_body).toEqual({ ok: true });
    });
  });
});

describe("a Linear query whose answer would pass the bound is refused, and the world is unchanged", () => {
  it("refuses a page of huge descriptions in Linear's shape with a small tape row, and answers a smaller page", {
    timeout: 60_000,
  }, async () => {
    const world = acmeWorld();
    const big = (n: number) => `${String(n)}${"d".repeat(1_300_000)}`;
    const sb = await linearSandbox({
      ...world,
      issues: [...world.issues, ...[3, 4, 5].map((n) => ({ identifier: `ENG-${n}`, title: `Big ${n}`, description: big(n) }))],
    });
    const teamId = ((await gql(sb, "{ teams { nodes { id } } }")).body.data as { teams: { nodes: { id: string }[] } }).teams.nodes[0].id;
    // 3.9 million characters seeded and 4.75 million created: past the 8 MiB bound together.
    for (let i = 0; i < 5; i++) {
      const created = await gql(sb, "mutation($input: IssueCreateInput!) { issueCreate(input: $input) { success } }", {
        input: { teamId, title: `Bigger ${i}`, description: "e".repeat(950_000) },
      });
      expect(created.status).toBe(200);
    }
    const before = await (await twinFetch(sb, "/_pome/state", {}, "linear")).text();
    const refused = await gql(sb, "{ issues(first: 20) { nodes { identifier description } } }");
    expect(refused.status).toBe(400);
    expect(refused.body.errors?.[0]).toMatchObject({
      message: "Query too complex",
      extensions: { type: "invalid input", code: "INPUT_ERROR" },
    });
    expect(String(refused.body.errors?.[0]?.extensions.userPresentableMessage)).toMatch(/at most 8388608 bytes/);
    const rows = (await (await twinFetch(sb, "/_pome/events", {}, "linear")).json()) as { status: number; response_body: unknown }[];
    const last = rows[rows.length - 1];
    expect(last.status).toBe(400);
    expect(JSON.stringify(last.response_body).length).toBeLessThan(1000);
    expect(await (await twinFetch(sb, "/_pome/state", {}, "linear")).text()).toBe(before);
    const smaller = await gql(sb, "{ issues(first: 2) { nodes { identifier description } } }");
    expect(smaller.status).toBe(200);
  });
});
