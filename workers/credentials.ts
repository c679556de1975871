// The credentials a sandbox hands out: the agent_token (a JWT scoped to one sandbox) and, per
// twin, a provider-shaped token the official client sends the ordinary way. Both name their
// sandbox and are signed, so the router recovers the sandbox without a database read.
//
// Everything is signed with the current TOKEN_SECRET and checked against every key in `secrets`
// (the current one, then TOKEN_SECRET_PREVIOUS while a rotation settles), so rotating the secret
// never locks out a sandbox that is already running.
import { SignJWT, jwtVerify } from "jose";
import { isTwinId, TWIN_IDS, TWINS } from "../durable-objects/twins/registry";
import type { TwinId } from "../durable-objects/twins/registry";
import { hmacBase62, timingSafeEqual } from "./ids";

export interface SandboxClaims {
  sessionId: string;
  teamId: string;
  twins: TwinId[];
  expiresAt: number;
}

const ISSUER = "pome";
const keyCache = new Map<string, Uint8Array>();
const secretKey = (secret: string) => {
  let key = keyCache.get(secret);
  if (!key) {
    key = new TextEncoder().encode(secret);
    keyCache.set(secret, key);
  }
  return key;
};

export async function mintAgentToken(secret: string, claims: SandboxClaims): Promise<string> {
  return new SignJWT({ tm: claims.teamId, twins: claims.twins })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setIssuer(ISSUER)
    .setSubject(claims.sessionId)
    .setIssuedAt()
    .setExpirationTime(Math.floor(claims.expiresAt / 1000))
    .sign(secretKey(secret));
}

/**
 * Tokens verified once, remembered (bounded) so a twin call does not pay for an HMAC each time,
 * with the key that verified them: once that key is no longer accepted, neither is the token.
 */
class VerifiedTokens<T> {
  private readonly known = new Map<string, { value: T; secret: string }>();

  get(token: string, secrets: readonly string[]): T | undefined {
    const entry = this.known.get(token);
    return entry && secrets.includes(entry.secret) ? entry.value : undefined;
  }

  remember(token: string, secret: string, value: T): T {
    if (this.known.size > 5000) this.known.clear();
    this.known.set(token, { value, secret });
    return value;
  }
}

const verifiedAgentTokens = new VerifiedTokens<SandboxClaims>();

export async function verifyAgentToken(secrets: readonly string[], token: string): Promise<SandboxClaims | null> {
  const cached = verifiedAgentTokens.get(token, secrets);
  if (cached) return cached.expiresAt > Date.now() ? cached : null;
  for (const secret of secrets) {
    const claims = await verifyWith(secret, token);
    if (claims) return verifiedAgentTokens.remember(token, secret, claims);
  }
  return null;
}

async function verifyWith(secret: string, token: string): Promise<SandboxClaims | null> {
  try {
    const { payload } = await jwtVerify(token, secretKey(secret), { issuer: ISSUER, algorithms: ["HS256"] });
    const twins = Array.isArray(payload.twins) ? payload.twins.filter(isTwinId) : [];
    if (typeof payload.sub !== "string" || typeof payload.tm !== "string" || typeof payload.exp !== "number") return null;
    return { sessionId: payload.sub, teamId: payload.tm, twins, expiresAt: payload.exp * 1000 };
  } catch {
    return null;
  }
}

/** `ses_` ids carry 16 base62 characters; provider tokens embed them so the sandbox is recoverable. */
const SESSION_BODY = /^[A-Za-z0-9]{16}$/;

/** A twin's provider token for a sandbox; `user` gives its user-level token (see CredentialFormat.userPrefix). */
export async function providerToken(secret: string, twin: TwinId, sessionId: string, user = false): Promise<string> {
  const body = sessionId.replace(/^ses_/, "");
  const sig = await hmacBase62(secret, user ? `provider:${twin}:user:${sessionId}` : `provider:${twin}:${sessionId}`, 40);
  const { prefix, separator, userPrefix } = TWINS[twin].credential;
  return `${user && userPrefix ? userPrefix : prefix}${body}${separator}${sig}`;
}

// Provider tokens are remembered the same way: recomputing the HMAC on every call was most of what
// a call with a provider token cost in the router beyond a call with an agent token.
const verifiedProviderTokens = new VerifiedTokens<{ twin: TwinId; sessionId: string }>();

