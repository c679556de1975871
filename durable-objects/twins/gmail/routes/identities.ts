// users.settings.sendAs: the addresses the mailbox sends as, with their display names, reply-to
// addresses and signatures. An alias in the mailbox's own domain is accepted at once; one
// elsewhere waits (`pending`) for its owner to confirm the mail Gmail sends it, and cannot send
// until then (https://developers.google.com/gmail/api/reference/rest/v1/users.settings.sendAs/create).
import { z } from "zod";
import type { Body } from "../../kit/input";
import type { InputProblem } from "../../kit/route";
import type { Route, TwinContext, TwinResponse } from "../../types";
import { gmailRoute } from "../declare";
import {
  alreadyExists,
  badRequest,
  fail,
  failedPrecondition,
  gJson,
  gNoContent,
  notFound,
  unknownField,
  unverifiedDefault,
} from "../errors";
import { sanitizeSignature } from "../sanitize";
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

function indexOf(all: readonly GmailSendAs[], email: string): number {
  const at = all.findIndex((s) => same(s.sendAsEmail, email));
  return at < 0 ? fail(notFound()) : at;
}

/** One default at a time: making one the default unsets the others. */
const withDefault = (all: GmailSendAs[], email: string): GmailSendAs[] => all.map((s) => ({ ...s, isDefault: same(s.sendAsEmail, email) }));

/**
 * The fields of a send-as address a caller sets. Every key is kept so the handler can refuse one
 * Gmail does not know by name; the ones Gmail sets itself (isPrimary, verificationStatus, smtpMsa)
 * are taken and ignored.
 */
const sendAsFields = {
  displayName: z.string().optional().describe("Name shown in From"),
  replyToAddress: z.string().optional().describe("Reply-To address for mail sent as this address"),
  signature: z.string().optional().describe("Signature, as HTML"),
  isDefault: z.boolean().optional().describe("Make it the address mail is sent from by default (an accepted one only)"),
  treatAsAlias: z.boolean().optional().describe("Whether Gmail treats it as an alias of the mailbox"),
};
const sendAsBody = z.looseObject(sendAsFields).default({});
const createBody = z.looseObject({ sendAsEmail: z.string().describe("The address to send as"), ...sendAsFields });
type SendAsBody = z.output<typeof sendAsBody>;

/** Gmail's words for a create that names no address (no body, or none with sendAsEmail). */
function createRefusal(problem: InputProblem): TwinResponse | undefined {
  const namesNothing = problem.path.length === 0 || (problem.path.length === 1 && problem.path[0] === "sendAsEmail");
  if (problem.place === "body" && namesNothing && problem.received === undefined) return badRequest("Invalid send-as email address");
  return undefined;
}

/** Applies the caller's fields; `replace` (PUT) clears the optional ones it does not give. */
function applied(current: GmailSendAs, body: SendAsBody, replace: boolean): GmailSendAs {
  const next: GmailSendAs = { ...current };
  const { displayName, signature, replyToAddress: replyTo, treatAsAlias } = body;
  if (displayName !== undefined || replace) next.displayName = displayName ?? "";
  // Gmail "will sanitize the HTML before saving it with the alias" (sanitize.ts).
  if (signature !== undefined || replace) next.signature = sanitizeSignature(signature ?? "");
  if (replyTo !== undefined) next.replyToAddress = replyTo;
  else if (replace) delete next.replyToAddress;
  if (treatAsAlias !== undefined && !current.isPrimary) next.treatAsAlias = treatAsAlias;
  return next;
}

function create(ctx: TwinContext, body: z.output<typeof createBody>) {
  checkKeys(body, WRITABLE, "send_as");
  const email = body.sendAsEmail.trim();
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
  const wantsDefault = body.isDefault === true;
  // A pending alias cannot send, so it cannot be the default yet (Gmail's words, errors.ts).
  if (wantsDefault && !accepted) return fail(unverifiedDefault());
  const next = [...all, made];
  save(ctx, wantsDefault ? withDefault(next, email) : next);
  return gJson(200, wantsDefault ? { ...made, isDefault: true } : made);
}

