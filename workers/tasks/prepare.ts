// What POST /v1/tasks checks before a task is stored: the file parses, it is complete, its twins
// exist, its seed boots, and every [code] criterion binds. Each refusal is a 422 naming the fault.
import type { TwinId } from "../../durable-objects/twins/registry";
import { ApiError } from "../errors";
import { checkTwinIds, resolveSeeds } from "../seeds";
import { bindTaskCriteria, renderPicks, type CriterionBinding, type CriterionPick } from "./criteria-binding";
import { parseTask } from ".";
import { missingForRun, renderCriteriaSection } from "./markdown";
import type { Task, TaskError } from "./types";
import { seedForRequest } from "./wire";

export interface PreparedTask {
  markdown: string;
  task: Task;
  twins: TwinId[];
  bindings: CriterionBinding[];
  /** The twins' normalized seeds (a twin without one boots its default world). */
  seeds: Partial<Record<TwinId, unknown>>;
}

const where = (e: TaskError) => (e.line !== undefined ? `line ${e.line}: ` : e.section ? `${e.section}: ` : "");

function invalidTask(errors: TaskError[]): ApiError {
  return new ApiError("validation_failed", `The task is not valid: ${where(errors[0])}${errors[0].message}`, {
    error: "invalid_task",
    issues: errors,
  });
}

function parseOrThrow(markdown: string): Task {
  const parsed = parseTask(markdown);
  if (!parsed.ok) throw invalidTask(parsed.errors);
  return parsed.task;
}

export async function prepareTask(source: string, picks: readonly CriterionPick[] | undefined): Promise<PreparedTask> {
  let markdown = source;
  let task = parseOrThrow(markdown);
  const twins = checkTwinIds(task.config.twins, { max: 3 });

  if (picks) {
    if (task.sections.some((s) => s.kind === "criteria"))
      throw new ApiError(
        "validation_failed",
        "The task source already has a `## Success Criteria` section; send structured criteria or write the section, not both",
        {
          error: "criteria_conflict",
        },
      );
    const { criteria, problems } = renderPicks(picks, twins);
    if (problems.length)
      throw new ApiError("validation_failed", `${problems[0].path}: ${problems[0].message}`, {
        error: "invalid_criteria",
        issues: problems,
      });
    markdown = `${source.trimEnd()}\n\n${renderCriteriaSection(criteria)}`;
    task = parseOrThrow(markdown);
  }

  const missing = missingForRun(task);
  if (missing.length) throw invalidTask(missing);

  let seeds: Partial<Record<TwinId, unknown>> = {};
  if (task.seed) {
    const wire = seedForRequest(task.seed, twins);
    if (wire.error) throw new ApiError("validation_failed", wire.error, { error: "invalid_seed_envelope" });
    if (wire.found) seeds = (await resolveSeeds(twins, wire.seed)).seeds;
  }

  const bindings = bindTaskCriteria(task, twins);
  const unbound = bindings.filter((b) => b.check_id === null);
  if (unbound.length) {
    const first = unbound[0];
    throw new ApiError(
      "validation_failed",
      `Criterion "${first.text}" does not bind to any ${first.twin} check${unbound.length > 1 ? ` (and ${unbound.length - 1} more)` : ""}; the nearest is ${first.nearest?.[0] ?? "none: this twin publishes no checks"}`,
      { error: "unbound_criteria", criteria: unbound },
    );
  }
  return { markdown, task, twins, bindings, seeds };
}
