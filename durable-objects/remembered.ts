// A pure function of a text, with its answers kept: for work that repeats on the same few texts
// call after call (a key's redaction, a statement's rewrite).

/** `compute` with its answers remembered, up to 4,096 of them (then it starts over). */
export function remembered<T>(compute: (text: string) => T): (text: string) => T {
  const known = new Map<string, T>();
  return (text) => {
    // One lookup on a hit: hashing a fresh slice of a body is most of what a hit costs.
    const hit = known.get(text);
    if (hit !== undefined || known.has(text)) return hit as T;
    const answer = compute(text);
    if (known.size >= 4096) known.clear();
    known.set(text, answer);
    return answer;
  };
}
