// One run's grading, from collected evidence to the columns a run row stores: the criteria graded,
// scored, judged into a verdict, the tape read into steps and lanes, and the summary and fix
// prompt written. Finalize and regrade both grade this way, so a re-graded run reads as its
// first grading would have.
import type { TwinId } from "../../durable-objects/twins/registry";
import { correlate } from "./correlate";
import { gradeCriteria, type GradeInput } from "./evaluate";
import type { CollectedEvidence } from "./evidence";
import { fixPrompt, summarize, type NarrateInput } from "./narrate";
import { scoreResults } from "./score";
import type { Criterion, GradingEvidence } from "./types";
import { runVerdict, type ExamineeEnd } from "./verdict";

export interface GradeRunInput {
  twins: readonly TwinId[];
  collected: Pick<CollectedEvidence, "tape" | "initial" | "final">;
  criteria: readonly Criterion[];
  task: GradeInput["task"];
  judge: GradeInput["judge"];
  passScore: number | undefined;
  examinee: ExamineeEnd;
  /** What the summary names besides the grading: the task, and how the examinee ended. */
  story: Pick<NarrateInput, "taskName" | "stopReason" | "exitCode" | "durationMs">;
}

/** The evidence per twin, each twin's tape rows apart. */
export function gradingEvidence(twins: readonly TwinId[], collected: GradeRunInput["collected"]): GradingEvidence {
  return {
    twins: [...twins],
    tape: collected.tape,
    perTwin: Object.fromEntries(
      twins.map((t) => [t, { initial: collected.initial[t], final: collected.final[t], tape: collected.tape.filter((r) => r.twin === t) }]),
    ),
  };
}

export async function gradeRun(input: GradeRunInput) {
  const evidence = gradingEvidence(input.twins, input.collected);
  const results = await gradeCriteria({ criteria: input.criteria, evidence, task: input.task, judge: input.judge });
  const score = scoreResults(results);
  const verdict = runVerdict({ results, score: score.score, passScore: input.passScore, examinee: input.examinee });
  const { steps, lanes } = correlate(input.collected.tape);
  const narration: NarrateInput = { ...input.story, score, results, steps, lanes, verdict };
  return {
    results,
    score,
    verdict,
    steps,
    lanes,
    /** The run row's graded columns. */
    columns: {
      satisfactionScore: score.score,
      allSkipped: score.all_skipped,
      tapeLength: input.collected.tape.length,
      criteriaResults: JSON.stringify(results),
      criteriaBreakdown: JSON.stringify(score.breakdown),
      steps: JSON.stringify(steps),
      lanes: JSON.stringify(lanes),
      ...narrationText(narration),
      verdict: verdict.verdict,
      verdictReason: verdict.reason,
    },
  };
}

/** The run's summary and the fix prompt for the agent's author. */
const narrationText = (narration: NarrateInput) => ({ summary: summarize(narration), fixPrompt: fixPrompt(narration) });
