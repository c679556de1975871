// Settings come from wrangler `[vars]` (documented in docs/settings.md) and secrets.
// Secrets are optional in development, where local defaults keep `npm start` zero-config; a
// production deployment without them refuses to serve rather than sign with a known key.
import { type EgressPolicy, egressPolicyFrom, parseEgressSetting } from "../durable-objects/egress";

declare global {
  interface Env {
    /** Signs agent tokens, provider credentials, discard tokens and blob URLs. */
    TOKEN_SECRET?: string;
    /** The key TOKEN_SECRET replaced: still accepted, never used to sign, while a rotation settles. */
    TOKEN_SECRET_PREVIOUS?: string;
    /** Guards /v1/admin. Unset: the admin path answers 404. */
    ADMIN_SECRET?: string;
    /** Key for the judge provider (Anthropic or OpenAI-compatible). */
    JUDGE_API_KEY?: string;
    /** Workers AI binding, when a deployment adds one for the judge. */
    AI?: { run(model: string, input: unknown): Promise<unknown> };
  }
}

export interface Settings {
  development: boolean;
  /** The key everything is signed with. */
  tokenSecret: string;
  /** The keys a signature is checked against: the current one first, then the previous one if set. */
  tokenSecrets: readonly string[];
  adminSecret: string | undefined;
  lifetimeSeconds: number;
  idleSeconds: number;
  defaultSessionQuota: number;
  /** Per-role origins behind custom domains; undefined means the request's own origin. */
  origins: Origins;
  benchFloorEnabled: boolean;
  /** Where twins' webhooks may go (`EGRESS`, read by durable-objects/egress.ts). */
  egress: EgressPolicy;
}

/** Where each role is served from, when a deployment puts them on hostnames of their own. */
export interface Origins {
  /** The control plane: /v1, report_url, evaluation Location, signed download and upload URLs. */
  api: string | undefined;
  /** The twins: each sandbox's api_url, mcp_url and openapi_url, and the URLs twins put in answers. */
  twins: string | undefined;
  /** The run pages: dashboard_url. */
  dashboard: string | undefined;
}

const LOCAL_TOKEN_SECRET = "pome-local-development-secret-not-for-production";

const trimOrigin = (value: string | undefined) => (value ? value.replace(/\/+$/, "") : undefined);

function positiveInt(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : fallback;
}

const readOnce = new WeakMap<Env, Settings>();

/**
 * The settings of an environment, read once per environment object: the router reads them on
 * every request, and an environment's values never change while it serves.
 */
export function settingsOf(env: Env): Settings {
  let settings = readOnce.get(env);
  if (!settings) {
    settings = readSettings(env);
    readOnce.set(env, settings);
  }
  return settings;
}

export function readSettings(env: Env): Settings {
  const development = (env.ENVIRONMENT ?? "production") === "development";
  // A typo in EGRESS fails loudly here, as a missing secret does; the Sandbox then allows nothing.
  const egress = parseEgressSetting(env.EGRESS, development);
  if (!egress.ok) throw new Error(egress.message);
  const tokenSecret = env.TOKEN_SECRET ?? (development ? LOCAL_TOKEN_SECRET : "");
  if (!tokenSecret) throw new Error("TOKEN_SECRET is not set; it is required outside development");
  const previous = env.TOKEN_SECRET_PREVIOUS;
  const publicOrigin = trimOrigin(env.PUBLIC_ORIGIN);
  return {
    development,
    tokenSecret,
    tokenSecrets: previous && previous !== tokenSecret ? [tokenSecret, previous] : [tokenSecret],
    adminSecret: env.ADMIN_SECRET || undefined,
    lifetimeSeconds: positiveInt(env.SANDBOX_LIFETIME_SECONDS, 1800),
    idleSeconds: positiveInt(env.SANDBOX_IDLE_SECONDS, 600),
    defaultSessionQuota: positiveInt(env.DEFAULT_SESSION_QUOTA, 3),
    // PUBLIC_ORIGIN is the one-hostname form: every role falls back to it.
    origins: {
      api: trimOrigin(env.API_ORIGIN) ?? publicOrigin,
      twins: trimOrigin(env.TWINS_ORIGIN) ?? publicOrigin,
      dashboard: trimOrigin(env.DASHBOARD_ORIGIN) ?? publicOrigin,
    },
    benchFloorEnabled: env.BENCH_FLOOR_ENABLED === "true",
    egress: egressPolicyFrom(env),
  };
}
