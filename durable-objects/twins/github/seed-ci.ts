// The CI and webhook parts of a GitHub seed, per repository: Actions workflows and their runs (each
// run's jobs with steps and log text, its artifacts, and the outcome a re-run gets), check runs on
// a commit, and repository webhooks. GitHub's own field names; strict; checked against the
// repository's branches and users; normalized so that export(boot(seed)) equals the parsed seed.
//
//   "workflows":     [{ "name": "CI", "path": ".github/workflows/ci.yml" }]
//   "workflow_runs": [{ "workflow": "CI", "head_branch": "main", "conclusion": "failure",
//                       "rerun_conclusion": "success",
//                       "jobs": [{ "name": "test", "conclusion": "failure", "log": "FAIL src/a.test.ts" }] }]
//   "check_runs":    [{ "name": "lint", "ref": "main", "conclusion": "success" }]
//   "hooks":         [{ "url": "http://127.0.0.1:9000/hook", "events": ["issues"], "secret": "s3cret" }]
//
// A run re-run by the agent gets a new attempt (`run_attempt` + 1) whose jobs conclude with
// `rerun_conclusion` (the run's own conclusion when null), so a task can script a flaky job.
import { z } from "zod";
import { refusedUnderEverySetting } from "../kit/platform";
import type { SeedProblems } from "../kit/seed";

const timestamp = z.iso.datetime({ offset: true });
const login = z.string().regex(/^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/, "Invalid login");
const sha = z.string().regex(/^[0-9a-f]{40}$/, "Invalid sha: 40 lowercase hex digits");

/** GitHub's check and job statuses and conclusions (@octokit/openapi `check-run`, `job`). */
export const CHECK_STATUSES = ["queued", "in_progress", "completed", "waiting", "requested", "pending"] as const;
export const CHECK_CONCLUSIONS = ["success", "failure", "neutral", "cancelled", "skipped", "timed_out", "action_required"] as const;
export type CheckStatus = (typeof CHECK_STATUSES)[number];
export type CheckConclusion = (typeof CHECK_CONCLUSIONS)[number];
const status = z.enum(CHECK_STATUSES);
const conclusion = z.enum(CHECK_CONCLUSIONS);

const step = z.strictObject({
  name: z.string().min(1),
  status: status.default("completed"),
  conclusion: conclusion.nullable().default(null),
});

const job = z.strictObject({
  id: z.number().int().positive().optional(),
  name: z.string().min(1),
  /** The attempt this job ran in; the run's current attempt when left out. */
  run_attempt: z.number().int().positive().optional(),
  status: status.default("completed"),
  conclusion: conclusion.nullable().default(null),
  steps: z.array(step).default([]),
  /** The job's log, served by GET …/actions/jobs/{id}/logs. */
  log: z.string().default(""),
  started_at: timestamp.optional(),
  completed_at: timestamp.nullable().optional(),
});

const artifact = z.strictObject({
  id: z.number().int().positive().optional(),
  name: z.string().min(1),
  size_in_bytes: z.number().int().nonnegative().default(0),
  /** What the artifact's zip holds (text files); its download is an empty archive without them. */
  files: z
    .array(z.strictObject({ path: z.string().min(1).max(1024), content: z.string() }))
    .max(1000)
    .default([]),
});

const workflow = z.strictObject({
  id: z.number().int().positive().optional(),
  name: z.string().min(1),
  path: z.string().regex(/^\.github\/workflows\/[^/]+\.ya?ml$/, "Invalid path: .github/workflows/<file>.yml"),
  state: z.enum(["active", "disabled_manually", "disabled_inactivity"]).default("active"),
});

const workflowRun = z.strictObject({
  id: z.number().int().positive().optional(),
  /** The workflow's path or name. */
  workflow: z.string().min(1),
  run_number: z.number().int().positive().optional(),
  display_title: z.string().optional(),
  head_branch: z.string().min(1),
  /** The commit the run ran on; the branch's head when null. */
  head_sha: sha.nullable().default(null),
  event: z.string().min(1).default("push"),
  status: status.default("completed"),
  conclusion: conclusion.nullable().default(null),
  run_attempt: z.number().int().positive().default(1),
  /** How the jobs of a re-run attempt conclude; the run's own conclusion when null. */
  rerun_conclusion: conclusion.nullable().default(null),
  actor: login.optional(),
  created_at: timestamp.optional(),
  jobs: z.array(job).default([]),
  artifacts: z.array(artifact).default([]),
});

