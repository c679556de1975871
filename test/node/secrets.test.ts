// Issue 36, point 7: secrets stay secret in every output. Every secret setting is set to a unique
// marker; `npm start` is started with them, a run is made whose judge fails (and echoes the key it
// was sent, as providers' 401s do), bad requests are sent, and everything the platform printed or
// answered is searched for the markers. The settings line names each secret and its source.
import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOCAL_KEY, freePort, startDevServer, type DevServer } from "./server";

const tag = Math.random().toString(36).slice(2, 10);
/** Every secret setting (workers/settings.ts, wrangler.toml's required secrets), each a marker. */
const SECRETS = {
  TOKEN_SECRET: `marker-token-secret-${tag}`,
  TOKEN_SECRET_PREVIOUS: `marker-previous-secret-${tag}`,
  ADMIN_SECRET: `marker-admin-secret-${tag}`,
  JUDGE_API_KEY: `marker-judge-key-${tag}`,
};
const MARKERS = Object.values(SECRETS);

/** An OpenAI-compatible judge that refuses every call, quoting the key it was sent (as OpenAI's 401 does). */
async function refusingJudge() {
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const key = (req.headers.authorization ?? "").replace(/^Bearer /, "");
      const body = { error: { message: `Incorrect API key provided: ${key}`, type: "invalid_request_error", code: "invalid_api_key" } };
      res.writeHead(401, { "content-type": "application/json" }).end(JSON.stringify(body));
    });
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((r) => server.close(r)) };
}

const TASK = [
  "# Explain the bug",
  "",
  "## Prompt",
  "Comment on issue #1 in acme/api.",
  "",
  "## Success Criteria",
  "- [model] The comment explains the bug",
  "",
].join("\n");

let dev: DevServer;
let judge: Awaited<ReturnType<typeof refusingJudge>>;
/** Every body the platform answered during the test. */
const answered: string[] = [];

async function call(path: string, init: RequestInit & { key?: string } = {}): Promise<Response> {
  const { key = LOCAL_KEY, ...rest } = init;
  const res = await fetch(`${dev.url}${path}`, {
    redirect: "manual",
    ...rest,
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json", ...(rest.headers ?? {}) },
  });
  answered.push(`${res.status} ${path}\n${[...res.headers].map(([k, v]) => `${k}: ${v}`).join("\n")}\n${await res.clone().text()}`);
  return res;
}

beforeAll(async () => {
  judge = await refusingJudge();
  const vars = { ...SECRETS, JUDGE_PROVIDER: "openai", JUDGE_MODEL: "marker-test-model", JUDGE_BASE_URL: `${judge.url}/v1` };
  dev = await startDevServer({ args: Object.entries(vars).flatMap(([name, value]) => ["--var", `${name}:${value}`]) });
}, 120_000);

afterAll(async () => {
  await dev?.stop();
  await judge?.close();
});

describe("the start-up block names each secret setting and its source, never its value", () => {
  it("lists the secrets as names from --var beside the plain settings' values", () => {
    const settings =
      dev
        .output()
        .split("\n")
        .find((line) => line.trim().startsWith("settings")) ?? "";
    for (const name of Object.keys(SECRETS)) expect(settings).toContain(`${name} (secret, from --var)`);
    expect(settings).toContain("JUDGE_PROVIDER=openai");
    for (const marker of MARKERS) expect(settings).not.toContain(marker);
  });
});

describe("no output of a start, a run and its failures shows a secret", () => {
  it("keeps every marker out of the console, the answers, the run, its report and its evidence", async () => {
    // A run whose judge fails: the [model] criterion is skipped, with the provider's error as its reason.
    const created = await call("/v1/sandboxes", {
      method: "POST",
      body: JSON.stringify({ task_source: Buffer.from(TASK).toString("base64") }),
    });
    expect(created.status).toBe(201);
    const sandbox = (await created.json()) as { session_id: string; agent_token: string; per_twin: { github: { api_url: string } } };
    const twin = sandbox.per_twin.github.api_url.slice(dev.url.length);
    await call(`${twin}/repos/acme/api/issues/1/comments`, {
      method: "POST",
      key: sandbox.agent_token,
      body: JSON.stringify({ body: "The timeout is a bug." }),
    });
    const finalized = await call(`/v1/sandboxes/${sandbox.session_id}/finalize`, {
      method: "POST",
      body: JSON.stringify({ stop_reason: "done", exit_code: 0, duration_ms: 10, agent_model: "test" }),
    });
    expect(finalized.status).toBe(200);
    const run = (await finalized.json()) as { run_id: string; criteria_results: { status: string; reason: string }[] };
    expect(run.criteria_results[0]?.status).toBe("skipped");
    // The provider's refusal is kept as the reason, its quote of the key named, not shown.
    expect(run.criteria_results[0]?.reason).toContain("Incorrect API key provided: [JUDGE_API_KEY]");

    // What the run left: its record, its report, its page, and its evidence downloads.
    await call(`/v1/runs/${run.run_id}`);
    await call(`/app/runs/${run.run_id}`);
    await call(`/app/runs/${run.run_id}/report.md`);
    const trace = await call(`/app/runs/${run.run_id}/download/trace`);
    const location = trace.headers.get("location");
    if (location) await call(new URL(location).pathname + new URL(location).search);

    // Failures: a wrong admin secret, a malformed body, a credential that opens nothing, an unknown path.
    expect((await call("/v1/admin/teams", { method: "POST", key: `${SECRETS.ADMIN_SECRET}x`, body: "{}" })).status).toBe(401);
    expect((await call("/v1/sandboxes", { method: "POST", body: "{not json" })).status).toBe(400);
    expect((await call(`${twin}/repos/acme/api`, { key: `${SECRETS.TOKEN_SECRET}` })).status).toBe(401);
    expect((await call("/v1/nowhere")).status).toBe(404);
    // The admin secret used rightly is not echoed either.
    await call("/v1/admin/teams", {
      method: "POST",
      key: SECRETS.ADMIN_SECRET,
      body: JSON.stringify({ slug: `s-${tag}`, email: "s@example.com" }),
    });

    // Give the server a moment to flush its log lines (an evaluation's failure is logged as it ends).
    await new Promise((r) => setTimeout(r, 500));
    const everything = `${dev.output()}\n${answered.join("\n")}`;
    expect(answered.length).toBeGreaterThan(8);
    for (const marker of MARKERS)
      expect(everything, `a secret's value (${marker.split("-").slice(1, 3).join(" ")}) was shown`).not.toContain(marker);
  }, 120_000);
});
