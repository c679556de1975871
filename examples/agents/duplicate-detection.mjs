#!/usr/bin/env node
// Reference agent for examples/tasks/duplicate-detection.md: compare the new report with every
// other open issue by what it says, and if one matches, mark the new one as its duplicate.
import { githubFromEnv, run, say } from "./lib/github.mjs";

const owner = "acme";
const repo = "orders-service";
const newIssue = 58;

// Customers and engineers name the same things differently.
const SYNONYMS = {
  promo: "discount",
  coupon: "discount",
  phone: "mobile",
  android: "mobile",
  ios: "mobile",
  app: "mobile",
  charged: "total",
  price: "total",
};
const STOP = new Set([
  "the",
  "a",
  "an",
  "is",
  "are",
  "on",
  "in",
  "at",
  "to",
  "of",
  "and",
  "but",
  "was",
  "it",
  "from",
  "with",
  "not",
  "for",
  "this",
  "that",
]);

function words(text) {
  const out = new Set();
  for (const raw of text.toLowerCase().match(/[a-z]+/g) ?? []) {
    const word = raw.replace(/s$/, "");
    if (!STOP.has(word) && word.length > 2) out.add(SYNONYMS[word] ?? word);
  }
  return out;
}

const similarity = (a, b) => {
  const shared = [...a].filter((w) => b.has(w)).length;
  return shared / Math.min(a.size, b.size);
};

run(async () => {
  const gh = githubFromEnv();
  const open = await gh.paginate(gh.issues.listForRepo, { owner, repo, state: "open", per_page: 100 });
  const report = open.find((i) => i.number === newIssue);
  if (!report) throw new Error(`issue #${newIssue} is not open`);
  const mine = words(`${report.title} ${report.body ?? ""}`);
  const ranked = open
    .filter((i) => i.number !== newIssue && !i.pull_request)
    .map((i) => ({ number: i.number, score: similarity(mine, words(`${i.title} ${i.body ?? ""}`)) }))
    .sort((x, y) => y.score - x.score);
  const best = ranked[0];
  say(`closest open issue: #${best?.number} (similarity ${best?.score.toFixed(2)})`);
  if (!best || best.score < 0.2) {
    say("no duplicate found; leaving the issue as it is");
    return;
  }
  await gh.issues.addLabels({ owner, repo, issue_number: newIssue, labels: ["duplicate"] });
  await gh.issues.createComment({
    owner,
    repo,
    issue_number: newIssue,
    body: `Duplicate of #${best.number}: both describe a discount code that the mobile app accepts but that is not applied to the checkout total, while desktop works. Please follow #${best.number} for updates.`,
  });
  await gh.issues.update({ owner, repo, issue_number: newIssue, state: "closed", state_reason: "not_planned" });
  say(`marked #${newIssue} as a duplicate of #${best.number} and closed it`);
});
