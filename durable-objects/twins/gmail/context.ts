// What every Gmail route shares: the route wrapper (the mailbox's `userId`, both root prefixes),
// query readers with Gmail's limits, and the message a call carries.
import type { Route, TwinContext, TwinResponse } from "../types";
import { badRequest, fail, gError, readers } from "./errors";
import { FORMATS, type Format } from "./views";
import { mailboxAddress } from "./store/meta";
import { pushesOwed } from "./store/watch";
import { ParsedMail, PreparedCall } from "./parse";
import { isBody, type Body } from "../kit/input";

const API = "/gmail/v1/users/:userId";
const UPLOAD = "/upload/gmail/v1/users/:userId";

/** `me` or the mailbox's own address; Gmail refuses anyone else's mailbox. */
function checkUser(ctx: TwinContext): void {
  const user = ctx.params.userId ?? "";
  if (user === "me" || user.toLowerCase() === mailboxAddress(ctx.db).toLowerCase()) return;
  fail(gError(403, `Delegation denied for ${mailboxAddress(ctx.db)}`, "forbidden"));
}

function make(method: string, pattern: string, operation: string, summary: string, handler: (ctx: TwinContext) => TwinResponse): Route {
  return {
    method,
    pattern,
    operation,
    summary,
    handler: (ctx) => {
      checkUser(ctx);
      const res = handler(ctx);
      // A call that changed the mailbox owes the watch its push (sent once the call commits).
      for (const push of pushesOwed(ctx.db, ctx.clock.now())) ctx.webhook(push);
      return res;
    },
  };
}

/** A route under `/gmail/v1/users/{userId}`; `path` starts with `/`. */
export const gmailRoute = (
  method: string,
  path: string,
  operation: string,
  summary: string,
  handler: (ctx: TwinContext) => TwinResponse,
): Route => make(method, `${API}${path}`, operation, summary, handler);

/** The same method's media-upload form under `/upload/gmail/v1/users/{userId}`. */
export const uploadRoute = (
  method: string,
  path: string,
  operation: string,
  summary: string,
  handler: (ctx: TwinContext) => TwinResponse,
): Route => make(method, `${UPLOAD}${path}`, operation, `${summary} (media upload)`, handler);

export function formatOf(ctx: TwinContext, fallback: Format = "full"): Format {
  const value = ctx.query.get("format");
  if (value === null) return fallback;
  return (
    FORMATS.find((f) => f === value.toLowerCase()) ??
    fail(badRequest(`Invalid value at 'format' (type.googleapis.com/google.apps.gmail.v1.Format), "${value}"`))
  );
}

/** `maxResults` with Gmail's default and ceiling. */
export function maxResultsOf(ctx: TwinContext, fallback = 100, ceiling = 500): number {
  const value = ctx.query.get("maxResults");
  if (value === null || value === "") return fallback;
  const n = Number(value);
  // The field is a uint32 in Gmail's request: a value past 2^32 - 1 is refused, not read as the ceiling.
  if (!/^\d+$/.test(value) || n > 0xffff_ffff) fail(badRequest(`Invalid value at 'max_results' (TYPE_UINT32), "${value}"`));
  return n === 0 ? fallback : Math.min(n, ceiling);
}

export const boolQuery = (ctx: TwinContext, name: string) => ctx.query.get(name) === "true";

export const listQuery = (ctx: TwinContext, name: string) => ctx.query.getAll(name).filter((v) => v !== "");

export const jsonBody = (ctx: TwinContext): Body => readers.jsonBody(ctx);

const preparedOf = (ctx: TwinContext): PreparedCall | undefined =>
  ctx.req.prepared instanceof PreparedCall ? ctx.req.prepared : undefined;

/** The JSON of the call: the body, or for an upload its metadata part. */
export function callBody(ctx: TwinContext): Body {
  if (!ctx.req.path.startsWith("/upload/")) return jsonBody(ctx);
  const meta = preparedOf(ctx)?.metadata;
  return isBody(meta) ? meta : {};
}

/** The message the call carries, parsed before the call (see parse.ts); `field` names it in errors. */
export function carriedMail(ctx: TwinContext, field: string): ParsedMail {
  const mail = preparedOf(ctx)?.mail;
  if (mail instanceof ParsedMail) return mail;
  if (mail === "invalid")
    return fail(badRequest(`Invalid value at '${field}' (TYPE_BYTES), Base64 decoding failed or the message is not RFC 822`));
  if (ctx.req.path.startsWith("/upload/")) return fail(badRequest("Media is required for this upload"));
  return fail(badRequest(`'raw' RFC822 payload message string or uploading message via /upload/* URL required`));
}
