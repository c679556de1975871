// From a task file to what goes on the wire. A task's Seed State is always keyed by twin, because
// the file travels on its own; the seed of POST /v1/sandboxes is flat for one twin and an envelope
// for several, decided by the request's `twins`. Criteria go to finalize with ids by position.
// Pure, with type-only imports: the `pome` CLI loads this file too.
import type { Task, TaskSeed, TaskSeedForRequest } from "./types";

export function seedForRequest(taskSeed: TaskSeed, twins: readonly string[]): TaskSeedForRequest {
  const stray = Object.keys(taskSeed).filter((key) => !twins.includes(key));
  if (stray.length) {
    const names = stray.map((key) => `"${key}"`).join(", ");
    return {
      found: false,
      error: `Seed State names ${names}, which ${stray.length > 1 ? "are not twins" : "is not a twin"} of this sandbox (twins: ${twins.join(", ")}); the block is keyed by twin`,
    };
  }
  const seeded = twins.filter((twin) => Object.hasOwn(taskSeed, twin));
  if (!seeded.length) return { found: false };
  if (twins.length === 1) return { found: true, seed: taskSeed[twins[0]] };
  return { found: true, seed: { ...taskSeed } };
}

/** A criterion as POST /v1/sandboxes/:id/finalize takes it. */
export interface FinalizeCriterion {
  id: string;
  kind: "code" | "model";
  text: string;
  twin?: string;
  always_scored?: boolean;
}

/** The task's criteria for finalize: ids `c1`, `c2`… by position, so reruns line up. */
export function criteriaForFinalize(task: Pick<Task, "criteria">): FinalizeCriterion[] {
  return task.criteria.map((criterion, i) => ({
    id: `c${i + 1}`,
    kind: criterion.kind,
    text: criterion.text,
    ...(criterion.twin !== undefined ? { twin: criterion.twin } : {}),
    ...(criterion.alwaysScored ? { always_scored: true } : {}),
  }));
}
