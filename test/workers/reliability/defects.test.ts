// The defects issue 11 found, each reproduced against the router the way an agent reaches it.
// One bad call must never make a run ungradable, and a secret must never reach the tape.
import { SELF, env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { Db } from "../../../durable-objects/sql";
import { appendTape, readTape } from "../../../durable-objects/tape";
import { api, createSandbox, postJson, twinFetch, type CreatedSandbox } from "../helpers";
import { code, finalize, finalizeOk } from "../grading/run-helpers";

const ADMIN = "test-admin-secret";
const exists = [code("c1", "Issue #1 exists in `acme/api`", { always_scored: true })];

const post = (sandbox: CreatedSandbox, path: string, body: string, method = "POST") =>
  twinFetch(sandbox, path, { method, body, headers: { "content-type": "application/json" } });

async function tapeOf(
  sandbox: CreatedSandbox,
  query = "",
): Promise<{ seq: number; request_body: unknown; response_body: unknown; path: string; query: string; status: number }[]> {
  const res = await twinFetch(sandbox, `/_pome/events${query}`);
  expect(res.status).toBe(200);
  return res.json();
}

async function sandboxState(id: string): Promise<string> {
  return (await (await api(`/v1/sandboxes/${id}`)).json<{ state: string }>()).state;
}

describe("a deeply nested body never breaks finalize", () => {
  it("grades a sandbox whose tape holds a body nested 5,000 arrays deep", async () => {
    const sandbox = await createSandbox();
    const deep = `{"title":"t","x":${"[".repeat(5000)}${"]".repeat(5000)}}`;
    const created = await post(sandbox, "/repos/acme/api/issues", deep);
    expect(created.status).toBeLessThan(500);
    expect((await twinFetch(sandbox, "/_pome/events")).status).toBe(200);
    const run = await finalizeOk(sandbox.session_id, exists);
    expect(run.criteria_results[0].status).toBe("passed");
    expect(await sandboxState(sandbox.session_id)).toBe("done");
  });
});

describe("twin bodies have a stated limit, and a large tape still serves events and finalize", () => {
  it("refuses a body over the limit in GitHub's shape and writes nothing", async () => {
    const sandbox = await createSandbox();
    const before = await tapeOf(sandbox);
    const res = await post(sandbox, "/repos/acme/api/issues/1/comments", JSON.stringify({ body: "x".repeat(3 * 1024 * 1024) }));
    expect(res.status).toBe(413);
    const body = await res.json<{ message: string; documentation_url: string }>();
    expect(body.message).toMatch(/too large/i);
    expect(body.documentation_url).toMatch(/docs\.github\.com/);
    const comments = await (await twinFetch(sandbox, "/repos/acme/api/issues/1/comments")).json<unknown[]>();
    expect(comments.every((c) => JSON.stringify(c).length < 100_000)).toBe(true);
    expect((await tapeOf(sandbox)).length).toBe(before.length + 1); // only the listing above
    await finalizeOk(sandbox.session_id, exists);
  });

  it("keeps a label whose tape row would pass SQLite's value limit", async () => {
    const sandbox = await createSandbox();
    const name = "n".repeat(1_040_000);
    const res = await post(sandbox, "/repos/acme/api/labels", JSON.stringify({ name, color: "ededed" }));
    expect(res.status).toBeLessThan(500);
    const tape = await tapeOf(sandbox);
    expect(JSON.stringify(tape.at(-1)?.request_body)).toContain(name);
    await finalizeOk(sandbox.session_id, exists);
  });

  it("stores a body longer than a production SQLite value (2 MB) in parts and reads it back whole", async () => {
    await runInDurableObject(env.SANDBOX.get(env.SANDBOX.newUniqueId()), (_instance, state) => {
      const db = new Db(state.storage.sql);
      const body = JSON.stringify({ name: "n".repeat(3_000_000) });
      const entry = {
        at: Date.now(),
        twin: "github" as const,
        transport: "rest" as const,
        method: "POST",
        path: "/repos/acme/api/labels",
        query: "",
        headers: {},
      };
      appendTape(db, 1, {
        ...entry,
        requestBody: body,
        status: 201,
        responseBody: body,
        mutated: true,
        fidelity: "supported",
        operation: "issues.createLabel",
      });
      const longest = (sql: string) => state.storage.sql.exec<{ n: number }>(sql).one().n;
      expect(longest("SELECT max(max(length(request_body)), max(length(response_body))) AS n FROM _tape")).toBeLessThanOrEqual(512 * 1024);
      expect(longest("SELECT max(length(data)) AS n FROM _tape_parts")).toBeLessThanOrEqual(512 * 1024);
      const [row] = readTape(db);
      expect(row.request_body).toEqual(JSON.parse(body));
      expect(row.response_body).toEqual(JSON.parse(body));
    });
  });

  it("pages /_pome/events and finalizes a tape of several megabytes", async () => {
    const sandbox = await createSandbox();
    // 20 comments of ~1 MB: more than the 32 MiB one RPC value may carry, counting the echoes.
    for (let i = 0; i < 20; i++) {
      const res = await post(sandbox, "/repos/acme/api/issues/1/comments", JSON.stringify({ body: `${i % 10}`.repeat(1_000_000) }));
      expect(res.status).toBe(201);
    }
    const first = await twinFetch(sandbox, "/_pome/events");
    expect(first.status).toBe(200);
    const page = await first.json<{ seq: number }[]>();
    expect(page.length).toBeGreaterThan(0);
    const next = first.headers.get("x-pome-next-after-seq");
    // Every row is reachable by following the cursor.
    let seen = page.length;
    let after = next;
    while (after) {
      const res = await twinFetch(sandbox, `/_pome/events?after_seq=${after}`);
      seen += (await res.json<unknown[]>()).length;
      after = res.headers.get("x-pome-next-after-seq");
    }
    expect(seen).toBe(20);
    await finalizeOk(sandbox.session_id, exists);
  });
});

describe("finalize never closes a sandbox before its run is written", () => {
  it("leaves a sandbox whose finalize failed open and finalizable", async () => {
    const sandbox = await createSandbox();
    // A task-free sandbox finalized with no criteria is refused before anything changes.
    const refused = await finalize(sandbox.session_id, []);
    expect(refused.status).toBe(422);
    expect(await sandboxState(sandbox.session_id)).toBe("ready");
    await finalizeOk(sandbox.session_id, exists);
  });
});

describe("secrets are redacted however they are written", () => {
  const pat = `github_pat_${"A1b2C3d4E5".repeat(4)}`;

  it("redacts a secret written with JSON escapes", async () => {
    const sandbox = await createSandbox();
    const escaped = `{"body":"escaped ${pat.replace("_", "\\u005f")}"}`;
    expect((await post(sandbox, "/repos/acme/api/issues/1/comments", escaped)).status).toBe(201);
    const text = JSON.stringify(await tapeOf(sandbox));
    expect(text).not.toContain(pat.slice(4));
    expect(text).not.toContain("u005fpat");
    expect(JSON.stringify(await (await twinFetch(sandbox, "/_pome/state")).json())).not.toContain(pat);
  });

  it("redacts a secret inside base64 content", async () => {
    const sandbox = await createSandbox();
    const content = btoa(`token = "${pat}"\n`);
    const res = await post(sandbox, "/repos/acme/api/contents/config.txt", JSON.stringify({ message: "add", content }), "PUT");
    expect(res.status).toBeLessThan(300);
    const text = JSON.stringify(await tapeOf(sandbox));
    expect(text).not.toContain(content);
    const state = JSON.stringify(await (await twinFetch(sandbox, "/_pome/state")).json());
    expect(state).not.toContain(content);
  });

  it("redacts a token in a URL path or an access_token query, plain or URL-encoded", async () => {
    const sandbox = await createSandbox();
    await twinFetch(sandbox, `/repos/acme/api/issues?access_token=${pat}`);
    await twinFetch(sandbox, `/repos/acme/api/issues?access_token=${encodeURIComponent(pat).replace("_", "%5F")}`);
    await twinFetch(sandbox, `/repos/acme/${pat}/issues`);
    const text = JSON.stringify(await tapeOf(sandbox));
    expect(text).not.toContain(pat.slice(11));
  });
});

describe("a limit accepted in one place is accepted everywhere", () => {
  const task = (criteria: string[]) =>
    ["# Limits", "", "## Prompt", "Do it.", "", "## Success Criteria", ...criteria.map((c) => `- [code] ${c}`), ""].join("\n");

  it("refuses 201 criteria when the task is stored, with the path", async () => {
    const res = await postJson("/v1/tasks", {
      source: task(Array.from({ length: 201 }, (_, i) => `Issue #${i + 1} exists in \`acme/api\``)),
    });
    expect(res.status).toBe(422);
    expect(JSON.stringify(await res.json())).toContain("criteria");
  });

  it("accepts 200 criteria and refuses 201 at every door: stored task, sandbox task_source, finalize body", async () => {
    const sentences = (n: number) => Array.from({ length: n }, (_, i) => `Issue #${i + 1} exists in \`acme/api\``);
    const inline = (n: number) => btoa(task(sentences(n)));
    const wire = (n: number) => sentences(n).map((text, i) => code(`c${i}`, text));
    expect((await postJson("/v1/tasks", { source: task(sentences(200)) })).status).toBeLessThan(300);
    const ok = await createSandbox({ task_source: inline(200) });
    const refusedCreate = await postJson("/v1/sandboxes", { task_source: inline(201) });
    expect(refusedCreate.status).toBe(422);
    expect(JSON.stringify(await refusedCreate.json())).toContain('"path":"task_source"');
    const refusedFinalize = await finalize(ok.session_id, wire(201));
    expect(refusedFinalize.status).toBe(422);
    expect(await sandboxState(ok.session_id)).toBe("ready");
    const run = await finalizeOk(ok.session_id, wire(200));
    expect(run.criteria_results).toHaveLength(200);
  });

  it("refuses a criterion over 4,000 characters when the task is stored", async () => {
    const res = await postJson("/v1/tasks", {
      source: task([`A comment containing "${"x".repeat(4100)}" exists on issue #1 in \`acme/api\``]),
    });
    expect(res.status).toBe(422);
  });

  it("refuses a __proto__ seed key in validate exactly as sandbox creation does", async () => {
    const body = '{"twins":["github"],"seed":{"__proto__":{"x":1},"users":[]}}';
    const validate = await api("/v1/seeds/validate", { method: "POST", body });
    const create = await api("/v1/sandboxes", { method: "POST", body: body.replace('{"twins"', `{"task_source":"IyAuLgo=","twins"`) });
    expect(validate.status).toBe(422);
    expect(create.status).toBe(422);
    const v = await validate.json<{ error: { details: unknown } }>();
    const c = await create.json<{ error: { details: unknown } }>();
    expect(v.error.details).toEqual(c.error.details);
  });
});

describe("admin keys belong to one team's own users", () => {
  async function team(slug: string) {
    const res = await postJson("/v1/admin/teams", { slug, email: `${slug}@example.com` }, { key: ADMIN });
    return res.json<{ team: { id: string }; user: { id: string } }>();
  }

  it("refuses another team's user and an unknown user with the field path", async () => {
    const a = await team("keys-team-a");
    const b = await team("keys-team-b");
    for (const user_id of [b.user.id, "usr_nobody"]) {
      const res = await postJson(`/v1/admin/teams/${a.team.id}/keys`, { name: "k", user_id }, { key: ADMIN });
      expect(res.status).toBe(422);
      expect(JSON.stringify(await res.json())).toContain('"path":"user_id"');
    }
    const unknownTeam = await postJson("/v1/admin/teams/tm_nobody/keys", { name: "k" }, { key: ADMIN });
    expect(unknownTeam.status).toBe(404);
  });
});

describe("smaller refusals", () => {
  it("refuses an idempotency key reused with a different body", async () => {
    const key = crypto.randomUUID();
    const first = await postJson("/v1/sandboxes", { task_source: "IyAuLgo=", idempotency_key: key });
    expect(first.status).toBe(201);
    const repeat = await postJson("/v1/sandboxes", { task_source: "IyAuLgo=", idempotency_key: key });
    expect(repeat.status).toBe(201);
    expect((await repeat.json<{ session_id: string }>()).session_id).toBe((await first.json<{ session_id: string }>()).session_id);
    const different = await postJson("/v1/sandboxes", { task_source: "IyAuLgo=", idempotency_key: key, group_id: "other-group" });
    expect(different.status).toBe(422);
    expect(JSON.stringify(await different.json())).toContain("idempotency_key");
  });

  it("answers a provider key on a control-plane route with the control plane's 401", async () => {
    const sandbox = await createSandbox();
    const res = await api("/v1/me", { key: sandbox.provider_credentials.github.token });
    expect(res.status).toBe(401);
    expect((await res.json<{ error: { type: string } }>()).error.type).toBe("unauthorized");
    expect(JSON.stringify(await tapeOf(sandbox))).not.toContain("/v1/me");
  });

  it("answers /_pome errors in the twin's own shape", async () => {
    const sandbox = await createSandbox();
    const res = await SELF.fetch(`${sandbox.per_twin.github.api_url}/_pome/events`.replace(sandbox.session_id, "ses_AAAAAAAAAAAAAAAA"), {
      headers: { authorization: `Bearer ${sandbox.agent_token}` },
    });
    expect(res.status).toBe(401);
    const body = await res.json<Record<string, unknown>>();
    expect(body.message).toBeTypeOf("string");
    expect(body.error).toBeUndefined();
  });

  it("names the field of envelope and twin-count refusals", async () => {
    const notObject = await postJson("/v1/sandboxes", { task_source: "IyAuLgo=", seed: [1] });
    expect(notObject.status).toBe(422);
    expect(JSON.stringify(await notObject.json())).toContain('"path":"seed"');
    const tooMany = await postJson("/v1/sandboxes", { task_source: "IyAuLgo=", twins: ["github", "stripe", "slack", "gmail"] });
    expect(tooMany.status).toBe(422);
    expect(JSON.stringify(await tooMany.json())).toContain('"path":"twins"');
  });

  it("tapes an MCP tool call whose arguments miss the tool's schema", async () => {
    const sandbox = await createSandbox();
    const res = await SELF.fetch(sandbox.per_twin.github.mcp_url, {
      method: "POST",
      headers: {
        authorization: `Bearer ${sandbox.agent_token}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "create_issue", arguments: { owner: "acme", repo: 7 } },
      }),
    });
    expect(res.status).toBe(200);
    const answer = await res.json<{ result: { isError: boolean } }>();
    expect(answer.result.isError).toBe(true);
    const tape = await tapeOf(sandbox);
    expect(tape).toHaveLength(1);
    expect(tape[0]).toMatchObject({ status: 422, request_body: { name: "create_issue", arguments: { owner: "acme", repo: 7 } } });
    expect(JSON.stringify(tape[0])).toContain('"transport":"mcp"');
  });
});
