// Twin traffic: authenticate the caller for one sandbox, then hand the call to that sandbox's
// Durable Object untouched. Two ways in (DESIGN.md §2): the prefixed `/<twin>/s/<ses>/…` form,
// and the credential-routed root form where the provider-shaped credential names the sandbox.
import { openapiOperation } from "../durable-objects/twins/kit/route";
import type { Context } from "hono";
import { fromBase64, toBase64 } from "../durable-objects/twins/kit/bytes";
import { TWINS, TWIN_IDS, isTwinId } from "../durable-objects/twins/registry";
import type { TwinId } from "../durable-objects/twins/registry";
import type { TwinDefinition, TwinRequest, TwinResponse } from "../durable-objects/twins/types";
import { ApiError } from "./errors";
import type { AppEnv } from "./app-env";
import { bearerFrom, parseIssuedToken, parseProviderToken, verifyAgentToken } from "./credentials";
import { sandboxStub } from "./stubs";
import { redactBody } from "../durable-objects/redact";
import { STATE_PAGES_HEADER } from "../durable-objects/Sandbox";
import { TWIN_BODY_LIMIT_BYTES, bodyTooLarge, tooLarge } from "./twin-limits";
import { bodyWithin } from "./body";
import { requestUrl, twinsOrigin } from "./urls";

export interface TwinTarget {
  twin: TwinId;
  sessionId: string;
  /** Absolute URL the twin's own paths hang under (prefix form) or the origin (root form). */
  baseUrl: string;
  path: string;
}

/** A twin path naming no registered twin: the platform's own refusal, in its one error shape. */
export const unknownTwin = (twin: string | undefined) =>
  new ApiError("not_found", `There is no twin "${twin ?? ""}"; known twins: ${TWIN_IDS.join(", ")}`, { known_twins: TWIN_IDS });

/**
 * The answer to a root-form call whose credential opens no sandbox: the twin whose paths these
 * are refuses it in its vendor's shape; a path no twin claims gets the platform's 401.
 */
export function rootUnauthorized(path: string): Response {
  const owner = rootOwner(path);
  if (owner) return toResponse(owner.errors.unauthorized("Bad credentials"));
  throw new ApiError("unauthorized", "The credential opens no sandbox: send a sandbox's agent_token or provider credential");
}

const rootOwner = (path: string) => TWIN_IDS.map((id) => TWINS[id]).find((t) => t.claimsRootPath(path));

/** The credential of a root-form call: the Authorization header, else the field the path's twin reads it from. */
export async function rootCredential(c: Context<AppEnv>, path: string): Promise<string | undefined> {
  const owner = rootOwner(path);
  return owner ? credentialOf(c, owner) : bearerFrom(c.req.header("authorization"));
}

/** A root-form call with no credential, on a path whose twin words that refusal itself; null otherwise. */
export function rootMissingCredential(path: string): Response | null {
  const refusal = rootOwner(path)?.errors.missingCredential?.("No credential was sent");
  return refusal ? toResponse(refusal) : null;
}

/**
 * A request body as text. A JSON or form body is read as text, which costs workerd less than bytes
 * and a decode (~0.07 ms of a GraphQL call in the profile); any other is read as bytes and
 * decoded, as `text()` is meant for bodies that are text. Hono keeps what it read, so a second
 * read (credential, then forwarding) costs nothing.
 */
const bodyText = async (c: Context<AppEnv>) =>
  /^application\/(?:(?:[\w.+-]+\+)?json\b|x-www-form-urlencoded\b)/i.test(c.req.header("content-type") ?? "")
    ? c.req.text()
    : new TextDecoder().decode(await c.req.arrayBuffer());

/**
 * The credential a call brought: the Authorization header, or, for a twin that declares a
 * `credentialField`, that query parameter or form/JSON body field.
 */
