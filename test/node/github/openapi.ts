// GitHub's own OpenAPI description (the committed subset) as Ajv validators. Ajv compiles code
// with `new Function`, which workerd forbids, so shapes are checked here in Node.
import { readFileSync } from "node:fs";
import path from "node:path";
import { Ajv, type ErrorObject } from "ajv";

const SPEC = path.resolve(import.meta.dirname, "../../fixtures/service-specs/github.subset.json");

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const isObject = (v: Json): v is { [key: string]: Json } => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * OpenAPI 3.0's `nullable: true` is not JSON Schema: Ajv refuses it without `type`. It becomes a
 * `null` added to `type` (and `enum`), or `anyOf: [schema, {type: "null"}]` for composed schemas.
 */
export function convertNullable(node: Json): Json {
  if (Array.isArray(node)) return node.map(convertNullable);
  if (!isObject(node)) return node;
  const out: { [key: string]: Json } = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "nullable" || key === "example" || key.startsWith("x-")) continue;
    out[key] = convertNullable(value);
  }
  if (node.nullable !== true) return out;
  if (typeof out.type === "string") {
    out.type = [out.type, "null"];
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
    return out;
  }
  return { anyOf: [out, { type: "null" }] };
}

export interface ShapeCheck {
  valid: boolean;
  errors: string[];
}

export function githubSchemas() {
  const spec = JSON.parse(readFileSync(SPEC, "utf8")) as { components: { schemas: Json } };
  // Formats (uri, date-time) are not checked: the twin's URLs point at the sandbox, which is the point.
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
  ajv.addSchema({ $id: "github", components: { schemas: convertNullable(spec.components.schemas) } });
  return (name: string, value: unknown): ShapeCheck => {
    const validate = ajv.getSchema(`github#/components/schemas/${name}`);
    if (!validate) throw new Error(`no schema ${name} in the GitHub subset`);
    const valid = validate(value) === true;
    const errors = (validate.errors ?? []).map((e: ErrorObject) => `${e.instancePath || "/"} ${e.message ?? ""}`);
    return { valid, errors };
  };
}
