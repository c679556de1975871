// users.settings getImap/updateImap, getPop/updatePop, getLanguage/updateLanguage: how mail
// clients reach the mailbox and the language Gmail shows it in. An update changes the fields it
// gives and keeps the others.
import type { Route, TwinContext } from "../../types";
import { gmailRoute, jsonBody } from "../context";
import { badRequest, fail, gJson, readers } from "../errors";
import {
  DEFAULT_IMAP,
  DEFAULT_LANGUAGE,
  DEFAULT_POP,
  DISPOSITIONS,
  EXPUNGE_BEHAVIORS,
  IMAP_FOLDER_SIZES,
  POP_WINDOWS,
  type GmailImap,
  type GmailLanguage,
  type GmailPop,
} from "../settings";
import { getJson, setJson } from "../store/meta";
import { checkKeys } from "./identities";

function updateImap(ctx: TwinContext) {
  const body = jsonBody(ctx);
  checkKeys(body, ["enabled", "autoExpunge", "expungeBehavior", "maxFolderSize"], "imap_settings");
  const next: GmailImap = { ...getJson<GmailImap>(ctx.db, "imap", DEFAULT_IMAP) };
  next.enabled = readers.optBoolean(body, "enabled") ?? next.enabled;
  next.autoExpunge = readers.optBoolean(body, "autoExpunge") ?? next.autoExpunge;
  next.expungeBehavior = readers.oneOf(body.expungeBehavior, EXPUNGE_BEHAVIORS, "imap_settings", "expungeBehavior") ?? next.expungeBehavior;
  const size = readers.optNumber(body, "maxFolderSize");
  if (typeof size === "number") {
    // "Legal values are 0 (no limit), 1000, 2000, 5000 or 10000" (ImapSettings.maxFolderSize).
    if (!(IMAP_FOLDER_SIZES as readonly number[]).includes(size)) return fail(badRequest(`Invalid maxFolderSize: ${size}`));
    next.maxFolderSize = size;
  }
  setJson(ctx.db, "imap", next);
  return gJson(200, next);
}

function updatePop(ctx: TwinContext) {
  const body = jsonBody(ctx);
  checkKeys(body, ["accessWindow", "disposition"], "pop_settings");
  const current = getJson<GmailPop>(ctx.db, "pop", DEFAULT_POP);
  const next: GmailPop = {
    accessWindow: readers.oneOf(body.accessWindow, POP_WINDOWS, "pop_settings", "accessWindow") ?? current.accessWindow,
    disposition: readers.oneOf(body.disposition, DISPOSITIONS, "pop_settings", "disposition") ?? current.disposition,
  };
  setJson(ctx.db, "pop", next);
  return gJson(200, next);
}

/** A BCP 47 language tag, as LanguageSettings.displayLanguage takes one (`en`, `en-GB`, `pt-BR`). */
const LANGUAGE_TAG = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8}){0,3}$/;

function updateLanguage(ctx: TwinContext) {
  const body = jsonBody(ctx);
  checkKeys(body, ["displayLanguage"], "language_settings");
  const tag = readers.optString(body, "displayLanguage");
  if (tag === undefined || !LANGUAGE_TAG.test(tag)) return fail(badRequest(`Invalid display language: ${tag ?? ""}`));
  const next: GmailLanguage = { displayLanguage: tag };
  setJson(ctx.db, "language", next);
  return gJson(200, next);
}

const S = "gmail.users.settings";

export const accessRoutes: readonly Route[] = [
  gmailRoute("GET", "/settings/imap", `${S}.getImap`, "Get the IMAP settings", (ctx) => gJson(200, getJson(ctx.db, "imap", DEFAULT_IMAP))),
  gmailRoute("PUT", "/settings/imap", `${S}.updateImap`, "Change the IMAP settings", updateImap),
  gmailRoute("GET", "/settings/pop", `${S}.getPop`, "Get the POP settings", (ctx) => gJson(200, getJson(ctx.db, "pop", DEFAULT_POP))),
  gmailRoute("PUT", "/settings/pop", `${S}.updatePop`, "Change the POP settings", updatePop),
  gmailRoute("GET", "/settings/language", `${S}.getLanguage`, "Get the display language", (ctx) =>
    gJson(200, getJson(ctx.db, "language", DEFAULT_LANGUAGE)),
  ),
  gmailRoute("PUT", "/settings/language", `${S}.updateLanguage`, "Change the display language", updateLanguage),
];
