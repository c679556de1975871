// An asynchronous finalize is a Cloudflare Workflow keyed by the evaluation id
// (workers/finalize/finalize-job.ts), run beside the Sandbox rather than in its alarm: the platform
// retries its grading step, and the evaluation settles with the run or with a public error.
// Driven with the Workflows test helpers, through the real API.
import { env, introspectWorkflow, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { sandboxStub } from "../../../workers/stubs";
import { createSandbox } from "../helpers";
import { code, finalize, finalizeOk, getJson, type FinalizeAnswer } from "./run-helpers";

const EXISTS = [code("c1", "Issue #1 exists in `acme/api`", { always_scored: true })];

interface Evaluation {
  evaluation_id: string;
  status: string;
  run_id: string | null;
  result?: FinalizeAnswer;
  error?: { type: string; message: string };
}

const runsFor = async (sessionId: string) =>
  (await env.DB.prepare("SELECT count(*) AS n FROM runs WHERE session_id = ?").bind(sessionId).first<{ n: number }>())?.n ?? 0;

const evaluationOf = async (sessionId: string) => (await getJson<Evaluation>(`/v1/sandboxes/${sessionId}/evaluation`)).body;

const stateOf = async (sessionId: string) => (await getJson<{ state: string }>(`/v1/sandboxes/${sessionId}`)).body.state;

/** Starts an asynchronous finalize and returns the workflow instance it created. */
async function startAsync(sessionId: string, introspector: Awaited<ReturnType<typeof introspectWorkflow>>) {
  const res = await finalize(sessionId, EXISTS, {}, { headers: { prefer: "respond-async" } });
  expect(res.status).toBe(202);
  const accepted = await res.json<Evaluation>();
  const [instance] = await introspector.get();
  if (!instance) throw new Error("no workflow instance was created");
  return { accepted, instance };
}

describe("an asynchronous finalize runs as a Workflow, not in the Sandbox", () => {
  it("settles the evaluation with the same run a synchronous finalize gives", async () => {
    await using introspector = await introspectWorkflow(env.FINALIZE);
    const sandbox = await createSandbox();
    const { accepted, instance } = await startAsync(sandbox.session_id, introspector);
    await instance.waitForStatus("complete");
    const polled = await evaluationOf(sandbox.session_id);
    expect(polled).toMatchObject({ evaluation_id: accepted.evaluation_id, status: "completed" });
    expect(polled.result?.run_id).toBe(polled.run_id);
    expect(await finalizeOk(sandbox.session_id, EXISTS)).toEqual(polled.result);
    expect(await runsFor(sandbox.session_id)).toBe(1);
  });

  it("leaves the Sandbox no finalize timer or job of its own", async () => {
    await using introspector = await introspectWorkflow(env.FINALIZE);
    const sandbox = await createSandbox();
    const { instance } = await startAsync(sandbox.session_id, introspector);
    await instance.waitForStatus("complete");
    const kept = await runInDurableObject(sandboxStub(env, sandbox.session_id), (_instance, state) => ({
      timers: state.storage.sql.exec<{ name: string }>("SELECT name FROM _timers").toArray(),
      jobs: state.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM _meta WHERE key = 'finalize_job'").one().n,
    }));
    expect(kept.timers.map((t) => t.name)).not.toContain("finalize");
    expect(kept.jobs).toBe(0);
  });
});

describe("the platform retries a failing grading step", () => {
  it("writes exactly one run when the step fails twice, then passes", async () => {
    await using introspector = await introspectWorkflow(env.FINALIZE);
    await introspector.modifyAll(async (m) => {
      await m.disableRetryDelays();
      await m.mockStepError({ name: "grade" }, new Error("injected D1 outage"), 2);
    });
    const sandbox = await createSandbox();
    const { instance } = await startAsync(sandbox.session_id, introspector);
    await instance.waitForStatus("complete");
    expect((await evaluationOf(sandbox.session_id)).status).toBe("completed");
    expect(await runsFor(sandbox.session_id)).toBe(1);
    expect(await stateOf(sandbox.session_id)).toBe("done");
  });

  it("settles as failed, with no internal cause, when every attempt fails; the sandbox stays finalizable", async () => {
    await using introspector = await introspectWorkflow(env.FINALIZE);
    await introspector.modifyAll(async (m) => {
      await m.disableRetryDelays();
      await m.mockStepError({ name: "grade" }, new Error("injected outage: secret internals"));
    });
    const sandbox = await createSandbox();
    const { instance } = await startAsync(sandbox.session_id, introspector);
    await instance.waitForStatus("complete");
    const failed = await evaluationOf(sandbox.session_id);
    expect(failed.status).toBe("failed");
    expect(failed.error?.type).toBe("internal_error");
    expect(JSON.stringify(failed)).not.toContain("secret internals");
    expect(await runsFor(sandbox.session_id)).toBe(0);
    expect(await stateOf(sandbox.session_id)).toBe("ready");
    // Finalizing again grades it.
    expect((await finalizeOk(sandbox.session_id, EXISTS)).criteria_results[0].status).toBe("passed");
  });
});
