// The server's console, redacted line by line before it reaches the terminal: the Worker logs
// request paths when a call fails, and a token an agent put in a URL must not land in a terminal
// or a CI log.
// Node cannot load the platform's redaction (it reads the twin registry), so this filter is
// deliberately broader: the platform's own shapes, plus any long mixed-case token-like run,
// in plain or percent-encoded form. Hex runs (commit SHAs) are kept.
const REDACTED = "[REDACTED]";
const PATTERNS = [
  /\bpme_[A-Za-z0-9_]{6,}/g,
  /\beyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{10,}/g,
  /\b(?:[Bb]earer|token)\s+[A-Za-z0-9._~+/=-]{16,}/g,
];
// A provider-shaped token: a run of 24+ word characters (and `.`/`-`) with upper and lower case.
const TOKEN_RUN = /[A-Za-z0-9_.-]{24,}/g;
const looksLikeToken = (run) => /[A-Z]/.test(run) && /[a-z]/.test(run) && /[0-9]/.test(run);

function redactPlain(text) {
  let out = text;
  for (const pattern of PATTERNS) out = out.replace(pattern, REDACTED);
  return out.replace(TOKEN_RUN, (run) => (looksLikeToken(run) ? REDACTED : run));
}

export function redactLogLine(line) {
  return line
    .split(/([\s/?&=]+)/)
    .map((piece) => {
      if (!piece.includes("%")) return redactPlain(piece);
      let decoded;
      try {
        decoded = decodeURIComponent(piece);
      } catch {
        return redactPlain(piece);
      }
      return redactPlain(decoded) === decoded ? piece : REDACTED;
    })
    .join("");
}
