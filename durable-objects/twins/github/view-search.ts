// Search result shapes beyond issues: code, commit, label and user items, and the text match
// metadata GitHub adds when asked for it (docs.github.com › REST › Search › Text match metadata).
import type { RepoRow } from "./repos";
import type { View } from "./serialize";
import type { CodeHit } from "./store/search-code";
import type { LabelRow } from "./store/rows";
import { labelObject } from "./view-issues";

/** How much of a text around a match GitHub's fragment shows, at most. */
const FRAGMENT_CHARS = 300;

export interface TextMatch {
  object_url: string;
  object_type: string;
  property: string;
  fragment: string;
  matches: { text: string; indices: [number, number] }[];
}

/**
 * The text match of `terms` in one property: a fragment from the start of the line of the first
 * match, and every match of any term inside it, with its character offsets in the fragment.
 * Undefined when no term occurs. Matching is literal and case-insensitive, as the search's is.
 */
export function textMatch(text: string, terms: readonly string[], where: Omit<TextMatch, "fragment" | "matches">): TextMatch | undefined {
  const lower = text.toLowerCase();
  const wanted = terms.map((t) => t.toLowerCase()).filter(Boolean);
  const firsts = wanted.map((t) => lower.indexOf(t)).filter((i) => i >= 0);
  if (!firsts.length) return undefined;
  const first = Math.min(...firsts);
  const start = lower.lastIndexOf("\n", first) + 1;
  const fragment = text.slice(start, Math.max(start + FRAGMENT_CHARS, first + Math.max(...wanted.map((t) => t.length))));
  const fragmentLower = fragment.toLowerCase();
  const matches: TextMatch["matches"] = [];
  for (const term of new Set(wanted)) {
    for (let at = fragmentLower.indexOf(term); at >= 0 && matches.length < 100; at = fragmentLower.indexOf(term, at + term.length))
      matches.push({ text: fragment.slice(at, at + term.length), indices: [at, at + term.length] });
  }
  matches.sort((a, b) => a.indices[0] - b.indices[0]);
  return { ...where, fragment, matches };
}

/** Text matches over several properties of one object, in the order given. */
export function textMatches(
  terms: readonly string[],
  objectUrl: string,
  objectType: string,
  properties: [string, string | null][],
): TextMatch[] {
  return properties.flatMap(([property, text]) => {
    const m = text === null ? undefined : textMatch(text, terms, { object_url: objectUrl, object_type: objectType, property });
    return m ? [m] : [];
  });
}

const encodePath = (path: string) => path.split("/").map(encodeURIComponent).join("/");

/** A code search item: the file at the commit the default branch stood at, every URL one the twin serves. */
export function codeItem(v: View, r: RepoRow, hit: CodeHit) {
  const name = hit.path.split("/").pop() ?? hit.path;
  return {
    name,
    path: hit.path,
    sha: hit.blob_sha,
    url: v.repoApi(r, `/contents/${encodePath(hit.path)}?ref=${hit.head_sha}`),
    git_url: v.repoApi(r, `/git/blobs/${hit.blob_sha}`),
    html_url: v.repoHtml(r, `/blob/${hit.head_sha}/${encodePath(hit.path)}`),
    repository: v.repository(r),
    score: 1,
  };
}

/** A label search item (`label-search-result-item`): the label as the labels API shows it, scored. */
export const labelItem = (v: View, r: RepoRow, l: LabelRow) => ({ ...labelObject(v, r, l), score: 1 });
