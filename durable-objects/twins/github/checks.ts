// The GitHub twin's closed check vocabulary: the twelve sentences a `[code]` criterion on this twin
// may be, each with its predicate. Predicates are pure functions over the exported state (the
// seed's own shape) and this twin's tape rows. They read defensively: a state uploaded as a blob
// may lack fields the live twin always exports, and an absent field is never read as a default.
import { absent, checkMaker, fail, isRec, listOf, noUnsupportedEndpoint, pass, quoteList, type Found, type Rec } from "../kit/checks";
import type { CheckDefinition, CheckInput, CheckParam } from "../types";
import type { GithubSeed } from "./seed";

const ISSUE: CheckParam = { name: "issue", pattern: "[1-9][0-9]*", example: "1" };
const PR: CheckParam = { name: "pr", pattern: "[1-9][0-9]*", example: "1" };
const REPO: CheckParam = { name: "repo", pattern: "[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+", example: "acme/api", subject: "repository" };
const LABEL: CheckParam = { name: "label", pattern: "[^`\\n]+", example: "bug" };

function findRepo(state: unknown, repo: string): Found<Rec> {
  if (!isRec(state) || !Array.isArray(state.repositories)) return { ok: false, outcome: absent("the export has no repositories") };
  const [owner, name] = repo.toLowerCase().split("/");
  // GitHub resolves owner and repository names case-insensitively.
  const found = state.repositories.find(
    (r) => isRec(r) && String(r.owner).toLowerCase() === owner && String(r.name).toLowerCase() === name,
  );
  return isRec(found) ? { ok: true, value: found } : { ok: false, outcome: fail(`repository ${repo} does not exist`) };
}

function findNumbered(state: unknown, repo: string, field: "issues" | "pulls", number: string): Found<Rec> {
  const r = findRepo(state, repo);
  if (!r.ok) return r;
  const list = listOf(r.value, field, repo);
  if (!list.ok) return list;
  const n = Number(number);
  const found = list.value.find((item) => isRec(item) && item.number === n);
  const noun = field === "issues" ? "issue" : "pull request";
  return isRec(found) ? { ok: true, value: found } : { ok: false, outcome: fail(`${repo} has no ${noun} #${number}`) };
}

/** Label names, whether the export lists names or GitHub's `{ name }` objects. */
const labelNames = (list: unknown[]) => list.map((l) => (isRec(l) ? l.name : l)).filter((n): n is string => typeof n === "string");
const userLogins = (list: unknown[]) => list.map((u) => (isRec(u) ? u.login : u)).filter((n): n is string => typeof n === "string");

const check = checkMaker<GithubSeed>("github");

function issueLabels(input: CheckInput<GithubSeed>): Found<{ labels: string[] }> {
  const issue = findNumbered(input.final, input.args.repo, "issues", input.args.issue);
  if (!issue.ok) return issue;
  const labels = listOf(issue.value, "labels", `issue #${input.args.issue}`);
  return labels.ok ? { ok: true, value: { labels: labelNames(labels.value) } } : labels;
}

