// users.settings.forwardingAddresses, getAutoForwarding/updateAutoForwarding and delegates.
// A forwarding address in the mailbox's own domain is accepted at once; one elsewhere is
// `pending` until its owner confirms Gmail's mail, and mail is forwarded only to an accepted one
// (https://developers.google.com/gmail/api/reference/rest/v1/users.settings.forwardingAddresses/create).
// Delegates must belong to the mailbox's own organisation (its domain here) and are accepted at
// once (https://developers.google.com/gmail/api/reference/rest/v1/users.settings.delegates/create).
import { z } from "zod";
import type { InputProblem } from "../../kit/route";
import type { Route, TwinContext, TwinResponse } from "../../types";
import { gmailRoute } from "../declare";
import { alreadyExists, badRequest, fail, failedPrecondition, gJson, gNoContent, notFound } from "../errors";
import { DISPOSITIONS, domainOf, type GmailAutoForwarding, type GmailDelegate, type GmailForwardingAddress } from "../settings";
import { getJson, mailboxAddress, setJson } from "../store/meta";
import { checkKeys } from "./identities";

/** How many forwarding addresses and delegates a mailbox keeps (each call costs a bounded amount). */
export const SETTINGS_LIST_LIMIT = 100;

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
const isAddress = (v: string) => /^[^@\s]+@[^@\s]+$/.test(v);

const forwardingOf = (ctx: TwinContext) => getJson<GmailForwardingAddress[]>(ctx.db, "forwarding_addresses", []);
const autoForwardingOf = (ctx: TwinContext) => getJson<GmailAutoForwarding>(ctx.db, "auto_forwarding", { enabled: false });
const delegatesOf = (ctx: TwinContext) => getJson<GmailDelegate[]>(ctx.db, "delegates", []);

/**
 * Gmail's words for a create that names no address (no body, or none with the address field).
 * Bodies keep every key so the handler refuses one Gmail does not know by name.
 */
const namesNoAddress = (field: string, refusal: () => TwinResponse) => (problem: InputProblem) => {
  const namesNothing = problem.path.length === 0 || (problem.path.length === 1 && problem.path[0] === field);
  return problem.place === "body" && namesNothing && problem.received === undefined ? refusal() : undefined;
};

const forwardingBody = z.looseObject({ forwardingEmail: z.string().describe("The address to forward to") });

function createForwarding(ctx: TwinContext, body: z.output<typeof forwardingBody>) {
  checkKeys(body, ["forwardingEmail", "verificationStatus"], "forwarding_address");
  const email = body.forwardingEmail.trim();
  if (!isAddress(email)) return fail(badRequest("Invalid forwarding email address"));
  const all = forwardingOf(ctx);
  if (all.some((f) => same(f.forwardingEmail, email))) return fail(alreadyExists());
  if (all.length >= SETTINGS_LIST_LIMIT) return fail(failedPrecondition());
  const made: GmailForwardingAddress = {
    forwardingEmail: email,
    verificationStatus: domainOf(email) === domainOf(mailboxAddress(ctx.db)) ? "accepted" : "pending",
  };
  setJson(ctx.db, "forwarding_addresses", [...all, made]);
  return gJson(200, made);
}

function forwardingAt(ctx: TwinContext, email: string): GmailForwardingAddress {
  return forwardingOf(ctx).find((f) => same(f.forwardingEmail, email)) ?? fail(notFound());
}

function deleteForwarding(ctx: TwinContext, email: string) {
  const gone = forwardingAt(ctx, email);
  setJson(
    ctx.db,
    "forwarding_addresses",
    forwardingOf(ctx).filter((f) => f !== gone && !same(f.forwardingEmail, gone.forwardingEmail)),
  );
  // Forwarding to an address that is gone stops.
  const auto = autoForwardingOf(ctx);
  if (auto.enabled && same(auto.emailAddress ?? "", gone.forwardingEmail)) setJson(ctx.db, "auto_forwarding", { ...auto, enabled: false });
  return gNoContent();
}

const autoForwardingBody = z
  .looseObject({
    enabled: z.boolean().optional().describe("Whether to forward arriving mail (default off)"),
    emailAddress: z.string().optional().describe("An accepted forwarding address"),
    disposition: z.enum(DISPOSITIONS).optional().describe("What to do with Gmail's copy (default leaveInInbox)"),
  })
  .default({});

function updateAutoForwarding(ctx: TwinContext, body: z.output<typeof autoForwardingBody>) {
  checkKeys(body, ["enabled", "emailAddress", "disposition"], "auto_forwarding");
  const { emailAddress, disposition } = body;
  const enabled = body.enabled ?? false;
  const out: GmailAutoForwarding = { enabled };
  if (emailAddress !== undefined) out.emailAddress = emailAddress;
  if (disposition !== undefined) out.disposition = disposition;
  if (enabled) {
    // Gmail forwards only to a forwarding address its owner accepted.
    const target = forwardingOf(ctx).find((f) => same(f.forwardingEmail, emailAddress ?? ""));
    if (!target) return fail(badRequest("Forwarding address not found; add it with forwardingAddresses.create first"));
    if (target.verificationStatus !== "accepted") return fail(failedPrecondition());
    // What Gmail's settings page starts with: keep Gmail's copy in the inbox.
    out.disposition ??= "leaveInInbox";
  }
  setJson(ctx.db, "auto_forwarding", out);
  return gJson(200, out);
}

const delegateBody = z.looseObject({ delegateEmail: z.string().describe("The delegate's address, in the mailbox's organisation") });
const invalidDelegate = () => badRequest("Invalid delegate");

