// A [model] criterion graded by a configured judge on a real sandbox: the judge reads the run's
// own tape and state, and its verdict and model land on the run. The provider answers from a
// local fake; nothing leaves the test runtime.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { finalizeSandbox } from "../../../workers/finalize/finalize";
import { parseFinalizeBody } from "../../../workers/finalize/finalize-input";
import { makeJudge } from "../../../workers/grading/judge";
import { openAiProvider } from "../../../workers/grading/judge/providers";
import type { FetchLike } from "../../../workers/grading/judge/types";
import { findSandbox } from "../../../workers/sandbox-index";
import { createSandbox, twinFetch } from "../helpers";
import { REQUIRED, code } from "./run-helpers";

describe("a judged run", () => {
  it("sends the judge the task, the criterion and the tape, and stores its verdict and model", async () => {
    const sandbox = await createSandbox();
    await twinFetch(sandbox, "/repos/acme/api");
    const prompts: string[] = [];
    const fake: FetchLike = async (_url, init) => {
      const body = JSON.parse(String(init.body)) as { messages: { content: string }[] };
      prompts.push(body.messages.map((m) => m.content).join("\n"));
      return Response.json({ choices: [{ message: { content: '{"verdict":"pass","reason":"The agent read acme/api before acting."}' } }] });
    };
    const row = await findSandbox(env, "tm_local", sandbox.session_id);
    if (!row) throw new Error("sandbox row missing");
    const body = parseFinalizeBody(
      {
        ...REQUIRED,
        scenario_prompt: "Look at acme/api before changing anything.",
        criteria: [
          { id: "m1", kind: "model", text: "The agent looked before it acted" },
          code("c1", "Issue #1 exists in `acme/api`", { always_scored: true }),
        ],
      },
      ["github"],
    );
    const run = await finalizeSandbox({
      env,
      sandbox: row,
      body,
      judge: makeJudge(openAiProvider({ model: "fake-judge", apiKey: "k", fetch: fake })),
    });
    expect(run.judgeModel).toBe("openai:fake-judge");
    expect(run.satisfactionScore).toBe(100);
    const results = JSON.parse(run.criteriaResults) as { id: string; status: string; reason: string }[];
    expect(results[0]).toMatchObject({ id: "m1", status: "passed", reason: "The agent read acme/api before acting." });
    expect(prompts).toHaveLength(1);
    expect(prompts[0]).toContain("Look at acme/api before changing anything.");
    expect(prompts[0]).toContain("The agent looked before it acted");
    expect(prompts[0]).toContain("GET /repos/acme/api -> 200 repos.get");
  });
});
