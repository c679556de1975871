import type { z } from "zod";
import type { SeedIssue, SeedResult } from "../types";

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

/** Collects a seed's cross-reference problems, each at the path a user would edit. */
export class SeedProblems {
  readonly issues: SeedIssue[] = [];
  add(path: string, message: string, code = "invalid_reference"): void {
    this.issues.push({ path, message, code });
  }
  get ok(): boolean {
    return this.issues.length === 0;
  }
  /**
   * Resolves a reference to another seeded object: the object `key` names in `objects`, or
   * undefined with a problem at `path` when none has it. No key (null, undefined) is no reference.
   */
  resolve<K, T>(objects: ReadonlyMap<K, T>, key: K | null | undefined, path: string, message: (key: K) => string): T | undefined {
    if (key === null || key === undefined) return undefined;
    const found = objects.get(key);
    if (found === undefined) this.add(path, message(key));
    return found;
  }
  /**
   * Notes `key` (a name, an email) as taken in `seen`; a second entry with it is a `duplicate`
   * problem at the later entry's `path`.
   */
  unique<K>(seen: Set<K>, key: K, path: string, message: string): void {
    if (seen.has(key)) this.add(path, message, "duplicate");
    seen.add(key);
  }
  /** The parse result: the normalized seed when nothing was found, else every problem at once. */
  result<Seed>(seed: Seed): SeedResult<Seed> {
    return this.ok ? { ok: true, seed } : { ok: false, issues: this.issues };
  }
}

/**
 * The ids a seed's rows take, table by table. A table's primary key refuses a second row with
 * the same id at boot, which would fail the sandbox after the seed was accepted; the normalizer
 * asks here first and refuses the later row at its own path.
 */
export class IdsPerTable {
  private readonly taken = new Map<string, Map<string | number, () => string>>();

  /**
   * Records `id` for the row at `path`. When a row holds it already, returns the problem to
   * report: at the later row's `id`, naming the first. Paths are written out only for a
   * collision: a 10,000-issue seed has none.
   */
  claim(table: string, id: string | number, path: () => string): { path: string; message: string } | undefined {
    let ids = this.taken.get(table);
    if (!ids) {
      ids = new Map();
      this.taken.set(table, ids);
    }
    const first = ids.get(id);
    if (first === undefined) {
      ids.set(id, path);
      return undefined;
    }
    return { path: `${path()}.id`, message: `Duplicate id ${JSON.stringify(id)}: ${first()}.id has it too` };
  }
}

/**
 * The shape of every twin's parseSeed: a strict zod schema (unknown keys refused at their path)
 * followed by the twin's own normalization and referential checks.
 */
export function parseSeedWith<Raw, Seed>(schema: z.ZodType<Raw>, normalize: (raw: Raw) => SeedResult<Seed>) {
  return (raw: unknown): SeedResult<Seed> => {
    const parsed = schema.safeParse(raw ?? {});
    return parsed.success ? normalize(parsed.data) : { ok: false, issues: zodSeedIssues(parsed.error) };
  };
}
