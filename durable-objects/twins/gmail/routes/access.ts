// users.settings getImap/updateImap, getPop/updatePop, getLanguage/updateLanguage: how mail
// clients reach the mailbox and the language Gmail shows it in. An update changes the fields it
// gives and keeps the others.
import { z } from "zod";
import type { Route, TwinContext } from "../../types";
import { gmailRoute } from "../declare";
import { badRequest, fail, gJson } from "../errors";
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

// Each body keeps every key, so the handler refuses one Gmail does not know by name.

const imapBody = z
  .looseObject({
    enabled: z.boolean().optional().describe("Whether IMAP is on"),
    autoExpunge: z.boolean().optional().describe("Expunge at once when a message is marked deleted"),
    expungeBehavior: z.enum(EXPUNGE_BEHAVIORS).optional().describe("What an expunge does"),
    // A whole JSON number, or one written as digits (Google's int form); null leaves it as it is.
    maxFolderSize: z
      .union([z.number().int(), z.string().regex(/^\d+$/)])
      .nullable()
      .optional()
      .describe("Most messages an IMAP folder shows: 0 (no limit), 1000, 2000, 5000 or 10000"),
  })
  .default({});

function updateImap(ctx: TwinContext, body: z.output<typeof imapBody>) {
  checkKeys(body, ["enabled", "autoExpunge", "expungeBehavior", "maxFolderSize"], "imap_settings");
  const next: GmailImap = { ...getJson<GmailImap>(ctx.db, "imap", DEFAULT_IMAP) };
  next.enabled = body.enabled ?? next.enabled;
  next.autoExpunge = body.autoExpunge ?? next.autoExpunge;
  next.expungeBehavior = body.expungeBehavior ?? next.expungeBehavior;
  if (body.maxFolderSize !== undefined && body.maxFolderSize !== null) {
    const size = Number(body.maxFolderSize);
    // "Legal values are 0 (no limit), 1000, 2000, 5000 or 10000" (ImapSettings.maxFolderSize).
    if (!(IMAP_FOLDER_SIZES as readonly number[]).includes(size)) return fail(badRequest(`Invalid maxFolderSize: ${size}`));
    next.maxFolderSize = size;
  }
  setJson(ctx.db, "imap", next);
  return gJson(200, next);
}

const popBody = z
  .looseObject({
    accessWindow: z.enum(POP_WINDOWS).optional().describe("Which mail POP serves"),
    disposition: z.enum(DISPOSITIONS).optional().describe("What happens to Gmail's copy once fetched"),
  })
  .default({});

function updatePop(ctx: TwinContext, body: z.output<typeof popBody>) {
  checkKeys(body, ["accessWindow", "disposition"], "pop_settings");
  const current = getJson<GmailPop>(ctx.db, "pop", DEFAULT_POP);
  const next: GmailPop = {
    accessWindow: body.accessWindow ?? current.accessWindow,
    disposition: body.disposition ?? current.disposition,
  };
  setJson(ctx.db, "pop", next);
  return gJson(200, next);
}

/** A BCP 47 language tag, as LanguageSettings.displayLanguage takes one (`en`, `en-GB`, `pt-BR`). */
const LANGUAGE_TAG = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8}){0,3}$/;

const languageBody = z
  .looseObject({ displayLanguage: z.string().optional().describe("A BCP 47 language tag, e.g. en or pt-BR") })
  .default({});

function updateLanguage(ctx: TwinContext, body: z.output<typeof languageBody>) {
  checkKeys(body, ["displayLanguage"], "language_settings");
  const tag = body.displayLanguage;
  if (tag === undefined || !LANGUAGE_TAG.test(tag)) return fail(badRequest(`Invalid display language: ${tag ?? ""}`));
  const next: GmailLanguage = { displayLanguage: tag };
  setJson(ctx.db, "language", next);
  return gJson(200, next);
}

const S = "gmail.users.settings";

export const accessRoutes: readonly Route[] = [
  gmailRoute({
    method: "GET",
    path: "/settings/imap",
    operation: `${S}.getImap`,
    summary: "Get the IMAP settings",
    handler: (ctx) => gJson(200, getJson(ctx.db, "imap", DEFAULT_IMAP)),
  }),
  gmailRoute({
    method: "PUT",
    path: "/settings/imap",
    operation: `${S}.updateImap`,
    summary: "Change the IMAP settings",
    body: imapBody,
    handler: (ctx, { body }) => updateImap(ctx, body),
  }),
  gmailRoute({
    method: "GET",
    path: "/settings/pop",
    operation: `${S}.getPop`,
    summary: "Get the POP settings",
    handler: (ctx) => gJson(200, getJson(ctx.db, "pop", DEFAULT_POP)),
  }),
  gmailRoute({
    method: "PUT",
    path: "/settings/pop",
    operation: `${S}.updatePop`,
    summary: "Change the POP settings",
    body: popBody,
    handler: (ctx, { body }) => updatePop(ctx, body),
  }),
  gmailRoute({
    method: "GET",
    path: "/settings/language",
    operation: `${S}.getLanguage`,
    summary: "Get the display language",
    handler: (ctx) => gJson(200, getJson(ctx.db, "language", DEFAULT_LANGUAGE)),
  }),
  gmailRoute({
    method: "PUT",
    path: "/settings/language",
    operation: `${S}.updateLanguage`,
    summary: "Change the display language",
    body: languageBody,
    handler: (ctx, { body }) => updateLanguage(ctx, body),
  }),
];
