#!/usr/bin/env node
// Reference agent for examples/tasks/linear-hand-off-to-ops.md: finds ENG's open issues labeled
// Infra with one filtered query and moves each to OPS with issueUpdate(teamId), which keeps the
// issue (and its comments and history) and gives it an OPS identifier.
import { linearFromEnv, run, say } from "./lib/linear.mjs";

run(async () => {
  const linear = linearFromEnv();
  const ops = await linear.team("OPS");
  const open = await linear.issues({
    filter: {
      team: { key: { eq: "ENG" } },
      labels: { some: { name: { eq: "Infra" } } },
      state: { type: { nin: ["completed", "canceled"] } },
    },
  });
  for (const issue of open.nodes) {
    const moved = await (await linear.updateIssue(issue.id, { teamId: ops.id })).issue;
    say(`${issue.identifier} is now ${moved?.identifier}`);
  }
});
