// A route declares its inputs once: path parameters, query and body as zod shapes beside the
// handler. The kit reads the request into those shapes (query strings and form values coerced to
// the types the declaration names), validates them, and hands the handler typed input; a value the
// declaration refuses becomes the vendor's own error through the twin's `refuse`. The same
// declaration gives the route its MCP tool (`toolsOf`) and its OpenAPI entry (`openapiOperation`),
// so a new route needs no second description anywhere.
import { z } from "zod";
import type { Route, RouteDeclaration, TwinContext, TwinResponse, TwinTool } from "../types";
import { parseForm } from "./form";
import { refuse } from "./response";
import { seg } from "./tools";

/** Where an input came from, as the vendor's refusal may name it. */
export type InputPlace = "path" | "query" | "body";

/** The first thing a declaration refused, for the twin to word as its vendor does. */
export interface InputProblem {
  place: InputPlace;
  /** The path into the input: `["items", 0, "price"]`; empty for the input as a whole. */
  path: readonly PropertyKey[];
  /** zod's issue code: `invalid_type`, `too_small`, `invalid_value`, `unrecognized_keys`… */
  code: string;
  /** zod's message, for twins whose vendor words refusals loosely. */
  message: string;
  /** The value as received (a string from a query or form), `undefined` when absent. */
  received: unknown;
  /** The expected type for `invalid_type` (`string`, `number`, `object`…). */
  expected?: string;
  /** The whole input of that place as read (after coercion), for a refusal that names an enclosing value. */
  input?: unknown;
}

/** How one vendor reads and refuses input; every route of the twin shares it. */
export interface RouteRules {
  /**
   * The vendor's refusal of the first problem the declaration found. `ctx` is the call, for a
   * vendor whose refusal depends on the caller (rate-limit headers on every answer, a 401 first).
   */
  refuse(problem: InputProblem, ctx: TwinContext): TwinResponse;
  /** A body that does not parse at all (JSON that is not JSON). */
  unparsable(ctx: TwinContext): TwinResponse;
  /**
   * How a body without a JSON content type is read: `form` (bracket-encoded, values coerced to the
   * declared types) or `json`. A JSON content type is always read as JSON: MCP tools send JSON.
   */
  bodyEncoding: "json" | "form";
  /** Whether an empty form or query value reads as absent ("unset", for a vendor that says so); default: kept as "". */
  emptyIsAbsent?: boolean;
  /**
   * Whether a boolean is read whatever its case (`True`, `FALSE`): some vendors take the spelling
   * older clients send (Python's `str(True)`). Default: only `true` and `false`.
   */
  anyCaseBooleans?: boolean;
  /**
   * For a vendor that reads arguments from several places at once (a method's query and its body,
   * merged): the raw body value, coerced afterwards only when `bodyEncoding` is `form`. Default:
   * the body by its content type.
   */
  readBody?(ctx: TwinContext): unknown;
  /**
   * For a vendor whose query nests values the way its form bodies do
   * (`created[gte]=…&expand[0]=…`): the raw query as an object, before coercion. Default: each
   * declared key's value (a list where the declaration asks for one).
   */
  readQuery?(ctx: TwinContext): Record<string, unknown>;
}

type Shape = z.ZodRawShape;
type Out<S extends Shape> = z.output<z.ZodObject<S>>;

/** What a declared route's handler receives: its inputs, parsed and typed. */
export interface RouteInput<P extends Shape, Q extends Shape, B extends z.ZodType> {
  params: Out<P>;
  query: Out<Q>;
  body: z.output<B>;
}

/** The MCP tool a route stands behind: its name and description; arguments come from the inputs. */
export interface RouteToolSpec {
  name: string;
  description: string;
  /** Defaults: GET reads, DELETE destroys. */
  readOnly?: boolean;
  destructive?: boolean;
}

export interface RouteSpec<P extends Shape, Q extends Shape, B extends z.ZodType> {
  method: string;
  pattern: string;
  operation: string;
  summary: string;
  params?: P;
  query?: Q;
  /** The body's schema; omit for a route that takes none. */
  body?: B;
  tool?: RouteToolSpec;
  handler(ctx: TwinContext, input: RouteInput<P, Q, B>): TwinResponse;
}

/**
 * A route's declared fields with its body given as an object's shape: what a twin's own route
 * builder takes, adding its vendor's options and its handler.
 */
export type ShapedRouteSpec<P extends Shape, Q extends Shape, B extends Shape> = Omit<
  RouteSpec<P, Q, z.ZodObject<B>>,
  "body" | "handler"
> & {
  body?: B;
};

