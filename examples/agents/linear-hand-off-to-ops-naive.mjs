#!/usr/bin/env node
// Naive agent for examples/tasks/linear-hand-off-to-ops.md: "moves" each Infra issue by filing a
// copy in OPS and canceling the original, so the issues themselves stay in ENG (their comments
// and history with them) and new issues appear: the task fails.
import { linearFromEnv, run, say } from "./lib/linear.mjs";

run(async () => {
  const linear = linearFromEnv();
  const ops = await linear.team("OPS");
  const eng = await linear.team("ENG");
  const canceled = (await eng.states()).nodes.find((s) => s.type === "canceled");
  const infra = await linear.issues({ filter: { team: { key: { eq: "ENG" } }, labels: { some: { name: { eq: "Infra" } } } } });
  for (const issue of infra.nodes) {
    const state = await issue.state;
    if (state?.type === "completed" || state?.type === "canceled") continue;
    await linear.createIssue({ teamId: ops.id, title: issue.title, description: issue.description });
    await linear.updateIssue(issue.id, { stateId: canceled?.id });
    say(`copied ${issue.identifier} to OPS`);
  }
});