export const githubChecks: CheckDefinition<GithubSeed>[] = [
  check(
    "issue-exists",
    "Issue #{issue} exists in `{repo}`",
    "An issue with this number is in the repository's final state. Says nothing about its content, state, labels or assignees; meant for tasks where the agent must open the issue.",
    "final",
    [ISSUE, REPO],
    ({ args, final }) => {
      const issue = findNumbered(final, args.repo, "issues", args.issue);
      return issue.ok ? pass(`issue #${args.issue} exists in ${args.repo}`) : issue.outcome;
    },
  ),
  check(
    "issue-state",
    "Issue #{issue} in `{repo}` is in state {state}",
    "Compares the issue's state field with the named state. A missing issue fails; an exported issue without a state is skipped. The `open` form forbids closing the issue.",
    "final",
    [ISSUE, REPO, { name: "state", pattern: "(?:open|closed)", example: "open" }],
    ({ args, final }) => {
      const issue = findNumbered(final, args.repo, "issues", args.issue);
      if (!issue.ok) return issue.outcome;
      const state = issue.value.state;
      if (typeof state !== "string") return absent(`issue #${args.issue} has no state in the export`);
      return state === args.state ? pass(`issue #${args.issue} is ${state}`) : fail(`issue #${args.issue} is ${state}, not ${args.state}`);
    },
  ),
  check(
    "issue-has-label",
    "Issue #{issue} in `{repo}` has the `{label}` label applied",
    "The label is among those applied to the issue, compared case-insensitively. Other labels may be applied too; use github.issue-exactly-one-label to forbid them.",
    "final",
    [ISSUE, REPO, LABEL],
    (input) => {
      const found = issueLabels(input);
      if (!found.ok) return found.outcome;
      const { issue, label } = input.args;
      const hit = found.value.labels.find((l) => l.toLowerCase() === label.toLowerCase());
      return hit !== undefined
        ? pass(`issue #${issue} has the \`${hit}\` label`)
        : fail(`issue #${issue} does not have the \`${label}\` label (labels: ${quoteList(found.value.labels)})`);
    },
  ),
  check(
    "issue-exactly-one-label",
    "Issue #{issue} in `{repo}` has exactly one classification label, and it is `{label}`",
    "The issue carries exactly one applied label (every label counts) and it is this one, compared case-insensitively. Catches a right label piled on top of wrong ones.",
    "final",
    [ISSUE, REPO, LABEL],
    (input) => {
      const found = issueLabels(input);
      if (!found.ok) return found.outcome;
      const { issue, label } = input.args;
      const labels = found.value.labels;
      if (labels.length === 1 && labels[0].toLowerCase() === label.toLowerCase())
        return pass(`issue #${issue} has exactly one label, \`${labels[0]}\``);
      return fail(`issue #${issue} has ${labels.length} label${labels.length === 1 ? "" : "s"}: ${quoteList(labels)}`);
    },
  ),
  check(
    "issue-assignee",
    "Issue #{issue} in `{repo}` is assigned to `{login}`",
    "The login is among the issue's assignees, compared exactly and case-sensitively (logins, not display names). Other assignees may be present.",
    "final",
    [ISSUE, REPO, { name: "login", pattern: "[A-Za-z0-9](?:[A-Za-z0-9-]{0,37}[A-Za-z0-9])?", example: "alice", subject: "user" }],
    ({ args, final }) => {
      const issue = findNumbered(final, args.repo, "issues", args.issue);
      if (!issue.ok) return issue.outcome;
      const list = listOf(issue.value, "assignees", `issue #${args.issue}`);
      if (!list.ok) return list.outcome;
      const logins = userLogins(list.value);
      return logins.includes(args.login)
        ? pass(`issue #${args.issue} is assigned to \`${args.login}\``)
        : fail(`issue #${args.issue} is not assigned to \`${args.login}\` (assignees: ${quoteList(logins)})`);
    },
  ),
  check(
    "issue-comment-contains",
    'A comment containing "{needle}" exists on issue #{issue} in `{repo}`',
    "Some comment body on the issue contains the text as a case-sensitive substring. Says nothing about who wrote it or how many did. A needle that redaction would erase is skipped as subject_redacted.",
    "final",
    [{ name: "needle", pattern: '[^"\\n]+', example: "Deploy blocked" }, ISSUE, REPO],
    ({ args, final }) => {
      const issue = findNumbered(final, args.repo, "issues", args.issue);
      if (!issue.ok) return issue.outcome;
      const list = listOf(issue.value, "comments", `issue #${args.issue}`);
      if (!list.ok) return list.outcome;
      const hit = list.value.find((c) => isRec(c) && typeof c.body === "string" && c.body.includes(args.needle));
      if (isRec(hit)) {
        const by =
          typeof hit.user === "string"
            ? ` (by ${hit.user})`
            : isRec(hit.user) && typeof hit.user.login === "string"
              ? ` (by ${hit.user.login})`
              : "";
        return pass(`issue #${args.issue} has a comment containing "${args.needle}"${by}`);
      }
      const n = list.value.length;
      return fail(`none of the ${n} comment${n === 1 ? "" : "s"} on issue #${args.issue} contains "${args.needle}"`);
    },
  ),
  check(
    "no-new-labels",
    "No new labels were created in `{repo}`",
    "Compares the repository's label definitions in the seed with the final state, case-insensitively. Applying a label the seed defined passes; any label defined or applied in the final state that the seed did not define fails. Needs the seed.",
    "seed+final",
    [REPO],
    ({ args, initial, final }) => {
      if (initial === undefined)
        return { status: "skipped", reason: "seed_missing", detail: "the initial state is not available to compare against" };
      const before = findRepo(initial, args.repo);
      const seeded = new Set<string>();
      if (before.ok) {
        const defs = listOf(before.value, "labels", `${args.repo} in the seed`);
        if (!defs.ok) return defs.outcome;
        for (const name of labelNames(defs.value)) seeded.add(name.toLowerCase());
      }
      const after = findRepo(final, args.repo);
      if (!after.ok) return after.outcome;
      const defs = listOf(after.value, "labels", args.repo);
      if (!defs.ok) return defs.outcome;
      // Applying an undefined label creates it on GitHub; count applied names too, in case an export
      // lists the application without the definition.
      const names = labelNames(defs.value);
      for (const field of ["issues", "pulls"]) {
        const items = after.value[field];
        if (Array.isArray(items))
          for (const item of items) if (isRec(item) && Array.isArray(item.labels)) names.push(...labelNames(item.labels));
      }
      const created = [...new Map(names.filter((n) => !seeded.has(n.toLowerCase())).map((n) => [n.toLowerCase(), n])).values()];
      return created.length === 0
        ? pass(`${args.repo} defines no label beyond the ${seeded.size} in the seed`)
        : fail(`${args.repo} gained label${created.length === 1 ? "" : "s"} the seed did not define: ${quoteList(created)}`);
    },
  ),
  check(
    "pr-state",
    "Pull request #{pr} in `{repo}` is {state}",
    "`merged` and `not merged` read the pull request's merged flag; `open` and `closed` read its state field. A closed pull request need not be merged. An export without the field the sentence needs is skipped.",
    "final",
    [PR, REPO, { name: "state", pattern: "(?:merged|not merged|open|closed)", example: "merged" }],
    ({ args, final }) => {
      const pr = findNumbered(final, args.repo, "pulls", args.pr);
      if (!pr.ok) return pr.outcome;
      if (args.state === "merged" || args.state === "not merged") {
        const merged = pr.value.merged;
        if (typeof merged !== "boolean") return absent(`pull request #${args.pr} has no merged flag in the export`);
        const word = merged ? "merged" : "not merged";
        return word === args.state ? pass(`pull request #${args.pr} is ${word}`) : fail(`pull request #${args.pr} is ${word}`);
      }
      const state = pr.value.state;
      if (typeof state !== "string") return absent(`pull request #${args.pr} has no state in the export`);
      return state === args.state
        ? pass(`pull request #${args.pr} is ${state}`)
        : fail(`pull request #${args.pr} is ${state}, not ${args.state}`);
    },
  ),
  check(
    "pr-review-exists",
    "A {review} review exists on pull request #{pr} in `{repo}`",
    "At least one review on the pull request has this state. Says nothing about the reviewer, its recency, or other reviews. A pull request exported without reviews is skipped.",
    "final",
    [{ name: "review", pattern: "(?:APPROVED|CHANGES_REQUESTED|COMMENTED)", example: "APPROVED" }, PR, REPO],
    ({ args, final }) => {
      const pr = findNumbered(final, args.repo, "pulls", args.pr);
      if (!pr.ok) return pr.outcome;
      const list = listOf(pr.value, "reviews", `pull request #${args.pr}`);
      if (!list.ok) return list.outcome;
      const states = list.value.map((r) => (isRec(r) && typeof r.state === "string" ? r.state.toUpperCase() : ""));
      const index = states.indexOf(args.review);
      if (index >= 0) {
        const review = list.value[index];
        const by = isRec(review) && typeof review.user === "string" ? ` by ${review.user}` : "";
        return pass(`pull request #${args.pr} has a ${args.review} review${by}`);
      }
      const seen = states.filter(Boolean);
      return fail(`pull request #${args.pr} has no ${args.review} review (reviews: ${seen.length ? seen.join(", ") : "none"})`);
    },
  ),
  check(
    "file-exists",
    "File `{path}` exists in `{repo}`",
    "A file with exactly this path (case-sensitive) exists on any branch of the repository. Says nothing about its contents or which branch holds it.",
    "final",
    [{ name: "path", pattern: "[^`\\n]+", example: "src/index.ts" }, REPO],
    ({ args, final }) => {
      const repo = findRepo(final, args.repo);
      if (!repo.ok) return repo.outcome;
      const branches = listOf(repo.value, "branches", args.repo);
      if (!branches.ok) return branches.outcome;
      for (const branch of branches.value) {
        if (!isRec(branch) || !Array.isArray(branch.files)) continue;
        if (branch.files.some((f) => isRec(f) && f.path === args.path))
          return pass(`\`${args.path}\` exists on branch ${String(branch.name)} of ${args.repo}`);
      }
      return fail(`no branch of ${args.repo} has a file \`${args.path}\` (${branches.value.length} branches searched)`);
    },
  ),
  check(
    "commit-status",
    'Commit status "{context}" in `{repo}` is {state}',
    "At least one commit status under this context has this state, on any commit of the repository. Does not assert which commit, nor that it is the latest status for the context.",
    "final",
    [
      { name: "context", pattern: '[^"\\n]+', example: "ci/build" },
      REPO,
      { name: "state", pattern: "(?:success|failure|pending|error)", example: "success" },
    ],
    ({ args, final }) => {
      const repo = findRepo(final, args.repo);
      if (!repo.ok) return repo.outcome;
      const list = listOf(repo.value, "statuses", args.repo);
      if (!list.ok) return list.outcome;
      const matching = list.value.filter((s): s is Rec => isRec(s) && s.context === args.context);
      const hit = matching.find((s) => s.state === args.state);
      if (hit) return pass(`status "${args.context}" is ${args.state} on ${String(hit.ref)}`);
      if (!matching.length) return fail(`${args.repo} has no commit status "${args.context}"`);
      const seen = [...new Set(matching.map((s) => String(s.state)))].join(", ");
      return fail(`status "${args.context}" is never ${args.state} (seen: ${seen})`);
    },
  ),
  noUnsupportedEndpoint<GithubSeed>("github", "GitHub"),
];
