// Stripe's request parameters: a bracket-encoded form (body on POST, query on GET and DELETE)
// whose values are all strings. An empty string means "unset". Refusals name the parameter the
// way Stripe does (`items[0][price]`).
import { type FormObject, type FormValue, parseForm } from "../kit/form";
import type { TwinContext } from "../types";
import { fail, invalidInteger, invalidRequest, invalidValue, missingParam, unknownParam } from "./errors";
import { checkEmail, checkMetadata, currencyCode } from "./validate";

const isObject = (v: FormValue | undefined): v is FormObject => typeof v === "object" && v !== null && !Array.isArray(v);

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return fail(invalidRequest("Invalid request: the body is not valid JSON."));
  }
}

/** JSON as the form values stripe-node would have sent for it. */
function formOfJson(v: unknown): FormValue {
  if (v === null || v === undefined) return "";
  if (Array.isArray(v)) return v.map(formOfJson);
  if (typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, formOfJson(x)]));
  return String(v);
}

export class Params {
  constructor(
    readonly raw: FormObject,
    private readonly prefix = "",
  ) {}

  /**
   * The parameters of a call: its form body for POST, its query string otherwise. An MCP tool
   * call carries JSON; it is read as the form it stands for (numbers and booleans as strings,
   * null as "" meaning unset), so both transports meet the same parameter rules.
   */
  static of(ctx: TwinContext): Params {
    if (ctx.req.transport === "mcp" && ctx.req.method !== "GET" && ctx.req.body.trim().startsWith("{")) {
      const asForm = formOfJson(safeJson(ctx.req.body));
      const query = parseForm(ctx.req.query);
      return new Params({ ...query, ...(isObject(asForm) ? asForm : {}) });
    }
    const text = ctx.req.method === "POST" ? ctx.req.body : ctx.req.query;
    return new Params(parseForm(text));
  }

  name(key: string): string {
    return this.prefix ? `${this.prefix}[${key}]` : key;
  }

  has(key: string): boolean {
    return this.raw[key] !== undefined;
  }

  /** Refuses any top-level parameter outside `allowed` (`expand` is always allowed). */
  allow(allowed: readonly string[]): this {
    for (const key of Object.keys(this.raw)) if (key !== "expand" && !allowed.includes(key)) fail(unknownParam(this.name(key)));
    return this;
  }

  private scalar(key: string): string | undefined {
    const v = this.raw[key];
    if (v === undefined) return undefined;
    if (typeof v !== "string") return fail(invalidRequest(`Invalid string: ${this.name(key)} must be a string`, { param: this.name(key) }));
    return v;
  }

  /** A string; "" (unset) reads as absent. */
  str(key: string): string | undefined {
    const v = this.scalar(key);
    return v === "" ? undefined : v;
  }

  /** A string that may be unset: "" → null, absent → undefined. */
  nullable(key: string): string | null | undefined {
    const v = this.scalar(key);
    return v === "" ? null : v;
  }

  req(key: string): string {
    return this.str(key) ?? fail(missingParam(this.name(key)));
  }

  int(key: string): number | undefined {
    const v = this.str(key);
    if (v === undefined) return undefined;
    if (!/^-?\d+$/.test(v)) return fail(invalidInteger(this.name(key), v));
    return Number(v);
  }

  reqInt(key: string): number {
    return this.int(key) ?? fail(missingParam(this.name(key)));
  }

  num(key: string): number | undefined {
    const v = this.str(key);
    if (v === undefined) return undefined;
    const n = Number(v);
    if (!Number.isFinite(n))
      return fail(invalidRequest(`Invalid decimal: ${v}`, { code: "parameter_invalid_decimal", param: this.name(key) }));
    return n;
  }

  bool(key: string): boolean | undefined {
    const v = this.str(key);
    if (v === undefined) return undefined;
    // Any case, as Stripe's v1 API reads it (older clients send Python's `True`): see declare.ts.
    const spelled = v.toLowerCase();
    if (spelled === "true") return true;
    if (spelled === "false") return false;
    return fail(invalidRequest(`Invalid boolean: ${v}`, { param: this.name(key) }));
  }

  oneOf<T extends string>(key: string, allowed: readonly T[]): T | undefined {
    const v = this.str(key);
    if (v === undefined) return undefined;
    return allowed.find((a) => a === v) ?? fail(invalidValue(this.name(key), v, allowed));
  }

  /** A currency code, lower-cased and checked against Stripe's list (`Invalid currency: xyz…`). */
  currency(key: string): string | undefined {
    const v = this.str(key);
    return v === undefined ? undefined : currencyCode(v, this.name(key));
  }

  reqCurrency(key: string): string {
    return currencyCode(this.req(key), this.name(key));
  }

  /** An email address of the shape Stripe accepts; "" unsets it (null). */
  email(key: string): string | null | undefined {
    const v = this.nullable(key);
    if (typeof v === "string") checkEmail(v, this.name(key));
    return v;
  }

  /** A nested object's parameters; null when sent as "" (unset), undefined when absent. */
  sub(key: string): Params | null | undefined {
    const v = this.raw[key];
    if (v === undefined) return undefined;
    if (v === "") return null;
    if (isObject(v)) return new Params(v, this.name(key));
    return fail(invalidRequest(`Invalid object: ${this.name(key)} must be a hash`, { param: this.name(key) }));
  }

  /** An array of nested objects (`items[0][price]`), each with its own parameter path. */
  list(key: string): Params[] | undefined {
    const v = this.raw[key];
    if (v === undefined || v === "") return v === "" ? [] : undefined;
    // A form array whose indices were all given arrives as an array; sparse ones arrive keyed.
    const values = Array.isArray(v)
      ? v
      : isObject(v)
        ? Object.values(v)
        : fail(invalidRequest(`Invalid array: ${this.name(key)}`, { param: this.name(key) }));
    return values.map((item, i) =>
      isObject(item)
        ? new Params(item, `${this.name(key)}[${i}]`)
        : fail(invalidRequest(`Invalid hash: ${this.name(key)}[${i}]`, { param: `${this.name(key)}[${i}]` })),
    );
  }

  strList(key: string): string[] | undefined {
    const v = this.raw[key];
    if (v === undefined) return undefined;
    if (v === "") return [];
    const values = Array.isArray(v) ? v : isObject(v) ? Object.values(v) : [v];
    return values.map((item, i) =>
      typeof item === "string"
        ? item
        : fail(invalidRequest(`Invalid string: ${this.name(key)}[${i}]`, { param: `${this.name(key)}[${i}]` })),
    );
  }

  /** The `expand[]` paths of the call. */
  expand(): string[] {
    return this.strList("expand") ?? [];
  }

  /**
   * Applies `metadata` to what an object had: "" clears it all, `metadata[k]=` deletes one key,
   * anything else sets it. Absent leaves it as it was.
   */
  metadata(current: Record<string, string> = {}): Record<string, string> {
    const v = this.raw.metadata;
    if (v === undefined) return current;
    if (v === "") return {};
    if (!isObject(v)) return fail(invalidRequest("Invalid hash: metadata", { param: "metadata" }));
    const out = { ...current };
    for (const [k, value] of Object.entries(v)) {
      if (typeof value !== "string") return fail(invalidRequest(`Invalid metadata value for ${k}`, { param: `metadata[${k}]` }));
      if (value === "") delete out[k];
      else out[k] = value;
    }
    checkMetadata(out, this.name("metadata"));
    return out;
  }
}
