// Stripe's `*` wildcards in event types (`GET /v1/events?type=customer.*`, a webhook endpoint's
// `enabled_events`), matched without building a regular expression from what the caller sent:
// the pattern's literal pieces are found in order, each at its leftmost place, which decides a
// `*`-only glob exactly with one forward pass over the text (no backtracking, whatever the pattern).

/** Whether `text` matches `pattern`, where `*` stands for any run of characters (none included). */
export function matchesWildcard(pattern: string, text: string): boolean {
  const pieces = pattern.split("*");
  if (pieces.length === 1) return pattern === text;
  const first = pieces[0];
  const last = pieces[pieces.length - 1];
  if (first.length + last.length > text.length || !text.startsWith(first) || !text.endsWith(last)) return false;
  let at = first.length;
  const end = text.length - last.length;
  for (const piece of pieces.slice(1, -1)) {
    if (!piece) continue;
    const found = text.indexOf(piece, at);
    if (found < 0 || found + piece.length > end) return false;
    at = found + piece.length;
  }
  return true;
}
