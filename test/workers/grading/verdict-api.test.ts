// Verdicts through the API (issue 38): finalize and GET /v1/runs/:id carry the verdict and each
// criterion's owner, a crash is kept on the run and named, and a stored run is re-graded from its
// evidence into a new run linked to the old one, with the criteria that flipped.
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { LOCAL_KEY, ORIGIN, api, postJson } from "../helpers";
import { code, finalize, getJson, triagedSandbox } from "./run-helpers";

const LABELLED = code("c1", "Issue #1 in `acme/api` has the `bug` label applied");
const TYPO = code("c2", "Issue #1 in `acme/api` has the `bug` labl applied");

interface Run {
  id: string;
  verdict: string;
  verdict_reason: string;
  score: number | null;
  exit_code: number;
  exit_signal: string | null;
  stderr_tail: string | null;
  regraded_from: string | null;
  group_id: string | null;
  flipped: { id: string; before: string; after: string }[] | null;
  criteria_results: { id: string; status: string; owner: string | null }[];
}

async function finalized(criteria: ReturnType<typeof code>[], extra: Record<string, unknown> = {}) {
  const sandbox = await triagedSandbox({ group_id: `grp_${crypto.randomUUID().slice(0, 8)}` });
  const res = await finalize(sandbox.session_id, criteria, extra);
  expect(res.status).toBe(200);
  const answer = await res.json<{ run_id: string; verdict: string; verdict_reason: string }>();
  const { body } = await getJson<Run>(`/v1/runs/${answer.run_id}`);
  return { answer, run: body };
}

describe("finalize and GET /v1/runs/:id say the verdict and who owns each criterion that did not pass", () => {
  it("a typo'd [code] criterion makes the run incomplete though the rest scored 100", async () => {
    const { answer, run } = await finalized([LABELLED, TYPO]);
    expect(answer.verdict).toBe("incomplete");
    expect(run).toMatchObject({ verdict: "incomplete", score: 100 });
    expect(run.verdict_reason).toContain("`c2` bound no check");
    expect(run.criteria_results.map((r) => [r.id, r.status, r.owner])).toEqual([
      ["c1", "passed", null],
      ["c2", "unmatched", "task"],
    ]);
    const report = await (await api(`/v1/runs/${run.id}/report.md`)).text();
    expect(report).toContain("**Verdict: ⚠️ incomplete**");
    // The dashboard's run page shows the verdict and each criterion's owner.
    const login = await SELF.fetch(`${ORIGIN}/app/login`, {
      method: "POST",
      redirect: "manual",
      body: new URLSearchParams({ key: LOCAL_KEY, next: "/app/runs" }),
    });
    const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0];
    const page = await (await SELF.fetch(`${ORIGIN}/app/runs/${run.id}`, { headers: { cookie } })).text();
    expect(page).toContain('data-verdict="incomplete"');
    expect(page).toMatch(/data-owner="task"/);
    // The reliability page counts incomplete trials apart, as it counts errored ones.
    const reliability = await (await SELF.fetch(`${ORIGIN}/app/reliability`, { headers: { cookie } })).text();
    expect(reliability).toContain('<th class="num">Incomplete</th>');
  });

  it("a crash is failed, with its exit code, signal and stderr tail kept, redacted", async () => {
    const { run } = await finalized([LABELLED], {
      stop_reason: "signal SIGKILL",
      exit_code: 137,
      exit_signal: "SIGKILL",
      stderr_tail: "fatal: out of memory; token ghp_abcdefghijklmnopqrstuvwxyz0123",
    });
    expect(run).toMatchObject({ verdict: "failed", exit_code: 137, exit_signal: "SIGKILL" });
    expect(run.verdict_reason).toContain("killed by SIGKILL");
    expect(run.stderr_tail).toBe("fatal: out of memory; token [REDACTED]");
    const report = await (await api(`/v1/runs/${run.id}/report.md`)).text();
    expect(report).toContain("## How the examinee ended");
    expect(report).toContain("fatal: out of memory");
  });

  it("refuses a malformed signal name with 422 validation_failed, changing nothing", async () => {
    const sandbox = await triagedSandbox();
    const res = await finalize(sandbox.session_id, [LABELLED], { exit_signal: "kill -9" });
    expect(res.status).toBe(422);
    expect(await res.text()).toContain("exit_signal");
  });
});

describe("POST /v1/runs/:id/regrade grades the stored evidence again into a new, linked run", () => {
  it("fixing the typo flips the criterion from unmatched to passed and the run from incomplete to passed", async () => {
    const { run } = await finalized([LABELLED, TYPO]);
    const res = await postJson(`/v1/runs/${run.id}/regrade`, {
      criteria: [LABELLED, code("c2", "Issue #1 in `acme/api` has the `bug` label applied")],
    });
    expect(res.status).toBe(201);
    const answer = await res.json<{ run_id: string; verdict: string; regraded_from: string; flipped: Run["flipped"] }>();
    expect(answer).toMatchObject({ verdict: "passed", regraded_from: run.id });
    expect(answer.flipped).toEqual([
      expect.objectContaining({ id: "c1", before: "passed", after: "passed" }),
      expect.objectContaining({ id: "c2", before: "unmatched", after: "passed" }),
    ]);
    const { body: regraded } = await getJson<Run>(`/v1/runs/${answer.run_id}`);
    // A second reading of one trial is not a second trial: it stays out of the group.
    expect(regraded).toMatchObject({ regraded_from: run.id, group_id: null, verdict: "passed" });
    // The old run is left as it was.
    expect((await getJson<Run>(`/v1/runs/${run.id}`)).body.verdict).toBe("incomplete");
  });

  it("with no body, re-grades the run's own criteria to the same statuses", async () => {
    const { run } = await finalized([LABELLED]);
    const res = await api(`/v1/runs/${run.id}/regrade`, { method: "POST" });
    expect(res.status).toBe(201);
    const answer = await res.json<{ flipped: Run["flipped"]; verdict: string }>();
    expect(answer.verdict).toBe("passed");
    expect(answer.flipped).toEqual([expect.objectContaining({ id: "c1", before: "passed", after: "passed" })]);
  });

  it("answers 404 for a run that does not exist", async () => {
    expect((await api("/v1/runs/run_nope/regrade", { method: "POST" })).status).toBe(404);
  });
});
