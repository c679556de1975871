// Trials in parallel stay within the team's quota: the run loop (cli/lib/run-trials.mjs) against
// an API that refuses a sandbox past the quota with 402, as POST /v1/sandboxes does. Plain .mjs,
// like units.test.mjs, because it imports the CLI's own modules.
import { describe, expect, it } from "vitest";
import { ApiResponseError } from "../../../cli/lib/api.mjs";
import { createOutput } from "../../../cli/lib/output.mjs";
import { runTrials } from "../../../cli/lib/run-trials.mjs";

const node = process.execPath;

/** An API whose team may hold `quota` open sandboxes; counts how many were open at once. */
function quotaApi(quota) {
  let open = 0;
  let peak = 0;
  let created = 0;
  const refusal = () =>
    new ApiResponseError("POST", "/v1/sandboxes", 402, {
      error: { type: "quota_exceeded", message: `Your plan allows ${quota} open sandboxes and ${open} are open` },
    });
  const api = {
    get: async (path) => (path === "/v1/usage" ? { sessions_quota: quota, sessions_remaining: quota - open } : {}),
    request: async () => ({ status: 204, body: null }),
    deleteSandbox: async () => ({}),
    post: async (path) => {
      if (path === "/v1/sandboxes") {
        if (open >= quota) throw refusal();
        open++;
        peak = Math.max(peak, open);
        const id = `ses_${++created}`;
        return {
          session_id: id,
          expires_at: new Date(Date.now() + 600_000).toISOString(),
          agent_token: "tok",
          twins: ["github"],
          per_twin: {},
          provider_credentials: {},
        };
      }
      open--;
      return { run_id: `run_${path.split("/")[3]}`, score: 100, verdict: "passed", criteria_results: [] };
    },
  };
  return { api, peak: () => peak };
}

const TASK = { name: "Quota", prompt: "Wait", config: { twins: ["github"], passScore: 100, passThreshold: 100 }, criteria: [] };

describe("trials in parallel stay within the team's quota", () => {
  it("runs no more trials at once than the quota allows, and finishes them all", async () => {
    const { api, peak } = quotaApi(2);
    const outcome = await runTrials({
      api,
      out: createOutput({ quiet: true }),
      task: TASK,
      markdown: "# Quota\n",
      criteria: [],
      command: [node, "-e", "setTimeout(() => {}, 300)"],
      runs: 5,
      concurrency: 4,
      groupId: "grp_quota_test",
      agentModel: "test",
    });
    expect(peak()).toBe(2);
    expect(outcome.runs.map((r) => r.trial)).toEqual([1, 2, 3, 4, 5]);
    expect(outcome.verdict).toBe("passed");
  });

  it("waits for its own trials to free a slot when someone else's sandbox took one", async () => {
    // The quota is read as 3, but one slot is already held elsewhere: the third create is refused
    // (402) and waits for one of ours to finish instead of failing.
    const { api, peak } = quotaApi(2);
    const reported = { ...api, get: async () => ({ sessions_quota: 3, sessions_remaining: 3 }) };
    const outcome = await runTrials({
      api: reported,
      out: createOutput({ quiet: true }),
      task: TASK,
      markdown: "# Quota\n",
      criteria: [],
      command: [node, "-e", "setTimeout(() => {}, 300)"],
      runs: 4,
      concurrency: 3,
      groupId: "grp_quota_test",
      agentModel: "test",
    });
    expect(peak()).toBe(2);
    expect(outcome.runs).toHaveLength(4);
  });
});
