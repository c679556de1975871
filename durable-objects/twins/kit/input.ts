// Reading request bodies and queries. The readers are the same for every twin; what differs is
// how the vendor words a refusal, so each twin hands in its own error factory.
import type { TwinContext } from "../types";
import { refuse } from "./response";
import type { TwinResponse } from "../types";

export type Body = Record<string, unknown>;

/** How one vendor refuses bad input, each already in its own error shape. */
export interface InputErrors {
  /** The body is not JSON (or not the JSON the endpoint takes). */
  unparsable(): TwinResponse;
  /** A field has the wrong JSON type; `type` reads "a string", "an integer"… */
  wrongType(key: string, value: unknown, type: string): TwinResponse;
  /** A field has a value outside its closed set or format. */
  invalidValue(resource: string, field: string, value: unknown): TwinResponse;
}

export interface Readers {
  jsonBody(ctx: TwinContext): Body;
  jsonValue(ctx: TwinContext): unknown;
  optString(body: Body, key: string): string | undefined;
  nullableString(body: Body, key: string): string | null | undefined;
  optBoolean(body: Body, key: string): boolean | undefined;
  optStringArray(body: Body, key: string): string[] | undefined;
  /** A whole number given as a JSON number or a numeric string. */
  optNumber(body: Body, key: string): number | null | undefined;
  oneOf<T extends string>(value: unknown, allowed: readonly T[], resource: string, field: string): T | undefined;
}

export const isBody = (value: unknown): value is Body => typeof value === "object" && value !== null && !Array.isArray(value);

export function inputReaders(errors: InputErrors): Readers {
  const wrongType = (key: string, value: unknown, type: string): never => refuse(errors.wrongType(key, value, type));
  const jsonValue = (ctx: TwinContext): unknown => {
    const text = ctx.req.body.trim();
    if (!text) return undefined;
    try {
      return JSON.parse(text) as unknown;
    } catch (err) {
      return refuse(errors.unparsable(), err);
    }
  };
  return {
    jsonValue,
    jsonBody(ctx) {
      const value = jsonValue(ctx);
      if (value === undefined) return {};
      return isBody(value) ? value : refuse(errors.unparsable());
    },
    optString(body, key) {
      const value = body[key];
      if (value === undefined) return undefined;
      return typeof value === "string" ? value : wrongType(key, value, "a string");
    },
    nullableString(body, key) {
      const value = body[key];
      if (value === undefined || value === null) return value;
      return typeof value === "string" ? value : wrongType(key, value, "a string");
    },
    optBoolean(body, key) {
      const value = body[key];
      if (value === undefined) return undefined;
      return typeof value === "boolean" ? value : wrongType(key, value, "a boolean");
    },
    optStringArray(body, key) {
      const value = body[key];
      if (value === undefined) return undefined;
      if (!Array.isArray(value)) return wrongType(key, value, "an array");
      const strings: string[] = [];
      for (const v of value) strings.push(typeof v === "string" ? v : wrongType(key, value, "an array"));
      return strings;
    },
    optNumber(body, key) {
      const value = body[key];
      if (value === undefined || value === null) return value;
      if (typeof value === "number" && Number.isInteger(value)) return value;
      if (typeof value === "string" && /^\d+$/.test(value)) return Number(value);
      return wrongType(key, value, "an integer");
    },
    oneOf<T extends string>(value: unknown, allowed: readonly T[], resource: string, field: string): T | undefined {
      if (value === undefined) return undefined;
      const match = allowed.find((a) => a === value);
      return match ?? refuse(errors.invalidValue(resource, field, value));
    },
  };
}

/** A query parameter from a closed set, or the default when absent or unknown. */
export function queryEnum<T extends string>(value: string | null, allowed: readonly T[], fallback: T): T {
  return allowed.find((a) => a === value) ?? fallback;
}
