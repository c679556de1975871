// How a Gmail route declares its inputs, once: the kit's route builder (kit/route.ts) bound to the
// way Google's front end reads a Gmail call (JSON bodies, lists as repeated query keys, the
// mailbox's `userId` first in every path) and refuses one (Google's error body, worded as the
// twin's readers in errors.ts word it, so a declared route answers as the hand-read one did).
// The same declaration gives the route its MCP tool and its OpenAPI entry.
import { z } from "zod";
import { type InputProblem, type RouteSpec, routeKit, valueAt } from "../kit/route";
import type { Route, TwinContext, TwinResponse } from "../types";
import { API, guarded, UPLOAD, uploadedMetadata } from "./context";
import { badRequest, fail, gError, invalidJson } from "./errors";
import { serveUpload } from "./resumable";

/** The proto field and type Google's parser names when a query value does not read as one. */
const QUERY_FIELDS: Readonly<Record<string, string>> = {
  maxResults: "'max_results' (TYPE_UINT32)",
  format: "'format' (type.googleapis.com/google.apps.gmail.v1.Format)",
  startHistoryId: "'start_history_id' (TYPE_UINT64)",
};

const snakeCase = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * A body field the declaration refuses, as the readers word it: the innermost field holding the
 * bad value, quoted whole (a list with one bad item is quoted as the list). A body that is not an
 * object at all is not the JSON the method takes.
 */
function bodyRefusal(problem: InputProblem): TwinResponse {
  let at = -1;
  problem.path.forEach((key, i) => {
    if (typeof key === "string") at = i;
  });
  if (at < 0) return invalidJson();
  const key = String(problem.path[at]);
  const value = valueAt(problem.input, problem.path.slice(0, at + 1));
  return gError(400, `Invalid value at '${key}', ${JSON.stringify(value)}`, "invalid");
}

/** Google's refusal of the first input a Gmail declaration refuses. */
export function gmailRefusal(problem: InputProblem): TwinResponse {
  if (problem.place === "body") return bodyRefusal(problem);
  const name = String(problem.path[0] ?? "");
  if (problem.received === undefined) return badRequest(`Missing required field: ${name}`);
  return badRequest(`Invalid value at ${QUERY_FIELDS[name] ?? `'${snakeCase(name)}'`}, "${String(problem.received)}"`);
}

const rules = { refuse: gmailRefusal, unparsable: invalidJson, bodyEncoding: "json" as const };
const route = routeKit(rules);

/** A route outside the mailbox's paths (the batch endpoint), declared by the same rules. */
export const gmailRootRoute = route;

/** The mailbox a call names; Gmail serves only the caller's own (checked in context.ts). */
const mailbox = { userId: z.string().default("me").describe('The mailbox: "me", or its own address') };
type Mailbox = typeof mailbox;
type Shape = z.ZodRawShape;

export interface GmailRouteSpec<P extends Shape, Q extends Shape, B extends z.ZodType>
  extends Omit<RouteSpec<Mailbox & P, Q, B>, "pattern" | "params"> {
  /** The path under `/gmail/v1/users/{userId}` (or the upload root), starting with `/`. */
  path: string;
  params?: P;
  /**
   * The method's media-upload form under `/upload/gmail/v1/users/{userId}`: its body is a
   * multipart/related or message/rfc822 upload that the twin's `prepare` hook parses before the
   * call (parse.ts), so such a route declares no body and its handler reads the prepared call.
   */
  upload?: boolean;
  /** A refusal this method words its own way (Gmail's message for a missing field); else Google's parser's. */
  refuse?(problem: InputProblem): TwinResponse | undefined;
}

/** A declared Gmail route: the mailbox check first, then the declared input, then the handler. */
export function gmailRoute<
  P extends Shape = Record<never, never>,
  Q extends Shape = Record<never, never>,
  B extends z.ZodType = z.ZodUndefined,
