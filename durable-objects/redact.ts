// Secrets never reach the tape, a stored state, a log or a blob. These are the credential shapes
// the platform hands out or that agents are likely to paste (DESIGN.md §4), plus bearer values.

export const REDACTED = "[REDACTED]";

const SECRET_PATTERNS: readonly RegExp[] = [
  /\bgithub_pat_[A-Za-z0-9_]{20,}/g,
  /\bgh[pousr]_[A-Za-z0-9]{20,}/g,
  /\b[sr]k_(?:test|live)_[A-Za-z0-9]{10,}/g,
  /\bxox[abposr]-[A-Za-z0-9-]{10,}/g,
  /\bya29\.[A-Za-z0-9._-]{10,}/g,
  /\blin_(?:api|oauth)_[A-Za-z0-9]{10,}/g,
  /\bpme_[A-Za-z0-9_]{6,}/g,
  /\beyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{10,}/g,
  /\b(?:[Bb]earer|token)\s+[A-Za-z0-9._~+/=-]{16,}/g,
];

/**
 * Every pattern in one alternation, as a test only: it finds a match exactly when one of the
 * patterns would, so a text with no secret in it (nearly every body on the tape) costs one scan
 * instead of nine. Replacing stays pattern by pattern, in order, so the output is unchanged.
 */
const ANY_SECRET = new RegExp(SECRET_PATTERNS.map((p) => `(?:${p.source})`).join("|"));

export function redactText(text: string): string {
  if (!ANY_SECRET.test(text)) return text;
  let out = text;
  for (const pattern of SECRET_PATTERNS) out = out.replace(pattern, REDACTED);
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
