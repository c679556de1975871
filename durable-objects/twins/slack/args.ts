// A Slack method's arguments, however they came: a GET query, a form POST (non-scalar values
// JSON-encoded inside the form, as @slack/web-api sends them), a JSON POST, or a multipart form
// (uploads). The query and the body merge, the body winning. Routes declare their arguments
// (declare.ts) and read them typed; the getters here serve what reads the raw arguments still
// (the token, and paging in store/paging.ts), refusing with Slack's own codes.
import { binaryString, fromBase64, fromBinaryString } from "../kit/bytes";
import type { TwinContext, TwinRequest } from "../types";
import { explained, fail } from "./errors";

/**
 * The body's text, and for a multipart form each part's text. v1 files.upload's body comes
 * base64-encoded (index.ts `binaryBody`) so a file part keeps its exact bytes: that part stays a
 * binary string (one character a byte, `file`), the others are read as UTF-8.
 */
function bodyText(req: TwinRequest): string {
  return req.bodyEncoding === "base64" ? new TextDecoder().decode(fromBase64(req.body)) : req.body;
}

function multipartOf(req: TwinRequest, type: string): Record<string, string> {
  if (req.bodyEncoding !== "base64") return multipartFields(req.body, type);
  const fields = multipartFields(binaryString(fromBase64(req.body)), type);
  for (const [k, v] of Object.entries(fields)) if (k !== "file") fields[k] = new TextDecoder().decode(fromBinaryString(v));
  return fields;
}

/** Each call's merged arguments, read once: the declaration, the token and paging all read them. */
const read = new WeakMap<TwinContext, Record<string, unknown>>();

/**
 * The method's arguments as sent, the query and the body merged (the body winning); a JSON body
 * that does not parse is `invalid_json`, one that is not an object `json_not_object` (the two
 * codes every method's error enum in Slack's OpenAPI description carries). Values stay as they came: strings from a query or a form.
 */
export function argValues(ctx: TwinContext): Record<string, unknown> {
  const known = read.get(ctx);
  if (known) return known;
  const values: Record<string, unknown> = {};
  for (const [k, v] of ctx.query) values[k] = v;
  const type = (ctx.req.headers["content-type"] ?? "").toLowerCase();
  const body = type.startsWith("multipart/form-data") ? ctx.req.body : bodyText(ctx.req);
  if (body.trim()) {
    if (type.startsWith("application/json")) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(body);
      } catch {
        return fail("invalid_json");
      }
      if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return fail("json_not_object");
      Object.assign(values, parsed);
    } else if (type.startsWith("multipart/form-data")) {
      Object.assign(values, multipartOf(ctx.req, type));
    } else {
      for (const [k, v] of new URLSearchParams(body)) values[k] = v;
    }
  }
  read.set(ctx, values);
  return values;
}

/** Whether Slack reads an argument as not given: absent, null or empty. */
export const isAbsent = (v: unknown) => v === undefined || v === null || v === "";

export class Args {
  constructor(private readonly values: Record<string, unknown>) {}

  static of(ctx: TwinContext): Args {
    return new Args(argValues(ctx));
  }

  /** A string argument; numbers and booleans are accepted as their text. */
  str(key: string): string | undefined {
    const v = this.values[key];
    if (v === undefined || v === null || v === "") return undefined;
    if (typeof v === "string") return v;
    if (typeof v === "number" || typeof v === "boolean") return String(v);
    return fail("invalid_arguments", explained(`${key} must be a string`));
  }

  bool(key: string): boolean | undefined {
    const v = this.values[key];
    if (v === undefined || v === null || v === "") return undefined;
    if (typeof v === "boolean") return v;
    if (v === "true" || v === "1" || v === 1) return true;
    if (v === "false" || v === "0" || v === 0) return false;
    return fail("invalid_arguments", explained(`${key} must be a boolean`));
  }

  int(key: string): number | undefined {
    const v = this.values[key];
    if (v === undefined || v === null || v === "") return undefined;
    const n = typeof v === "number" ? v : typeof v === "string" && /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : Number.NaN;
    return Number.isFinite(n) ? Math.floor(n) : fail("invalid_arguments", explained(`${key} must be a number`));
  }

  /** A JSON-valued argument: an array or object given directly (JSON POST) or JSON-encoded in a string (form). */
  json(key: string): unknown {
    const v = this.values[key];
    if (v === undefined || v === null || v === "") return undefined;
    if (typeof v !== "string") return v;
    try {
      return JSON.parse(v) as unknown;
    } catch {
      return fail("invalid_arguments", explained(`${key} must be JSON`));
    }
  }

  /** A comma list (`types=public_channel,private_channel`) or a JSON array of strings. */
  list(key: string): string[] | undefined {
    const v = this.values[key];
    if (v === undefined || v === null || v === "") return undefined;
    if (Array.isArray(v)) return v.map(String);
    if (typeof v === "string" && v.trim().startsWith("[")) {
      const parsed = this.json(key);
      if (Array.isArray(parsed)) return parsed.map(String);
    }
    return String(v)
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
  }
}

/** The fields of a multipart/form-data body, each as text (a file part's bytes as sent). */
export function multipartFields(body: string, contentType: string): Record<string, string> {
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
  const out: Record<string, string> = {};
  if (!boundary) return out;
  for (const part of body.split(`--${boundary}`)) {
    const split = part.indexOf("\r\n\r\n");
    if (split < 0) continue;
    const head = part.slice(0, split);
    const name = /name="([^"]*)"/i.exec(head)?.[1];
    if (name === undefined) continue;
    out[name] = part.slice(split + 4).replace(/\r\n$/, "");
  }
  return out;
}