function update(ctx: TwinContext, email: string, body: SendAsBody, replace: boolean) {
  checkKeys(body, WRITABLE, "send_as");
  const all = load(ctx);
  const at = indexOf(all, email);
  const current = all[at] ?? fail(notFound());
  const made = applied(current, body, replace);
  const wantsDefault = body.isDefault === true;
  if (wantsDefault && current.verificationStatus === "pending") return fail(unverifiedDefault());
  const next = all.map((s, i) => (i === at ? made : s));
  const saved = wantsDefault ? withDefault(next, current.sendAsEmail) : next;
  save(ctx, saved);
  return gJson(200, saved[at]);
}

function remove(ctx: TwinContext, email: string) {
  const all = load(ctx);
  const at = indexOf(all, email);
  const gone = all[at] ?? fail(notFound());
  if (gone.isPrimary) return fail(badRequest("Cannot delete the primary send-as address"));
  const rest = all.filter((_, i) => i !== at);
  // The primary address becomes the default again when the default goes.
  const primary = rest.find((s) => s.isPrimary);
  save(ctx, gone.isDefault && primary ? withDefault(rest, primary.sendAsEmail) : rest);
  return gNoContent();
}

const S = "gmail.users.settings.sendAs";
const byEmail = { sendAsEmail: z.string().min(1).describe("The send-as address, e.g. the mailbox's own address") };

export const identityRoutes: readonly Route[] = [
  gmailRoute({
    method: "GET",
    path: "/settings/sendAs",
    operation: `${S}.list`,
    summary: "List send-as addresses",
    tool: { name: "list_send_as", description: "The addresses the mailbox can send as, with display names." },
    handler: (ctx) => gJson(200, { sendAs: load(ctx) }),
  }),
  gmailRoute({
    method: "POST",
    path: "/settings/sendAs",
    operation: `${S}.create`,
    summary: "Create a send-as alias",
    body: createBody,
    refuse: createRefusal,
    tool: {
      name: "create_send_as",
      description: "Add an address to send as; one outside the mailbox's domain stays pending until its owner confirms it.",
    },
    handler: (ctx, { body }) => create(ctx, body),
  }),
  gmailRoute({
    method: "GET",
    path: "/settings/sendAs/:sendAsEmail",
    operation: `${S}.get`,
    summary: "Get a send-as address",
    params: byEmail,
    handler: (ctx, { params }) => {
      const all = load(ctx);
      return gJson(200, all[indexOf(all, params.sendAsEmail)]);
    },
  }),
  gmailRoute({
    method: "PUT",
    path: "/settings/sendAs/:sendAsEmail",
    operation: `${S}.update`,
    summary: "Replace a send-as address's settings",
    params: byEmail,
    body: sendAsBody,
    handler: (ctx, { params, body }) => update(ctx, params.sendAsEmail, body, true),
  }),
  gmailRoute({
    method: "PATCH",
    path: "/settings/sendAs/:sendAsEmail",
    operation: `${S}.patch`,
    summary: "Change some of a send-as address's settings",
    params: byEmail,
    body: sendAsBody,
    tool: {
      name: "update_send_as",
      description: "Change a send-as address's display name, reply-to address or signature (HTML); only the fields given change.",
    },
    handler: (ctx, { params, body }) => update(ctx, params.sendAsEmail, body, false),
  }),
  gmailRoute({
    method: "DELETE",
    path: "/settings/sendAs/:sendAsEmail",
    operation: `${S}.delete`,
    summary: "Delete a send-as alias",
    params: byEmail,
    handler: (ctx, { params }) => remove(ctx, params.sendAsEmail),
  }),
  // Sends the verification mail again; the alias stays pending until its owner confirms it. Gmail:
  // "The verification status must be pending" (users.settings.sendAs/verify), so an accepted
  // alias, or the primary address, is refused with Gmail's failed-precondition body.
  gmailRoute({
    method: "POST",
    path: "/settings/sendAs/:sendAsEmail/verify",
    operation: `${S}.verify`,
    summary: "Send a send-as alias's verification mail again",
    params: byEmail,
    handler: (ctx, { params }) => {
      const all = load(ctx);
      const alias = all[indexOf(all, params.sendAsEmail)];
      if (alias?.verificationStatus !== "pending") return fail(failedPrecondition());
      return gNoContent();
    },
  }),
];
