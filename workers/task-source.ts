// What sandbox creation needs from a task's markdown: its name and its `## Seed State` block.
// (Interim: the full task parser in workers/tasks/ replaces these two readers when it lands.)
import { ApiError } from "./errors";

export function decodeTaskSource(base64: string): string {
  try {
    const bytes = Uint8Array.from(atob(base64.replace(/\s+/g, "")), (ch) => ch.charCodeAt(0));
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new ApiError("validation_failed", "task_source: not base64-encoded UTF-8 markdown", { issues: [{ path: "task_source", message: "Invalid base64" }] });
  }
}

/** The first `# ` heading names the task. */
export const taskNameOf = (markdown: string): string | null => /^#\s+(.+?)\s*$/m.exec(markdown)?.[1]?.trim() ?? null;

/** The seed a task's markdown carries (keyed by twin in the file), in wire shape for these twins. */
export function seedInTask(markdown: string, twins: string[]): unknown {
  const section = /^##\s+Seed State\s*$([\s\S]*?)(?=^##\s|(?![\s\S]))/m.exec(markdown)?.[1];
  if (!section) return undefined;
  const block = /```(?:json)?\s*\n([\s\S]*?)\n```/.exec(section)?.[1];
  if (!block) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(block);
  } catch (err) {
    throw malformed(`its JSON does not parse (${err instanceof Error ? err.message : String(err)})`);
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw malformed("it must be a JSON object keyed by twin");
  const file = parsed as Record<string, unknown>;
  // The file is keyed by twin even for one twin; the wire seed for one twin is the flat value.
  return twins.length === 1 ? file[twins[0]] : file;
}

const malformed = (why: string) =>
  new ApiError("validation_failed", `The task's Seed State block is not usable: ${why}`, { error: "malformed_scenario_seed" });
