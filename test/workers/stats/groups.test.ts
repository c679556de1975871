// /v1/groups: a trial group's reliability, the implicit run-set of (agent, task, agent_version),
// and the baseline-vs-rerun comparison, over runs the platform really graded.
import { describe, expect, it } from "vitest";
import { api, createSandbox, postJson, twinFetch } from "../helpers";
import { code, finalizeOk, getJson } from "../grading/run-helpers";

const NO_UNSUPPORTED = "No unsupported endpoint was called";

/** One graded trial: it passes unless the agent calls an endpoint the twin does not serve. */
async function trial(opts: { group?: string; baseline?: string; version?: string; task: string; fails?: boolean; errored?: boolean }) {
  const sandbox = await createSandbox({
    ...(opts.group ? { group_id: opts.group } : {}),
    ...(opts.version ? { agent_version: opts.version } : {}),
  });
  await twinFetch(sandbox, "/repos/acme/api");
  if (opts.fails) await twinFetch(sandbox, "/repos/acme/api/pages", { method: "POST", body: "{}" });
  const criteria = opts.errored
    ? [{ id: "m1", kind: "model" as const, text: "The agent explained what it did" }]
    : [code("c1", "Issue #1 exists in `acme/api`", { always_scored: true }), code("c2", NO_UNSUPPORTED, { always_scored: true })];
  return finalizeOk(sandbox.session_id, criteria, {
    scenario_name: opts.task,
    ...(opts.baseline ? { baseline_group_id: opts.baseline } : {}),
  });
}

const newGroup = () => `grp_${crypto.randomUUID().replace(/-/g, "").slice(0, 12)}`;
const newTask = () => `Reliability fixture ${crypto.randomUUID().slice(0, 8)}`;

interface GroupBody {
  group_id: string;
  trials: number;
  graded: number;
  passed: number;
  failed: number;
  errored: number;
  errored_runs: string[];
  pass_rate: number | null;
  interval: { low: number; high: number } | null;
  pass_hat_k: { k: number; estimate: number }[];
  verdict: string;
  pass_threshold: number;
  criteria: { text: string; passed: number; failed: number; flaky: boolean; pass_rate: number | null }[];
  runs: { id: string; outcome: string; dashboard_url: string }[];
}

async function otherTeamKey(slug: string): Promise<string> {
  const res = await postJson("/v1/admin/teams", { slug, email: `${slug}@example.com` }, { key: "test-admin-secret" });
  return ((await res.json()) as { api_key: { key: string } }).api_key.key;
}

