// Node only (Ajv compiles with `new Function`, which workerd forbids): a twin's answer checked
// against the schema its vendor publishes for that operation and status. A missing required
// field, an extra field or a mistyped one is a difference; differences the twin declares in its
// fidelity.ts are accepted with their reasons, any other fails the conformance test.
import { Ajv2019, type ErrorObject, type ValidateFunction } from "ajv/dist/2019.js";
import type { Divergence } from "./types";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
const isObject = (v: Json | undefined): v is { [key: string]: Json } => typeof v === "object" && v !== null && !Array.isArray(v);

/** One way an answer differs from the description. */
export interface Difference {
  operation: string;
  status: number;
  path: string;
  kind: Divergence["kind"];
  message: string;
}

/** A vendor operation of a concrete call, and the schema the vendor publishes for its status. */
export interface ConformanceTarget {
  operation: string;
  validate: ValidateFunction | null;
  /** Each branch of a union the answer fit none of, tried alone (see closestBranches). */
  checkBranch?: BranchCheck;
}

/**
 * OpenAPI 3.0 to JSON Schema, strict about extras: `nullable` becomes a `null` type, and every
 * object that lists its properties gets `unevaluatedProperties: false` (the vendor's description
 * lists every field it sends, so a field it does not list is one the twin invented).
 */
export function toStrictSchema(node: Json, strictExtras: boolean, inAllOf = false): Json {
  if (Array.isArray(node)) return node.map((n) => toStrictSchema(n, strictExtras));
  if (!isObject(node)) return node;
  const out: { [key: string]: Json } = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "nullable" || key === "example" || key === "examples" || key === "discriminator" || key.startsWith("x-")) continue;
    // `properties` maps names to schemas: convert the schemas, never the names.
    if (key === "properties" && isObject(value))
      out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toStrictSchema(v, strictExtras)]));
    else if (key === "allOf" && Array.isArray(value)) out[key] = value.map((v) => toStrictSchema(v, strictExtras, true));
    else out[key] = toStrictSchema(value, strictExtras);
  }
  // An object listing its fields refuses others, at the level that sees all of them: a member of
  // an `allOf` sees only its own fields, so the `allOf` itself refuses instead.
  if (strictExtras && !inAllOf && (isObject(out.properties) || Array.isArray(out.allOf)) && out.additionalProperties === undefined)
    out.unevaluatedProperties = false;
  if (!strictExtras && out.additionalProperties === false) delete out.additionalProperties;
  if (node.nullable !== true) return out;
  if (typeof out.type === "string") {
    out.type = [out.type, "null"];
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
    return out;
  }
  return { anyOf: [out, { type: "null" }] };
}

/** Validates a value against one branch of a union (a schema such as `{ $ref }`), for its errors. */
export type BranchCheck = (branch: Json, value: unknown) => readonly ErrorObject[];

/**
 * Ajv reports every branch's errors when an answer fits no branch of a `oneOf`/`anyOf` (a timeline
 * event against each of its twenty event shapes), with schema paths that do not say which branch
 * each came from. The answer meant one of them: each branch is validated again on its own
 * (`verbose` errors carry the union's branches and the value), and only the branch with the fewest
 * errors is kept, so the differences name what that shape lacks, not what all the others do.
 */
export function closestBranches(errors: readonly ErrorObject[], check: BranchCheck): ErrorObject[] {
  let kept = [...errors];
  // Outermost unions first: narrowing one replaces every error beneath it, inner unions included.
  const unions = errors
    .filter((e) => (e.keyword === "oneOf" || e.keyword === "anyOf") && Array.isArray(e.schema))
    .sort((a, b) => a.instancePath.length - b.instancePath.length);
  for (const union of unions) {
    if (!kept.includes(union)) continue;
    const branches = union.schema as Json[];
    const tries = branches.map((branch) => check(branch, union.data));
    if (tries.some((t) => t.length === 0)) continue;
    const closest = tries.reduce((a, b) => (b.length < a.length ? b : a));
    const beneath = (e: ErrorObject) => e.instancePath === union.instancePath || e.instancePath.startsWith(`${union.instancePath}/`);
    kept = [...kept.filter((e) => !beneath(e)), ...closest.map((e) => ({ ...e, instancePath: `${union.instancePath}${e.instancePath}` }))];
  }
  return kept;
}

