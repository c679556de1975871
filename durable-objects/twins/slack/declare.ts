// How the Slack twin declares a method's arguments (kit/route.ts bound to Slack's reading rules):
// a method's arguments are its query and its body merged (form, JSON, or multipart), declared as
// the route's body. Slack is lenient about types: numbers and booleans arrive as text in a form,
// a boolean may be "1"/"0", a string may come as a JSON number, and a JSON-valued argument
// (`blocks`, `files`, `profile`) comes JSON-encoded in a form and as itself in a JSON body. The
// helpers below accept exactly that and hand the handler the typed value. A declaration refuses
// with Slack's own `{ok:false, error}` at HTTP 200: the code a field names for itself (`no_text`,
// `channel_not_found`…), else `invalid_arguments` naming the field.
import { z } from "zod";
import { type InputProblem, routeKit } from "../kit/route";
import type { TwinContext, TwinResponse } from "../types";
import { argValues, isAbsent } from "./args";
import { blockProblems, invalidBlocksExtra } from "./blocks";
import { explained, slackError } from "./errors";

/** A Slack refusal a declared field answers with: its code and any extra fields. */
export interface Refusal {
  error: string;
  [extra: string]: unknown;
}

/**
 * A field's own refusal, carried through zod as the issue's message (the kit hands the message to
 * `refuse`): JSON, so it cannot be mistaken for one of zod's sentences.
 */
export const said = (refusal: Refusal): string => JSON.stringify(refusal);

function saidOf(message: string): Refusal | undefined {
  if (!message.startsWith("{")) return undefined;
  try {
    const parsed: unknown = JSON.parse(message);
    return typeof parsed === "object" && parsed !== null && typeof Reflect.get(parsed, "error") === "string"
      ? (parsed as Refusal)
      : undefined;
  } catch {
    return undefined;
  }
}

/** What a field answers when it is missing (required fields) or of a type Slack does not read. */
export interface FieldRefusals {
  /** A Slack code (`channel_not_found`) or a whole refusal; default `invalid_arguments`, "missing required field". */
  missing?: string | Refusal;
  /** Default `invalid_arguments` explained as "[ERROR] <field> must be …", as Slack's lenient readers word it. */
  wrong?: string | Refusal;
}

const asRefusal = (r: string | Refusal): Refusal => (typeof r === "string" ? { error: r } : r);

/** The zod error function of a helper: the field's own refusals, else a sentence `refuse` words. */
const errorOf =
  (sentence: string, refusals: FieldRefusals) =>
  (issue: { input?: unknown }): string => {
    if (issue.input === undefined) return refusals.missing ? said(asRefusal(refusals.missing)) : "missing";
    return refusals.wrong ? said(asRefusal(refusals.wrong)) : sentence;
  };

/** Text: a string, or a number or boolean as its text (a JSON body may send `"ts": 1700000000.0001`). */
export const text = (refusals: FieldRefusals = {}) =>
  z.union([z.string(), z.number(), z.boolean()], { error: errorOf("must be a string", refusals) }).transform((v) => String(v));

/** A boolean as Slack reads one: true/false, "true"/"false", "1"/"0", 1/0. */
export const flag = (refusals: FieldRefusals = {}) =>
  z
    .union([z.boolean(), z.literal(["true", "false", "1", "0", 1, 0])], { error: errorOf("must be a boolean", refusals) })
    .transform((v) => v === true || v === "true" || v === "1" || v === 1);

/** A whole number: a JSON number or its text, fractions cut (Slack's `limit=20.5` is 20). */
export const int = (refusals: FieldRefusals = {}) => {
  const error = errorOf("must be a number", refusals);
  // The pattern carries the error too: zod answers the one union member that got furthest.
  return z.union([z.number(), z.string().regex(/^-?\d+(\.\d+)?$/, { error })], { error }).transform((v, ctx) => {
    const n = Math.floor(Number(v));
    if (Number.isFinite(n)) return n;
    ctx.addIssue({ code: "custom", message: error({ input: v }) });
    return z.NEVER;
  });
};

/**
 * A list: a comma list (`public_channel,im`), a JSON array, or the JSON array's text, as
 * @slack/web-api sends either. Handed over as its strings, trimmed, empty ones left out.
 */