const annotation = z.strictObject({
  path: z.string().min(1),
  start_line: z.number().int().positive(),
  end_line: z.number().int().positive(),
  start_column: z.number().int().positive().nullable().default(null),
  end_column: z.number().int().positive().nullable().default(null),
  annotation_level: z.enum(["notice", "warning", "failure"]),
  message: z.string().min(1),
  title: z.string().nullable().default(null),
  raw_details: z.string().nullable().default(null),
});

export const checkOutput = z.strictObject({
  title: z.string().nullable().default(null),
  summary: z.string().nullable().default(null),
  text: z.string().nullable().default(null),
});

const checkRun = z.strictObject({
  id: z.number().int().positive().optional(),
  name: z.string().min(1),
  /** A branch or a commit sha. */
  ref: z.string().min(1),
  status: status.default("completed"),
  conclusion: conclusion.nullable().default(null),
  external_id: z.string().nullable().default(null),
  details_url: z.string().nullable().default(null),
  output: checkOutput.default({ title: null, summary: null, text: null }),
  annotations: z.array(annotation).default([]),
  started_at: timestamp.optional(),
  completed_at: timestamp.nullable().optional(),
});

const hook = z.strictObject({
  id: z.number().int().positive().optional(),
  url: z.string().min(1),
  content_type: z.enum(["json", "form"]).default("form"),
  secret: z.string().nullable().default(null),
  events: z.array(z.string().min(1)).min(1).default(["push"]),
  active: z.boolean().default(true),
});

/** The fields a repository of the seed gains. */
export const ciSeedFields = {
  workflows: z.array(workflow).default([]),
  workflow_runs: z.array(workflowRun).default([]),
  check_runs: z.array(checkRun).default([]),
  hooks: z.array(hook).default([]),
};

type Filled<T, K extends keyof T> = Omit<T, K> & Required<{ [P in K]: NonNullable<T[P]> }>;
export type SeedAnnotation = z.infer<typeof annotation>;
export type SeedStep = z.infer<typeof step>;
export type GithubWorkflow = Filled<z.infer<typeof workflow>, "id">;
export type GithubJob = Omit<Filled<z.infer<typeof job>, "id" | "run_attempt" | "started_at">, "completed_at"> & {
  completed_at: string | null;
};
export type GithubArtifact = Filled<z.infer<typeof artifact>, "id">;
export type GithubWorkflowRun = Omit<
  Filled<z.infer<typeof workflowRun>, "id" | "run_number" | "display_title" | "actor" | "created_at">,
  "jobs" | "artifacts"
> & { jobs: GithubJob[]; artifacts: GithubArtifact[] };
export type GithubCheckRun = Omit<Filled<z.infer<typeof checkRun>, "id" | "started_at">, "completed_at"> & { completed_at: string | null };
export type GithubHook = Filled<z.infer<typeof hook>, "id">;

export interface CiSeed {
  workflows: GithubWorkflow[];
  workflow_runs: GithubWorkflowRun[];
  check_runs: GithubCheckRun[];
  hooks: GithubHook[];
}

type RawCi = { [K in keyof typeof ciSeedFields]: z.infer<(typeof ciSeedFields)[K]> };

/** Every id a repository's CI part gives, with its table and path, for the seed's id allocator. */
export function ciGivenIds(r: RawCi, at: string): [string, number | undefined, string][] {
  const out: [string, number | undefined, string][] = [];
  r.workflows.forEach((w, i) => out.push(["workflows", w.id, `${at}.workflows[${i}]`]));
  r.check_runs.forEach((c, i) => out.push(["check_runs", c.id, `${at}.check_runs[${i}]`]));
  r.hooks.forEach((h, i) => out.push(["hooks", h.id, `${at}.hooks[${i}]`]));
  r.workflow_runs.forEach((run, i) => {
    out.push(["workflow_runs", run.id, `${at}.workflow_runs[${i}]`]);
    run.jobs.forEach((j, ji) => out.push(["jobs", j.id, `${at}.workflow_runs[${i}].jobs[${ji}]`]));
    run.artifacts.forEach((a, ai) => out.push(["artifacts", a.id, `${at}.workflow_runs[${i}].artifacts[${ai}]`]));
  });
  return out;
}

/** Every id of a normalized repository's CI part (where the twin's own ids start past them). */
export function ciIds(r: CiSeed): number[] {
  return [
    ...r.workflows.map((w) => w.id),
    ...r.check_runs.map((c) => c.id),
    ...r.hooks.map((h) => h.id),
    ...r.workflow_runs.flatMap((run) => [run.id, ...run.jobs.map((j) => j.id), ...run.artifacts.map((a) => a.id)]),
  ];
}

