// Grading criteria against a run's evidence. [code] criteria bind to a check of their twin and run
// its predicate; [model] criteria go to the judge. The skip rules live here, in one place:
//   unmatched             a [code] sentence that binds no check of its twin
//   seed_missing          a seed+final check with no initial state to compare against
//   field_absent          the export lacks the field the check reads (or no export at all)
//   subject_redacted      a parameter (the text looked for, a name) holds a secret that redaction
//                         erases from the evidence, so it can be neither found nor missed: one
//                         rule here for every twin, not one per check
//   already_true_in_seed  the check already passes on the initial state with an empty tape,
//                         unless the criterion is always_scored
//   judge_unavailable     no judge configured, or it never gave a well-formed verdict
import { redactString } from "../../durable-objects/redact";
import type { TwinId } from "../../durable-objects/twins/registry";
import type { CheckDefinition, CheckOutcome, SkipReason } from "../../durable-objects/twins/types";
import { bindSentence } from "./binding";
import type { Judge } from "./judge/types";
import type { Criterion, CriterionResult, GradingEvidence, TaskContext, TwinEvidence } from "./types";
import { absentSubjects } from "./subjects";
import { NO_JUDGE_DETAIL, ownerOf } from "./verdict";
import { nearestTemplates, vocabularyFor } from "./vocabulary";

type Verdict = Pick<CriterionResult, "status" | "passed" | "skipped" | "reason" | "skip_reason">;

/** The row with its owner: who a criterion that did not pass is on (verdict.ts). */
const owned = (r: Omit<CriterionResult, "owner">, judgeFailed = false): CriterionResult => ({
  ...r,
  owner: judgeFailed ? "grader" : ownerOf({ ...r, owner: undefined }),
});

const verdict = (status: "passed" | "failed", reason: string): Verdict => ({
  status,
  passed: status === "passed",
  skipped: false,
  reason,
  skip_reason: null,
});
const skip = (code: SkipReason, detail: string): Verdict => ({
  status: "skipped",
  passed: false,
  skipped: true,
  reason: `${code}: ${detail}`,
  skip_reason: code,
});

/** Runs a predicate; a predicate that throws on a malformed export is a field it could not read. */
function run(check: CheckDefinition, input: Parameters<CheckDefinition["evaluate"]>[0]): CheckOutcome {
  try {
    return check.evaluate(input);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return { status: "skipped", reason: "field_absent", detail: `the export could not be read (${message})` };
  }
}

const fromOutcome = (o: CheckOutcome): Verdict => (o.status === "skipped" ? skip(o.reason, o.detail) : verdict(o.status, o.reason));

/**
 * The first parameter whose value redaction would change. The evidence is redacted before grading
 * (every string of the states and the tape goes through `redactString`), so such a value is
 * `[REDACTED]` wherever the agent wrote it: looking for it would fail an agent that did post it.
 */
export function redactedParam(check: CheckDefinition, args: Record<string, string>): string | undefined {
  return check.params.find((p) => {
    const value = args[p.name];
    return typeof value === "string" && redactString(value) !== value;
  })?.name;
}

/** Grades one bound [code] criterion against one twin's evidence. */
export function gradeCheck(
  check: CheckDefinition,
  args: Record<string, string>,
  evidence: TwinEvidence | undefined,
  alwaysScored: boolean,
): Verdict {
  const secret = redactedParam(check, args);
  if (secret !== undefined)
    return skip("subject_redacted", `the ${secret} looked for holds a secret that redaction removes from the evidence`);
  if (check.substrate === "seed+final" && evidence?.initial === undefined)
    return skip("seed_missing", "the check compares the seed with the final state and the seed is not available");
  if (check.substrate !== "tape" && evidence?.final === undefined)
    return skip("field_absent", "the twin exported no final state for this run");
  const final = run(check, { args, initial: evidence?.initial, final: evidence?.final, tape: evidence?.tape ?? [] });
  if (final.status === "skipped" || alwaysScored || evidence?.initial === undefined) return fromOutcome(final);
  // A criterion the seed already satisfies cannot tell a working agent from an idle one. The seed
  // is graded as a world nobody touched: initial state as both ends, and an empty tape.
  const seed = run(check, { args, initial: evidence.initial, final: evidence.initial, tape: [] });
  if (seed.status !== "passed") return fromOutcome(final);
  const after = final.status === "passed" ? "still true at the end" : `at the end it failed: ${final.reason}`;
  return skip("already_true_in_seed", `${seed.reason} before the agent acted; ${after}`);
}

