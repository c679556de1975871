// Small worlds and tape rows for the grading tests.
import { githubChecks } from "../../../durable-objects/twins/github/checks";
import { defaultGithubSeed, type GithubSeed } from "../../../durable-objects/twins/github/seed";
import type { TwinId } from "../../../durable-objects/twins/registry";
import type { CheckOutcome, TapeRow } from "../../../durable-objects/twins/types";

/** The default GitHub world (acme/api: issues #1–#3, PR #4, labels bug/enhancement/…), fresh each call. */
export const world = (): GithubSeed => structuredClone(defaultGithubSeed());

/** The acme/api repository of a world, to edit in place. */
export function repo(state: GithubSeed) {
  const found = state.repositories.find((r) => r.owner === "acme" && r.name === "api");
  if (!found) throw new Error("fixture world lost acme/api");
  return found;
}

export function issue(state: GithubSeed, number: number) {
  const found = repo(state).issues.find((i) => i.number === number);
  if (!found) throw new Error(`fixture world has no issue #${number}`);
  return found;
}

/** A world with one field removed somewhere, the way a partial uploaded export looks. */
export function without<T extends object>(value: T, field: string): T {
  Reflect.deleteProperty(value, field);
  return value;
}

let seq = 0;
export function row(fields: Partial<TapeRow> = {}): TapeRow {
  seq++;
  return {
    seq,
    at: new Date(Date.UTC(2026, 0, 1, 0, 0, 0) + seq * 100).toISOString(),
    twin: "github" as TwinId,
    transport: "rest",
    method: "GET",
    path: "/repos/acme/api/issues/1",
    query: "",
    request_headers: {},
    request_body: null,
    status: 200,
    response_body: {},
    mutated: false,
    fidelity: "supported",
    operation: "issues.get",
    ...fields,
  };
}

/** Runs one GitHub check's predicate directly. */
export function runCheck(
  id: string,
  args: Record<string, string>,
  final: unknown,
  opts: { initial?: unknown; tape?: TapeRow[] } = {},
): CheckOutcome {
  const check = githubChecks.find((c) => c.id === `github.${id}`);
  if (!check) throw new Error(`no check github.${id}`);
  return check.evaluate({ args, initial: opts.initial as GithubSeed | undefined, final: final as GithubSeed, tape: opts.tape ?? [] });
}
