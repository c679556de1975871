// The platform's redaction: the pure functions of redaction.ts bound, once, to the credential
// shapes the platform hands out (team keys, agent tokens, bearer values) and every registered
// twin's `secretPatterns` (its vendor's credential shapes that agents are likely to paste,
// DESIGN.md §4). Secrets never reach the tape, a stored state, a log or a blob: every writer of
// one redacts through these. This is the one module that joins redaction and the registry; a twin
// imports neither.
import { createRedactor } from "./redaction";
import { TWIN_IDS, twinById } from "./twins/registry";

export { MAX_PARSED_DEPTH, REDACTED, someLongRun } from "./redaction";

/** The platform's own credential shapes, after every twin's. */
const PLATFORM_PATTERNS: readonly RegExp[] = [
  /\bpme_[A-Za-z0-9_]{6,}/g,
  /\beyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{10,}/g,
  /\b(?:[Bb]earer|token)\s+[A-Za-z0-9._~+/=-]{16,}/g,
];

const platform = createRedactor([...TWIN_IDS.flatMap((id) => twinById(id).secretPatterns), ...PLATFORM_PATTERNS]);

/** Every pattern redaction applies, in order. */
export const secretPatterns = () => platform.patterns;

export const { redactText, containsSecret, redactString, redactValue, redactBody, redactUrlPart, redactPath, redactQuery } = platform;
