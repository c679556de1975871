// run_trials with `concurrency`: a batch of at most C trials, started side by side, within the
// team's free sandbox slots; the rest are returned for a later call that continues the group.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ApiError } from "../../../workers/errors";
import type { ApiAnswer, V1 } from "../../../workers/mcp/control-api";
import { runTrials } from "../../../workers/mcp/runs";

const TASK = { id: "tsk_1", name: "Triage", twins: ["github"], prompt: "Do it", config: { runs: 5, pass_threshold: 80, pass_score: null } };

/** A /v1 whose sandbox creates answer only after all `settleAfter` of them arrived: proof they overlap. */
function fakeV1(opts: { remaining: number; settleAfter?: number }) {
  const calls: string[] = [];
  let started = 0;
  const waiting: (() => void)[] = [];
  const raw = async (method: string, path: string, _body?: unknown): Promise<ApiAnswer> => {
    calls.push(`${method} ${path}`);
    if (method === "GET" && path === "/v1/tasks/tsk_1") return { status: 200, text: "", json: TASK };
    if (method === "GET" && path === "/v1/usage") return { status: 200, text: "", json: { sessions_remaining: opts.remaining } };
    if (method === "POST" && path === "/v1/sandboxes") {
      const id = `ses_${++started}`;
      if (opts.settleAfter) {
        // Holds every create until the whole batch has arrived: sequential creates would hang here.
        await new Promise<void>((resolve) => {
          waiting.push(resolve);
          if (waiting.length === opts.settleAfter) for (const go of waiting.splice(0)) go();
        });
      }
      return {
        status: 201,
        text: "",
        json: {
          session_id: id,
          expires_at: "2030-01-01T00:00:00.000Z",
          agent_token: `tok_${id}`,
          twins: ["github"],
          per_twin: { github: { api_url: `http://h/github/s/${id}`, mcp_url: `http://h/github/s/${id}/mcp`, openapi_url: "" } },
          provider_credentials: {},
        },
      };
    }
    return { status: 200, text: "", json: {} };
  };
  const v1: V1 = {
    raw,
    json: async <T>(method: string, path: string, body?: unknown) => (await raw(method, path, body)).json as T,
    text: async () => "",
  };
  return { v1, calls };
}

const ctx = (v1: V1) => ({ v1, env, teamId: "tm_local" });

describe("run_trials with concurrency starts a batch side by side", () => {
  it("starts C trials at once under one group and returns the rest as pending", async () => {
    const { v1 } = fakeV1({ remaining: 10, settleAfter: 2 });
    const batch = await runTrials(ctx(v1), { task_id: "tsk_1", n: 5, concurrency: 2, group_id: "grp_fixed1" });
    expect(batch.trials.map((t) => t.trial)).toEqual([1, 2]);
    expect(batch.trials.map((t) => t.examinee_launch.env.POME_TRIALS)).toEqual(["5", "5"]);
    expect(batch.pending_trials).toEqual([3, 4, 5]);
    expect(batch.next).toEqual({ first_trial: 3, group_id: "grp_fixed1", concurrency: 2 });
  });

  it("continues the group from next.first_trial", async () => {
    const { v1 } = fakeV1({ remaining: 10 });
    const batch = await runTrials(ctx(v1), { task_id: "tsk_1", n: 5, concurrency: 2, first_trial: 5, group_id: "grp_fixed1" });
    expect(batch.trials.map((t) => [t.trial, t.examinee_launch.env.POME_TRIAL])).toEqual([[5, "5"]]);
    expect(batch).toMatchObject({ group_id: "grp_fixed1", pending_trials: [], next: null });
  });

  it("never starts more trials than the team has free sandbox slots", async () => {
    const { v1, calls } = fakeV1({ remaining: 1 });
    const batch = await runTrials(ctx(v1), { task_id: "tsk_1", n: 3, concurrency: 3 });
    expect(calls.filter((c) => c === "POST /v1/sandboxes")).toHaveLength(1);
    expect(batch.pending_trials).toEqual([2, 3]);
  });

  it("reports a full quota as quota_exceeded with the trials still to run, starting none", async () => {
    const { v1, calls } = fakeV1({ remaining: 0 });
    const refused = runTrials(ctx(v1), { task_id: "tsk_1", n: 2, concurrency: 2 });
    await expect(refused).rejects.toBeInstanceOf(ApiError);
    await expect(refused).rejects.toMatchObject({ type: "quota_exceeded", details: { pending_trials: [1, 2] } });
    expect(calls).not.toContain("POST /v1/sandboxes");
  });

  it("refuses a later batch without its group id", async () => {
    const { v1 } = fakeV1({ remaining: 5 });
    await expect(runTrials(ctx(v1), { task_id: "tsk_1", n: 3, first_trial: 2 })).rejects.toMatchObject({ type: "validation_failed" });
  });
});
