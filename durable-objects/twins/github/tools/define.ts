// GitHub's vocabulary for the few hand-written tools (those that are not a 1:1 front of one
// declared route): the kit's tool builder, and the argument shapes GitHub's REST names use.
import { seg } from "../../kit/tools";
import { repoParams } from "../declare";
import { trimSlashes } from "../input";

export { tool, seg, query } from "../../kit/tools";

/** A file path keeps its slashes; each piece is escaped on its own. */
export const filePath = (path: string) => trimSlashes(path).split("/").map(seg).join("/");
export const repoPath = (a: { owner: string; repo: string }, rest = "") => `/repos/${seg(a.owner)}/${seg(a.repo)}${rest}`;

/** UTF-8 text as base64, the encoding GitHub's contents API requires. */
export function base64Utf8(text: string): string {
  let binary = "";
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** `owner` and `repo`, described once in declare.ts for the routes and these tools alike. */
export const repoArgs = repoParams;
