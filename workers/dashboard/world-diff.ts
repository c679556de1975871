// The world as a diff from seed to final state: every added, removed and changed value, with a
// path a person can read (`issues[number=12].labels`). Arrays of records are matched by their
// identity (their `id` when every record has a unique one, so a renamed record reads as a change,
// not a removal and an addition), per collection, and named by the field people name them by (an
// issue by its number or identifier, a channel by its name) rather than by an opaque id. Each
// change also says which record it belongs to, so a page can show the record once and its
// changed fields under it.

export interface Change {
  /** The whole path, e.g. `issues[identifier=ENG-3].labels`. */
  path: string;
  /** The record the change belongs to: the nearest enclosing record of the path ("" for none). */
  object: string;
  /** The rest of the path, within that record (`labels`, `comments[id=…]`). */
  field: string;
  kind: "added" | "removed" | "changed";
  before?: unknown;
  after?: unknown;
}

/** The fields people name a record by, most telling first: an issue's identifier before its number. */
const HUMAN_KEYS = ["identifier", "number", "full_name", "login", "email", "slug", "key", "name", "title"];
/** Fields that identify a record but say little to a reader; names of last resort. */
const OTHER_KEYS = ["ts", "sha", "path", "ref"];

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Whether every element of the list has a string or number `key`, none twice. */
function uniqueIn(list: readonly unknown[], key: string): boolean {
  const seen = new Set<unknown>();
  for (const item of list) {
    const v = (item as Record<string, unknown>)[key];
    if ((typeof v !== "string" && typeof v !== "number") || seen.has(v)) return false;
    seen.add(v);
  }
  return true;
}

/** The first of the keys that identifies every element of both arrays uniquely, if any. */
function firstUniqueKey(keys: readonly string[], a: readonly unknown[], b: readonly unknown[]): string | null {
  const all = [...a, ...b];
  if (!all.length || !all.every(isRecord)) return null;
  return keys.find((key) => uniqueIn(a, key) && uniqueIn(b, key)) ?? null;
}

/** How two versions of a collection are matched (`match`), and how a record is named in a path (`label`). */
export function collectionKeys(a: readonly unknown[], b: readonly unknown[]): { match: string; label: string } | null {
  const match = firstUniqueKey(["id", ...HUMAN_KEYS, ...OTHER_KEYS], a, b);
  if (!match) return null;
  const label = match === "id" ? (firstUniqueKey(HUMAN_KEYS, a, b) ?? match) : match;
  return { match, label };
}

const join = (path: string, key: string) => (path ? `${path}.${key}` : key);

/** The rest of a path after its record's path. */
const within = (path: string, object: string) => {
  const rest = path.slice(object.length);
  return rest.startsWith(".") ? rest.slice(1) : rest;
};

export function diffWorld(before: unknown, after: unknown, limit = 200): { changes: Change[]; truncated: boolean } {
  const changes: Change[] = [];
  let truncated = false;
  const push = (path: string, object: string, c: Pick<Change, "kind" | "before" | "after">) => {
    if (changes.length >= limit) truncated = true;
    else changes.push({ path: path || "(root)", object, field: within(path, object), ...c });
  };
  const walk = (a: unknown, b: unknown, path: string, object: string) => {
    if (truncated) return;
    if (isRecord(a) && isRecord(b)) {
      for (const key of Object.keys(a)) {
        if (!(key in b)) push(join(path, key), object, { kind: "removed", before: a[key] });
        else walk(a[key], b[key], join(path, key), object);
      }
      for (const key of Object.keys(b)) if (!(key in a)) push(join(path, key), object, { kind: "added", after: b[key] });
      return;
    }
    if (Array.isArray(a) && Array.isArray(b)) {
      const keys = collectionKeys(a, b);
      if (keys) {
        const field = (x: unknown, key: string) => (x as Record<string, unknown>)[key];
        const at = (x: unknown) => `${path}[${keys.label}=${String(field(x, keys.label))}]`;
        const right = new Map(b.map((x) => [field(x, keys.match), x]));
        const left = new Set(a.map((x) => field(x, keys.match)));
        for (const x of a) {
          const y = right.get(field(x, keys.match));
          if (y === undefined) push(at(x), object, { kind: "removed", before: x });
          // Named as it is now: a renamed record is found under its new name.
          else walk(x, y, at(y), at(y));
        }
        for (const y of b) if (!left.has(field(y, keys.match))) push(at(y), object, { kind: "added", after: y });
        return;
      }
      if (a.every((x) => !isRecord(x) && !Array.isArray(x)) && b.every((x) => !isRecord(x) && !Array.isArray(x))) {
        // A list of plain values (labels, assignees) reads best as a set difference.
        for (const x of a) if (!b.includes(x)) push(path, object, { kind: "removed", before: x });
        for (const x of b) if (!a.includes(x)) push(path, object, { kind: "added", after: x });
        return;
      }
      const n = Math.max(a.length, b.length);
      for (let i = 0; i < n; i++) {
        const at = `${path}[${i}]`;
        if (i >= b.length) push(at, object, { kind: "removed", before: a[i] });
        else if (i >= a.length) push(at, object, { kind: "added", after: b[i] });
        else walk(a[i], b[i], at, isRecord(b[i]) ? at : object);
      }
      return;
    }
    if (a !== b && JSON.stringify(a) !== JSON.stringify(b)) push(path, object, { kind: "changed", before: a, after: b });
  };
  walk(before, after, "", "");
  return { changes, truncated };
}
