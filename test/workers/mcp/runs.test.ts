import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ApiFailure, type ApiAnswer, type V1 } from "../../../workers/mcp/control-api";
import { runTask, runTrials } from "../../../workers/mcp/runs";

const TASK = { id: "tsk_1", name: "Triage", twins: ["github"], prompt: "Do it", config: { runs: 2, pass_threshold: 80, pass_score: null } };

/** A /v1 that records calls; sandboxes start until `quota` are open, then answer 402. */
function fakeV1(quota: number) {
  const calls: string[] = [];
  const bodies: unknown[] = [];
  let started = 0;
  const raw = async (method: string, path: string, body?: unknown): Promise<ApiAnswer> => {
    calls.push(`${method} ${path}`);
    if (body !== undefined) bodies.push(body);
    if (method === "GET" && path === "/v1/tasks/tsk_1") return { status: 200, text: "", json: TASK };
    if (method === "POST" && path === "/v1/sandboxes") {
      if (started >= quota)
        return { status: 402, text: '{"error":{"type":"quota_exceeded"}}', json: { error: { type: "quota_exceeded" } } };
      started++;
      const id = `ses_${started}`;
      return {
        status: 201,
        text: "",
        json: {
          session_id: id,
          expires_at: "2030-01-01T00:00:00.000Z",
          agent_token: `tok_${started}`,
          twins: ["github"],
          per_twin: { github: { api_url: `http://h/github/s/${id}`, mcp_url: `http://h/github/s/${id}/mcp`, openapi_url: "" } },
          provider_credentials: {},
        },
      };
    }
    if (method === "DELETE" && !path.includes("confirm_discard"))
      return { status: 409, text: "", json: { error: { details: { discard_token: `dsc_${path.split("/").pop()}` } } } };
    return { status: 200, text: "", json: {} };
  };
  const v1: V1 = {
    raw,
    json: async <T>(method: string, path: string, body?: unknown) => {
      const answer = await raw(method, path, body);
      if (answer.status >= 300) throw new ApiFailure(answer);
      return answer.json as T;
    },
    text: async () => "",
  };
  return { v1, calls, bodies };
}

describe("run_task", () => {
  it("mints a grp_ group id and stamps the version on the sandbox", async () => {
    const { v1, bodies } = fakeV1(5);
    const run = await runTask({ v1, env, teamId: "tm_local" }, { task_id: "tsk_1", agent_version: "v3" });
    expect(run.group_id).toMatch(/^grp_[A-Za-z0-9]{12}$/);
    expect(bodies[0]).toEqual({ task_id: "tsk_1", twins: ["github"], group_id: run.group_id, agent_version: "v3" });
    expect(run.examinee_launch.env.POME_AUTH_TOKEN).toBe("tok_1");
  });
});

describe("run_trials is all or nothing", () => {
  it("starts N sandboxes under one group and reports the task's threshold", async () => {
    const { v1 } = fakeV1(5);
    const batch = await runTrials({ v1, env, teamId: "tm_local" }, { task_id: "tsk_1", n: 3, group_id: "grp_fixed1" });
    expect(batch.trials.map((t) => [t.trial, t.session_id])).toEqual([
      [1, "ses_1"],
      [2, "ses_2"],
      [3, "ses_3"],
    ]);
    expect(batch).toMatchObject({ group_id: "grp_fixed1", n: 3, pass_threshold: 80, pass_score: 100 });
  });

  it("discards the trials it started when the quota stops the batch", async () => {
    const { v1, calls } = fakeV1(2);
    await expect(runTrials({ v1, env, teamId: "tm_local" }, { task_id: "tsk_1", n: 3 })).rejects.toBeInstanceOf(ApiFailure);
    expect(calls.filter((c) => c.startsWith("DELETE"))).toEqual([
      "DELETE /v1/sandboxes/ses_1",
      "DELETE /v1/sandboxes/ses_1?confirm_discard=dsc_ses_1",
      "DELETE /v1/sandboxes/ses_2",
      "DELETE /v1/sandboxes/ses_2?confirm_discard=dsc_ses_2",
    ]);
  });
});
