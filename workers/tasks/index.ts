// Task files: one parser and one renderer for the markdown, and the seed a sandbox takes from it.
import { DEFAULT_TWIN } from "../../durable-objects/twins/registry";
import { parseTask as parseTaskWith, readSeedState, renderTask as renderTaskWith } from "./markdown";
import type { Task, TaskParseResult, TaskSeedForRequest } from "./types";
import { seedForRequest } from "./wire";

export {
  CONFIG_KEYS,
  SECTION_HEADINGS,
  missingForRun,
  readSeedState,
  renderCriteriaSection,
  renderCriterionLine,
} from "./markdown";
export { criteriaForFinalize, seedForRequest } from "./wire";
export type { FinalizeCriterion } from "./wire";
export type * from "./types";

/** The twins a task gets when its Config names none: the registry's default twin. */
export const DEFAULT_TWINS: readonly string[] = [DEFAULT_TWIN];

/** A task file read the control plane's way, its unnamed twins filled from the registry. */
export const parseTask = (markdown: string): TaskParseResult => parseTaskWith(markdown, DEFAULT_TWINS);

/** The file `parseTask` reads back as `task`, written the canonical way. */
export const renderTask = (task: Task): string => renderTaskWith(task, DEFAULT_TWINS);

/**
 * The wire seed a sandbox gets from its task's `## Seed State`: unwrapped for one twin, the
 * envelope for several. `found: false` without `error` means the task seeds none of `twins`.
 * Only the Seed State is read, so a stub source (`# ..`) or a half-written task still works.
 */
export function seedFromTask(markdown: string, twins: string[]): TaskSeedForRequest {
  const { seed, errors } = readSeedState(markdown);
  if (errors.length) return { found: false, error: errors.map((e) => e.message).join("; ") };
  if (!seed) return { found: false };
  return seedForRequest(seed, twins);
}
