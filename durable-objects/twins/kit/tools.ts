// How a twin's MCP tool is written: arguments in the vendor's own names (which models already
// know), checked by a strict zod schema, and a pure mapping onto the one call it stands for. The
// call then runs through the same dispatch and lands on the same tape as the REST form.
import { z } from "zod";
import type { TwinTool } from "../types";

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

/** A read-only tool that lists: GET on a path, its arguments sent as the query. */
export function listTool<Shape extends z.ZodRawShape>(spec: {
  name: string;
  description: string;
  input: Shape;
  path(args: z.infer<z.ZodObject<Shape>>): string;
  /** Arguments that went into the path, left out of the query. */
  pathKeys?: readonly string[];
}): TwinTool {
  return tool({
    name: spec.name,
    description: spec.description,
    input: spec.input,
    readOnly: true,
    toRequest: (args) => {
      const rest: Record<string, string | number | boolean | undefined> = {};
      for (const [key, value] of Object.entries(args as Record<string, unknown>)) {
        if (spec.pathKeys?.includes(key)) continue;
        if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") rest[key] = value;
      }
      return { method: "GET", path: spec.path(args), query: query(rest) };
    },
  });
}

/**
 * One path segment, escaped: names may hold spaces and slashes. A lone surrogate (which
 * encodeURIComponent refuses with a URIError) becomes U+FFFD, as a UTF-8 client would send it.
 */
export const seg = (value: string | number) => encodeURIComponent(String(value).toWellFormed());

/** Query values as strings; absent arguments are left out rather than sent empty. */
export function query(values: Record<string, string | number | boolean | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(values)) if (value !== undefined) out[key] = String(value);
  return out;
}

/** The body without the arguments that went into the path. */
export function bodyOf<T extends object, K extends keyof T>(args: T, pathKeys: readonly K[]): Omit<T, K> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(args)) if (!pathKeys.some((k) => k === key) && value !== undefined) out[key] = value;
  // Every key of T except K was copied over, so the object is that shape.
  return out as Omit<T, K>;
}