describe("GET /v1/groups/:group_id", () => {
  it("reports trials, errored runs apart, the pass rate with its interval, pass^k and flaky criteria", async () => {
    const group = newGroup();
    const task = newTask();
    const passedRuns = [await trial({ group, task }), await trial({ group, task })];
    const failedRun = await trial({ group, task, fails: true });
    const erroredRun = await trial({ group, task, errored: true });
    expect(erroredRun.score).toBeNull();

    const { status, body } = await getJson<GroupBody>(`/v1/groups/${group}`);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      group_id: group,
      trials: 4,
      graded: 3,
      passed: 2,
      failed: 1,
      errored: 1,
      errored_runs: [erroredRun.run_id],
      pass_threshold: 100,
      verdict: "failed",
    });
    expect(body.pass_rate).toBeCloseTo(2 / 3, 6);
    // Wilson 95% at 2/3: centre (.6667 + .6403) / 2.2805 = .5731, half .4523
    expect(body.interval?.low).toBeCloseTo(0.2077, 3);
    expect(body.interval?.high).toBeCloseTo(0.9385, 3);
    // C(2,k)/C(3,k): 2/3, 1/3, 0
    expect(body.pass_hat_k.map((p) => Number(p.estimate.toFixed(4)))).toEqual([0.6667, 0.3333, 0]);
    const flaky = body.criteria.find((c) => c.text === NO_UNSUPPORTED);
    expect(flaky).toMatchObject({ passed: 2, failed: 1, flaky: true });
    expect(body.criteria.find((c) => c.text.startsWith("Issue #1"))).toMatchObject({ passed: 3, failed: 0, flaky: false, pass_rate: 1 });
    expect(body.runs.map((r) => r.id)).toEqual([...passedRuns, failedRun, erroredRun].map((r) => r.run_id));
    expect(body.runs.map((r) => r.outcome)).toEqual(["passed", "passed", "failed", "errored"]);
    expect(body.runs[0].dashboard_url).toBe(`http://pome.test/app/runs/${passedRuns[0].run_id}`);
  });

  it("judges the verdict against the task's passThreshold", async () => {
    const group = newGroup();
    const task =
      "# Threshold fixture\n\n## Config\n\ntwins: github\npassThreshold: 50%\n\n## Prompt\n\nLook around.\n\n## Success Criteria\n\n- [code] Issue #1 exists in `acme/api`\n";
    for (const fails of [false, true]) {
      const sandbox = await createSandbox({ group_id: group, task_source: btoa(task) });
      if (fails) await twinFetch(sandbox, "/repos/acme/api/pages", { method: "POST", body: "{}" });
      await finalizeOk(sandbox.session_id, [
        code("c1", "Issue #1 exists in `acme/api`", { always_scored: true }),
        code("c2", NO_UNSUPPORTED, { always_scored: true }),
      ]);
    }
    const { body } = await getJson<GroupBody>(`/v1/groups/${group}`);
    expect(body).toMatchObject({ passed: 1, failed: 1, pass_threshold: 50, verdict: "passed" });
  });

  it("answers 404 for another team's group and for a group with no runs", async () => {
    const group = newGroup();
    await trial({ group, task: newTask() });
    const other = await otherTeamKey(`grp-iso-${crypto.randomUUID().slice(0, 6)}`);
    const res = await api(`/v1/groups/${group}`, { key: other });
    expect(res.status).toBe(404);
    const body = await res.json<{ error: { type: string; request_id: string } }>();
    expect(body.error.type).toBe("not_found");
    expect(body.error.request_id).toBe(res.headers.get("x-request-id"));
    expect((await api(`/v1/groups/${newGroup()}`)).status).toBe(404);
  });

  it("refuses a malformed group id with the failing field", async () => {
    const { status, body } = await getJson<{ error: { type: string; details: { issues: { path: string }[] } } }>("/v1/groups/abc");
    expect(status).toBe(422);
    expect(body.error.type).toBe("validation_failed");
    expect(body.error.details.issues[0].path).toBe("group_id");
  });
});

describe("GET /v1/groups?task_name=&agent_version= (the implicit run-set)", () => {
  it("gathers one agent version's runs of one task across groups, and never another version's", async () => {
    const task = newTask();
    await trial({ group: newGroup(), task, version: "v1" });
    await trial({ group: newGroup(), task, version: "v1", fails: true });
    await trial({ group: newGroup(), task, version: "v2" });
    await trial({ task });
    const v1 = await getJson<GroupBody & { run_set: Record<string, unknown> }>(
      `/v1/groups?task_name=${encodeURIComponent(task)}&agent_version=v1`,
    );
    expect(v1.status).toBe(200);
    expect(v1.body).toMatchObject({ run_set: { task_name: task, agent_version: "v1", agent_id: null }, trials: 2, passed: 1, failed: 1 });
    // Left out, the version means "not declared": only the run that declared none.
    const undeclared = await getJson<GroupBody>(`/v1/groups?task_name=${encodeURIComponent(task)}`);
    expect(undeclared.body.trials).toBe(1);

    const sets = await getJson<{ task_name: string; agent_version: string | null; runs: number; groups: number }[]>("/v1/run-sets");
    const mine = sets.body.filter((s) => s.task_name === task);
    expect(mine.map((s) => [s.agent_version, s.runs]).sort()).toEqual(
      [
        ["v1", 2],
        ["v2", 1],
        [null, 1],
      ].sort(),
    );
  });

  it("requires the task, and refuses unknown parameters by name", async () => {
    const missing = await getJson<{ error: { details: { issues: { path: string }[] } } }>("/v1/groups?agent_version=v1");
    expect(missing.status).toBe(422);
    expect(missing.body.error.details.issues[0].path).toBe("task_name");
    const unknown = await getJson<{ error: { details: { issues: { path: string }[] } } }>("/v1/groups?task_name=x&version=v1");
    expect(unknown.status).toBe(422);
    expect(unknown.body.error.details.issues[0].path).toBe("version");
  });
});

