// users.settings.forwardingAddresses, getAutoForwarding/updateAutoForwarding and delegates.
// A forwarding address in the mailbox's own domain is accepted at once; one elsewhere is
// `pending` until its owner confirms Gmail's mail, and mail is forwarded only to an accepted one
// (https://developers.google.com/gmail/api/reference/rest/v1/users.settings.forwardingAddresses/create).
// Delegates must belong to the mailbox's own organisation (its domain here) and are accepted at
// once (https://developers.google.com/gmail/api/reference/rest/v1/users.settings.delegates/create).
import type { Route, TwinContext } from "../../types";
import { gmailRoute, jsonBody } from "../context";
import { alreadyExists, badRequest, fail, failedPrecondition, gJson, gNoContent, notFound, readers } from "../errors";
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

function createForwarding(ctx: TwinContext) {
  const body = jsonBody(ctx);
  checkKeys(body, ["forwardingEmail", "verificationStatus"], "forwarding_address");
  const email = readers.optString(body, "forwardingEmail")?.trim() ?? "";
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

function forwardingAt(ctx: TwinContext): GmailForwardingAddress {
  const email = ctx.params.email ?? "";
  return forwardingOf(ctx).find((f) => same(f.forwardingEmail, email)) ?? fail(notFound());
}

function deleteForwarding(ctx: TwinContext) {
  const gone = forwardingAt(ctx);
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

function updateAutoForwarding(ctx: TwinContext) {
  const body = jsonBody(ctx);
  checkKeys(body, ["enabled", "emailAddress", "disposition"], "auto_forwarding");
  const enabled = readers.optBoolean(body, "enabled") ?? false;
  const emailAddress = readers.optString(body, "emailAddress");
  const disposition = readers.oneOf(body.disposition, DISPOSITIONS, "auto_forwarding", "disposition");
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

function createDelegate(ctx: TwinContext) {
  const body = jsonBody(ctx);
  checkKeys(body, ["delegateEmail", "verificationStatus"], "delegate");
  const email = readers.optString(body, "delegateEmail")?.trim() ?? "";
  const mailbox = mailboxAddress(ctx.db);
  if (!isAddress(email) || same(email, mailbox)) return fail(badRequest("Invalid delegate"));
  // "The delegate user must be a member of the same Google Workspace organization as the delegator user."
  if (domainOf(email) !== domainOf(mailbox)) return fail(badRequest("Invalid delegate"));
  const all = delegatesOf(ctx);
  if (all.some((d) => same(d.delegateEmail, email))) return fail(alreadyExists());
  if (all.length >= SETTINGS_LIST_LIMIT) return fail(failedPrecondition());
  const made: GmailDelegate = { delegateEmail: email, verificationStatus: "accepted" };
  setJson(ctx.db, "delegates", [...all, made]);
  return gJson(200, made);
}

function delegateAt(ctx: TwinContext): GmailDelegate {
  const email = ctx.params.email ?? "";
  return delegatesOf(ctx).find((d) => same(d.delegateEmail, email)) ?? fail(notFound());
}

const S = "gmail.users.settings";

export const forwardingRoutes: readonly Route[] = [
  gmailRoute("GET", "/settings/forwardingAddresses", `${S}.forwardingAddresses.list`, "List forwarding addresses", (ctx) => {
    const all = forwardingOf(ctx);
    return gJson(200, all.length ? { forwardingAddresses: all } : {});
  }),
  gmailRoute("POST", "/settings/forwardingAddresses", `${S}.forwardingAddresses.create`, "Add a forwarding address", createForwarding),
  gmailRoute("GET", "/settings/forwardingAddresses/:email", `${S}.forwardingAddresses.get`, "Get a forwarding address", (ctx) =>
    gJson(200, forwardingAt(ctx)),
  ),
  gmailRoute(
    "DELETE",
    "/settings/forwardingAddresses/:email",
    `${S}.forwardingAddresses.delete`,
    "Delete a forwarding address",
    deleteForwarding,
  ),
  gmailRoute("GET", "/settings/autoForwarding", `${S}.getAutoForwarding`, "Get the auto-forwarding setting", (ctx) =>
    gJson(200, autoForwardingOf(ctx)),
  ),
  gmailRoute("PUT", "/settings/autoForwarding", `${S}.updateAutoForwarding`, "Turn auto-forwarding on or off", updateAutoForwarding),
  gmailRoute("GET", "/settings/delegates", `${S}.delegates.list`, "List delegates", (ctx) => {
    const all = delegatesOf(ctx);
    return gJson(200, all.length ? { delegates: all } : {});
  }),
  gmailRoute("POST", "/settings/delegates", `${S}.delegates.create`, "Add a delegate", createDelegate),
  gmailRoute("GET", "/settings/delegates/:email", `${S}.delegates.get`, "Get a delegate", (ctx) => gJson(200, delegateAt(ctx))),
  gmailRoute("DELETE", "/settings/delegates/:email", `${S}.delegates.delete`, "Remove a delegate", (ctx) => {
    const gone = delegateAt(ctx);
    setJson(
      ctx.db,
      "delegates",
      delegatesOf(ctx).filter((d) => !same(d.delegateEmail, gone.delegateEmail)),
    );
    return gNoContent();
  }),
];
