// Redaction as pure functions of a set of secret patterns: this module imports no twin and no
// registry. The platform binds its own credential shapes and every registered twin's in one place
// (redact.ts); a test or a tool can bind any other set.
//
// Redaction reads what a secret *means*, not how it was spelled: JSON bodies are redacted after
// parsing (so a prefix spelled with `\u005f` is caught), URL parts after percent-decoding, and base64
// strings (a contents PUT) on their decoded text.
import { remembered } from "./remembered";
import { fromBase64, toBase64, utf8, utf8OrUndefined } from "./twins/kit/bytes";
import { jsonDepth } from "./twins/kit/json-depth";

export const REDACTED = "[REDACTED]";

/**
 * Deeper than this, a body is kept and served as text: no real API nests this far, and it is the
 * depth json-text.ts writes verbatim, so events.jsonl and readTape agree on every body.
 */
export const MAX_PARSED_DEPTH = 200;

/** Redaction bound to one set of secret patterns (global regular expressions), applied in order. */
export interface Redactor {
  readonly patterns: readonly RegExp[];
  /** The text with every pattern's matches replaced, as written (no decoding). */
  redactText(text: string): string;
  /** Whether redaction would change this text: a needle that holds a secret cannot be found after it. */
  containsSecret(text: string): boolean;
  /** One string: its own text, URL-encoded runs within it, and the text it encodes when it is base64, whole or in a run. */
  redactString(value: string): string;
  /** Every string (and every key) inside a JSON-like value; the value itself when nothing in it changed. */
  redactValue<T>(value: T): T;
  /**
   * A request or response body as it may be stored. JSON is redacted on its decoded strings and
   * kept byte for byte when nothing in it was secret; text (and JSON too deep to walk) is redacted
   * as written, and withheld entirely if an escaped secret would survive that.
   */
  redactBody(text: string): string;
  /** A URL path or query: every percent-decoded segment that holds a secret is replaced whole. */
  redactUrlPart(part: string, separators: RegExp): string;
  redactPath(path: string): string;
  redactQuery(query: string): string;
}

// A string that is all base64 (some APIs wrap it at 60 columns) and long enough to hold a secret.
const BASE64 = /^(?:[A-Za-z0-9+/]{4}|\s)*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?\s*$/;
const MIN_BASE64 = 16;

/** The UTF-8 text a base64 string encodes; undefined when it is not base64 text. */
function decodeBase64Text(value: string): string | undefined {
  if (value.length < MIN_BASE64 || !BASE64.test(value)) return undefined;
  try {
    return utf8OrUndefined(fromBase64(value.replace(/\s+/g, "")));
  } catch {
    // atob refuses it (a length no base64 has).
    return undefined;
  }
}

// The lookbehind starts a match only where a run starts. It finds the same runs (a run shorter
// than 20 has no tail of 20 either), but a scan no longer re-reads every short run from each of
// its characters, which made a 6 KB response cost ~75 µs here.
const BASE64_RUN = /(?<![A-Za-z0-9+/])[A-Za-z0-9+/]{20,}={0,2}/g;

// A run of URL-encoded text: unreserved characters and %XX escapes, at least one escape in it.
const PERCENT_RUN = /(?:%[0-9A-Fa-f]{2}|[A-Za-z0-9._~+-])*%[0-9A-Fa-f]{2}(?:%[0-9A-Fa-f]{2}|[A-Za-z0-9._~+-])*/g;

/**
 * The redaction functions for `patterns`. The patterns are read once here: later changes to the
 * array are not seen.
 */