describe("GET /v1/groups/:group_id/compare", () => {
  interface CompareBody {
    group_id: string;
    baseline_group_id: string;
    pass_rate_change: number;
    test: { method: string; p_value: number; significant: boolean };
    intervals_overlap: boolean;
    fixed: number;
    broken: number;
    criteria: { text: string; flip: string | null; before: { status: string }; after: { status: string } }[];
    baseline: GroupBody;
    rerun: GroupBody;
  }

  it("names the criteria that flipped and tests the change in pass rate against the noise", async () => {
    const task = newTask();
    const baseline = newGroup();
    const rerun = newGroup();
    for (let i = 0; i < 4; i++) await trial({ group: baseline, task, version: "v1", fails: true });
    for (let i = 0; i < 4; i++) await trial({ group: rerun, task, version: "v2", baseline });

    // The rerun's runs name their baseline, so ?baseline= may be left out.
    const { status, body } = await getJson<CompareBody>(`/v1/groups/${rerun}/compare`);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      group_id: rerun,
      baseline_group_id: baseline,
      pass_rate_change: 1,
      fixed: 1,
      broken: 0,
      intervals_overlap: false,
    });
    expect(body.baseline).toMatchObject({ passed: 0, failed: 4 });
    expect(body.rerun).toMatchObject({ passed: 4, failed: 0 });
    // 0/4 against 4/4: p = 2 / C(8, 4) = 2/70
    expect(body.test.method).toBe("fisher_exact_two_sided");
    expect(body.test.p_value).toBeCloseTo(2 / 70, 6);
    expect(body.test.significant).toBe(true);
    expect(body.criteria.find((c) => c.text === NO_UNSUPPORTED)).toMatchObject({
      flip: "failed→passed",
      before: { status: "failed" },
      after: { status: "passed" },
    });
    expect(body.criteria.find((c) => c.text.startsWith("Issue #1"))?.flip).toBeNull();

    const explicit = await getJson<CompareBody>(`/v1/groups/${baseline}/compare?baseline=${rerun}`);
    expect(explicit.body).toMatchObject({ pass_rate_change: -1, fixed: 0, broken: 1 });
  });

  it("needs a baseline, and another team's baseline is not found", async () => {
    const group = newGroup();
    await trial({ group, task: newTask() });
    const none = await getJson<{ error: { type: string; details: { issues: { path: string }[] } } }>(`/v1/groups/${group}/compare`);
    expect(none.status).toBe(422);
    expect(none.body.error.details.issues[0].path).toBe("baseline");
    const bad = await getJson<{ error: { details: { issues: { path: string }[] } } }>(`/v1/groups/${group}/compare?baseline=x`);
    expect(bad.body.error.details.issues[0].path).toBe("baseline");

    const other = await otherTeamKey(`cmp-iso-${crypto.randomUUID().slice(0, 6)}`);
    const theirs = newGroup();
    const sandbox = await createSandbox({ group_id: theirs }, other);
    const res = await postJson(
      `/v1/sandboxes/${sandbox.session_id}/finalize`,
      {
        stop_reason: "done",
        exit_code: 0,
        duration_ms: 1,
        agent_model: "m",
        criteria: [code("c1", "Issue #1 exists in `acme/api`", { always_scored: true })],
      },
      { key: other },
    );
    expect(res.status).toBe(200);
    expect((await api(`/v1/groups/${group}/compare?baseline=${theirs}`)).status).toBe(404);
  });
});