/** Recognizes a provider-shaped token of one of our twins; null when it is not one (or forged). */
export async function parseProviderToken(secrets: readonly string[], token: string): Promise<{ twin: TwinId; sessionId: string } | null> {
  const cached = verifiedProviderTokens.get(token, secrets);
  if (cached) return cached;
  for (const twin of TWIN_IDS) {
    const { prefix, userPrefix } = TWINS[twin].credential;
    const user = userPrefix !== undefined && token.startsWith(userPrefix);
    if (!user && !token.startsWith(prefix)) continue;
    const rest = token.slice((user && userPrefix ? userPrefix : prefix).length);
    const body = rest.slice(0, 16);
    if (!SESSION_BODY.test(body)) return null;
    const sessionId = `ses_${body}`;
    for (const secret of secrets) {
      if (timingSafeEqual(await providerToken(secret, twin, sessionId, user), token))
        return verifiedProviderTokens.remember(token, secret, { twin, sessionId });
    }
    return null;
  }
  return null;
}

/**
 * A token a twin issued itself (its `issuedTokenPrefix`, e.g. an OAuth access token): it names its
 * sandbox but carries no platform signature, so the twin checks it against its world.
 */
export function parseIssuedToken(token: string): { twin: TwinId; sessionId: string } | null {
  for (const twin of TWIN_IDS) {
    const prefix: string | undefined = TWINS[twin].issuedTokenPrefix;
    if (!prefix || !token.startsWith(prefix)) continue;
    const body = token.slice(prefix.length, prefix.length + 16);
    return SESSION_BODY.test(body) ? { twin, sessionId: `ses_${body}` } : null;
  }
  return null;
}

export const looksLikeProviderToken = (token: string) =>
  TWIN_IDS.some((twin) => {
    const { prefix, userPrefix } = TWINS[twin].credential;
    const issued: string | undefined = TWINS[twin].issuedTokenPrefix;
    return (
      token.startsWith(prefix) ||
      (userPrefix !== undefined && token.startsWith(userPrefix)) ||
      (issued !== undefined && token.startsWith(issued))
    );
  });

export async function providerCredentials(secret: string, twins: TwinId[], sessionId: string) {
  const out: Record<string, { token: string; header: string; scheme: string; user_token?: string }> = {};
  for (const twin of twins) {
    const { header, scheme, userPrefix } = TWINS[twin].credential;
    out[twin] = { token: await providerToken(secret, twin, sessionId), header, scheme };
    if (userPrefix !== undefined) out[twin].user_token = await providerToken(secret, twin, sessionId, true);
  }
  return out;
}

/**
 * The bearer value of an Authorization header: `Bearer x`, `token x`, a bare key (a scheme-less
 * credential), or HTTP Basic (`curl -u key:`), where the key is the user name when the password
 * is empty and the password otherwise (`-u name:key`).
 */
export function bearerFrom(header: string | undefined | null): string | undefined {
  if (!header) return undefined;
  const basic = /^basic\s+([A-Za-z0-9+/=]+)$/i.exec(header.trim());
  if (basic) return basicCredential(basic[1] ?? "");
  const m = /^(?:bearer|token)\s+(.+)$/i.exec(header.trim());
  return (m ? m[1] : header).trim() || undefined;
}

function basicCredential(encoded: string): string | undefined {
  let decoded: string;
  try {
    decoded = atob(encoded);
  } catch {
    return undefined;
  }
  const colon = decoded.indexOf(":");
  if (colon < 0) return decoded.trim() || undefined;
  const user = decoded.slice(0, colon);
  const password = decoded.slice(colon + 1);
  return (password || user).trim() || undefined;
}

export async function discardToken(secret: string, sessionId: string) {
  return `dsc_${await hmacBase62(secret, `discard:${sessionId}`, 32)}`;
}

/** Whether `given` is this sandbox's discard token under any of the accepted keys. */
export async function discardTokenMatches(secrets: readonly string[], sessionId: string, given: string): Promise<boolean> {
  for (const secret of secrets) {
    if (timingSafeEqual(given, await discardToken(secret, sessionId))) return true;
  }
  return false;
}
