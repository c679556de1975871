// The Linear twin's check vocabulary: sentences a `[code]` criterion on this twin may be, each a
// pure predicate over the exported state (the seed's own shape: issues by identifier, people by
// email) and this twin's tape. Absent fields are skipped (`field_absent`), never read as defaults.
import {
  absent,
  checkMaker,
  fail,
  findIn,
  isRec,
  listOf,
  noUnsupportedEndpoint,
  pass,
  plural,
  quoteList,
  type Found,
  type Rec,
} from "../kit/checks";
import type { CheckDefinition, CheckParam } from "../types";
import type { LinearSeed } from "./seed";

const ISSUE: CheckParam = { name: "issue", pattern: "[A-Z][A-Z0-9]*-[1-9][0-9]*", example: "ENG-1" };
const EMAIL: CheckParam = { name: "email", pattern: "[^@\\s`]+@[^@\\s`]+", example: "bob@acme.test", subject: "user" };
const TEXT = (name: string, example: string): CheckParam => ({ name, pattern: '[^`"\\n]+', example });

const check = checkMaker<LinearSeed>("linear");

function issuesOf(state: unknown): Found<unknown[]> {
  return listOf(state, "issues", "the workspace");
}

/**
 * The issue with this identifier, or the one that had it before moving team (its
 * `formerIdentifiers`): Linear keeps finding a moved issue by its old identifier, and so do checks.
 */
function findIssue(state: unknown, identifier: string): Found<Rec> {
  const list = issuesOf(state);
  if (!list.ok) return list;
  const now = findIn(list.value, (r) => r.identifier === identifier, `issue ${identifier} does not exist`);
  if (now.ok) return now;
  const moved = findIn(list.value, (r) => strings(r.formerIdentifiers).includes(identifier), `issue ${identifier} does not exist`);
  return moved.ok ? moved : now;
}

/** A comment list with each top-level comment and each reply, in order. */
function commentsOf(issue: Rec, identifier: string): Found<{ top: Rec[]; replies: Rec[] }> {
  const list = listOf(issue, "comments", `issue ${identifier}`);
  if (!list.ok) return list;
  const top = list.value.filter(isRec);
  const replies = top.flatMap((c) => (Array.isArray(c.children) ? c.children.filter(isRec) : []));
  return { ok: true, value: { top, replies } };
}

const strings = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);