>(spec: GmailRouteSpec<P, Q, B>): Route {
  const { path, params, upload, refuse, ...rest } = spec;
  const build = refuse ? routeKit({ ...rules, refuse: (problem) => refuse(problem) ?? gmailRefusal(problem) }) : route;
  const declared = build<Mailbox & P, Q, B>({
    ...rest,
    pattern: `${upload ? UPLOAD : API}${path}`,
    summary: upload ? `${spec.summary} (media upload)` : spec.summary,
    // Every path starts with the mailbox; the spread keeps each parameter's declared schema.
    params: { ...mailbox, ...params } as Mailbox & P,
  });
  return guarded({
    ...declared,
    handler(ctx) {
      // Gmail reads an empty maxResults as none given (its default page).
      if (ctx.query.get("maxResults") === "") ctx.query.delete("maxResults");
      // An upload URI also takes Google's resumable protocol (resumable.ts) before the method runs.
      return upload ? serveUpload(ctx, spec.method, declared.handler) : declared.handler(ctx);
    },
  });
}

/**
 * An upload's JSON metadata part, read by the schema the method's JSON form declares for its body
 * (the kit reads JSON bodies; an upload's metadata is inside its multipart body).
 */
export function uploadMetadata<B extends z.ZodType>(ctx: TwinContext, schema: B): z.output<B> {
  const metadata = uploadedMetadata(ctx);
  const parsed = schema.safeParse(metadata);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const path = issue?.path ?? [];
  return fail(
    gmailRefusal({
      place: "body",
      path,
      code: issue?.code ?? "custom",
      message: issue?.message ?? "invalid input",
      received: valueAt(metadata, path),
      input: metadata,
    }),
  );
}

// Inputs many Gmail methods share, described once for their tools and OpenAPI entries.

export const gmailId = (what: string) => z.string().min(1).describe(`The ${what}'s id (hex, as Gmail gives it)`);

/** How much of a message to return; Gmail reads the value case-insensitively. */
export const format = z
  .string()
  .toLowerCase()
  .pipe(z.enum(["full", "metadata", "minimal", "raw"]))
  .optional()
  // The lowercasing pipe reads as a plain string in JSON Schema; the tool and OpenAPI list the values.
  .meta({ enum: ["full", "metadata", "minimal", "raw"], description: "How much of the message to return (default full)" });

/** A uint32 in Gmail's request: 0 reads as the default, a value past the ceiling as the ceiling. */
export const maxResults = z.number().int().min(0).max(0xffff_ffff).optional().describe("Page size (default 100, at most 500 served)");

/** The page size a `maxResults` asks for, with Gmail's default and ceiling. */
export const pageSize = (value: number | undefined, fallback = 100, ceiling = 500): number => (value ? Math.min(value, ceiling) : fallback);

export const labelIds = z.array(z.string()).optional().describe('Label ids, e.g. ["INBOX", "UNREAD"] or a user label\'s "Label_1"');

/** Gmail reads a flag as set only when it is `true`; any other value is unset, not refused. */
export const flag = (description: string) => z.boolean().optional().catch(undefined).describe(description);

/** The query of Gmail's list methods (messages, threads, drafts). */
export const listShape = {
  q: z.string().optional().describe('Gmail search, e.g. "from:dana@customer.test is:unread"'),
  labelIds,
  maxResults,
  pageToken: z.string().optional().describe("nextPageToken of the previous page"),
  includeSpamTrash: flag("Include SPAM and TRASH"),
};

/** The query of a list method, as its handler receives it. */
export type ListQuery = z.output<z.ZodObject<typeof listShape>>;

/**
 * A repeated query value as Gmail reads it: empty values dropped. A derived MCP tool sends a list
 * argument as one comma-joined value (a tool call's query holds one string per key), so an MCP
 * call's values are split at commas; no label id or header name Gmail issues holds one.
 */
export function queryList(ctx: TwinContext, values: readonly string[] | undefined): string[] {
  const all = ctx.req.transport === "mcp" ? (values ?? []).flatMap((v) => v.split(",")) : [...(values ?? [])];
  return all.filter((v) => v !== "");
}
