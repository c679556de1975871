// An asynchronous finalize runs as a Cloudflare Workflow on the local server too: `npm start`
// (Miniflare) serves the Workflow binding, so `Prefer: respond-async` completes with no cloud.
import { describe, expect, it } from "vitest";
import { createSandbox, pomeUrl } from "../mcp/helpers";
import { LOCAL_KEY } from "../server";

const auth = { authorization: `Bearer ${LOCAL_KEY}`, "content-type": "application/json" };

async function evaluationOf(sessionId: string): Promise<{ status: string; run_id: string | null; result?: { run_id: string } }> {
  const res = await fetch(`${pomeUrl()}/v1/sandboxes/${sessionId}/evaluation`, { headers: auth });
  return res.json() as Promise<{ status: string; run_id: string | null; result?: { run_id: string } }>;
}

describe("Prefer: respond-async on npm start", () => {
  it("answers 202 and the Workflow settles the evaluation with a run", async () => {
    const sandbox = await createSandbox({ twins: ["github"] });
    const res = await fetch(`${pomeUrl()}/v1/sandboxes/${sandbox.session_id}/finalize`, {
      method: "POST",
      headers: { ...auth, prefer: "respond-async" },
      body: JSON.stringify({
        stop_reason: "done",
        exit_code: 0,
        duration_ms: 1000,
        agent_model: "test-model",
        criteria: [{ id: "c1", text: "Issue #1 exists in `acme/api`", kind: "code", always_scored: true }],
      }),
    });
    expect(res.status).toBe(202);
    let evaluation = await evaluationOf(sandbox.session_id);
    for (let i = 0; i < 100 && evaluation.status === "running"; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      evaluation = await evaluationOf(sandbox.session_id);
    }
    expect(evaluation.status).toBe("completed");
    expect(evaluation.result?.run_id).toBe(evaluation.run_id);
  });
});
