// Subjects a criterion names that the agent could not create: a repository, a user. A criterion
// naming one the seed does not have can only fail, and that failure is the task's, not the
// agent's (issue 38). `pome validate` warns about it before running ("`dnaa` is not a user in the
// seed; did you mean `dana`?"); the grader makes the task the owner of such a failure.
// No runtime imports: the CLI loads this file through Node's type stripping.

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => typeof v === "object" && v !== null && !Array.isArray(v);
const list = (v: unknown): Rec[] => (Array.isArray(v) ? v.filter(isRec) : []);
const strings = (...values: unknown[]) => values.filter((v): v is string => typeof v === "string" && v.length > 0);

interface SubjectKind {
  /** What it is, in the warning: "a repository", "a user". */
  noun: string;
  /** Every spelling of such subjects in a seed of the twin (compared case-insensitively). */
  inSeed(seed: unknown): string[];
}

/** Subjects by kind, as every seed that has them writes them: `repositories` and `users`. */
const KINDS: Record<"repository" | "user", SubjectKind> = {
  repository: {
    noun: "repository",
    inSeed: (seed) =>
      isRec(seed)
        ? list(seed.repositories).flatMap((r) =>
            typeof r.owner === "string" && typeof r.name === "string" ? [`${r.owner}/${r.name}`] : [],
          )
        : [],
  },
  user: {
    noun: "user",
    inSeed: (seed) =>
      isRec(seed)
        ? [
            ...strings(seed.authenticated_user),
            ...list(seed.users).flatMap((u) => strings(u.login, u.id, u.name, u.email, u.real_name, u.display_name)),
            ...list(seed.repositories).flatMap((r) => strings(...(Array.isArray(r.collaborators) ? r.collaborators : []))),
          ]
        : [],
  },
};

/** A check parameter as the vocabulary describes it: its `subject`, when agents cannot create what it names. */
export interface SubjectParam {
  name: string;
  subject?: "repository" | "user";
}

/**
 * Edit distance with adjacent transpositions counted as one edit (optimal string alignment), for
 * "did you mean": a swapped pair (`dnaa`, `alcie`) is the commonest typo of a name.
 */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.length][b.length];
}

export interface AbsentSubject {
  param: string;
  value: string;
  noun: string;
  /** The closest subject the seed does have, when one is close. */
  nearest: string | null;
  message: string;
}

/**
 * The subjects among a bound criterion's arguments that the seed lacks and the agent could not
 * create. Empty when the twin's seed is unknown (no Seed State: the default world is the server's).
 */
export function absentSubjects(params: readonly SubjectParam[], args: Record<string, string>, seed: unknown): AbsentSubject[] {
  if (seed === undefined) return [];
  const out: AbsentSubject[] = [];
  for (const { name: param, subject } of params) {
    if (!subject) continue;
    const kind = KINDS[subject];
    const value = args[param];
    if (value === undefined) continue;
    const known = kind.inSeed(seed);
    if (!known.length || known.some((k) => k.toLowerCase() === value.toLowerCase())) continue;
    const ranked = known.map((k) => ({ k, d: editDistance(k.toLowerCase(), value.toLowerCase()) })).sort((x, y) => x.d - y.d);
    const nearest = ranked[0] && ranked[0].d <= Math.max(2, Math.floor(value.length / 3)) ? ranked[0].k : null;
    out.push({
      param,
      value,
      noun: kind.noun,
      nearest,
      message: `\`${value}\` is not a ${kind.noun} in the seed${nearest ? `; did you mean \`${nearest}\`?` : ""}`,
    });
  }
  return out;
}