export async function credentialOf(c: Context<AppEnv>, twin: TwinDefinition): Promise<string | undefined> {
  const header = bearerFrom(c.req.header("authorization"));
  const field = twin.credentialField;
  if (header || !field) return header;
  const fromQuery = requestUrl(c).searchParams.get(field);
  if (fromQuery) return fromQuery;
  const method = c.req.method.toUpperCase();
  if (method === "GET" || method === "HEAD") return undefined;
  // A body over the limit is not searched for a credential (the call is refused whichever way).
  if (!(await bodyWithin(c, TWIN_BODY_LIMIT_BYTES))) return undefined;
  const type = (c.req.header("content-type") ?? "").toLowerCase();
  // Hono keeps the body text, so forwarding the call reads it again unchanged.
  if (type.startsWith("application/x-www-form-urlencoded")) return new URLSearchParams(await bodyText(c)).get(field) ?? undefined;
  if (type.startsWith("application/json")) {
    try {
      const body: unknown = JSON.parse(await bodyText(c));
      const value = typeof body === "object" && body !== null ? (body as Record<string, unknown>)[field] : undefined;
      return typeof value === "string" && value ? value : undefined;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/**
 * A call whose credential does not open the sandbox. Under `/_pome/` it is always the platform's
 * 401; elsewhere the twin answers in its vendor's shape, telling a missing credential apart when
 * the vendor does.
 */
function refuseCredential(definition: TwinDefinition, path: string, token: string | undefined): Response {
  if (path.startsWith("/_pome/")) {
    const refusal = definition.errors.unauthorized("Bad credentials");
    if (refusal.status === 401) return toResponse(refusal);
    throw new ApiError("unauthorized", "The credential opens no sandbox: send a sandbox's agent_token or provider credential");
  }
  const missing = token === undefined ? definition.errors.missingCredential?.("No credential was sent") : undefined;
  return toResponse(missing ?? definition.errors.unauthorized("Bad credentials"));
}

/** Who a twin credential belongs to: the sandbox, and for a provider token, its twin. */
export async function resolveTwinCredential(
  secrets: readonly string[],
  token: string | undefined,
): Promise<{ sessionId: string; twin?: TwinId; twins: TwinId[] } | null> {
  if (!token) return null;
  if (token.split(".").length === 3 && token.startsWith("eyJ")) {
    const claims = await verifyAgentToken(secrets, token);
    return claims ? { sessionId: claims.sessionId, twins: claims.twins } : null;
  }
  const provider = (await parseProviderToken(secrets, token)) ?? parseIssuedToken(token);
  return provider ? { sessionId: provider.sessionId, twin: provider.twin, twins: [provider.twin] } : null;
}

/** Whether a resolved credential opens this twin of this sandbox: the one rule for REST and MCP. */
export function credentialOpens(
  who: { sessionId: string; twin?: TwinId; twins: TwinId[] } | null,
  twin: TwinId,
  sessionId: string,
): boolean {
  return who !== null && who.sessionId === sessionId && (who.twin === undefined || who.twin === twin) && who.twins.includes(twin);
}

export function toResponse(res: TwinResponse): Response {
  const body = res.bodyEncoding === "base64" ? fromBase64(res.body) : res.body;
  return new Response(res.status === 204 || res.status === 304 ? null : body, { status: res.status, headers: res.headers });
}

/**
 * A state too large for one answer of the Sandbox: its first page, then each next page read from
 * the Sandbox as the client takes the last one, so neither side ever holds a 32 MiB RPC value.
 * A hold that is gone mid-way (the Sandbox restarted) ends the body in an error, never in a
 * short JSON text that would parse as something else.
 */
export function streamedState(
  first: TwinResponse,
  paged: string,
  sandbox: { nextPage(hold: string, index: number): Promise<string | null>; release(hold: string): Promise<void> },
): Response {
  const [hold = "", count = "0"] = paged.split(" ");
  const pages = Number(count);
  const { [STATE_PAGES_HEADER]: _internal, ...headers } = first.headers;
  const encoder = new TextEncoder();
  let index = 1;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(first.body));
    },
    async pull(controller) {
      if (index >= pages) return controller.close();
      const page = await sandbox.nextPage(hold, index++);
      if (page === null) return controller.error(new Error("the state's remaining pages expired before they were read"));
      controller.enqueue(encoder.encode(page));
    },
    // The client went away: the Sandbox need not hold the rest any longer.
    async cancel() {
      await sandbox.release(hold).catch(() => undefined);
    },
  });
  return new Response(body, { status: first.status, headers });
}

const lowerHeaders = (headers: Headers) => {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    out[name.toLowerCase()] = value;
  });
  return out;
};

