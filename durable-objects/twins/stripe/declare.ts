// The Stripe twin's route declarations: the kit's `routeKit` bound once to how Stripe reads and
// refuses parameters, and the zod helpers its routes declare their parameters with.
//
// Stripe's parameters are a bracket-encoded form (the body of a POST, the query otherwise) whose
// values are all strings; "" means "unset". An MCP tool call carries JSON, read as the form it
// stands for (Params.of): a number or boolean as its string, null as "" (unset). The declaration
// then reads those strings as the types it names ("30" → 30), and a value it refuses is answered
// as Stripe answers it, naming the parameter the Stripe way (`items[0][price]`). A declared route
// still runs through `serve` (call.ts): idempotency, and unknown parameters refused with
// `parameter_unknown` (every parameter a declaration names is allowed, and `expand` always).
//
// A handler reads plain values from its typed `input`. It keeps reading through `c.p` (Params)
// only what a declaration cannot say: "" meaning "unset" (nullable fields, metadata's deletes,
// which the kit reads as absent), a nested hash's unknown keys refused with their own path
// (`address[planet]`), and Stripe's value rules (currency codes, email addresses, limits).
import { z } from "zod";
import { parseForm } from "../kit/form";
import { type InputProblem, type RouteInput, type ShapedRouteSpec, routeKit } from "../kit/route";
import type { Route, TwinContext, TwinResponse } from "../types";
import { type Call, serve } from "./call";
import { invalidInteger, invalidRequest, missingParam } from "./errors";
import { Params } from "./params";

/** A parameter's name the way Stripe writes it in `param`: `items[0][price]`. */
export function paramName(path: readonly PropertyKey[]): string {
  const [head, ...rest] = path.map(String);
  return `${head ?? ""}${rest.map((p) => `[${p}]`).join("")}`;
}

/** The message a refined integer carries, so `refuse` answers it as Stripe's invalid integer. */
const NOT_AN_INTEGER = "stripe:integer";
/** Prefix of the message an enum carries: the values it allows, as Stripe lists them. */
const ONE_OF = "stripe:one-of:";
/**
 * The longest string a POST parameter may be: spec3.json gives its string parameters a maxLength
 * of 5000, which is what the API accepts (stripe/openapi#51). A list's query and path ids are
 * not cut short here: an over-long cursor or id is simply one that does not exist.
 */
const STRING_MAX = 5000;

/** The first string in a POST's form longer than Stripe takes, with its parameter name. */
export function overLong(form: unknown, path: readonly PropertyKey[] = []): { param: string; value: string } | undefined {
  if (typeof form === "string") return form.length > STRING_MAX ? { param: paramName(path), value: form } : undefined;
  if (typeof form !== "object" || form === null) return undefined;
  for (const [key, value] of Object.entries(form)) {
    const found = overLong(value, [...path, Array.isArray(form) ? Number(key) : key]);
    if (found) return found;
  }
  return undefined;
}

/**
 * The first problem a declaration found, in the words `Params` uses for it (params.ts), so a
 * declared route refuses exactly as the hand-read one did.
 */
export function refuseParam(problem: InputProblem): TwinResponse {
  const param = paramName(problem.path);
  const last = problem.path[problem.path.length - 1];
  const received = problem.received;
  const shown = typeof received === "string" ? received : (JSON.stringify(received) ?? "");
  if (problem.message === NOT_AN_INTEGER) return invalidInteger(param, shown);
  if (problem.message.startsWith(ONE_OF))
    return invalidRequest(`Invalid ${param}: must be one of ${problem.message.slice(ONE_OF.length)}`, { param });
  if (problem.code === "invalid_type" && received === undefined) return missingParam(param);
  if (problem.code === "invalid_union") return refuseUnion(param, received);
  if (problem.code !== "invalid_type") return invalidRequest(problem.message, { param });
  switch (problem.expected) {
    case "number":
    case "int":
      return invalidInteger(param, shown);
    case "boolean":
      return invalidRequest(`Invalid boolean: ${shown}`, { param });
    case "array":
      return invalidRequest(`Invalid array: ${param}`, { param });
    case "object":
    case "record":
      if (param === "metadata") return invalidRequest("Invalid hash: metadata", { param });
      if (typeof last === "number") return invalidRequest(`Invalid hash: ${param}`, { param });
      return invalidRequest(`Invalid object: ${param} must be a hash`, { param });
    default:
      if (problem.path.length === 2 && problem.path[0] === "metadata")
        return invalidRequest(`Invalid metadata value for ${String(last)}`, { param });
      if (typeof last === "number") return invalidRequest(`Invalid string: ${param}`, { param });
      return invalidRequest(`Invalid string: ${param} must be a string`, { param });
  }
}

