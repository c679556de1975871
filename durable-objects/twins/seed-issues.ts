import type { z } from "zod";
import type { SeedIssue } from "./types";

/** `["repositories", 0, "name"]` → `repositories[0].name`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out;
}

/** Flattens a zod error into seed issues; an unknown key is reported at its own path. */
export function zodSeedIssues(error: z.ZodError): SeedIssue[] {
  const issues: SeedIssue[] = [];
  for (const issue of error.issues) {
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) {
        issues.push({ path: formatPath([...issue.path, key]), message: `Unrecognized key: "${key}"`, code: issue.code });
      }
    } else {
      issues.push({ path: formatPath(issue.path), message: issue.message, code: issue.code });
    }
  }
  return issues;
}
