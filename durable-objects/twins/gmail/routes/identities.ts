// users.settings.sendAs: the addresses the mailbox sends as, with their display names, reply-to
// addresses and signatures. An alias in the mailbox's own domain is accepted at once; one
// elsewhere waits (`pending`) for its owner to confirm the mail Gmail sends it, and cannot send
// until then (https://developers.google.com/gmail/api/reference/rest/v1/users.settings.sendAs/create).
import type { Route, TwinContext } from "../../types";
import { gmailRoute, jsonBody } from "../context";
import { alreadyExists, badRequest, fail, failedPrecondition, gJson, gNoContent, notFound, readers, unknownField } from "../errors";
import type { Body } from "../../kit/input";
import type { GmailSendAs } from "../seed";
import { domainOf } from "../settings";
import { getJson, mailboxAddress, setJson } from "../store/meta";

/** How many send-as addresses a mailbox keeps, so every call on them costs a bounded amount. */
export const SEND_AS_LIMIT = 100;

/** The fields a caller sets; the others (isPrimary, verificationStatus) are Gmail's. */
const WRITABLE = [
  "sendAsEmail",
  "displayName",
  "replyToAddress",
  "signature",
  "isPrimary",
  "isDefault",
  "treatAsAlias",
  "verificationStatus",
  "smtpMsa",
];

export function checkKeys(body: Body, allowed: readonly string[], at: string): void {
  for (const key of Object.keys(body)) if (!allowed.includes(key)) fail(unknownField(key, at));
}

const load = (ctx: TwinContext) => getJson<GmailSendAs[]>(ctx.db, "send_as", []);
const save = (ctx: TwinContext, all: GmailSendAs[]) => setJson(ctx.db, "send_as", all);
const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

function indexOf(ctx: TwinContext, all: readonly GmailSendAs[]): number {
  const email = ctx.params.email ?? "";
  const at = all.findIndex((s) => same(s.sendAsEmail, email));
  return at < 0 ? fail(notFound()) : at;
}

/** One default at a time: making one the default unsets the others. */
const withDefault = (all: GmailSendAs[], email: string): GmailSendAs[] => all.map((s) => ({ ...s, isDefault: same(s.sendAsEmail, email) }));

/** Applies the caller's fields; `replace` (PUT) clears the optional ones it does not give. */
function applied(current: GmailSendAs, body: Body, replace: boolean): GmailSendAs {
  const next: GmailSendAs = { ...current };
  const displayName = readers.optString(body, "displayName");
  const signature = readers.optString(body, "signature");
  const replyTo = readers.optString(body, "replyToAddress");
  const treatAsAlias = readers.optBoolean(body, "treatAsAlias");
  if (displayName !== undefined || replace) next.displayName = displayName ?? "";
  if (signature !== undefined || replace) next.signature = signature ?? "";
  if (replyTo !== undefined) next.replyToAddress = replyTo;
  else if (replace) delete next.replyToAddress;
  if (treatAsAlias !== undefined && !current.isPrimary) next.treatAsAlias = treatAsAlias;
  return next;
}

function create(ctx: TwinContext) {
  const body = jsonBody(ctx);
  checkKeys(body, WRITABLE, "send_as");
  const email = readers.optString(body, "sendAsEmail")?.trim() ?? "";
  if (!/^[^@\s]+@[^@\s]+$/.test(email)) return fail(badRequest("Invalid send-as email address"));
  const all = load(ctx);
  if (all.some((s) => same(s.sendAsEmail, email)) || same(email, mailboxAddress(ctx.db))) return fail(alreadyExists());
  if (all.length >= SEND_AS_LIMIT) return fail(failedPrecondition());
  const accepted = domainOf(email) === domainOf(mailboxAddress(ctx.db));
  const made = applied(
    {
      sendAsEmail: email,
      displayName: "",
      signature: "",
      isPrimary: false,
      isDefault: false,
      treatAsAlias: true,
      verificationStatus: accepted ? "accepted" : "pending",
    },
    body,
    false,
  );
  const wantsDefault = readers.optBoolean(body, "isDefault") === true;
  // A pending alias cannot send, so it cannot be the default yet.
  if (wantsDefault && !accepted) return fail(failedPrecondition());
  const next = [...all, made];
  save(ctx, wantsDefault ? withDefault(next, email) : next);
  return gJson(200, wantsDefault ? { ...made, isDefault: true } : made);
}

function update(ctx: TwinContext, replace: boolean) {
  const body = jsonBody(ctx);
  checkKeys(body, WRITABLE, "send_as");
  const all = load(ctx);
  const at = indexOf(ctx, all);
  const current = all[at] ?? fail(notFound());
  const made = applied(current, body, replace);
  const wantsDefault = readers.optBoolean(body, "isDefault") === true;
  if (wantsDefault && current.verificationStatus === "pending") return fail(failedPrecondition());
  const next = all.map((s, i) => (i === at ? made : s));
  const saved = wantsDefault ? withDefault(next, current.sendAsEmail) : next;
  save(ctx, saved);
  return gJson(200, saved[at]);
}

function remove(ctx: TwinContext) {
  const all = load(ctx);
  const at = indexOf(ctx, all);
  const gone = all[at] ?? fail(notFound());
  if (gone.isPrimary) return fail(badRequest("Cannot delete the primary send-as address"));
  const rest = all.filter((_, i) => i !== at);
  // The primary address becomes the default again when the default goes.
  const primary = rest.find((s) => s.isPrimary);
  save(ctx, gone.isDefault && primary ? withDefault(rest, primary.sendAsEmail) : rest);
  return gNoContent();
}

const S = "gmail.users.settings.sendAs";

export const identityRoutes: readonly Route[] = [
  gmailRoute("GET", "/settings/sendAs", `${S}.list`, "List send-as addresses", (ctx) => gJson(200, { sendAs: load(ctx) })),
  gmailRoute("POST", "/settings/sendAs", `${S}.create`, "Create a send-as alias", create),
  gmailRoute("GET", "/settings/sendAs/:email", `${S}.get`, "Get a send-as address", (ctx) => {
    const all = load(ctx);
    return gJson(200, all[indexOf(ctx, all)]);
  }),
  gmailRoute("PUT", "/settings/sendAs/:email", `${S}.update`, "Replace a send-as address's settings", (ctx) => update(ctx, true)),
  gmailRoute("PATCH", "/settings/sendAs/:email", `${S}.patch`, "Change some of a send-as address's settings", (ctx) => update(ctx, false)),
  gmailRoute("DELETE", "/settings/sendAs/:email", `${S}.delete`, "Delete a send-as alias", remove),
  // Sends the verification mail again; the alias stays pending until its owner confirms it.
  gmailRoute("POST", "/settings/sendAs/:email/verify", `${S}.verify`, "Send a send-as alias's verification mail again", (ctx) => {
    const all = load(ctx);
    indexOf(ctx, all);
    return gNoContent();
  }),
];