/** The bounds a range (`created[gte]`) may name. */
const RANGE_KEYS = ["gt", "gte", "lt", "lte"];

/**
 * A value no branch of a union took. Stripe's unions are an integer or a word (`trial_end=now`),
 * an integer or a range (`created`), and a list or one string (`expand`): a string is an invalid
 * integer; a range names its first bound that is not one; anything else is not the list it asks.
 */
function refuseUnion(param: string, received: unknown): TwinResponse {
  if (typeof received === "string") return invalidInteger(param, received);
  if (typeof received === "object" && received !== null && !Array.isArray(received)) {
    for (const [key, value] of Object.entries(received)) {
      if (!RANGE_KEYS.includes(key)) break;
      if (typeof value !== "number" || !Number.isInteger(value))
        return invalidInteger(`${param}[${key}]`, typeof value === "string" ? value : (JSON.stringify(value) ?? ""));
    }
  }
  return invalidRequest(`Invalid array: ${param}`, { param });
}

const stripeRoute = routeKit({
  refuse: refuseParam,
  unparsable: () => invalidRequest("Invalid request: the body is not valid JSON."),
  bodyEncoding: "form",
  emptyIsAbsent: true,
  // Stripe's v1 API reads `True`/`False` too: stripe-python before 12 and stripe-dotnet sent them
  // (stripe/stripe-dotnet#3104: "v1 apis would accept these or the lowercase versions").
  anyCaseBooleans: true,
  // The parameters as Params reads them: the form body, or an MCP call's JSON as that form.
  readBody: (ctx) => paramsOf(ctx).raw,
  readQuery: (ctx) => (ctx.req.method === "POST" ? parseForm(ctx.req.query) : paramsOf(ctx).raw),
});

/** The call `serve` made for a request, so the declaration reads the parameters it already parsed. */
const calls = new WeakMap<TwinContext, Call>();
const paramsOf = (ctx: TwinContext): Params => calls.get(ctx)?.p ?? Params.of(ctx);

type Shape = z.ZodRawShape;
type Empty = Record<never, never>;

/** A Stripe route: a GET's or DELETE's parameters are its `query`, a POST's its form `body`. */
export interface StripeRouteSpec<P extends Shape, Q extends Shape, B extends Shape> extends ShapedRouteSpec<P, Q, B> {
  handler(c: Call, input: RouteInput<P, Q, z.ZodObject<B>>): TwinResponse;
}

/** A declared Stripe route: its parameters named and typed once, its tool and OpenAPI entry from them. */
export function route<P extends Shape = Empty, Q extends Shape = Empty, B extends Shape = Empty>(spec: StripeRouteSpec<P, Q, B>): Route {
  const { handler, body, ...rest } = spec;
  const declared = stripeRoute<P, Q, z.ZodObject<B>>({
    ...rest,
    ...(body ? { body: z.object(body) } : {}),
    handler(ctx, input) {
      const c = calls.get(ctx) ?? fail(ctx);
      return handler(c, input);
    },
  });
  const allowed = [...Object.keys(spec.query ?? {}), ...Object.keys(body ?? {})];
  return {
    ...declared,
    handler: (ctx) =>
      serve(ctx, allowed, (c) => {
        const long = ctx.req.method === "POST" ? overLong(c.p.raw) : undefined;
        if (long)
          return invalidRequest(`Invalid string: ${long.value.slice(0, 20)}...; must be at most ${STRING_MAX} characters`, {
            param: long.param,
          });
        calls.set(ctx, c);
        return declared.handler(ctx);
      }),
  };
}