/** The twin's route builder, bound to how its vendor reads and refuses input. */
export function routeKit(rules: RouteRules) {
  return function route<
    P extends Shape = Record<never, never>,
    Q extends Shape = Record<never, never>,
    B extends z.ZodType = z.ZodUndefined,
  >(spec: RouteSpec<P, Q, B>): Route {
    const params = z.object(spec.params ?? ({} as P));
    const query = z.object(spec.query ?? ({} as Q));
    const body = spec.body;
    const declaration: RouteDeclaration = {
      params,
      query,
      body,
      bodyEncoding: rules.bodyEncoding,
      tool: spec.tool && {
        name: spec.tool.name,
        description: spec.tool.description,
        readOnly: spec.tool.readOnly ?? spec.method === "GET",
        destructive: spec.tool.destructive ?? spec.method === "DELETE",
      },
    };
    return {
      method: spec.method,
      pattern: spec.pattern,
      operation: spec.operation,
      summary: spec.summary,
      declaration,
      handler(ctx) {
        const input = {
          params: parseIn("path", params, coerce(params, ctx.params, rules), rules, ctx),
          query: parseIn(
            "query",
            query,
            coerce(query, rules.readQuery ? rules.readQuery(ctx) : queryRecord(query, ctx.query), rules),
            rules,
            ctx,
          ),
          body: body ? parseIn("body", body, readBody(ctx, body, rules), rules, ctx) : undefined,
        };
        // Each place was parsed by the schema the spec declared for it, so it has that type.
        return spec.handler(ctx, input as RouteInput<P, Q, B>);
      },
    };
  };
}

function parseIn<T extends z.ZodType>(place: InputPlace, schema: T, value: unknown, rules: RouteRules, ctx: TwinContext): z.output<T> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const problem: InputProblem = {
    place,
    path: issue?.path ?? [],
    code: issue?.code ?? "custom",
    message: issue?.message ?? "invalid input",
    received: valueAt(value, issue?.path ?? []),
    expected: issue && "expected" in issue && typeof issue.expected === "string" ? issue.expected : undefined,
    input: value,
  };
  return refuse(rules.refuse(problem, ctx));
}

/** The value at `path` inside `value`, or undefined where the path leaves it. */
export function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let at = value;
  for (const key of path) {
    if (typeof at !== "object" || at === null) return undefined;
    at = (at as Record<PropertyKey, unknown>)[key];
  }
  return at;
}

function readBody(ctx: TwinContext, schema: z.ZodType, rules: RouteRules): unknown {
  if (rules.readBody) {
    // Only a form's values are text to be read as the declared types; JSON already has its own
    // types, and a vendor that reads JSON refuses "12" where it declares a number.
    const raw = rules.readBody(ctx);
    return rules.bodyEncoding === "form" ? coerce(schema, raw, rules) : raw;
  }
  const text = ctx.req.body;
  if (!text.trim()) return undefined;
  const type = ctx.req.headers["content-type"] ?? "";
  if (type.includes("json") || rules.bodyEncoding === "json") {
    try {
      return JSON.parse(text) as unknown;
    } catch (err) {
      return refuse(rules.unparsable(ctx), err);
    }
  }
  return coerce(schema, parseForm(text), rules);
}

/** A query's values as the declaration reads them: a list where it declares one, else the first value. */
function queryRecord(schema: z.ZodObject, query: URLSearchParams): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(schema.shape)) {
    if (kindOf(field) === "array") {
      const values = [...query.getAll(key), ...query.getAll(`${key}[]`)];
      if (values.length) out[key] = values;
    } else {
      const value = query.get(key);
      if (value !== null) out[key] = value;
    }
  }
  return out;
}

/** The schema under optional, nullable, default and pipes: what a value must finally be. */
function baseOf(schema: z.core.$ZodType): z.core.$ZodType {
  let at = schema;
  for (let i = 0; i < 16; i++) {
    const def = at._zod.def as { type: string; innerType?: z.core.$ZodType; in?: z.core.$ZodType };
    if (def.innerType) at = def.innerType;
    else if (def.type === "pipe" && def.in) at = def.in;
    else break;
  }
  return at;
}

const kindOf = (schema: z.core.$ZodType): string => baseOf(schema)._zod.def.type;

/**
 * Strings from a query, a path or a form, turned into what the declaration asks for where they
 * plainly are one (`"30"` → 30 for a number, `"true"` → true for a boolean); anything else is left
 * as it came, for the schema to refuse with the field's name. Walks objects and arrays.
 */
export function coerce(
  schema: z.core.$ZodType,
  value: unknown,
  rules: Pick<RouteRules, "emptyIsAbsent" | "anyCaseBooleans"> = {},
): unknown {
  const base = baseOf(schema);
  const def = base._zod.def as { type: string; shape?: Shape; element?: z.core.$ZodType; options?: z.core.$ZodType[] };
  if (def.type === "union" && def.options && value !== undefined) {
    // A union (a `created` that is an integer or a range) takes the first branch the value,
    // coerced for that branch, fits; else the value as it came, for the schema to refuse.
    if (value === "" && rules.emptyIsAbsent) return undefined;
    for (const option of def.options) {
      const coerced = coerce(option, value, rules);
      if (z.safeParse(option, coerced).success) return coerced;
    }
    return value;
  }
  if (typeof value === "string") {
    if (value === "" && rules.emptyIsAbsent) return undefined;
    if ((def.type === "number" || def.type === "int" || def.type === "bigint") && /^-?\d+(\.\d+)?$/.test(value)) return Number(value);
    if (def.type === "boolean") return booleanOf(value, rules.anyCaseBooleans) ?? value;
    return value;
  }
  if (def.type === "object" && def.shape && typeof value === "object" && value !== null && !Array.isArray(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      // A field named `toString` or `__proto__` is a caller's key, never the shape's or the object's own.
      const field = Object.hasOwn(def.shape, key) ? def.shape[key] : undefined;
      const coerced = field ? coerce(field, inner, rules) : inner;
      if (coerced !== undefined) Object.defineProperty(out, key, { value: coerced, enumerable: true, writable: true, configurable: true });
    }
    return out;
  }
  if (def.type === "array" && def.element && Array.isArray(value)) {
    const element = def.element;
    return value.map((item) => coerce(element, item, rules));
  }
  return value;
}

