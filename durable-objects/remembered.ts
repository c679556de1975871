// A pure function of a text, with its answers kept: for work that repeats on the same few texts
// call after call (a key's redaction, a statement's rewrite).

/** `compute` with its answers remembered, up to 4,096 of them (then it starts over). */
export function remembered<T>(compute: (text: string) => T): (text: string) => T {
  const known = new Map<string, T>();
  return (text) => {
    if (known.has(text)) return known.get(text) as T;
    const answer = compute(text);
    if (known.size >= 4096) known.clear();
    known.set(text, answer);
    return answer;
  };
}
