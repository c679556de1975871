// Node only (Ajv compiles with `new Function`, which workerd forbids): a twin's answer checked
// against the schema its vendor publishes for that operation and status. A missing required
// field, an extra field or a mistyped one is a difference; differences the twin declares in its
// fidelity.ts are accepted with their reasons, any other fails the conformance test.
import { readFileSync } from "node:fs";
import path from "node:path";
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

/** Ajv's errors as differences, with JSON paths whose array indexes are `*`. */
export function differencesOf(operation: string, status: number, errors: readonly ErrorObject[]): Difference[] {
  const out = new Map<string, Difference>();
  for (const e of errors) {
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

// Absolute ids: an operation's schema refers to the description's components by them.
const GITHUB_ID = "https://schemas.pome.invalid/github.json";
const SLACK_ID = "https://schemas.pome.invalid/slack.json";

/** `/repos/{owner}/{repo}/contents/{path}` as a regular expression over concrete paths. */
const templateRegex = (template: string) =>
  new RegExp(
    `^${template
      .split(/(\{[^}]+\})/)
      .map((part) => (part.startsWith("{") ? (part === "{path}" ? "(.+)" : "([^/]+)") : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
      .join("")}/?$`,
  );

interface ResponseObject {
  $ref?: string;
  content?: Record<string, { schema?: Json }>;
  schema?: Json;
}

interface OpenApiOperation {
  operationId?: string;
  responses?: Record<string, ResponseObject>;
}

/**
 * GitHub: the full `@octokit/openapi` description. A call is matched to the operation whose
 * method and path template fit it, the template with the most literal segments first.
 */
export function githubConformance(root: string) {
  const spec = JSON.parse(readFileSync(path.join(root, "node_modules/@octokit/openapi/generated/api.github.com.json"), "utf8")) as {
    paths: Record<string, Record<string, OpenApiOperation>>;
    components: { responses?: Record<string, ResponseObject> } & { [key: string]: Json | Record<string, ResponseObject> | undefined };
  };
  // A response may itself be a reference (`#/components/responses/not_found`).
  const responseOf = (r: ResponseObject | undefined): ResponseObject | undefined => {
    const ref = r?.$ref?.replace("#/components/responses/", "");
    return ref ? spec.components.responses?.[ref] : r;
  };
  const ajv = new Ajv2019({ strict: false, allErrors: true, validateFormats: false });
  ajv.addSchema({ $id: GITHUB_ID, components: toStrictSchema(spec.components as Json, true) });
  const routes: { method: string; re: RegExp; literal: number; op: OpenApiOperation }[] = [];
  for (const [p, item] of Object.entries(spec.paths))
    for (const [m, op] of Object.entries(item))
      if (op.operationId)
        routes.push({
          method: m.toUpperCase(),
          re: templateRegex(p),
          literal: p.split("/").filter((s) => s && !s.startsWith("{")).length,
          op,
        });
  routes.sort((a, b) => b.literal - a.literal);
  const compiled = new Map<string, ValidateFunction | null>();
  return (method: string, concretePath: string, status: number): ConformanceTarget | undefined => {
    const route = routes.find((r) => r.method === method && r.re.test(concretePath));
    if (!route?.op.operationId) return undefined;
    const operation = route.op.operationId;
    const key = `${operation} ${status}`;
    if (!compiled.has(key)) {
      const response = responseOf(route.op.responses?.[String(status)]);
      const schema = response?.content?.["application/json"]?.schema ?? response?.content?.["application/scim+json"]?.schema;
      const rewritten = schema
        ? JSON.parse(JSON.stringify(toStrictSchema(schema, true)).replaceAll('"#/components/', `"${GITHUB_ID}#/components/`))
        : null;
      compiled.set(key, rewritten ? ajv.compile({ $id: `${GITHUB_ID}/${encodeURIComponent(key)}`, ...rewritten }) : null);
    }
    return { operation, validate: compiled.get(key) ?? null };
  };
}

/**
 * Slack: the Web API's Swagger 2.0 description. Loose, as test/fixtures/service-specs/slack says:
 * it is from 2020–21 and forbids newer fields, so extras pass; required fields and types are checked.
 */
export function slackConformance(root: string) {
  const spec = JSON.parse(readFileSync(path.join(root, "test/fixtures/service-specs/slack/slack_web_openapi_v2.json"), "utf8")) as {
    paths: Record<string, Record<string, OpenApiOperation>>;
    definitions: Json;
  };
  const ajv = new Ajv2019({ strict: false, allErrors: true, validateFormats: false });
  ajv.addSchema({ $id: SLACK_ID, definitions: toStrictSchema(spec.definitions, false) });
  const compiled = new Map<string, ValidateFunction | null>();
  return (method: string, concretePath: string, status: number, body: unknown): ConformanceTarget | undefined => {
    const name = /^\/api\/([\w.]+)$/.exec(concretePath)?.[1];
    const item = name ? spec.paths[`/${name}`] : undefined;
    if (!name || !item) return undefined;
    const op = Object.values(item)[0];
    // Slack answers 200 with ok:false for a refusal; the description's `default` response is that shape.
    const ok = isObject(body as Json) && (body as { ok?: unknown }).ok === true;
    const which = status === 200 && ok ? "200" : "default";
    const key = `${name} ${which}`;
    if (!compiled.has(key)) {
      const schema = op.responses?.[which]?.schema;
      const rewritten = schema
        ? JSON.parse(JSON.stringify(toStrictSchema(schema, false)).replaceAll('"#/definitions/', `"${SLACK_ID}#/definitions/`))
        : null;
      compiled.set(key, rewritten ? ajv.compile({ $id: `${SLACK_ID}/${encodeURIComponent(key)}`, ...rewritten }) : null);
    }
    return { operation: name, validate: compiled.get(key) ?? null };
  };
}
