// Whether a stored body can go into a JSONL line as it is, instead of being parsed and
// re-serialized: one pass over its characters, allocating nothing. "Yes" means the text is JSON
// that parses to exactly the value JSON.parse(JSON.stringify(JSON.parse(text))) gives, and holds
// no line break; anything unusual answers "no" and takes the slow, exact path.

/** Deeper than this, or anything JSON.stringify would write differently in value, is "no". */
const MAX_DEPTH = 200;

export function isVerbatimJson(text: string): boolean {
  const n = text.length;
  let i = 0;

  /** Spaces and tabs only: a line break would split the JSONL line. */
  const skipSpace = () => {
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 0x20 || c === 0x09) i++;
      else return c !== 0x0a && c !== 0x0d;
    }
    return true;
  };

  const isHex = (c: number) => (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
  const isDigit = (c: number) => c >= 0x30 && c <= 0x39;

  const string = (): boolean => {
    i++; // opening quote
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return true;
      }
      if (c < 0x20) return false;
      if (c === 0x5c) {
        const e = text.charCodeAt(i + 1);
        if (e === 0x75) {
          if (
            !(
              isHex(text.charCodeAt(i + 2)) &&
              isHex(text.charCodeAt(i + 3)) &&
              isHex(text.charCodeAt(i + 4)) &&
              isHex(text.charCodeAt(i + 5))
            )
          )
            return false;
          i += 6;
        } else if (e === 0x22 || e === 0x5c || e === 0x2f || e === 0x62 || e === 0x66 || e === 0x6e || e === 0x72 || e === 0x74) {
          i += 2;
        } else {
          return false;
        }
        continue;
      }
      if (c >= 0xd800 && c <= 0xdfff) {
        // A raw lone surrogate would not survive UTF-8; a proper pair does.
        const next = text.charCodeAt(i + 1);
        if (c > 0xdbff || !(next >= 0xdc00 && next <= 0xdfff)) return false;
        i += 2;
        continue;
      }
      i++;
    }
    return false;
  };

  const number = (): boolean => {
    const start = i;
    if (text.charCodeAt(i) === 0x2d) i++;
    if (text.charCodeAt(i) === 0x30) i++;
    else if (isDigit(text.charCodeAt(i))) while (isDigit(text.charCodeAt(i))) i++;
    else return false;
    if (text.charCodeAt(i) === 0x2e) {
      i++;
      if (!isDigit(text.charCodeAt(i))) return false;
      while (isDigit(text.charCodeAt(i))) i++;
    }
    // An exponent can overflow to Infinity (re-serialized as null), and -0 re-serializes as 0.
    const c = text.charCodeAt(i);
    if (c === 0x65 || c === 0x45) return false;
    return !/^-0(?:\.0*)?$/.test(text.slice(start, i));
  };

  const literal = (word: string): boolean => {
    if (!text.startsWith(word, i)) return false;
    i += word.length;
    return true;
  };

  const value = (depth: number): boolean => {
    if (!skipSpace() || i >= n) return false;
    const c = text.charCodeAt(i);
    if (c === 0x7b || c === 0x5b) {
      if (depth >= MAX_DEPTH) return false;
      const close = c === 0x7b ? 0x7d : 0x5d;
      i++;
      if (!skipSpace()) return false;
      if (text.charCodeAt(i) === close) {
        i++;
        return true;
      }
      for (;;) {
        if (c === 0x7b) {
          if (!skipSpace() || text.charCodeAt(i) !== 0x22 || !string() || !skipSpace() || text.charCodeAt(i) !== 0x3a) return false;
          i++;
        }
        if (!value(depth + 1) || !skipSpace()) return false;
        const next = text.charCodeAt(i);
        i++;
        if (next === close) return true;
        if (next !== 0x2c) return false;
      }
    }
    if (c === 0x22) return string();
    if (c === 0x74) return literal("true");
    if (c === 0x66) return literal("false");
    if (c === 0x6e) return literal("null");
    return number();
  };

  if (!value(0)) return false;
  return skipSpace() && i === n;
}
