// The world as a diff from seed to final state: every added, removed and changed value, with a
// path a person can read (`issues[number=12].labels`). Arrays of records are matched by their
// identity field, so one new issue reads as one addition, not a shifted list.

export interface Change {
  path: string;
  kind: "added" | "removed" | "changed";
  before?: unknown;
  after?: unknown;
}

// In the order people name things by: an issue by its number before its internal id.
const IDENTITY_KEYS = ["number", "full_name", "login", "email", "slug", "key", "name", "id", "sha", "path", "ref"];

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The field that identifies every element of both arrays uniquely, if there is one. */
function identityKey(a: readonly unknown[], b: readonly unknown[]): string | null {
  const all = [...a, ...b];
  if (!all.length || !all.every(isRecord)) return null;
  for (const key of IDENTITY_KEYS) {
    const unique = (list: readonly unknown[]) => {
      const seen = new Set<unknown>();
      for (const item of list) {
        const v = (item as Record<string, unknown>)[key];
        if ((typeof v !== "string" && typeof v !== "number") || seen.has(v)) return false;
        seen.add(v);
      }
      return true;
    };
    if (unique(a) && unique(b)) return key;
  }
  return null;
}

const join = (path: string, key: string) => (path ? `${path}.${key}` : key);

export function diffWorld(before: unknown, after: unknown, limit = 200): { changes: Change[]; truncated: boolean } {
  const changes: Change[] = [];
  let truncated = false;
  const push = (c: Change) => {
    if (changes.length >= limit) truncated = true;
    else changes.push(c);
  };
  const walk = (a: unknown, b: unknown, path: string) => {
    if (truncated) return;
    if (isRecord(a) && isRecord(b)) {
      for (const key of Object.keys(a)) {
        if (!(key in b)) push({ path: join(path, key), kind: "removed", before: a[key] });
        else walk(a[key], b[key], join(path, key));
      }
      for (const key of Object.keys(b)) if (!(key in a)) push({ path: join(path, key), kind: "added", after: b[key] });
      return;
    }
    if (Array.isArray(a) && Array.isArray(b)) {
      const id = identityKey(a, b);
      if (id) {
        const left = new Map(a.map((x) => [(x as Record<string, unknown>)[id], x]));
        const right = new Map(b.map((x) => [(x as Record<string, unknown>)[id], x]));
        for (const [k, x] of left) {
          const at = `${path}[${id}=${String(k)}]`;
          if (!right.has(k)) push({ path: at, kind: "removed", before: x });
          else walk(x, right.get(k), at);
        }
        for (const [k, x] of right) if (!left.has(k)) push({ path: `${path}[${id}=${String(k)}]`, kind: "added", after: x });
        return;
      }
      if (a.every((x) => !isRecord(x) && !Array.isArray(x)) && b.every((x) => !isRecord(x) && !Array.isArray(x))) {
        // A list of plain values (labels, assignees) reads best as a set difference.
        for (const x of a) if (!b.includes(x)) push({ path, kind: "removed", before: x });
        for (const x of b) if (!a.includes(x)) push({ path, kind: "added", after: x });
        return;
      }
      const n = Math.max(a.length, b.length);
      for (let i = 0; i < n; i++) {
        if (i >= b.length) push({ path: `${path}[${i}]`, kind: "removed", before: a[i] });
        else if (i >= a.length) push({ path: `${path}[${i}]`, kind: "added", after: b[i] });
        else walk(a[i], b[i], `${path}[${i}]`);
      }
      return;
    }
    if (a !== b && JSON.stringify(a) !== JSON.stringify(b)) push({ path: path || "(root)", kind: "changed", before: a, after: b });
  };
  walk(before, after, "");
  return { changes, truncated };
}