function createDelegate(ctx: TwinContext, body: z.output<typeof delegateBody>) {
  checkKeys(body, ["delegateEmail", "verificationStatus"], "delegate");
  const email = body.delegateEmail.trim();
  const mailbox = mailboxAddress(ctx.db);
  if (!isAddress(email) || same(email, mailbox)) return fail(invalidDelegate());
  // "The delegate user must be a member of the same Google Workspace organization as the delegator user."
  if (domainOf(email) !== domainOf(mailbox)) return fail(invalidDelegate());
  const all = delegatesOf(ctx);
  if (all.some((d) => same(d.delegateEmail, email))) return fail(alreadyExists());
  if (all.length >= SETTINGS_LIST_LIMIT) return fail(failedPrecondition());
  const made: GmailDelegate = { delegateEmail: email, verificationStatus: "accepted" };
  setJson(ctx.db, "delegates", [...all, made]);
  return gJson(200, made);
}

function delegateAt(ctx: TwinContext, email: string): GmailDelegate {
  return delegatesOf(ctx).find((d) => same(d.delegateEmail, email)) ?? fail(notFound());
}

const S = "gmail.users.settings";
const byForwarding = { forwardingEmail: z.string().min(1).describe("The forwarding address") };
const byDelegate = { delegateEmail: z.string().min(1).describe("The delegate's address") };

export const forwardingRoutes: readonly Route[] = [
  gmailRoute({
    method: "GET",
    path: "/settings/forwardingAddresses",
    operation: `${S}.forwardingAddresses.list`,
    summary: "List forwarding addresses",
    tool: { name: "list_forwarding_addresses", description: "The addresses mail may be forwarded to, with their verification status." },
    handler: (ctx) => {
      const all = forwardingOf(ctx);
      return gJson(200, all.length ? { forwardingAddresses: all } : {});
    },
  }),
  gmailRoute({
    method: "POST",
    path: "/settings/forwardingAddresses",
    operation: `${S}.forwardingAddresses.create`,
    summary: "Add a forwarding address",
    body: forwardingBody,
    refuse: namesNoAddress("forwardingEmail", () => badRequest("Invalid forwarding email address")),
    tool: {
      name: "create_forwarding_address",
      description: "Add a forwarding address; one outside the mailbox's domain stays pending until its owner confirms it.",
    },
    handler: (ctx, { body }) => createForwarding(ctx, body),
  }),
  gmailRoute({
    method: "GET",
    path: "/settings/forwardingAddresses/:forwardingEmail",
    operation: `${S}.forwardingAddresses.get`,
    summary: "Get a forwarding address",
    params: byForwarding,
    handler: (ctx, { params }) => gJson(200, forwardingAt(ctx, params.forwardingEmail)),
  }),
  gmailRoute({
    method: "DELETE",
    path: "/settings/forwardingAddresses/:forwardingEmail",
    operation: `${S}.forwardingAddresses.delete`,
    summary: "Delete a forwarding address",
    params: byForwarding,
    handler: (ctx, { params }) => deleteForwarding(ctx, params.forwardingEmail),
  }),
  gmailRoute({
    method: "GET",
    path: "/settings/autoForwarding",
    operation: `${S}.getAutoForwarding`,
    summary: "Get the auto-forwarding setting",
    tool: {
      name: "get_auto_forwarding",
      description: "Whether arriving mail is forwarded, to which address, and what happens to Gmail's copy.",
    },
    handler: (ctx) => gJson(200, autoForwardingOf(ctx)),
  }),
  gmailRoute({
    method: "PUT",
    path: "/settings/autoForwarding",
    operation: `${S}.updateAutoForwarding`,
    summary: "Turn auto-forwarding on or off",
    body: autoForwardingBody,
    tool: {
      name: "update_auto_forwarding",
      description: "Turn forwarding of arriving mail on (to an accepted forwarding address) or off.",
    },
    handler: (ctx, { body }) => updateAutoForwarding(ctx, body),
  }),
  gmailRoute({
    method: "GET",
    path: "/settings/delegates",
    operation: `${S}.delegates.list`,
    summary: "List delegates",
    tool: { name: "list_delegates", description: "The people who may read and send mail on the mailbox's behalf." },
    handler: (ctx) => {
      const all = delegatesOf(ctx);
      return gJson(200, all.length ? { delegates: all } : {});
    },
  }),
  gmailRoute({
    method: "POST",
    path: "/settings/delegates",
    operation: `${S}.delegates.create`,
    summary: "Add a delegate",
    body: delegateBody,
    refuse: namesNoAddress("delegateEmail", invalidDelegate),
    handler: (ctx, { body }) => createDelegate(ctx, body),
  }),
  gmailRoute({
    method: "GET",
    path: "/settings/delegates/:delegateEmail",
    operation: `${S}.delegates.get`,
    summary: "Get a delegate",
    params: byDelegate,
    handler: (ctx, { params }) => gJson(200, delegateAt(ctx, params.delegateEmail)),
  }),
  gmailRoute({
    method: "DELETE",
    path: "/settings/delegates/:delegateEmail",
    operation: `${S}.delegates.delete`,
    summary: "Remove a delegate",
    params: byDelegate,
    handler: (ctx, { params }) => {
      const gone = delegateAt(ctx, params.delegateEmail);
      setJson(
        ctx.db,
        "delegates",
        delegatesOf(ctx).filter((d) => !same(d.delegateEmail, gone.delegateEmail)),
      );
      return gNoContent();
    },
  }),
];
