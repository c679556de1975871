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
const secretPatterns = () => (patterns ??= [...TWIN_IDS.flatMap((id) => twinById(id).secretPatterns), ...PLATFORM_PATTERNS]);

export function redactText(text: string): string {
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