/** Only reached if a declared handler ran outside `serve`, which `route` never does. */
function fail(ctx: TwinContext): never {
  throw new Error(`stripe: ${ctx.req.method} ${ctx.req.path} ran without its call`);
}

// --- Parameter helpers: each optional unless said, described for the tool and OpenAPI. ---

/** An integer (amounts in the minor unit, counts, unix seconds). */
const integer = () => z.number().refine(Number.isInteger, { error: NOT_AN_INTEGER }).meta({ type: "integer" });

export const arg = {
  /** A required string (an id, a name). */
  id: (what: string) => z.string().describe(what),
  text: (what: string) => z.string().optional().describe(what),
  /** A string that "" (or null, over MCP) unsets. */
  unsettable: (what: string) => z.string().nullable().optional().describe(what),
  int: (what: string) => integer().optional().describe(what),
  reqInt: (what: string) => integer().describe(what),
  /** An integer that "" (or null, over MCP) unsets (`cancel_at`). */
  unsettableInt: (what: string) => integer().nullable().optional().describe(what),
  /** An integer or one word in its place (`trial_end=now`). */
  intOr: <const W extends string>(word: W, what: string) =>
    z
      .union([z.literal(word), integer()])
      .optional()
      .describe(what),
  bool: (what: string) => z.boolean().optional().describe(what),
  /** One of a few values; anything else is Stripe's `Invalid <param>: must be one of …`. */
  oneOf: <const T extends readonly [string, ...string[]]>(values: T, what: string) =>
    z
      .enum(values, { error: () => `${ONE_OF}${values.join(", ")}` })
      .optional()
      .describe(what),
  /** A decimal (`percent_off`): refused by the handler's own reading when not one. */
  decimal: (what: string) => z.union([z.number(), z.string()]).optional().describe(what),
  strings: (what: string) => z.array(z.string()).optional().describe(what),
  hash: <S extends Shape>(shape: S, what: string) => z.object(shape).optional().describe(what),
  /** A hash whose keys the twin keeps as given (evidence, shipping). */
  anyHash: (what: string) => z.record(z.string(), z.unknown()).optional().describe(what),
  list: <S extends Shape>(shape: S, what: string) => z.array(z.object(shape)).optional().describe(what),
};

/** Key/value pairs on an object: "" clears them all, an empty value deletes one key. */
export const metadata = z
  .record(z.string(), z.string())
  .optional()
  .describe("Key/value pairs to store on the object; an empty value deletes a key, an empty metadata clears them");

/** Fields to expand in the answer (`customer`, `latest_charge`, `data.customer` in lists). */
export const expand = z
  .union([z.array(z.string()), z.string()])
  .optional()
  .describe("Fields of the answer to expand into the objects they name, e.g. customer or latest_charge");

/** Stripe's address hash. */
export const address = (what: string) =>
  arg.hash(
    {
      city: arg.text("City"),
      country: arg.text("Two-letter country code"),
      line1: arg.text("Address line 1"),
      line2: arg.text("Address line 2"),
      postal_code: arg.text("ZIP or postal code"),
      state: arg.text("State, county, province or region"),
    },
    what,
  );

/** A range of unix seconds, or one second exactly. */
export const created = z
  .union([
    integer(),
    z.object({
      gt: integer().optional(),
      gte: integer().optional(),
      lt: integer().optional(),
      lte: integer().optional(),
    }),
  ])
  .optional()
  .describe("Only objects created at this unix time, or in a range given with gt, gte, lt, lte");

/** The paging parameters every list takes. */
export const listQuery = {
  limit: arg.int("Objects per page, 1 to 100 (default 10)"),
  starting_after: arg.text("Id of the last object of the previous page: returns the next, older page"),
  ending_before: arg.text("Id of the first object of the current page: returns the previous, newer page"),
  created,
  expand,
};

/** A search's parameters. */
export const searchQuery = {
  query: arg.id("Stripe search query, e.g. email:'a@b.c' or metadata['order_id']:'A-1' AND status:'succeeded'"),
  limit: listQuery.limit,
  page: arg.text("The next_page token of the previous search result"),
  expand,
};

/** The `:id` of a path. */
export const idParam = (what: string) => ({ id: z.string().describe(what) });
