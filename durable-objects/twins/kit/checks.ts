// What every twin's check vocabulary is made of: the three outcomes, lookups that either find
// their subject or already know the outcome, readers that skip `field_absent` rather than read a
// missing field as a default, and the one tape check every twin serves under its own id.
import type { CheckDefinition, CheckOutcome, CheckParam, Substrate, TapeRow } from "../types";

export type Rec = Record<string, unknown>;
export const isRec = (v: unknown): v is Rec => typeof v === "object" && v !== null && !Array.isArray(v);

export const pass = (reason: string): CheckOutcome => ({ status: "passed", reason });
export const fail = (reason: string): CheckOutcome => ({ status: "failed", reason });
/** The state a check reads lacks the field it needs (an uploaded blob, an older export): skip, never guess. */
export const absent = (detail: string): CheckOutcome => ({ status: "skipped", reason: "field_absent", detail });

/** A lookup either found its subject or already knows the outcome (missing subject, absent field). */
export type Found<T> = { ok: true; value: T } | { ok: false; outcome: CheckOutcome };

export const found = <T>(value: T): Found<T> => ({ ok: true, value });
export const outcome = (o: CheckOutcome): Found<never> => ({ ok: false, outcome: o });

/** A list field of a record; absent (skipped) when the export does not carry it. */
export function listOf(record: unknown, field: string, where: string): Found<unknown[]> {
  const list = isRec(record) ? record[field] : undefined;
  return Array.isArray(list) ? found(list) : outcome(absent(`${where} has no ${field} in the export`));
}

/** Any field of a record; absent (skipped) when the export does not carry it. */
export function fieldOf(record: unknown, field: string, where: string): Found<unknown> {
  return isRec(record) && field in record ? found(record[field]) : outcome(absent(`${where} has no ${field} in the export`));
}

/** The first record of a list matching `match`, else a failure worded by `missing`. */
export function findIn(list: readonly unknown[], match: (r: Rec) => boolean, missing: string): Found<Rec> {
  const hit = list.find((r) => isRec(r) && match(r));
  return isRec(hit) ? found(hit) : outcome(fail(missing));
}

export const quoteList = (names: readonly string[]) => (names.length ? names.map((n) => `\`${n}\``).join(", ") : "none");
export const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;

/** Builds the check constructor of one twin: ids carry the twin's prefix. */
export function checkMaker<State>(twinId: string) {
  return (
    id: string,
    template: string,
    description: string,
    substrate: Substrate,
    params: readonly CheckParam[],
    evaluate: CheckDefinition<State>["evaluate"],
  ): CheckDefinition<State> => ({ id: `${twinId}.${id}`, template, description, substrate, params, evaluate });
}

/** Describes tape rows for a reason: `PUT /x (seq 4), …` with at most three shown. */
export function describeRows(rows: readonly TapeRow[]): string {
  const shown = rows.slice(0, 3).map((r) => `${r.method} ${r.path} (seq ${r.seq})`);
  const more = rows.length > 3 ? ` and ${rows.length - 3} more` : "";
  return `${shown.join(", ")}${more}`;
}

/**
 * `<twin>.no-unsupported-endpoint`: no call on this twin's tape hit a route the twin does not
 * implement. It reads only the tape, so every twin serves it unchanged under its own id.
 */
export function noUnsupportedEndpoint<State>(twinId: string, displayName: string): CheckDefinition<State> {
  return checkMaker<State>(twinId)(
    "no-unsupported-endpoint",
    "No unsupported endpoint was called",
    "No call on this twin's tape was answered with fidelity unsupported (a route the twin does not implement, answered 501 or the vendor's equivalent). Rejected calls on implemented routes pass. Other twins' calls are not seen.",
    "tape",
    [],
    ({ tape }) => {
      const unsupported = tape.filter((row) => row.fidelity === "unsupported");
      if (!unsupported.length) return pass(`none of the ${tape.length} ${displayName} calls hit an unsupported endpoint`);
      return fail(`${plural(unsupported.length, "call")} hit an unsupported endpoint: ${describeRows(unsupported)}`);
    },
  );
}
