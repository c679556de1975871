// What every Gmail route shares: both root prefixes, the mailbox check and the watch's pushes
// around every call (declare.ts builds the routes), and the message a call carries.
import type { Route, TwinContext } from "../types";
import { badRequest, fail, gError } from "./errors";
import { mailboxAddress } from "./store/meta";
import { pushesOwed } from "./store/watch";
import { ParsedMail, PreparedCall } from "./parse";
import { isBody, type Body } from "../kit/input";

export const API = "/gmail/v1/users/:userId";
export const UPLOAD = "/upload/gmail/v1/users/:userId";

/** `me` or the mailbox's own address; Gmail refuses anyone else's mailbox. */
function checkUser(ctx: TwinContext): void {
  const user = ctx.params.userId ?? "";
  if (user === "me" || user.toLowerCase() === mailboxAddress(ctx.db).toLowerCase()) return;
  fail(gError(403, `Delegation denied for ${mailboxAddress(ctx.db)}`, "forbidden"));
}

/**
 * Serves a Gmail route: the mailbox check first (before any input is read, as Gmail refuses another
 * user's mailbox whatever the call carries), then the route, then the watch's pushes it owes.
 */
export function guarded(route: Route): Route {
  return {
    ...route,
    handler: (ctx) => {
      checkUser(ctx);
      const res = route.handler(ctx);
      // A call that changed the mailbox owes the watch its push (sent once the call commits).
      for (const push of pushesOwed(ctx.db, ctx.clock.now())) ctx.webhook(push);
      return res;
    },
  };
}

const preparedOf = (ctx: TwinContext): PreparedCall | undefined =>
  ctx.req.prepared instanceof PreparedCall ? ctx.req.prepared : undefined;

/** An upload's JSON metadata part (parsed before the call, parse.ts); none reads as `{}`. */
export function uploadedMetadata(ctx: TwinContext): Body {
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
