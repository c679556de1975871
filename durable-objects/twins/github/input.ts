// Reading request bodies and queries the way GitHub validates them: a wrong JSON type is
// "Invalid request." naming the property; a bad value is "Validation Failed" naming the field.
// The readers themselves are the twin kit's; only the wording is GitHub's.
import { inputReaders, isBody } from "../kit/input";
import { fail, ghError, ghValidationFailed } from "./errors";

const describe = (value: unknown) => (value === null ? "nil" : JSON.stringify(value));

export const invalidRequest = (detail: string) => fail(ghError(422, `Invalid request.\n\n${detail}`));

export const notSupplied = (key: string) => invalidRequest(`"${key}" wasn't supplied.`);

const readers = inputReaders({
  unparsable: () => ghError(400, "Problems parsing JSON"),
  wrongType: (key, value, type) => ghError(422, `Invalid request.\n\nFor 'properties/${key}', ${describe(value)} is not ${type}.`),
  invalidValue: (resource, field, value) => ghValidationFailed([{ resource, field, code: "invalid", value }]),
});

export const { jsonBody, jsonValue, optString, nullableString, optBoolean, optStringArray, oneOf, optNumber } = readers;
export { queryEnum } from "../kit/input";

/** Label lists accept names or `{ name }` objects, as GitHub does. */
export function labelNames(value: unknown, key = "labels"): string[] {
  const wrong = () => invalidRequest(`For 'properties/${key}', ${describe(value)} is not an array of label names.`);
  if (!Array.isArray(value)) return invalidRequest(`For 'properties/${key}', ${describe(value)} is not an array.`);
  return value.map((v) => {
    if (typeof v === "string") return v;
    if (isBody(v) && typeof v.name === "string") return v.name;
    return wrong();
  });
}

/** ISO 8601 from a query (`since=`), normalised to GitHub's form so it compares with stored times. */
export function queryTime(value: string | null, resource: string, field: string): string | undefined {
  if (value === null || value === "") return undefined;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) return fail(ghValidationFailed([{ resource, field, code: "invalid", value }]));
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
}

/**
 * `path` without its leading and trailing slashes, in one pass: the regular expression
 * `/^\/+|\/+$/g` retries its tail at every slash and takes seconds on a long run of them.
 */
export function trimSlashes(path: string): string {
  let start = 0;
  let end = path.length;
  while (start < end && path[start] === "/") start++;
  while (end > start && path[end - 1] === "/") end--;
  return path.slice(start, end);
}

/**
 * A git identity (`author`, `committer`, `tagger`): `name` and `email` required, `date` optional
 * (ISO 8601, defaulting to `now`). Undefined when the body does not name one.
 */
export function gitIdentity(
  body: Record<string, unknown>,
  key: string,
  now: string,
): { name: string; email: string; date: string } | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (!isBody(value)) return invalidRequest(`For 'properties/${key}', ${describe(value)} is not an object.`);
  const name = readers.optString(value, "name") ?? notSupplied("name");
  const email = readers.optString(value, "email") ?? notSupplied("email");
  const date = readers.optString(value, "date");
  if (date === undefined) return { name, email, date: now };
  const ms = Date.parse(date);
  if (Number.isNaN(ms)) return invalidRequest(`For 'properties/${key}/date', ${describe(date)} is not a date-time.`);
  return { name, email, date: new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z") };
}
