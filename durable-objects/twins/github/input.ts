// Reading request bodies and queries the way GitHub validates them: a wrong JSON type is
// "Invalid request." naming the property; a bad value is "Validation Failed" naming the field.
import { fail, ghError, ghValidationFailed } from "./errors";

type Body = Record<string, unknown>;

const describe = (value: unknown) => (value === null ? "nil" : JSON.stringify(value));

export const invalidRequest = (detail: string) => fail(ghError(422, `Invalid request.\n\n${detail}`));

export const notSupplied = (key: string) => invalidRequest(`"${key}" wasn't supplied.`);

function wrongType(key: string, value: unknown, type: string): never {
  return invalidRequest(`For 'properties/${key}', ${describe(value)} is not ${type}.`);
}

export function optString(body: Body, key: string): string | undefined {
  const value = body[key];
  if (value === undefined) return undefined;
  return typeof value === "string" ? value : wrongType(key, value, "a string");
}

export function nullableString(body: Body, key: string): string | null | undefined {
  const value = body[key];
  if (value === undefined || value === null) return value;
  return typeof value === "string" ? value : wrongType(key, value, "a string");
}

export function requiredString(body: Body, key: string): string {
  return optString(body, key) ?? notSupplied(key);
}

export function optBoolean(body: Body, key: string): boolean | undefined {
  const value = body[key];
  if (value === undefined) return undefined;
  return typeof value === "boolean" ? value : wrongType(key, value, "a boolean");
}

export function optStringArray(body: Body, key: string): string[] | undefined {
  const value = body[key];
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || !value.every((v) => typeof v === "string")) return wrongType(key, value, "an array");
  return value as string[];
}

/** Label lists accept names or `{ name }` objects, as GitHub does. */
export function labelNames(value: unknown, key = "labels"): string[] {
  if (!Array.isArray(value)) return wrongType(key, value, "an array");
  return value.map((v) => {
    if (typeof v === "string") return v;
    if (v && typeof v === "object" && typeof (v as Body).name === "string") return (v as { name: string }).name;
    return wrongType(key, value, "an array of label names");
  });
}

/** A value from a closed set, else Validation Failed on that field. */
export function oneOf<T extends string>(value: unknown, allowed: readonly T[], resource: string, field: string): T | undefined {
  if (value === undefined) return undefined;
  if (typeof value === "string" && (allowed as readonly string[]).includes(value)) return value as T;
  return fail(ghValidationFailed([{ resource, field, code: "invalid", value }]));
}

/** A number given as a JSON number or numeric string (GitHub accepts both for milestone). */
export function optNumber(body: Body, key: string): number | null | undefined {
  const value = body[key];
  if (value === undefined || value === null) return value;
  if (typeof value === "number" && Number.isInteger(value)) return value;
  if (typeof value === "string" && /^\d+$/.test(value)) return Number(value);
  return wrongType(key, value, "an integer");
}

/** A query parameter from a closed set, or the default when absent or unknown. */
export function queryEnum<T extends string>(value: string | null, allowed: readonly T[], fallback: T): T {
  return value !== null && (allowed as readonly string[]).includes(value) ? (value as T) : fallback;
}

/** ISO 8601 from a query (`since=`), normalised to GitHub's form so it compares with stored times. */
export function queryTime(value: string | null, resource: string, field: string): string | undefined {
  if (value === null || value === "") return undefined;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) return fail(ghValidationFailed([{ resource, field, code: "invalid", value }]));
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
}