/** What normalizing needs from the repository around it. */
export interface CiContext {
  problems: SeedProblems;
  at: string;
  actor: string;
  created: string;
  branchNames: Set<string>;
  idFor: (given: number | undefined) => number;
  userExists: (login: string, path: string) => void;
}

/** Completed means concluded, and a conclusion means completed (GitHub refuses either alone). */
function checkOutcome(c: CiContext, path: string, s: { status: string; conclusion: string | null }): void {
  if (s.status === "completed" && s.conclusion === null)
    c.problems.add(`${path}.conclusion`, "A completed run needs a conclusion", "invalid_value");
  if (s.status !== "completed" && s.conclusion !== null)
    c.problems.add(`${path}.status`, "A conclusion needs status completed", "invalid_value");
}

function normalizeRun(
  c: CiContext,
  run: z.infer<typeof workflowRun>,
  i: number,
  workflows: GithubWorkflow[],
  numbers: Map<string, number>,
) {
  const path = `${c.at}.workflow_runs[${i}]`;
  const wf = workflows.find((w) => w.path === run.workflow) ?? workflows.find((w) => w.name === run.workflow);
  if (!wf) c.problems.add(`${path}.workflow`, `Workflow "${run.workflow}" is not defined in ${c.at}.workflows`);
  if (!c.branchNames.has(run.head_branch))
    c.problems.add(`${path}.head_branch`, `Branch "${run.head_branch}" does not exist in ${c.at}.branches`);
  if (run.actor) c.userExists(run.actor, `${path}.actor`);
  checkOutcome(c, path, run);
  const key = wf?.path ?? run.workflow;
  const runNumber = run.run_number ?? (numbers.get(key) ?? 0) + 1;
  numbers.set(key, Math.max(runNumber, numbers.get(key) ?? 0));
  const created = run.created_at ?? c.created;
  const jobs = run.jobs.map((j, ji): GithubJob => {
    checkOutcome(c, `${path}.jobs[${ji}]`, j);
    const started = j.started_at ?? created;
    const attempt = j.run_attempt ?? run.run_attempt;
    if (attempt > run.run_attempt)
      c.problems.add(`${path}.jobs[${ji}].run_attempt`, `The run has ${run.run_attempt} attempt(s)`, "invalid_value");
    const completed = j.completed_at !== undefined ? j.completed_at : j.status === "completed" ? started : null;
    return { ...j, id: c.idFor(j.id), run_attempt: attempt, started_at: started, completed_at: completed };
  });
  return {
    ...run,
    workflow: key,
    id: c.idFor(run.id),
    run_number: runNumber,
    display_title: run.display_title ?? wf?.name ?? run.workflow,
    actor: run.actor ?? c.actor,
    created_at: created,
    jobs,
    artifacts: run.artifacts.map((a) => ({ ...a, id: c.idFor(a.id) })),
  };
}

function normalizeCheckRun(c: CiContext, run: z.infer<typeof checkRun>, i: number): GithubCheckRun {
  const path = `${c.at}.check_runs[${i}]`;
  if (!/^[0-9a-f]{40}$/.test(run.ref) && !c.branchNames.has(run.ref))
    c.problems.add(`${path}.ref`, `Ref "${run.ref}" is neither a branch nor a commit sha`);
  checkOutcome(c, path, run);
  const started = run.started_at ?? c.created;
  const completed = run.completed_at !== undefined ? run.completed_at : run.status === "completed" ? started : null;
  return { ...run, id: c.idFor(run.id), started_at: started, completed_at: completed };
}

function normalizeHook(c: CiContext, h: z.infer<typeof hook>, i: number): GithubHook {
  const refused = refusedUnderEverySetting(h.url);
  if (refused) c.problems.add(`${c.at}.hooks[${i}].url`, `Webhook URL is not allowed: ${refused}`, "invalid_value");
  return { ...h, id: c.idFor(h.id) };
}

/** Checks references and fills defaults, ids and timestamps of a repository's CI part. */
export function normalizeCi(c: CiContext, raw: RawCi): CiSeed {
  const workflows = raw.workflows.map((w) => ({ ...w, id: c.idFor(w.id) }));
  const paths = new Set<string>();
  raw.workflows.forEach((w, i) => c.problems.unique(paths, w.path, `${c.at}.workflows[${i}].path`, `Duplicate workflow "${w.path}"`));
  const numbers = new Map<string, number>();
  return {
    workflows,
    workflow_runs: raw.workflow_runs.map((run, i) => normalizeRun(c, run, i, workflows, numbers)),
    check_runs: raw.check_runs.map((run, i) => normalizeCheckRun(c, run, i)),
    hooks: raw.hooks.map((h, i) => normalizeHook(c, h, i)),
  };
}
