#!/usr/bin/env node
// Naive agent for examples/tasks/linear-close-duplicate.md: finds the original and cancels the
// duplicate, but answers with a new top-level comment instead of replying in the reporter's
// thread, and never records the duplicate relation, so the task fails.
import { linearFromEnv, run, say } from "./lib/linear.mjs";

run(async () => {
  const linear = linearFromEnv();
  const dup = await linear.issue("APP-4");
  const found = await linear.searchIssues("receipt");
  const original = found.nodes.find((i) => i.identifier !== "APP-4");
  const team = await dup.team;
  const canceled = (await team?.states())?.nodes.find((s) => s.type === "canceled");
  await linear.updateIssue(dup.id, { stateId: canceled?.id });
  await linear.createComment({ issueId: dup.id, body: `Duplicate of ${original?.identifier ?? "an earlier issue"}.` });
  say("canceled and commented");
});
