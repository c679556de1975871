// How deeply a JSON text nests, read without parsing it: the platform keeps texts past its depth
// as text, and a twin refuses input nested past what its parsers take.

/**
 * How deeply a JSON text nests, counted without parsing it (a parser or a structured clone would
 * recurse once per level). Brackets inside strings do not count.
 */
export function jsonDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) max = Math.max(max, ++depth);
    else if (c === 93 || c === 125) depth--;
  }
  return max;
}