/** Forwards a request to a twin of a sandbox whose credential has been checked. */
export async function forwardToTwin(c: Context<AppEnv>, target: TwinTarget): Promise<Response> {
  const url = requestUrl(c);
  const { twin, sessionId } = target;
  if (target.path.startsWith("/_pome/")) {
    const what = target.path.slice("/_pome/".length);
    if (what === "openapi.json") return c.json(openapiFor(twin, target.baseUrl));
    if (what !== "state" && what !== "events" && what !== "health")
      return toResponse(TWINS[twin].errors.notImplemented({ method: c.req.method, path: target.path } as TwinRequest));
    const stub = sandboxStub(c.env, sessionId);
    const answer = await answerAsTwin(twin, () => stub.pome(twin, what, url.search.slice(1)));
    const paged = answer.headers[STATE_PAGES_HEADER];
    return paged === undefined
      ? toResponse(answer)
      : streamedState(answer, paged, {
          nextPage: (hold, index) => stub.statePage(hold, index),
          release: (hold) => stub.releaseState(hold),
        });
  }
  const method = c.req.method.toUpperCase();
  const hasBody = method !== "GET" && method !== "HEAD";
  // Over the limit, the body is read only to be dropped (so the client hears the refusal, see
  // bodyWithin), never kept: the twin refuses it in its vendor's shape and writes nothing.
  if (hasBody && !(await bodyWithin(c, TWIN_BODY_LIMIT_BYTES))) return toResponse(tooLarge(TWINS[twin]));
  // A client with a trailing-slash base URL sends `//path`; the vendors answer those too.
  const path = target.path.replace(/\/{2,}/g, "/") || "/";
  const binary = hasBody && (TWINS[twin].binaryBody?.(path) ?? false);
  const raw = !hasBody ? "" : binary ? new Uint8Array(await c.req.arrayBuffer()) : await bodyText(c);
  if (typeof raw === "string" ? bodyTooLarge(raw) : raw.byteLength > TWIN_BODY_LIMIT_BYTES) return toResponse(tooLarge(TWINS[twin]));
  const req: TwinRequest = {
    method,
    path,
    query: url.search.slice(1),
    headers: lowerHeaders(c.req.raw.headers),
    body: typeof raw === "string" ? raw : toBase64(raw),
    baseUrl: target.baseUrl,
    transport: TWINS[twin].transportFor?.(target.path) ?? "rest",
    ...(binary ? { bodyEncoding: "base64" as const } : {}),
  };
  return toResponse(await answerAsTwin(twin, () => sandboxStub(c.env, sessionId).twinCall(twin, req)));
}

/**
 * A Durable Object that cannot answer still answers in the twin's shape, never the control
 * plane's. A refusal that quotes the request (a vendor's "… is not an array") never hands back a
 * secret in it: error bodies leave redacted; successes stay as the vendor would send them.
 */
async function answerAsTwin(twin: TwinId, call: () => Promise<TwinResponse>): Promise<TwinResponse> {
  try {
    const res = await call();
    return res.status >= 400 && res.bodyEncoding !== "base64" ? { ...res, body: redactBody(res.body) } : res;
  } catch (err) {
    console.error("twin call failed in the Durable Object", twin, err);
    return TWINS[twin].errors.internal("The twin failed to answer this call.");
  }
}

/** `/<twin>/s/<ses_id>/…`: the credential must belong to that very sandbox (and twin). */
export async function prefixedTwinHandler(c: Context<AppEnv>): Promise<Response> {
  const twin = c.req.param("twin");
  const sessionId = c.req.param("sid") ?? "";
  if (!isTwinId(twin)) throw unknownTwin(twin);
  const definition = TWINS[twin];
  const prefix = `/${twin}/s/${sessionId}`;
  const path = requestUrl(c).pathname.slice(prefix.length) || "/";
  // A path the twin authenticates itself (an OAuth token exchange) needs no sandbox credential.
  const open = definition.publicPaths?.includes(path) ?? false;
  const token = await credentialOf(c, definition);
  const who = await resolveTwinCredential(c.get("settings").tokenSecrets, token);
  if (!open && !credentialOpens(who, twin, sessionId)) return refuseCredential(definition, path, token);
  return forwardToTwin(c, { twin, sessionId, baseUrl: `${twinsOrigin(c)}${prefix}`, path });
}

/**
 * The root form: the provider's own paths on the origin. A provider token names its twin; an
 * agent_token names its sandbox, and the twin is the one whose paths these are.
 */
export async function rootTwinHandler(c: Context<AppEnv>, token: string): Promise<Response | null> {
  const who = await resolveTwinCredential(c.get("settings").tokenSecrets, token);
  if (!who) return null;
  const path = requestUrl(c).pathname;
  const twin = who.twin ?? who.twins.find((t) => TWINS[t].claimsRootPath(path)) ?? who.twins[0];
  if (!twin) return null;
  return forwardToTwin(c, { twin, sessionId: who.sessionId, baseUrl: twinsOrigin(c), path });
}

/** Each twin's OpenAPI paths, derived once per isolate: JSON Schema from zod is not free. */
const openapiPaths = new Map<TwinId, Record<string, Record<string, unknown>>>();

function pathsOf(twin: TwinId): Record<string, Record<string, unknown>> {
  const known = openapiPaths.get(twin);
  if (known) return known;
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of TWINS[twin].routes) {
    const path = route.pattern.replace(/:([A-Za-z_]+)/g, "{$1}").replace(/\*([A-Za-z_]+)/g, "{$1}");
    // A declared route's parameters and body come from its declaration (kit/route.ts).
    paths[path] = { ...paths[path], [route.method.toLowerCase()]: openapiOperation(route) };
  }
  openapiPaths.set(twin, paths);
  return paths;
}

function openapiFor(twin: TwinId, baseUrl: string) {
  return {
    // 3.1: its schemas are JSON Schema, which is what the declarations derive.
    openapi: "3.1.0",
    info: { title: `Pome ${twin} twin`, version: "1", description: "The routes this twin implements; any other route answers 501." },
    servers: [{ url: baseUrl }],
    paths: pathsOf(twin),
  };
}
