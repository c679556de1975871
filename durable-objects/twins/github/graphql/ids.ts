// GitHub's global node ids, the same the REST answers carry in `node_id` (serialize.ts):
// base64 of `0<kind length>:<kind><database id>`. Git objects, which have no database id, carry
// their repository's id and their sha: `0<n>:<kind><repository id>:<sha>`, as GitHub's legacy ids
// for blobs and trees do.
import { nodeId } from "../serialize";

export { nodeId };

export const gitObjectId = (kind: "Tree" | "Blob", repoId: number, sha: string) =>
  btoa(`0${kind.length}:${kind}${repoId}:${sha}`).replace(/=+$/, "");

export type DecodedId = { kind: string; id: number; sha?: string };

/** The kind and database id a global id names; undefined for anything else (never throws). */
export function decodeId(id: string): DecodedId | undefined {
  if (id.length > 200 || !/^[A-Za-z0-9+/]+=*$/.test(id)) return undefined;
  let text: string;
  try {
    text = atob(id.replace(/=+$/, "").padEnd(Math.ceil(id.replace(/=+$/, "").length / 4) * 4, "="));
  } catch {
    return undefined;
  }
  const m = /^0(\d{1,2}):([A-Za-z]+?)(\d{1,15})(?::([0-9a-f]{40}))?$/.exec(text);
  if (!m) return undefined;
  const kind = m[2];
  if (kind.length !== Number(m[1])) return undefined;
  return { kind, id: Number(m[3]), ...(m[4] ? { sha: m[4] } : {}) };
}