export function createRedactor(patterns: readonly RegExp[]): Redactor {
  const bound = [...patterns];

  /**
   * The patterns as one alternation per set of flags, used as a test only: it finds a match exactly
   * when one of the patterns would, so a text with no secret in it (nearly every body on the tape)
   * costs one scan instead of one per pattern. Replacing stays pattern by pattern, in order, so the
   * output is unchanged.
   */
  const anySecret = [...Map.groupBy(bound, (p) => p.flags.replace("g", "")).entries()].map(
    ([flags, group]) => new RegExp(group.map((p) => `(?:${p.source})`).join("|"), flags),
  );
  const mayHoldSecret = (text: string) => anySecret.some((re) => re.test(text));

  function redactText(text: string): string {
    if (!mayHoldSecret(text)) return text;
    let out = text;
    for (const pattern of bound) out = out.replace(pattern, REDACTED);
    return out;
  }

  const containsSecret = (text: string) => redactText(text) !== text;

  /** Whether URL-decoding, once or repeatedly (a secret may be encoded twice), spells a secret. */
  function decodesToSecret(text: string): boolean {
    let current = text;
    for (let round = 0; round < 3 && /%[0-9A-Fa-f]{2}|\+/.test(current); round++) {
      try {
        current = decodeURIComponent(current.replace(/\+/g, " "));
      } catch {
        return false;
      }
      if (containsSecret(current)) return true;
    }
    return false;
  }

  /** Text with every URL-encoded run that spells a secret (`%5F` for `_` in a pasted link) replaced. */
  function redactPercentRuns(text: string): string {
    if (!text.includes("%")) return text;
    return text.replace(PERCENT_RUN, (run) => (decodesToSecret(run) ? REDACTED : run));
  }

  /**
   * Whether a base64-looking run decodes to text holding a secret. The same runs come back on every
   * call (a twin's URLs carry the sandbox id, which with the path around it reads as base64), and
   * decoding each was a fifth of a point read, so answers are remembered (bounded).
   */
  const runHidesSecret = remembered((run) => {
    const bare = run.replace(/=+$/, "");
    const decoded = decodeBase64Text(bare.slice(0, bare.length - (bare.length % 4)));
    return decoded !== undefined && containsSecret(decoded);
  });

  function redactString(value: string): string {
    const plain = redactText(value);
    if (plain !== value) return plain;
    const unencoded = redactPercentRuns(value);
    if (unencoded !== value) return unencoded;
    const decoded = decodeBase64Text(value);
    if (decoded !== undefined) return containsSecret(decoded) ? toBase64(utf8(redactText(decoded))) : value;
    // Too short to hold a base64 run (most of a world's strings): nothing left to look for. The
    // character scan finds whether any run hides one before the replace reads the string again.
    if (value.length < 20 || !someLongRun(value, runHidesSecret)) return value;
    return value.replace(BASE64_RUN, (run) => (runHidesSecret(run) ? REDACTED : run));
  }

  /** Keys repeat across a value's objects (every issue has a `title`), so their redaction is remembered. */
  const redactKey = remembered(redactText);

  /**
   * Returns the value itself when nothing in it changed, so callers can tell without comparing. A
   * copy is made only from the first element or property that changed: nearly every value (a
   * 10,000-issue seed's snapshot) holds no secret, and copying it whole was most of the walk.
   */
  function redactAny(value: unknown): unknown {
    if (typeof value === "string") return redactString(value);
    if (Array.isArray(value)) {
      let out: unknown[] | undefined;
      for (let i = 0; i < value.length; i++) {
        const v: unknown = value[i];
        const r = redactAny(v);
        if (out) out.push(r);
        else if (r !== v) {
          out = value.slice(0, i);
          out.push(r);
        }
      }
      return out ?? value;
    }
    if (value && typeof value === "object") {
      const record = value as Record<string, unknown>;
      const keys = Object.keys(record);
      let out: Record<string, unknown> | undefined;
      for (let i = 0; i < keys.length; i++) {
        const k = keys[i];
        const v = record[k];
        const key = redactKey(k);
        const r = redactAny(v);
        if (!out && (key !== k || r !== v)) {
          out = {};
          for (let j = 0; j < i; j++) defineEntry(out, keys[j], record[keys[j]]);
        }
        if (out) defineEntry(out, key, r);
      }
      return out ?? value;
    }
    return value;
  }

  /**
   * Whether the body may hold a secret the plain-text patterns did not see in its text. Escapes,
   * URL encoding and base64 can hide one: in the text `\npme_…` the prefix follows a letter, `\/`
   * cuts a token short, `\u005f` spells `_`. So the checks read the body with its escapes written
   * out, where every string's characters stand as the parsed value holds them (between quotes,
   * which no pattern's characters include): a secret in a value shows there. Most bodies hide
   * nothing (base64 ids decode to no secret) and skip the parse.
   */
  function mayHideSecret(text: string): boolean {
    const written = unescapeJson(text);
    if (written !== text && containsSecret(written)) return true;
    if (written.includes("%") && redactPercentRuns(written) !== written) return true;
    // Only runs with both cases: a URL path or an id in one case is not base64 text.
    return someLongRun(
      written,
      // Base64 wrapped over lines (a contents response) is only whole once parsed.
      (run, end) => written[end] === "\n" || written[end] === "\r" || runHidesSecret(run),
      { mixedCaseOnly: true },
    );
  }

  function redactBody(text: string): string {
    const plain = redactText(text);
    if (text === "" || !mayHideSecret(text)) return plain;
    if (jsonDepth(text) > MAX_PARSED_DEPTH) return containsSecret(unescapeJson(plain)) ? REDACTED : redactPercentRuns(plain);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return containsSecret(unescapeJson(plain)) ? REDACTED : redactPercentRuns(plain);
    }
    const redacted = redactAny(parsed);
    return redacted === parsed ? text : JSON.stringify(redacted);
  }

  function redactUrlPart(part: string, separators: RegExp): string {
    const plain = redactText(part);
    return plain
      .split(separators)
      .map((piece) => {
        if (!piece.includes("%") && !piece.includes("+")) return piece;
        return decodesToSecret(piece) ? REDACTED : piece;
      })
      .join("");
  }

  return {
    patterns: bound,
    redactText,
    containsSecret,
    redactString,
    redactValue: <T>(value: T) => redactAny(value) as T,
    redactBody,
    redactUrlPart,
    redactPath: (path) => redactUrlPart(path, /(\/)/),
    redactQuery: (query) => redactUrlPart(query, /([&=])/),
  };
}

