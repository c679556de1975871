// A stored task's [code] criteria must bind to a declared check, or they would score `unmatched`
// and silently leave the denominator. Structured picks are rendered through the same binding code
// the grader uses, so the sentence and the check cannot disagree.
import type { TwinId } from "../../durable-objects/twins/registry";
import { isTwinId } from "../../durable-objects/twins/registry";
import { bindSentence, renderCheck } from "../grading/binding";
import { findCheck, nearestTemplates, vocabularyFor } from "../grading/vocabulary";
import type { Task, TaskCriterion } from "./types";

export type CriterionPick =
  | { kind: "code"; twin?: string; check: string; args: Record<string, unknown>; always_scored?: boolean }
  | { kind: "model"; text: string };

export interface PickProblem {
  path: string;
  message: string;
}

/** Renders picks into criteria; a code pick's twin defaults to the task's primary twin. */
export function renderPicks(
  picks: readonly CriterionPick[],
  twins: readonly TwinId[],
): { criteria: TaskCriterion[]; problems: PickProblem[] } {
  const criteria: TaskCriterion[] = [];
  const problems: PickProblem[] = [];
  picks.forEach((pick, i) => {
    const at = `criteria[${i}]`;
    if (pick.kind === "model") {
      const text = pick.text.trim();
      if (!text || text.includes("\n")) problems.push({ path: `${at}.text`, message: "A [model] criterion is one non-empty line" });
      else criteria.push({ kind: "model", text });
      return;
    }
    const twin = pick.twin ?? twins[0];
    if (!isTwinId(twin) || !twins.includes(twin)) {
      problems.push({ path: `${at}.twin`, message: `"${twin}" is not one of the task's twins (${twins.join(", ")})` });
      return;
    }
    const check = findCheck(twin, pick.check);
    if (!check) {
      problems.push({ path: `${at}.check`, message: `"${pick.check}" is not a ${twin} check; GET /v1/checks?twin=${twin} lists them` });
      return;
    }
    const rendered = renderCheck(check, pick.args);
    if (!rendered.ok) {
      problems.push(...rendered.problems.map((p) => ({ path: `${at}.args.${p.path}`, message: p.message })));
      return;
    }
    criteria.push({
      kind: "code",
      text: rendered.text,
      ...(twin !== twins[0] ? { twin } : {}),
      ...(pick.always_scored ? { alwaysScored: true } : {}),
    });
  });
  return { criteria, problems };
}

export interface CriterionBinding {
  /** 0-based position among all the task's criteria. */
  index: number;
  text: string;
  twin: TwinId;
  check_id: string | null;
  /** The closest templates, for a sentence that binds nothing. */
  nearest?: string[];
}

/** Binds every [code] criterion against its twin's vocabulary (twins already checked as ids). */
export function bindTaskCriteria(task: Task, twins: readonly TwinId[]): CriterionBinding[] {
  const bindings: CriterionBinding[] = [];
  task.criteria.forEach((criterion, index) => {
    if (criterion.kind !== "code") return;
    const twin = (criterion.twin ?? twins[0]) as TwinId;
    const vocabulary = vocabularyFor(twin);
    const bound = bindSentence(vocabulary, criterion.text);
    bindings.push(
      bound
        ? { index, text: criterion.text, twin, check_id: bound.check.id }
        : { index, text: criterion.text, twin, check_id: null, nearest: nearestTemplates(vocabulary, criterion.text) },
    );
  });
  return bindings;
}
