// One Slack method call as its handler sees it: its declared arguments, parsed and typed, who the
// token acts as (the installation's bot, or its authed user with a user token) with that token's
// scopes, and the route wrapper that checks scopes and token type, answers `{ok:true,…}`, and
// puts Slack's scope headers on every answer, refusals included.
import { z } from "zod";
import type { Db } from "../types";
import { TwinError, jsonResponse } from "../kit/response";
import type { RouteToolSpec } from "../kit/route";
import type { Clock, Route, TwinContext, TwinResponse } from "../types";
import { Args, argValues } from "./args";
import { slackRoute } from "./declare";
import { fail } from "./errors";
import { rateLimited } from "./ratelimit";
import type { SlackInstallation, SlackSeed } from "./seed";
import { workspaceOf } from "./store/rows";

export interface Actor {
  user: string;
  kind: "bot" | "user";
  scope: string;
  scopes: ReadonlySet<string>;
}

export interface Call {
  ctx: TwinContext;
  db: Db;
  clock: Clock;
  /** The arguments as sent, for what reads them undeclared: the token, and paging (store/paging.ts). */
  args: Args;
  actor: Actor;
  team: SlackSeed["team"];
  installation: SlackInstallation;
  /** Where the twin's own paths hang (the sandbox prefix, or the origin on the root form). */
  baseUrl: string;
}

export type Answer = Record<string, unknown>;

export interface MethodSpec<S extends z.ZodRawShape> {
  name: string;
  summary: string;
  /** The scopes any one of which lets a token call the method (`x-accepted-oauth-scopes`). */
  scopes: readonly string[];
  /** Which token may call it: a bot token, a user token, or either (the default). */
  token?: "bot" | "user";
  /** The method's arguments (declare.ts helpers), in the order the handler reads them. */
  args?: S;
  /** The MCP tool the method stands behind, named after it (`chat_postMessage`). */
  tool: Omit<RouteToolSpec, "name">;
  handler(call: Call, args: z.output<z.ZodObject<S>>): Answer;
}

const splitScopes = (scope: string) =>
  new Set(
    scope
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean),
  );

/** The token the call brought: the bearer header, else the `token` argument. */
function tokenOf(ctx: TwinContext, args: Args): string | undefined {
  const header = ctx.req.headers.authorization;
  const bearer = header ? /^bearer\s+(.+)$/i.exec(header.trim())?.[1] : undefined;
  return bearer ?? args.str("token");
}

/** The two actors of an installation, made once: the installation is kept per sandbox (workspaceOf). */
const actors = new WeakMap<SlackInstallation, { bot: Actor; user: Actor | undefined }>();

function actorOf(token: string | undefined, installation: SlackInstallation): Actor {
  let both = actors.get(installation);
  if (!both) {
    const user = installation.authed_user;
    both = {
      bot: { user: installation.bot_user_id, kind: "bot", scope: installation.scope, scopes: splitScopes(installation.scope) },
      user: user && { user: user.id, kind: "user", scope: user.scope, scopes: splitScopes(user.scope) },
    };
    actors.set(installation, both);
  }
  // The platform has already checked the credential; its prefix says which kind it is.
  if (token?.startsWith("xoxp-")) return both.user ?? fail("invalid_auth");
  return both.bot;
}

/**
 * Scopes only one kind of token is granted (docs.slack.dev's scope pages): `channels:manage` is a
 * bot's, `channels:write` its user-token counterpart, and so on.
 */
const BOT_ONLY_SCOPES = new Set(["channels:manage", "chat:write.public", "chat:write.customize"]);
const USER_ONLY_SCOPES = new Set([
  "channels:write",
  "search:read",
  "reminders:read",
  "reminders:write",
  "users.profile:write",
  "stars:read",
  "stars:write",
  "dnd:write",
]);

/** The scope `missing_scope` names as `needed`: the first accepted scope this kind of token can be granted. */
export function neededScope(scopes: readonly string[], kind: Actor["kind"]): string {
  const barred = kind === "bot" ? USER_ONLY_SCOPES : BOT_ONLY_SCOPES;
  return scopes.find((s) => !barred.has(s)) ?? scopes[0] ?? "";
}

/** Each call's caller, worked out once: the scope check needs it before the arguments are read. */
const calls = new WeakMap<TwinContext, Call>();

function callOf(ctx: TwinContext): Call {
  const known = calls.get(ctx);
  if (known) return known;
  const args = Args.of(ctx);
  const { team, installation } = workspaceOf(ctx.db);
  const actor = actorOf(tokenOf(ctx, args), installation);
  const call: Call = { ctx, db: ctx.db, clock: ctx.clock, args, actor, team, installation, baseUrl: ctx.req.baseUrl };
  calls.set(ctx, call);
  return call;
}

/**
 * A Slack method at `/api/<name>`, by GET or POST, taped under its own name. The arguments are
 * read (and refused) after the token's type and scopes are checked, as Slack does; the POST route
 * carries the method's MCP tool, which sends its arguments as JSON.
 */
export function method<S extends z.ZodRawShape = Record<never, never>>(spec: MethodSpec<S>): Route[] {
  const accepted = spec.scopes.join(",");
  const tool: RouteToolSpec = { name: spec.name.replaceAll(".", "_"), readOnly: false, destructive: false, ...spec.tool };
  return ["GET", "POST"].map((verb) => {
    const declared = slackRoute({
      method: verb,
      pattern: `/api/${spec.name}`,
      operation: spec.name,
      summary: spec.summary,
      body: z.object(spec.args ?? ({} as S)),
      ...(verb === "POST" ? { tool } : {}),
      handler: (ctx, input) => jsonResponse(200, { ok: true, ...spec.handler(callOf(ctx), input.body) }),
    });
    const handler = (ctx: TwinContext): TwinResponse => {
      let granted = "";
      const withHeaders = (res: TwinResponse): TwinResponse => ({
        ...res,
        headers: { ...res.headers, "x-oauth-scopes": granted, "x-accepted-oauth-scopes": accepted },
      });
      try {
        const { actor } = callOf(ctx);
        granted = actor.scope;
        const limited = rateLimited(ctx.db, ctx.clock.now(), spec.name, actor.kind, postedChannel(ctx));
        if (limited) return withHeaders(limited);
        if (spec.token && spec.token !== actor.kind) fail("not_allowed_token_type");
        if (spec.scopes.length && !spec.scopes.some((s) => actor.scopes.has(s))) {
          fail("missing_scope", { needed: neededScope(spec.scopes, actor.kind), provided: actor.scope });
        }
        return withHeaders(declared.handler(ctx));
      } catch (err) {
        if (err instanceof TwinError) return withHeaders(err.response);
        throw err;
      }
    };
    return { ...declared, handler };
  });
}

/** The channel a call names, as sent (chat.postMessage's limit is per channel). */
function postedChannel(ctx: TwinContext): string | undefined {
  const channel = argValues(ctx).channel;
  return typeof channel === "string" ? channel : undefined;
}

/** Whether the caller holds a scope (for fields only some scopes reveal, like a user's email). */
export const hasScope = (call: Call, scope: string) => call.actor.scopes.has(scope);
