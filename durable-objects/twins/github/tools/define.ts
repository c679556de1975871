// How a GitHub tool is written: its arguments in GitHub's own REST names (which models already
// know), checked by a strict zod schema, and a pure mapping onto the one REST call it stands for.
import { z } from "zod";
import type { TwinTool } from "../../types";

export type ToolRequest = ReturnType<TwinTool["toRequest"]>;

/** Builds a tool whose mapping sees its arguments parsed and typed by its own schema. */
export function tool<Shape extends z.ZodRawShape>(spec: {
  name: string;
  description: string;
  input: Shape;
  readOnly?: boolean;
  destructive?: boolean;
  toRequest(args: z.infer<z.ZodObject<Shape>>): ToolRequest;
}): TwinTool {
  // Strict: a misspelt optional argument is refused, never silently dropped.
  const input = z.strictObject(spec.input);
  return {
    name: spec.name,
    description: spec.description,
    input,
    readOnly: spec.readOnly ?? false,
    destructive: spec.destructive ?? false,
    toRequest: (args) => spec.toRequest(input.parse(args)),
  };
}

/** One path segment, escaped: label and branch names may hold spaces and slashes. */
export const seg = (value: string | number) => encodeURIComponent(String(value));
/** A file path keeps its slashes; each piece is escaped on its own. */
export const filePath = (path: string) => path.replace(/^\/+|\/+$/g, "").split("/").map(seg).join("/");
export const repoPath = (a: { owner: string; repo: string }, rest = "") => `/repos/${seg(a.owner)}/${seg(a.repo)}${rest}`;

/** Query values as GitHub reads them; absent arguments are left out rather than sent empty. */
export function query(values: Record<string, string | number | boolean | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(values)) if (value !== undefined) out[key] = String(value);
  return out;
}

/** The JSON body without the arguments that went into the path. */
export function bodyOf<T extends object, K extends keyof T>(args: T, pathKeys: readonly K[]): Omit<T, K> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(args)) if (!pathKeys.includes(key as K) && value !== undefined) out[key] = value;
  return out as Omit<T, K>;
}

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
