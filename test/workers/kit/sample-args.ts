// Arguments that satisfy a tool's zod schema, built from the schema itself, so the contract can
// ask every tool of every twin which route it stands for without a hand-written example.
import type { z } from "zod";

type Def = { type: string; [key: string]: unknown };
const defOf = (schema: unknown): Def => (schema as { _zod: { def: Def } })._zod.def;

/** A value of the schema's type: required fields filled, optional ones left out. */
export function sampleValue(schema: z.ZodType): unknown {
  const def = defOf(schema);
  switch (def.type) {
    case "string": {
      const checks = (def.checks as { _zod: { def: { check: string; format?: string; minimum?: number } } }[] | undefined) ?? [];
      const format = checks.map((c) => c._zod.def.format).find(Boolean);
      if (format === "email") return "contract@example.com";
      if (format === "url") return "https://example.com/contract";
      if (format === "datetime") return "2026-01-01T00:00:00Z";
      return "contract";
    }
    case "number":
    case "int":
      return 1;
    case "boolean":
      return true;
    case "literal":
      return (def.values as unknown[])[0];
    case "enum":
      return Object.values(def.entries as Record<string, unknown>)[0];
    case "array":
      return [sampleValue(def.element as z.ZodType)];
    case "object":
      return sampleArgs(schema as z.ZodObject<z.ZodRawShape>);
    case "record":
      return {};
    case "optional":
    case "nullable":
    case "default":
    case "readonly":
    case "nonoptional":
    case "catch":
    case "prefault":
      return sampleValue(def.innerType as z.ZodType);
    case "union":
      return sampleValue((def.options as z.ZodType[])[0]);
    case "pipe":
      return sampleValue(def.in as z.ZodType);
    case "lazy":
      return sampleValue((def.getter as () => z.ZodType)());
    default:
      return "contract";
  }
}

export function sampleArgs(schema: z.ZodObject<z.ZodRawShape>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(schema.shape)) {
    if (defOf(field).type === "optional") continue;
    out[key] = sampleValue(field as z.ZodType);
  }
  return out;
}
