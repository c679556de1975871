// A zod schema with zod's own compiled fast path, in a runtime that forbids compiling code from
// strings. zod's compiler (compileFn) writes one function for a schema and builds it with
// `new Function(…constants, code)`; the Workers runtime refuses that, so zod falls back to walking
// the schema for every value (for a 10,000-issue seed, most of the time spent validating it).
// The function zod would write is generated ahead of time into a module (see
// scripts/generate-seed-parsers.mjs); here zod's compiler runs again with `Function` standing for
// a lookup that hands back the generated factory when, and only when, the code zod asks for is the
// very code that was generated (same hash). zod supplies the constants and keeps the fallback: a
// value the fast path refuses is parsed again by the schema itself, which names every issue.
import { compileFn, withParser } from "zod/v4/core";
import type { z } from "zod";
import { migrationHash } from "../../sql";

/** What the generator writes: zod's generated code as a factory, and the hash of its source. */
export interface GeneratedParser {
  /** migrationHash of what zod hands `Function`: the constants' names, then the factory's body. */
  hash: string;
  /** Takes zod's constants (INVALID, c0, c1…) and returns the parser. */
  factory: (...constants: unknown[]) => (input: unknown) => unknown;
}

/**
 * The schema with the generated fast path installed, or the schema itself when the generated code
 * is not the code zod writes for it today (a schema or zod changed without regenerating: slower,
 * never wrong). The runtime's own `Function` is back in place before this returns.
 */
export function withGeneratedParser<T extends z.ZodType>(schema: T, generated: GeneratedParser): T {
  const original = globalThis.Function;
  let parser: ReturnType<typeof compileFn<T>> | undefined;
  // A plain function, so zod's `new Function(...)` gets the factory back as the constructed value.
  function lookup(...args: string[]) {
    if (migrationHash(args.join("\n")) !== generated.hash) throw new Error("the generated parser is stale");
    return generated.factory;
  }
  try {
    Reflect.set(globalThis, "Function", lookup);
    parser = compileFn(schema);
  } catch {
    parser = undefined;
  } finally {
    Reflect.set(globalThis, "Function", original);
  }
  return parser ? withParser(schema, parser) : schema;
}

/** What zod hands `Function` for a schema (the constants' names, then the body): what the generator writes. */
export function generatedSource(schema: z.ZodType): { names: string[]; body: string; hash: string } {
  const original = globalThis.Function;
  let source: { names: string[]; body: string; hash: string } = { names: [], body: "", hash: "" };
  function capture(...args: string[]) {
    source = { names: args.slice(0, -1), body: args.at(-1) ?? "", hash: migrationHash(args.join("\n")) };
    return () => () => undefined;
  }
  try {
    Reflect.set(globalThis, "Function", capture);
    compileFn(schema);
  } finally {
    Reflect.set(globalThis, "Function", original);
  }
  return source;
}
