// Binding a criterion sentence to a check, and rendering a check back into its sentence. Both
// directions run through one compiled form of each template, so a rendered sentence always binds
// to the check that rendered it, and the grader binds exactly what /v1/checks/bind reports.
import type { CheckDefinition, CheckParam } from "../../durable-objects/twins/types";

type Part = { literal: string } | { param: CheckParam };

interface CompiledCheck {
  check: CheckDefinition;
  parts: Part[];
  sentence: RegExp;
  whole: Map<string, RegExp>;
}

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

const compiled = new WeakMap<CheckDefinition, CompiledCheck>();

/** Splits a template into literal text and `{param}` slots; each declared param appears once. */
function compile(check: CheckDefinition): CompiledCheck {
  const cached = compiled.get(check);
  if (cached) return cached;
  const parts: Part[] = [];
  const used = new Set<string>();
  let rest = check.template;
  for (let m = /\{([a-z_]+)\}/.exec(rest); m; m = /\{([a-z_]+)\}/.exec(rest)) {
    const param = check.params.find((p) => p.name === m[1]);
    if (!param || used.has(param.name)) throw new Error(`check ${check.id}: template slot {${m[1]}} is undeclared or repeated`);
    used.add(param.name);
    if (m.index > 0) parts.push({ literal: rest.slice(0, m.index) });
    parts.push({ param });
    rest = rest.slice(m.index + m[0].length);
  }
  if (rest) parts.push({ literal: rest });
  if (used.size !== check.params.length) throw new Error(`check ${check.id}: a declared param has no slot in the template`);
  const source = parts.map((p, i) => ("literal" in p ? escapeRegex(p.literal) : `(?<p${i}>(?:${p.param.pattern}))`)).join("");
  const whole = new Map(check.params.map((p) => [p.name, new RegExp(`^(?:${p.pattern})$`)]));
  const result = { check, parts, sentence: new RegExp(`^${source}$`), whole };
  compiled.set(check, result);
  return result;
}

/** Whether a value is accepted by a param's pattern, matched against the whole value. */
export const acceptsValue = (check: CheckDefinition, param: string, value: string) => compile(check).whole.get(param)?.test(value) ?? false;

export interface Binding<State = unknown> {
  check: CheckDefinition<State>;
  args: Record<string, string>;
}

/** The check a sentence is an instance of, with its arguments; undefined when none matches exactly. */
export function bindSentence<State>(checks: readonly CheckDefinition<State>[], text: string): Binding<State> | undefined {
  const sentence = text.trim();
  for (const check of checks) {
    const c = compile(check as CheckDefinition);
    const m = c.sentence.exec(sentence);
    if (!m) continue;
    const args: Record<string, string> = {};
    c.parts.forEach((p, i) => {
      if ("param" in p) args[p.param.name] = m.groups?.[`p${i}`] ?? "";
    });
    // The sentence regex already embeds each pattern; re-checking whole values guards patterns
    // whose alternation could let a neighbouring literal leak into the capture.
    if (check.params.every((p) => c.whole.get(p.name)?.test(args[p.name]))) return { check, args };
  }
  return undefined;
}

export type RenderProblem = { path: string; message: string };

/** Fills a template; every problem is named by its path under `args`. */
export function renderCheck(
  check: CheckDefinition,
  args: Record<string, unknown>,
): { ok: true; text: string } | { ok: false; problems: RenderProblem[] } {
  const c = compile(check);
  const problems: RenderProblem[] = [];
  for (const p of check.params) {
    const value = args[p.name];
    if (value === undefined) problems.push({ path: p.name, message: `Missing argument "${p.name}" (for example "${p.example}")` });
    else if (typeof value !== "string")
      problems.push({ path: p.name, message: `Argument "${p.name}" must be a string, got ${value === null ? "null" : typeof value}` });
    else if (!c.whole.get(p.name)?.test(value))
      problems.push({ path: p.name, message: `Argument "${p.name}" does not match ${p.pattern}` });
  }
  for (const name of Object.keys(args))
    if (!check.params.some((p) => p.name === name)) problems.push({ path: name, message: `Unknown argument "${name}" for ${check.id}` });
  if (problems.length) return { ok: false, problems };
  const text = c.parts.map((p) => ("literal" in p ? p.literal : String(args[p.param.name]))).join("");
  return { ok: true, text };
}

/** The template with each slot filled by its example: what a sentence of this check looks like. */
export function exampleSentence(check: CheckDefinition): string {
  return compile(check)
    .parts.map((p) => ("literal" in p ? p.literal : p.param.example))
    .join("");
}
