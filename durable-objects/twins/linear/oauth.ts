// OAuth 2.0 for apps seeded under `oauthApplications`: the authorization-code flow with PKCE
// (S256 or plain), token exchange and revocation, on Linear's paths. The sandbox's own credential
// stands for the signed-in user consenting on /oauth/authorize; the access tokens issued here act
// as that user on /graphql until revoked. They embed the sandbox's session body so the router can
// route them (TwinDefinition.issuedTokenPrefix).
import { z } from "zod";
import { jsonResponse } from "../kit/response";
import { toBase64Url } from "../kit/bytes";
import { sha256 } from "../kit/sha256";
import type { TwinContext, TwinResponse } from "../types";
import { worldConstants } from "./meta";

export const OAUTH_TOKEN_PREFIX = "lin_oauth_";
const CODE_TTL_MS = 10 * 60_000;

/** RFC 6749 §5.2's error body, which Linear's OAuth endpoints answer with. */
export const oauthError = (status: number, error: string, description: string) =>
  jsonResponse(status, { error, error_description: description });

/**
 * The OAuth endpoints' inputs, declared once (routes.ts): every one an optional string, because
 * each is checked by the handler and refused in OAuth's words (RFC 6749 §4.1.2.1, §5.2).
 */
const field = (description: string) => z.string().optional().describe(description);

/** GET /oauth/authorize's query (RFC 6749 §4.1.1, RFC 7636 §4.3). */
export const AUTHORIZE_QUERY = {
  client_id: field("The app's client id"),
  redirect_uri: field("One of the app's registered redirect URIs; the code is sent back to it"),
  response_type: field("code"),
  scope: field("Comma- or space-separated scopes, e.g. read,write (default read)"),
  state: field("Returned unchanged on the redirect"),
  code_challenge: field("PKCE: the verifier's challenge"),
  code_challenge_method: field("PKCE: S256 or plain (default plain when a challenge is sent)"),
};

/** POST /oauth/token's form (RFC 6749 §4.1.3, RFC 7636 §4.5). */
export const TOKEN_FORM = z.object({
  grant_type: field("authorization_code"),
  code: field("The code /oauth/authorize sent back"),
  redirect_uri: field("The redirect_uri the code was asked for with"),
  client_id: field("The app's client id"),
  client_secret: field("The app's secret (optional with a PKCE verifier)"),
  code_verifier: field("PKCE: the verifier of the code's challenge"),
});

/** POST /oauth/revoke's form (RFC 7009 §2.1). */
export const REVOKE_FORM = z.object({ token: field("The token to revoke (default: the one in Authorization)") });

export function bearer(ctx: TwinContext): string {
  const h = ctx.req.headers.authorization ?? "";
  return h.replace(/^bearer\s+/i, "").trim();
}

/** Who a /graphql call acts as: the seeded viewer, or an issued token's user; null when the token is unknown or revoked. */
export function viewerFor(ctx: TwinContext): string | null {
  const token = bearer(ctx);
  if (token.startsWith(OAUTH_TOKEN_PREFIX)) {
    return ctx.db.one<{ user_id: string }>("SELECT user_id FROM lin_oauth_tokens WHERE token = ? AND revoked = 0", token)?.user_id ?? null;
  }
  return worldConstants(ctx.db).viewerId || null;
}

function random(bytes: number): string {
  const b = new Uint8Array(bytes);
  crypto.getRandomValues(b);
  return [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
}

interface App {
  client_id: string;
  client_secret: string;
  redirect_uris: string;
}

const appFor = (ctx: TwinContext, clientId: string | undefined) =>
  clientId
    ? ctx.db.one<App>("SELECT client_id, client_secret, redirect_uris FROM lin_oauth_apps WHERE client_id = ?", clientId)
    : undefined;

/** GET /oauth/authorize: the signed-in viewer approves at once; the browser goes back with a code. */
export function authorize(ctx: TwinContext, q: z.output<z.ZodObject<typeof AUTHORIZE_QUERY>>): TwinResponse {
  const app = appFor(ctx, q.client_id);
  if (!app) return oauthError(400, "invalid_client", "Unknown client_id");
  const redirect = q.redirect_uri ?? "";
  if (!(JSON.parse(app.redirect_uris) as string[]).includes(redirect))
    return oauthError(400, "invalid_request", "redirect_uri is not registered for this application");
  if (q.response_type !== "code") return oauthError(400, "unsupported_response_type", "response_type must be code");
  const challenge = q.code_challenge ?? null;
  const method = q.code_challenge_method ?? (challenge ? "plain" : null);
  if (method !== null && method !== "S256" && method !== "plain")
    return oauthError(400, "invalid_request", "code_challenge_method must be S256 or plain");
  const viewer = viewerFor(ctx);
  if (!viewer) return oauthError(401, "access_denied", "Not signed in");
  const code = random(16);
  ctx.db.run(
    "INSERT INTO lin_oauth_codes (code, client_id, redirect_uri, challenge, challenge_method, scope, user_id, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    code,
    app.client_id,
    redirect,
    challenge,
    method,
    q.scope ?? "read",
    viewer,
    ctx.clock.now() + CODE_TTL_MS,
  );
  const to = new URL(redirect);
  to.searchParams.set("code", code);
  if (q.state !== undefined) to.searchParams.set("state", q.state);
  return { status: 302, headers: { location: to.toString() }, body: "" };
}

/**
 * An OAuth request's form fields, as the route reads them (declare.ts): a JSON body's string
 * fields, else the urlencoded form's (the first of a repeated name). JSON that does not parse
 * reads as no fields, for the handler to refuse what is missing.
 */
export function oauthFields(ctx: TwinContext): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [name, value] of formOf(ctx)) if (!Object.hasOwn(fields, name)) fields[name] = value;
  return fields;
}

