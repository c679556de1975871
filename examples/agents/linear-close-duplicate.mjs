#!/usr/bin/env node
// Reference agent for examples/tasks/linear-close-duplicate.md: find the earlier issue about the
// same crash, relate APP-4 as its duplicate, cancel APP-4 and answer in the reporter's thread.
import { linearFromEnv, run, say } from "./lib/linear.mjs";

const words = (s) => new Set(s.toLowerCase().match(/[a-z0-9]+/g) ?? []);

run(async () => {
  const linear = linearFromEnv();
  const dup = await linear.issue("APP-4");
  const mine = words(`${dup.title} ${dup.description ?? ""}`);
  const all = await linear.issues({ filter: { team: { key: { eq: "APP" } } } });
  // The earlier issue sharing the most words about receipts and crashing/closing.
  const scored = all.nodes
    .filter((i) => i.identifier !== dup.identifier)
    .map((i) => ({ i, score: [...words(`${i.title} ${i.description ?? ""}`)].filter((w) => mine.has(w) && w.length > 3).length }))
    .sort((a, b) => b.score - a.score);
  const original = scored[0]?.i;
  if (!original || scored[0].score < 2) throw new Error("no earlier issue describes the same problem");
  say(`APP-4 duplicates ${original.identifier}`);

  await linear.createIssueRelation({ issueId: dup.id, relatedIssueId: original.id, type: "duplicate" });
  const team = await dup.team;
  const canceled = (await team?.states())?.nodes.find((s) => s.type === "canceled");
  if (!canceled) throw new Error("the team has no canceled state");
  await linear.updateIssue(dup.id, { stateId: canceled.id });
  const reporterComment = (await dup.comments()).nodes[0];
  await linear.createComment({
    issueId: dup.id,
    parentId: reporterComment?.id,
    body: `Thanks for the report: this is the crash tracked in ${original.identifier}, which is already being worked on. Closing this one as its duplicate.`,
  });
  say("related, canceled and replied");
});
