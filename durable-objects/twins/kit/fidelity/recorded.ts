// A twin's answer compared with one its vendor itself gave, as a recording of real traffic has
// it: the status, the headers clients read and the body's shape (keys and JSON types,
// recursively; an array by its first item). Values are the world's, not compared.

export interface RecordedDifference {
  scenario: string;
  /** `GET /repos/{owner}/{repo}` style, the fixture's own path with the query left off. */
  request: string;
  path: string;
  kind: "status" | "header" | "missing" | "extra" | "type";
  detail: string;
}

const kindOf = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v);

/** Where `actual` differs in shape from `recorded`; a null on either side matches any type (nullable fields). */
export function shapeDifferences(
  recorded: unknown,
  actual: unknown,
  at = "",
): { path: string; kind: "missing" | "extra" | "type"; detail: string }[] {
  const a = kindOf(recorded);
  const b = kindOf(actual);
  if (a === "null" || b === "null") return [];
  if (a !== b) return [{ path: at || "/", kind: "type", detail: `${b} where the vendor sent ${a}` }];
  if (a === "array") {
    const r = recorded as unknown[];
    const t = actual as unknown[];
    return r.length && t.length ? shapeDifferences(r[0], t[0], `${at}/*`) : [];
  }
  if (a !== "object") return [];
  const r = recorded as Record<string, unknown>;
  const t = actual as Record<string, unknown>;
  const out: { path: string; kind: "missing" | "extra" | "type"; detail: string }[] = [];
  for (const k of Object.keys(r))
    if (!(k in t)) out.push({ path: `${at}/${k}`, kind: "missing", detail: "the vendor sends it" });
    else out.push(...shapeDifferences(r[k], t[k], `${at}/${k}`));
  for (const k of Object.keys(t)) if (!(k in r)) out.push({ path: `${at}/${k}`, kind: "extra", detail: "the vendor does not send it" });
  return out;
}
