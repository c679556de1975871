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
  /** The description's example answer for this operation and status, where it gives one (see exampleDifferences). */
  example?: Json;
}

const kindOf = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v);

/** Fields that say which case an example shows: a refusal's error code, an item's type, a warning. */
const CASE_FIELDS = ["error", "type", "warning"] as const;

/**
 * An answer against the example answer a vendor's description records (some descriptions record
 * real answers, ids and all): every top-level field the example has must be there, of the same JSON type. Only
 * the top level: what lies deeper depends on the request (the example's message had attachments).
 * An example shows one case (a refusal's code, a file's reactions, a join's already_in_channel
 * warning): an answer of another case is not compared. A null in the example says nothing of the type.
 */
export function exampleDifferences(operation: string, status: number, example: Json | undefined, answer: unknown): Difference[] {
  if (!isObject(example) || typeof answer !== "object" || answer === null || Array.isArray(answer)) return [];
  const fields = answer as Record<string, unknown>;
  if (CASE_FIELDS.some((f) => typeof example[f] === "string" && fields[f] !== example[f])) return [];
  const out: Difference[] = [];
  for (const [key, value] of Object.entries(example)) {
    const got = fields[key];
    if (got === undefined)
      out.push({ operation, status, path: `/${key}`, kind: "missing", message: "in the description's example answer" });
    else if (value !== null && got !== null && kindOf(got) !== kindOf(value))
      out.push({ operation, status, path: `/${key}`, kind: "type", message: `the description's example answer has ${kindOf(value)}` });
  }
  return out;
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
    // A branch of another type is not what the answer meant (an expanded object is not its id,
    // however many of the object's fields differ): keep the branches of the answer's own type.
    const ofItsType = tries.filter((t) => !t.some((e) => e.instancePath === "" && e.keyword === "type"));
    // The chosen branch may hold unions of its own (an expanded charge's nullable `outcome`): narrow those too.
    const closest = closestBranches(
      (ofItsType.length ? ofItsType : tries).reduce((a, b) => (b.length < a.length ? b : a)),
      check,
    );
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

/** Whether path segments match a pattern's: `*` is any one segment, `**` any number of them (none included). */
function segmentsMatch(want: readonly string[], segs: readonly string[], prefixOnly: boolean): boolean {
  const [w, ...restWant] = want;
  if (w === undefined) return prefixOnly || segs.length === 0;
  if (w === "**") return segs.some((_, i) => segmentsMatch(restWant, segs.slice(i), prefixOnly)) || segmentsMatch(restWant, [], prefixOnly);
  const [s, ...restSegs] = segs;
  return s !== undefined && (w === "*" || w === s) && segmentsMatch(restWant, restSegs, prefixOnly);
}

/** Whether a declared divergence covers a difference: same operation and kind, path equal segment by segment (`*` any one, `**` any run). */
export function declared(diff: Difference, divergences: readonly Divergence[]): Divergence | undefined {
  const segs = diff.path.split("/");
  return divergences.find((d) => {
    if ((d.operation !== diff.operation && d.operation !== "*") || (d.kind !== diff.kind && d.kind !== "shape")) return false;
    if (d.status !== undefined && d.status !== diff.status) return false;
    // A shape divergence covers everything beneath its path.
    return segmentsMatch(d.path.split("/"), segs, d.kind === "shape");
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

/** An OpenAPI 3 description: its operations by path and method, and the components they refer to. */
export interface OpenApi3 {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { [key: string]: Json } & { responses?: Record<string, ResponseObject> };
}

/** A path template as a regular expression over concrete paths; `greedy` parameters take slashes (a file path). */
export function templateRegex(template: string, greedy: readonly string[] = []): RegExp {
  const parts = template.split(/(\{[^}]+\})/).map((part) => {
    if (!part.startsWith("{")) return part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    return greedy.includes(part.slice(1, -1)) ? "(.+)" : "([^/]+)";
  });
  return new RegExp(`^${parts.join("")}/?$`);
}

export interface OpenApiTargetOptions {
  /** The absolute id the description's schemas are registered under. */
  id: string;
  /** What a matched operation is called in the twin's fidelity table and divergences. */
  nameOf(method: string, template: string, op: OpenApiOperation): string | undefined;
  /** Path parameters that may hold slashes. */
  greedy?: readonly string[];
  /** Media types whose schema describes a JSON answer, in order of preference. */
  mediaTypes?: readonly string[];
}

/**
 * The schema an OpenAPI 3 description publishes for a concrete call's operation and status. A call
 * is matched to the operation whose method and path template fit it, the template with the most
 * literal segments first; a status the operation does not list takes its `default` response (the
 * error shape, in some descriptions).
 */
export function openApiTarget(spec: OpenApi3, options: OpenApiTargetOptions) {
  const responseOf = (r: ResponseObject | undefined): ResponseObject | undefined => {
    const ref = r?.$ref?.replace("#/components/responses/", "");
    return ref ? spec.components.responses?.[ref] : r;
  };
  const schemas = responseSchemas(options.id, "components", { components: spec.components as Json }, true);
  const routes: { method: string; re: RegExp; literal: number; name: string; op: OpenApiOperation }[] = [];
  for (const [template, item] of Object.entries(spec.paths))
    for (const [m, op] of Object.entries(item)) {
      // A path item may hold shared `parameters` beside its operations.
      const name = typeof op === "object" && !Array.isArray(op) ? options.nameOf(m.toUpperCase(), template, op) : undefined;
      if (!name) continue;
      const literal = template.split("/").filter((s) => s && !s.startsWith("{")).length;
      routes.push({ method: m.toUpperCase(), re: templateRegex(template, options.greedy), literal, name, op });
    }
  routes.sort((a, b) => b.literal - a.literal);
  const mediaTypes = options.mediaTypes ?? ["application/json"];
  return (method: string, concretePath: string, status: number): ConformanceTarget | undefined => {
    const route = routes.find((r) => r.method === method && r.re.test(concretePath));
    if (!route) return undefined;
    const response = responseOf(route.op.responses?.[String(status)] ?? route.op.responses?.default);
    const schema = mediaTypes.map((t) => response?.content?.[t]?.schema).find((s) => s !== undefined);
    return { operation: route.name, validate: schemas(`${route.name} ${status}`, schema), checkBranch: schemas.checkBranch };
  };
}
