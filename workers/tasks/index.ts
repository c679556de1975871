// Task files: one parser and one renderer for the markdown, and the seed a sandbox takes from it.
import { readSeedState } from "./markdown";
import type { TaskSeedForRequest } from "./types";
import { seedForRequest } from "./wire";

export {
  CONFIG_KEYS,
  DEFAULT_TWINS,
  SECTION_HEADINGS,
  missingForRun,
  parseTask,
  readSeedState,
  renderCriteriaSection,
  renderCriterionLine,
  renderTask,
} from "./markdown";
export { criteriaForFinalize, seedForRequest } from "./wire";
export type { FinalizeCriterion } from "./wire";
export type * from "./types";

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