/** Ajv's errors as differences, with JSON paths whose array indexes are `*`. */
export function differencesOf(
  operation: string,
  status: number,
  errors: readonly ErrorObject[],
  check: BranchCheck = () => [],
): Difference[] {
  const out = new Map<string, Difference>();
  for (const e of closestBranches(errors, check)) {
    const base = e.instancePath.replace(/\/\d+(?=\/|$)/g, "/*") || "";
    const params = e.params as Record<string, unknown>;
    let kind: Divergence["kind"] = "type";
    let p = base || "/";
    if (e.keyword === "required") {
      kind = "missing";
      p = `${base}/${String(params.missingProperty)}`;
    } else if (e.keyword === "unevaluatedProperties" || e.keyword === "additionalProperties") {
      kind = "extra";
      p = `${base}/${String(params.unevaluatedProperty ?? params.additionalProperty)}`;
    } else if (e.keyword === "anyOf" || e.keyword === "oneOf") continue; // its branches' errors say what differs
    const key = `${kind} ${p}`;
    if (!out.has(key)) out.set(key, { operation, status, path: p, kind, message: e.message ?? e.keyword });
  }
  return [...out.values()];
}

/** Whether a declared divergence covers a difference: same operation and kind, path equal segment by segment (`*` any). */
export function declared(diff: Difference, divergences: readonly Divergence[]): Divergence | undefined {
  const segs = diff.path.split("/");
  return divergences.find((d) => {
    if ((d.operation !== diff.operation && d.operation !== "*") || (d.kind !== diff.kind && d.kind !== "shape")) return false;
    if (d.status !== undefined && d.status !== diff.status) return false;
    const want = d.path.split("/");
    if (d.kind === "shape") return want.every((w, i) => w === "*" || w === segs[i]);
    return want.length === segs.length && want.every((w, i) => w === "*" || w === segs[i]);
  });
}

/**
 * A vendor's response schemas, compiled on first use. `shared` is the part of the description
 * its schemas refer to (`{ components: … }` or `{ definitions: … }`), registered under the absolute
 * `id` so that every `"#/<refRoot>/…"` reference resolves; `strictExtras` refuses fields the
 * description does not list.
 */
export function responseSchemas(id: string, refRoot: string, shared: { [key: string]: Json }, strictExtras: boolean) {
  // `verbose`: a union's error carries its branches and the value, so closestBranches can try each.
  const ajv = new Ajv2019({ strict: false, allErrors: true, validateFormats: false, verbose: true });
  ajv.addSchema({ $id: id, ...(toStrictSchema(shared, strictExtras) as { [key: string]: Json }) });
  const compiled = new Map<string, ValidateFunction | null>();
  const absolute = (schema: Json) =>
    JSON.parse(JSON.stringify(toStrictSchema(schema, strictExtras)).replaceAll(`"#/${refRoot}/`, `"${id}#/${refRoot}/`));
  const branches = new Map<string, ValidateFunction>();
  const checkBranch: BranchCheck = (branch, value) => {
    const key = JSON.stringify(branch);
    let validate = branches.get(key);
    if (!validate) {
      validate = ajv.compile(absolute(branch));
      branches.set(key, validate);
    }
    return validate(value) ? [] : (validate.errors ?? []);
  };
  const schemaFor = (key: string, schema: Json | undefined): ValidateFunction | null => {
    if (!compiled.has(key)) {
      const rewritten = schema ? absolute(schema) : null;
      compiled.set(key, rewritten ? ajv.compile({ $id: `${id}/${encodeURIComponent(key)}`, ...rewritten }) : null);
    }
    return compiled.get(key) ?? null;
  };
  return Object.assign(schemaFor, { checkBranch });
}

/** An OpenAPI response object, or a reference to one. */
export interface ResponseObject {
  $ref?: string;
  content?: Record<string, { schema?: Json }>;
  schema?: Json;
}

export interface OpenApiOperation {
  operationId?: string;
  responses?: Record<string, ResponseObject>;
}

export type { Json };
