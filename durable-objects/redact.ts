// Secrets never reach the tape, a stored state, a log or a blob. These are the credential shapes
// the platform hands out (team keys, agent tokens, bearer values) and, from each twin's
// definition, its vendor's credential shapes that agents are likely to paste (DESIGN.md §4).
import { TWIN_IDS, twinById } from "./twins/registry";

export const REDACTED = "[REDACTED]";

const PLATFORM_PATTERNS: readonly RegExp[] = [
  /\bpme_[A-Za-z0-9_]{6,}/g,
  /\beyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{10,}/g,
  /\b(?:[Bb]earer|token)\s+[A-Za-z0-9._~+/=-]{16,}/g,
];

// Built on first use: the registry imports the twins, which import this module.
let patterns: readonly RegExp[] | undefined;
export const secretPatterns = () => (patterns ??= [...TWIN_IDS.flatMap((id) => twinById(id).secretPatterns), ...PLATFORM_PATTERNS]);

/**
 * The patterns as one alternation per set of flags, used as a test only: it finds a match exactly
 * when one of the patterns would, so a text with no secret in it (nearly every body on the tape)
 * costs one scan instead of one per pattern. Replacing stays pattern by pattern, in order, so the
 * output is unchanged.
 */
let anySecret: readonly RegExp[] | undefined;
function mayHoldSecret(text: string): boolean {
  anySecret ??= [...Map.groupBy(secretPatterns(), (p) => p.flags.replace("g", "")).entries()].map(
    ([flags, group]) => new RegExp(group.map((p) => `(?:${p.source})`).join("|"), flags),
  );
  return anySecret.some((re) => re.test(text));
}

export function redactText(text: string): string {
  if (!mayHoldSecret(text)) return text;
  let out = text;
  for (const pattern of secretPatterns()) out = out.replace(pattern, REDACTED);
  return out;
}

/** Whether redaction would change this text: a needle that holds a secret cannot be found after it. */
export const containsSecret = (text: string) => redactText(text) !== text;

/** Redacts every string inside a JSON-like value. */
export function redactValue<T>(value: T): T {
  if (typeof value === "string") return redactText(value) as T;
  if (Array.isArray(value)) return value.map((v) => redactValue(v)) as T;
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = redactValue(v);
    return out as T;
  }
  return value;
}