export const linearChecks: CheckDefinition<LinearSeed>[] = [
  check(
    "issue-exists",
    "Issue `{issue}` exists",
    "An issue with this identifier is in the final state (trashed issues count; see linear.issue-state for where it ended). Says nothing about its content.",
    "final",
    [ISSUE],
    ({ args, final }) => {
      const found = findIssue(final, args.issue);
      return found.ok ? pass(`issue ${args.issue} exists`) : found.outcome;
    },
  ),
  check(
    "issue-titled-exists",
    "An issue titled `{title}` exists",
    "Some issue's title equals the given text, compared case-insensitively with surrounding spaces trimmed. Meant for tasks where the agent must file an issue whose identifier is not known in advance.",
    "final",
    [TEXT("title", "Checkout fails with 500")],
    ({ args, final }) => {
      const list = issuesOf(final);
      if (!list.ok) return list.outcome;
      const want = args.title.trim().toLowerCase();
      const hit = list.value.find((i) => isRec(i) && typeof i.title === "string" && i.title.trim().toLowerCase() === want);
      return isRec(hit)
        ? pass(`issue ${String(hit.identifier)} is titled "${String(hit.title)}"`)
        : fail(`no issue is titled "${args.title}"`);
    },
  ),
  check(
    "issue-state",
    "Issue `{issue}` is in the `{state}` state",
    "The issue's workflow state has this name (case-insensitive), e.g. `In Progress`. A trashed issue fails whatever its state.",
    "final",
    [ISSUE, TEXT("state", "Done")],
    ({ args, final }) => {
      const found = findIssue(final, args.issue);
      if (!found.ok) return found.outcome;
      if (found.value.trashed === true) return fail(`issue ${args.issue} is in the trash`);
      const state = found.value.state;
      if (typeof state !== "string") return absent(`issue ${args.issue} has no state in the export`);
      return state.toLowerCase() === args.state.toLowerCase()
        ? pass(`issue ${args.issue} is in ${state}`)
        : fail(`issue ${args.issue} is in ${state}, not ${args.state}`);
    },
  ),
  check(
    "issue-state-type",
    "Issue `{issue}` is in a {type} state",
    "The issue's workflow state is of this type (triage, backlog, unstarted, started, completed, canceled), whatever the team named it. Reads the team's states from the final state.",
    "final",
    [ISSUE, { name: "type", pattern: "(?:triage|backlog|unstarted|started|completed|canceled)", example: "completed" }],
    ({ args, final }) => {
      const found = findIssue(final, args.issue);
      if (!found.ok) return found.outcome;
      const teams = listOf(final, "teams", "the workspace");
      if (!teams.ok) return teams.outcome;
      // The team the issue is in now (its identifier), which differs from the argument's once it moved team.
      const key = String(found.value.identifier).split("-")[0];
      const team = teams.value.find((t) => isRec(t) && t.key === key);
      if (!isRec(team) || !Array.isArray(team.states)) return absent(`team ${key} has no states in the export`);
      const state = team.states.find((s) => isRec(s) && s.name === found.value.state);
      if (!isRec(state) || typeof state.type !== "string")
        return absent(`issue ${args.issue}'s state is not among team ${key}'s states in the export`);
      return state.type === args.type
        ? pass(`issue ${args.issue} is in ${String(state.name)} (${state.type})`)
        : fail(`issue ${args.issue} is in ${String(state.name)}, a ${state.type} state, not ${args.type}`);
    },
  ),
  check(
    "issue-assignee",
    "Issue `{issue}` is assigned to `{email}`",
    "The issue's assignee is the person with this email, compared case-insensitively. An unassigned issue fails.",
    "final",
    [ISSUE, EMAIL],
    ({ args, final }) => {
      const found = findIssue(final, args.issue);
      if (!found.ok) return found.outcome;
      if (!("assignee" in found.value)) return absent(`issue ${args.issue} has no assignee field in the export`);
      const who = found.value.assignee;
      if (typeof who !== "string") return fail(`issue ${args.issue} is unassigned`);
      return who.toLowerCase() === args.email.toLowerCase()
        ? pass(`issue ${args.issue} is assigned to ${who}`)
        : fail(`issue ${args.issue} is assigned to ${who}, not ${args.email}`);
    },
  ),
  check(
    "issue-has-label",
    "Issue `{issue}` has the `{label}` label",
    "The label (team or workspace) is among the issue's labels, compared case-insensitively. Other labels may be applied too.",
    "final",
    [ISSUE, TEXT("label", "Bug")],
    ({ args, final }) => {
      const found = findIssue(final, args.issue);
      if (!found.ok) return found.outcome;
      const list = listOf(found.value, "labels", `issue ${args.issue}`);
      if (!list.ok) return list.outcome;
      const labels = strings(list.value);
      const hit = labels.find((l) => l.toLowerCase() === args.label.toLowerCase());
      return hit
        ? pass(`issue ${args.issue} has the \`${hit}\` label`)
        : fail(`issue ${args.issue} does not have the \`${args.label}\` label (labels: ${quoteList(labels)})`);
    },
  ),
  check(
    "issue-priority",
    "Issue `{issue}` has priority {priority}",
    "The issue's priority number: 0 no priority, 1 urgent, 2 high, 3 medium, 4 low.",
    "final",
    [ISSUE, { name: "priority", pattern: "[0-4]", example: "1" }],
    ({ args, final }) => {
      const found = findIssue(final, args.issue);
      if (!found.ok) return found.outcome;
      const p = found.value.priority;
      if (typeof p !== "number") return absent(`issue ${args.issue} has no priority in the export`);
      return p === Number(args.priority)
        ? pass(`issue ${args.issue} has priority ${p}`)
        : fail(`issue ${args.issue} has priority ${p}, not ${args.priority}`);
    },
  ),
  check(
    "issue-estimate",
    "Issue `{issue}` is estimated at {estimate} points",
    "The issue's estimate equals this number. An unestimated issue fails.",
    "final",
    [ISSUE, { name: "estimate", pattern: "[0-9]+(?:\\.[0-9]+)?", example: "3" }],
    ({ args, final }) => {
      const found = findIssue(final, args.issue);
      if (!found.ok) return found.outcome;
      if (!("estimate" in found.value)) return absent(`issue ${args.issue} has no estimate field in the export`);
      const e = found.value.estimate;
      if (typeof e !== "number") return fail(`issue ${args.issue} has no estimate`);
      return e === Number(args.estimate)
        ? pass(`issue ${args.issue} is estimated at ${e}`)
        : fail(`issue ${args.issue} is estimated at ${e}, not ${args.estimate}`);
    },
  ),
  check(
    "comment-contains",
    'Issue `{issue}` has a comment containing "{needle}"',
    "Some comment on the issue, top-level or reply, contains the text exactly (case-sensitive substring).",
    "final",
    [ISSUE, TEXT("needle", "fixed in")],
    ({ args, final }) => {
      const found = findIssue(final, args.issue);
      if (!found.ok) return found.outcome;
      const c = commentsOf(found.value, args.issue);
      if (!c.ok) return c.outcome;
      const all = [...c.value.top, ...c.value.replies];
      const hit = all.find((x) => typeof x.body === "string" && x.body.includes(args.needle));
      return hit
        ? pass(`issue ${args.issue} has a comment containing "${args.needle}"${typeof hit.user === "string" ? ` (by ${hit.user})` : ""}`)
        : fail(`none of the ${plural(all.length, "comment")} on issue ${args.issue} contains "${args.needle}"`);
    },
  ),
  check(
    "threaded-reply-exists",
    'Issue `{issue}` has a threaded reply containing "{needle}"',
    "A reply (a comment with a parent, in a thread) on the issue contains the text. A top-level comment with the text does not count.",
    "final",
    [ISSUE, TEXT("needle", "thanks")],
    ({ args, final }) => {
      const found = findIssue(final, args.issue);
      if (!found.ok) return found.outcome;
      const c = commentsOf(found.value, args.issue);
      if (!c.ok) return c.outcome;
      const hit = c.value.replies.find((x) => typeof x.body === "string" && x.body.includes(args.needle));
      if (hit) return pass(`issue ${args.issue} has a reply containing "${args.needle}"`);
      const top = c.value.top.some((x) => typeof x.body === "string" && x.body.includes(args.needle));
      return fail(
        top
          ? `"${args.needle}" is in a top-level comment on ${args.issue}, not in a reply`
          : `no reply on issue ${args.issue} contains "${args.needle}"`,
      );
    },
  ),
  check(
    "relation-exists",
    "Issue `{issue}` has a {type} relation with `{related}`",
    "The issues are related with this type. `blocks` and `duplicate` are directional (the first issue blocks, or duplicates, the second); `related` and `similar` count from either side.",
    "final",
    [
      ISSUE,
      { name: "type", pattern: "(?:blocks|duplicate|related|similar)", example: "blocks" },
      { ...ISSUE, name: "related", example: "ENG-2" },
    ],
    ({ args, final }) => {
      const found = findIssue(final, args.issue);
      if (!found.ok) return found.outcome;
      const list = listOf(found.value, "relations", `issue ${args.issue}`);
      if (!list.ok) return list.outcome;
      const has = (rels: unknown[], other: string) => rels.some((r) => isRec(r) && r.type === args.type && r.relatedIssue === other);
      if (has(list.value, args.related)) return pass(`issue ${args.issue} has a ${args.type} relation with ${args.related}`);
      if (args.type === "related" || args.type === "similar") {
        const other = findIssue(final, args.related);
        if (other.ok && Array.isArray(other.value.relations) && has(other.value.relations, args.issue))
          return pass(`issue ${args.related} has a ${args.type} relation with ${args.issue}`);
      }
      return fail(`issue ${args.issue} has no ${args.type} relation with ${args.related}`);
    },
  ),
  check(
    "issue-in-team",
    "Issue `{issue}` is in team `{team}`",
    "The issue now belongs to the team with this key: its identifier starts with the key. An issue moved to another team keeps being found by its old identifier, so `ENG-3` is in team `OPS` once it has moved there (as OPS-12, say).",
    "final",
    [ISSUE, { name: "team", pattern: "[A-Z][A-Z0-9]*", example: "OPS" }],
    ({ args, final }) => {
      const found = findIssue(final, args.issue);
      if (!found.ok) return found.outcome;
      const identifier = String(found.value.identifier);
      return identifier.startsWith(`${args.team}-`)
        ? pass(`issue ${args.issue} is ${identifier}, in team ${args.team}`)
        : fail(`issue ${args.issue} is ${identifier}, not in team ${args.team}`);
    },
  ),
  check(
    "no-new-issues",
    "No new issues were created",
    "Every issue in the final state was in the seed (by identifier, or by a former identifier for an issue moved to another team): the agent filed nothing new. Needs the seed.",
    "seed+final",
    [],
    ({ initial, final }) => {
      if (initial === undefined)
        return { status: "skipped", reason: "seed_missing", detail: "the initial state is not available to compare against" };
      const before = issuesOf(initial);
      if (!before.ok) return before.outcome;
      const after = issuesOf(final);
      if (!after.ok) return after.outcome;
      const seeded = new Set(before.value.map((i) => (isRec(i) ? i.identifier : undefined)));
      // An issue that moved team has a new identifier but is the seed's issue: its old one is among its formerIdentifiers.
      const wasSeeded = (i: Rec) => seeded.has(i.identifier) || strings(i.formerIdentifiers).some((f) => seeded.has(f));
      const created = after.value.filter((i) => isRec(i) && !wasSeeded(i)).map((i) => String((i as Rec).identifier));
      return created.length
        ? fail(`new issue${created.length === 1 ? "" : "s"}: ${quoteList(created)}`)
        : pass(`the ${plural(seeded.size, "issue")} of the seed are all there is`);
    },
  ),
  noUnsupportedEndpoint<LinearSeed>("linear", "Linear"),
];