/** defineProperty: a `__proto__` key stays a key instead of becoming the prototype. */
const defineEntry = (out: Record<string, unknown>, key: string, value: unknown) =>
  Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });

/** Which character codes base64 runs are made of (A-Z, a-z, 0-9, + and /), with their case. */
const IN_RUN = 1;
const UPPER = 2;
const LOWER = 4;
const BASE64_CHAR = new Uint8Array(128);
for (const c of "ABCDEFGHIJKLMNOPQRSTUVWXYZ") BASE64_CHAR[c.charCodeAt(0)] = IN_RUN | UPPER;
for (const c of "abcdefghijklmnopqrstuvwxyz") BASE64_CHAR[c.charCodeAt(0)] = IN_RUN | LOWER;
for (const c of "0123456789+/") BASE64_CHAR[c.charCodeAt(0)] = IN_RUN;
/** The character's bits in BASE64_CHAR; 0 when it is not a base64 character. */
const base64Bits = (code: number) => (code < 128 ? BASE64_CHAR[code] : 0);

/** Runs shorter than this cannot hold a secret worth decoding (BASE64_RUN's `{20,}`). */
const MIN_RUN = 20;

/**
 * Whether `test` holds for one of the runs BASE64_RUN would match (20 or more base64 characters
 * and up to two `=`), given each run and the index just past it. A scan by character codes (the
 * regular expression cost ten times as much on a response body) that reads one character in
 * twenty where there is no long run: a run of 20 or more that starts at or after `i` and no later
 * than `i + 19` covers the character at `i + 19`, so when that one is not base64, none starts in
 * between and the scan moves past it. When it is, the run around it is measured from its start,
 * which is never before `i` (the character before `i` is never base64). On a 30 KB page of issues
 * this reads 2.3 times faster than looking at every character. With `mixedCaseOnly`, a run without
 * both an upper- and a lower-case letter is passed over unread by `test` (no copy of it is made):
 * a page's URLs are long runs of one case.
 */
export function someLongRun(
  text: string,
  test: (run: string, end: number) => boolean,
  { mixedCaseOnly = false }: { mixedCaseOnly?: boolean } = {},
): boolean {
  const n = text.length;
  let i = 0;
  while (i + MIN_RUN <= n) {
    const probe = i + MIN_RUN - 1;
    let bits = base64Bits(text.charCodeAt(probe));
    if (bits === 0) {
      i = probe + 1;
      continue;
    }
    let start = probe;
    while (start > i) {
      const before = base64Bits(text.charCodeAt(start - 1));
      if (before === 0) break;
      bits |= before;
      start--;
    }
    let j = probe + 1;
    while (j < n) {
      const after = base64Bits(text.charCodeAt(j));
      if (after === 0) break;
      bits |= after;
      j++;
    }
    if (j - start < MIN_RUN || (mixedCaseOnly && (bits & (UPPER | LOWER)) !== (UPPER | LOWER))) {
      i = j;
      continue;
    }
    let end = j;
    while (end < n && end - j < 2 && text.charCodeAt(end) === 61) end++;
    if (test(text.slice(start, end), end)) return true;
    i = end;
  }
  return false;
}

/** JSON's escapes (`\n`, `\/`, `\uXXXX`…) written out, to read a body's strings as they are meant. */
const ESCAPED = new Map([
  ["b", "\b"],
  ["f", "\f"],
  ["n", "\n"],
  ["r", "\r"],
  ["t", "\t"],
]);
const unescapeJson = (text: string) =>
  text.includes("\\")
    ? text.replace(/\\(?:u([0-9a-fA-F]{4})|([\s\S]))/g, (_, hex: string | undefined, c: string) =>
        hex !== undefined ? String.fromCharCode(Number.parseInt(hex, 16)) : (ESCAPED.get(c) ?? c),
      )
    : text;