/** Grades a [code] criterion: bind its sentence to its twin's vocabulary, then run the check. */
export function gradeCodeCriterion(criterion: Criterion, twin: TwinId, evidence: GradingEvidence): CriterionResult {
  const always = criterion.always_scored === true;
  const checks = vocabularyFor(twin);
  const base = { id: criterion.id, text: criterion.text, kind: criterion.kind, twin, always_scored: always };
  const binding = bindSentence(checks, criterion.text);
  if (!binding) {
    const nearest = nearestTemplates(checks, criterion.text, 1);
    const hint = checks.length ? `; nearest: ${nearest.join("")}` : `; the ${twin} twin publishes no checks yet`;
    return owned({
      ...base,
      check_id: null,
      status: "unmatched",
      passed: false,
      skipped: false,
      reason: `unmatched: the sentence binds no ${twin} check${hint}`,
      skip_reason: null,
    });
  }
  const graded = owned({ ...base, check_id: binding.check.id, ...gradeCheck(binding.check, binding.args, evidence.perTwin[twin], always) });
  // A failure over a subject the seed lacks and the agent could not create is the task's, not the agent's.
  const absent = graded.status === "failed" ? absentSubjects(binding.check.params, binding.args, evidence.perTwin[twin]?.initial) : [];
  if (!absent.length) return graded;
  return { ...graded, owner: "task", reason: `${graded.reason} (the task's fault: ${absent.map((a) => a.message).join("; ")})` };
}

async function gradeModelCriterion(
  criterion: Criterion,
  evidence: GradingEvidence,
  task: TaskContext,
  judge: Judge | undefined,
): Promise<CriterionResult> {
  const base = {
    id: criterion.id,
    text: criterion.text,
    kind: criterion.kind,
    twin: criterion.twin ?? null,
    check_id: null,
    always_scored: criterion.always_scored === true,
  };
  // No judge at all is a choice the platform's configuration made: the criterion is excluded and
  // the verdict says so. A configured judge that fails is the grader's fault: the run is incomplete.
  if (!judge) return owned({ ...base, ...skip("judge_unavailable", NO_JUDGE_DETAIL) });
  const answer = await judge.judge({ task, criterion, evidence });
  if (!answer.ok) return owned({ ...base, ...skip("judge_unavailable", `the configured judge failed: ${answer.detail}`) }, true);
  return owned({ ...base, ...verdict(answer.verdict === "pass" ? "passed" : "failed", answer.reason) });
}

export interface GradeInput {
  criteria: readonly Criterion[];
  evidence: GradingEvidence;
  task: TaskContext;
  judge: Judge | undefined;
  /** How many judge calls may be in flight at once. */
  judgeConcurrency?: number;
}

/** Grades every criterion, in order. [code] criteria are pure; [model] ones share a small pool. */
export async function gradeCriteria(input: GradeInput): Promise<CriterionResult[]> {
  const results: (CriterionResult | undefined)[] = new Array(input.criteria.length);
  const modelQueue: number[] = [];
  input.criteria.forEach((c, i) => {
    if (c.kind === "model") modelQueue.push(i);
    else results[i] = gradeCodeCriterion(c, c.twin ?? input.evidence.twins[0], input.evidence);
  });
  const worker = async () => {
    for (let i = modelQueue.shift(); i !== undefined; i = modelQueue.shift())
      results[i] = await gradeModelCriterion(input.criteria[i], input.evidence, input.task, input.judge);
  };
  await Promise.all(Array.from({ length: Math.max(1, input.judgeConcurrency ?? 4) }, worker));
  return results.filter((r): r is CriterionResult => r !== undefined);
}
