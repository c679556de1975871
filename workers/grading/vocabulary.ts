// Each twin's published check vocabulary: the set, its canonical form and digest, and the
// nearest templates to a sentence that binds nothing.
import { twinById } from "../../durable-objects/twins/registry";
import type { TwinId } from "../../durable-objects/twins/registry";
import type { CheckDefinition } from "../../durable-objects/twins/types";
import { sha256Hex } from "../ids";
import { exampleSentence } from "./binding";

/** The checks a twin declares (`TwinDefinition.checks`), from the twin's own checks.ts. */
export const vocabularyFor = (twin: TwinId): readonly CheckDefinition[] => twinById(twin).checks;

export const findCheck = (twin: TwinId, id: string) => vocabularyFor(twin).find((c) => c.id === id);

export interface CheckDescription {
  id: string;
  template: string;
  description: string;
  substrate: CheckDefinition["substrate"];
  params: { name: string; pattern: string; example: string; subject?: "repository" | "user" }[];
  example: string;
}

export function describeCheck(check: CheckDefinition): CheckDescription {
  return {
    id: check.id,
    template: check.template,
    description: check.description,
    substrate: check.substrate,
    params: check.params.map((p) => ({ name: p.name, pattern: p.pattern, example: p.example, subject: p.subject })),
    example: exampleSentence(check),
  };
}

/** JSON with object keys sorted at every depth: the same vocabulary always gives the same bytes. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/**
 * The digest covers what binding and grading depend on (ids, templates, substrates, params in
 * order), in declaration order. Descriptions and examples are documentation and left out, so
 * rewording one never looks like a change of vocabulary.
 */
export async function vocabularyDigest(twin: TwinId, checks: readonly CheckDefinition[]): Promise<string> {
  const canonical = canonicalJson({
    twin,
    checks: checks.map((c) => ({
      id: c.id,
      template: c.template,
      substrate: c.substrate,
      params: c.params.map((p) => ({ name: p.name, pattern: p.pattern })),
    })),
  });
  return `sha256:${await sha256Hex(canonical)}`;
}

const words = (text: string) => text.toLowerCase().match(/[a-z0-9_]+/g) ?? [];
function trigrams(text: string): string[] {
  const t = ` ${text.toLowerCase().replace(/\s+/g, " ")} `;
  const out: string[] = [];
  for (let i = 0; i + 3 <= t.length; i++) out.push(t.slice(i, i + 3));
  return out;
}
function dice(a: readonly string[], b: readonly string[]): number {
  if (!a.length || !b.length) return 0;
  const counts = new Map<string, number>();
  for (const x of a) counts.set(x, (counts.get(x) ?? 0) + 1);
  let shared = 0;
  for (const y of b) {
    const n = counts.get(y) ?? 0;
    if (n > 0) {
      shared++;
      counts.set(y, n - 1);
    }
  }
  return (2 * shared) / (a.length + b.length);
}

/** How alike a sentence is to a check: shared template words, and shared letter triples with its example. */
export function similarity(text: string, check: CheckDefinition): number {
  const templateWords = words(check.template.replace(/\{[a-z_]+\}/g, " "));
  return 0.5 * dice(words(text), templateWords) + 0.5 * dice(trigrams(text), trigrams(exampleSentence(check)));
}

/** The closest templates, best first, written `id — template`. */
export function nearestTemplates(checks: readonly CheckDefinition[], text: string, limit = 3): string[] {
  return checks
    .map((check, order) => ({ check, order, score: similarity(text, check) }))
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .slice(0, limit)
    .map(({ check }) => `${check.id} — ${check.template}`);
}