function formOf(ctx: TwinContext): URLSearchParams {
  const type = ctx.req.headers["content-type"] ?? "";
  if (type.includes("application/json")) {
    try {
      const o = JSON.parse(ctx.req.body) as Record<string, unknown>;
      return new URLSearchParams(Object.entries(o).filter((e): e is [string, string] => typeof e[1] === "string"));
    } catch {
      return new URLSearchParams();
    }
  }
  return new URLSearchParams(ctx.req.body);
}

/** POST /oauth/token: a code (with its PKCE verifier or the client secret) for an access token. */
export function token(ctx: TwinContext, f: z.output<typeof TOKEN_FORM>): TwinResponse {
  if (f.grant_type !== "authorization_code")
    return oauthError(400, "unsupported_grant_type", "Only authorization_code is supported by this twin");
  const app = appFor(ctx, f.client_id);
  if (!app) return oauthError(401, "invalid_client", "Unknown client_id");
  const code = ctx.db.one<{
    code: string;
    client_id: string;
    redirect_uri: string;
    challenge: string | null;
    challenge_method: string | null;
    scope: string;
    user_id: string;
    expires_at: number;
  }>("SELECT * FROM lin_oauth_codes WHERE code = ?", f.code ?? "");
  if (!code || code.client_id !== app.client_id || code.expires_at < ctx.clock.now())
    return oauthError(400, "invalid_grant", "The code is invalid or expired");
  if (f.redirect_uri !== code.redirect_uri)
    return oauthError(400, "invalid_grant", "redirect_uri does not match the authorization request");
  const secret = f.client_secret;
  const verifier = f.code_verifier;
  if (code.challenge) {
    if (!verifier) return oauthError(400, "invalid_grant", "code_verifier is required");
    const computed = code.challenge_method === "S256" ? toBase64Url(sha256(new TextEncoder().encode(verifier))) : verifier;
    if (computed !== code.challenge) return oauthError(400, "invalid_grant", "code_verifier does not match the code_challenge");
    if (secret !== undefined && secret !== app.client_secret) return oauthError(401, "invalid_client", "client_secret is wrong");
  } else if (secret !== app.client_secret) return oauthError(401, "invalid_client", "client_secret is wrong");
  // A code is good once.
  ctx.db.run("DELETE FROM lin_oauth_codes WHERE code = ?", code.code);
  const access = `${OAUTH_TOKEN_PREFIX}${ctx.sessionId.replace(/^ses_/, "")}${random(20)}`;
  ctx.db.run(
    "INSERT INTO lin_oauth_tokens (token, client_id, user_id, scope, created_at) VALUES (?, ?, ?, ?, ?)",
    access,
    app.client_id,
    code.user_id,
    code.scope,
    ctx.clock.now(),
  );
  return jsonResponse(200, {
    access_token: access,
    token_type: "Bearer",
    expires_in: 315705599,
    scope: code.scope.split(/[ ,]+/).join(" "),
  });
}

/** POST /oauth/revoke: the token in Authorization (or the `token` form field) stops working. */
export function revoke(ctx: TwinContext, f: z.output<typeof REVOKE_FORM>): TwinResponse {
  const t = f.token ?? bearer(ctx);
  const n = ctx.db.run("UPDATE lin_oauth_tokens SET revoked = 1 WHERE token = ? AND revoked = 0", t);
  if (!n) return oauthError(400, "invalid_token", "The token is unknown or already revoked");
  return jsonResponse(200, {});
}