export const list = (refusals: FieldRefusals = {}) =>
  z
    .union([z.string(), z.number(), z.array(z.union([z.string(), z.number(), z.boolean()]))], {
      error: errorOf("must be a comma list or an array", refusals),
    })
    .transform((v, ctx): string[] => {
      if (Array.isArray(v)) return v.map(String);
      const raw = String(v);
      if (raw.trim().startsWith("[")) {
        let parsed: unknown;
        try {
          parsed = JSON.parse(raw);
        } catch {
          ctx.addIssue({ code: "custom", message: "must be JSON" });
          return z.NEVER;
        }
        if (Array.isArray(parsed)) return parsed.map(String);
      }
      return raw
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean);
    });

/**
 * A JSON-valued argument (`blocks`, `attachments`, `files`, `profile`): `shape` itself in a JSON
 * body, or its JSON text in a form, parsed and held to the same shape. What the shape lets
 * through (a block's own fields, say) is the handler's to judge, with the method's own refusal.
 * Its output passes its own input again: the MCP server parses a tool's arguments, and the tool's
 * mapping parses them once more.
 */
export const json = <T extends z.ZodType>(shape: T, refusals: FieldRefusals = {}) => {
  const error = errorOf("must be JSON", refusals);
  return z.union([shape, z.string()], { error }).transform((v, ctx): z.output<T> => {
    // The union took `v` as the shape itself, or as text.
    if (typeof v !== "string") return v as z.output<T>;
    let value: unknown;
    try {
      value = JSON.parse(v);
    } catch {
      ctx.addIssue({ code: "custom", message: "must be JSON" });
      return z.NEVER;
    }
    const parsed = shape.safeParse(value);
    if (parsed.success) return parsed.data;
    ctx.addIssue({ code: "custom", message: error({ input: value }) });
    return z.NEVER;
  });
};

/** One of a few words; anything else, absent included, is the method's own `code`. */
export const oneOf = <const V extends readonly [string, ...string[]]>(values: V, code: string) =>
  z.enum(values, { error: () => said({ error: code }) });

/** Objects, as Block Kit blocks and attachments are. */
export const objects = z.array(z.record(z.string(), z.unknown()));

const jsonOrText = (raw: string): unknown => {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
};

/**
 * Slack's refusal of what a declaration refused: the field's own code where it names one, else
 * `invalid_arguments` naming the field, as the twin's readers always worded it.
 */
function refuse(problem: InputProblem): TwinResponse {
  const field = problem.path.map(String).join(".") || "arguments";
  const own = saidOf(problem.message);
  if (own) {
    const { error, ...extra } = own;
    // A malformed `blocks` is refused with Block Kit's own sentences, as chat.postMessage does.
    if (error === "invalid_blocks") {
      const problems = blockProblems(typeof problem.received === "string" ? jsonOrText(problem.received) : problem.received);
      return slackError(error, problems.length ? invalidBlocksExtra(problems) : {});
    }
    return slackError(error, extra);
  }
  if (problem.received === undefined) {
    return slackError("invalid_arguments", explained(`missing required field: ${field}`));
  }
  const sentence = problem.message.startsWith("must be") ? problem.message : `is invalid: ${problem.message}`;
  return slackError("invalid_arguments", explained(`${field} ${sentence}`));
}

/**
 * The arguments a declaration reads: the merged query and body, without those Slack reads as not
 * given (null, empty), so an empty `thread_ts=` is no thread, as on Slack.
 */
function declaredArguments(ctx: TwinContext): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(argValues(ctx))) if (!isAbsent(value)) out[key] = value;
  return out;
}

/** The Slack twin's route builder: a method's arguments are its declared body. */
export const slackRoute = routeKit({
  refuse,
  unparsable: () => slackError("invalid_json"),
  bodyEncoding: "form",
  emptyIsAbsent: true,
  readBody: declaredArguments,
});

// Arguments many methods share, described once for their tools and OpenAPI entries.

/** A conversation id; absent, it is the conversation Slack cannot find. */
export const channelId = () => text({ missing: "channel_not_found" }).describe("A conversation id (C…, G…, D…)");
/** Where a post goes: what chat.postMessage takes as `channel`. */
export const postChannel = () =>
  text({ missing: "channel_not_found" }).describe(
    "A conversation id, a channel name (#general or general), or a user id for the bot's DM with them",
  );
export const TS_TEXT = "A message ts, e.g. 1700000000.000100";
export const USER_TEXT = "A user id (U…)";
export const limit = () => int().optional().describe("Page size");
export const cursor = () => text().optional().describe("response_metadata.next_cursor of the previous page");
export const typeList = () =>
  list().optional().describe("Comma list of public_channel, private_channel, mpim, im (default public_channel)");
