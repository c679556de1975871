// GitHub's tool vocabulary: the kit's tool builder, and the argument shapes GitHub's REST names
// use (which models already know).
import { z } from "zod";
import { seg } from "../../kit/tools";
import { trimSlashes } from "../input";

export { tool, seg, query, bodyOf, type ToolRequest } from "../../kit/tools";

/** A file path keeps its slashes; each piece is escaped on its own. */
export const filePath = (path: string) => trimSlashes(path).split("/").map(seg).join("/");
export const repoPath = (a: { owner: string; repo: string }, rest = "") => `/repos/${seg(a.owner)}/${seg(a.repo)}${rest}`;

/** UTF-8 text as base64, the encoding GitHub's contents API requires. */
export function base64Utf8(text: string): string {
  let binary = "";
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

export const owner = z.string().min(1).describe('Login of the account that owns the repository, e.g. "acme"');
export const repo = z.string().min(1).describe('Repository name without its owner, e.g. "api"');
export const repoArgs = { owner, repo };
export const issueNumber = z.number().int().positive().describe("The issue's number, as shown after # (pull requests share the numbering)");
export const pullNumber = z.number().int().positive().describe("The pull request's number, as shown after #");
export const perPage = z.number().int().min(1).max(100).optional().describe("Results per page, 1 to 100 (default 30)");
export const page = z.number().int().min(1).optional().describe("Page of results, starting at 1");
export const pageArgs = { per_page: perPage, page };
export const direction = z.enum(["asc", "desc"]).optional().describe("Sort direction");
export const since = z.string().optional().describe("Only items updated at or after this ISO 8601 time, e.g. 2026-01-31T00:00:00Z");
export const logins = (what: string) => z.array(z.string().min(1)).min(1).describe(what);
