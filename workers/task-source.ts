// What sandbox creation needs from a task: its markdown (inline or stored), its name, and the
// world its `## Seed State` block describes — read with the one task parser in workers/tasks/.
import { fromBase64, utf8OrUndefined } from "../durable-objects/twins/kit/bytes";
import { ApiError, notFound } from "./errors";
import { parseTask, seedFromTask } from "./tasks";
import { findTask } from "./tasks/task-store";

export function decodeTaskSource(base64: string): string {
  let markdown: string | undefined;
  try {
    markdown = utf8OrUndefined(fromBase64(base64.replace(/\s+/g, "")));
  } catch {
    // atob refuses it: not base64.
  }
  if (markdown === undefined)
    throw new ApiError("validation_failed", "task_source: not base64-encoded UTF-8 markdown", {
      issues: [{ path: "task_source", message: "Invalid base64" }],
    });
  return markdown;
}

export async function loadStoredTask(env: Env, teamId: string, taskId: string): Promise<{ id: string; markdown: string }> {
  const row = await findTask(env, teamId, taskId);
  // Another team's task is indistinguishable from one that does not exist.
  if (!row) throw notFound("Task");
  return row;
}

/**
 * A task over the criteria limits is refused where it enters, not at finalize: a sandbox started
 * from it could never be graded. Other parse problems stay finalize's business, since criteria
 * may still arrive in the finalize body.
 */
export function requireTaskWithinLimits(markdown: string, field: string): void {
  const parsed = parseTask(markdown);
  const limits = parsed.ok ? [] : parsed.errors.filter((e) => e.limit);
  if (limits.length)
    throw new ApiError("validation_failed", `${field}: ${limits[0].message}`, {
      error: "task_over_limits",
      issues: limits.map((e) => ({ path: field, message: e.message, line: e.line ?? null })),
    });
}

/**
 * The placeholder older clients send for a sandbox with no task (`# ..`, base64 `IyAuLgo=`, which
 * the hosted reference demanded): it names nothing and grades nothing, so it is read as "no task".
 */
export function isPlaceholderTask(markdown: string): boolean {
  return markdown.trim() === "# .." || markdown.trim() === "";
}

/** The `# Title` line names the task's sandboxes and runs. */
export function taskNameOf(markdown: string): string | null {
  const parsed = parseTask(markdown);
  return parsed.ok ? (parsed.task.name ?? null) : null;
}

/** The seed a task's markdown carries, in wire shape for these twins, or undefined. */
export function seedInTask(markdown: string, twins: string[]): unknown {
  const found = seedFromTask(markdown, twins);
  if (found.error) {
    throw new ApiError("validation_failed", `The task's Seed State block is not usable: ${found.error}`, {
      error: "malformed_scenario_seed",
    });
  }
  return found.found ? found.seed : undefined;
}