/** `true`/`false` as a boolean (in any case when the vendor reads it so); anything else undefined. */
function booleanOf(value: string, anyCase = false): boolean | undefined {
  const spelled = anyCase ? value.toLowerCase() : value;
  if (spelled === "true") return true;
  if (spelled === "false") return false;
  return undefined;
}

/** The MCP tools a twin's declared routes stand behind, in route order. */
export function toolsOf(routes: readonly Route[]): TwinTool[] {
  const tools: TwinTool[] = [];
  for (const route of routes) {
    const declared = route.declaration;
    if (!declared?.tool) continue;
    tools.push(toolOf(route, declared));
  }
  return tools;
}

function toolOf(route: Route, declared: RouteDeclaration): TwinTool {
  const bodyShape = declared.body && kindOf(declared.body) === "object" ? (baseOf(declared.body) as z.ZodObject).shape : undefined;
  const bodyKeys = Object.keys(bodyShape ?? {});
  const queryKeys = Object.keys(declared.query.shape);
  const pathKeys = Object.keys(declared.params.shape);
  // A body that is not an object (a list, raw text) is the tool's `body` argument.
  const bodyArgument: Shape = declared.body && !bodyShape ? { body: declared.body } : {};
  const input = z.strictObject({ ...declared.params.shape, ...declared.query.shape, ...bodyShape, ...bodyArgument });
  // The tool spec is present: toolsOf only builds tools for routes that declare one.
  const tool = declared.tool as NonNullable<RouteDeclaration["tool"]>;
  return {
    name: tool.name,
    description: tool.description,
    input,
    readOnly: tool.readOnly,
    destructive: tool.destructive,
    toRequest(raw) {
      const args = input.parse(raw) as Record<string, unknown>;
      const query: Record<string, string> = {};
      for (const key of queryKeys) {
        const value = args[key];
        if (value === undefined || value === null) continue;
        query[key] = Array.isArray(value) ? value.map(String).join(",") : String(value);
      }
      let body: unknown;
      if (bodyShape) {
        const fields: Record<string, unknown> = {};
        for (const key of bodyKeys) if (args[key] !== undefined) fields[key] = args[key];
        body = fields;
      } else if (declared.body) body = args.body;
      return { method: route.method, path: pathOf(route.pattern, args, pathKeys), query, body };
    },
  };
}

/** The pattern with its parameters filled in: `:name` one escaped segment, `*rest` the rest as given. */
export function pathOf(pattern: string, args: Record<string, unknown>, keys: readonly string[]): string {
  let path = pattern;
  for (const key of keys) {
    const value = String(args[key] ?? "");
    path = path.replace(`:${key}`, seg(value)).replace(`*${key}`, value.split("/").map(seg).join("/"));
  }
  return path;
}

/** A route's OpenAPI 3.1 operation, its parameters and body derived from its declaration. */
export function openapiOperation(route: Route): Record<string, unknown> {
  const operation: Record<string, unknown> = { operationId: route.operation, summary: route.summary };
  const declared = route.declaration;
  if (!declared) return operation;
  const parameters: unknown[] = [];
  const place = (schema: z.ZodObject, where: "path" | "query") => {
    for (const [name, field] of Object.entries(schema.shape)) {
      const json = jsonSchemaOf(field);
      parameters.push({
        name,
        in: where,
        required: where === "path" || !field.safeParse(undefined).success,
        schema: json,
        ...(field.description ? { description: field.description } : {}),
      });
    }
  };
  place(declared.params, "path");
  place(declared.query, "query");
  if (parameters.length) operation.parameters = parameters;
  if (declared.body) {
    const media = declared.bodyEncoding === "form" ? "application/x-www-form-urlencoded" : "application/json";
    operation.requestBody = {
      required: !declared.body.safeParse(undefined).success,
      content: { [media]: { schema: jsonSchemaOf(declared.body) } },
    };
  }
  return operation;
}

function jsonSchemaOf(schema: z.ZodType): unknown {
  try {
    const { $schema: _, ...json } = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
    return json;
  } catch {
    // A schema JSON Schema cannot say (a custom refinement): any value, described in prose.
    return {};
  }
}
