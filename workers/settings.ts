// Settings come from wrangler `[vars]` (documented in the README's settings table) and secrets.
// Secrets are optional in development, where local defaults keep `npm start` zero-config; a
// production deployment without them refuses to serve rather than sign with a known key.

declare global {
  interface Env {
      /** Signs agent tokens, provider credentials, discard tokens and blob URLs. */
      TOKEN_SECRET?: string;
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
  tokenSecret: string;
  adminSecret: string | undefined;
  lifetimeSeconds: number;
  idleSeconds: number;
  defaultSessionQuota: number;
  publicOrigin: string | undefined;
  benchFloorEnabled: boolean;
}

const LOCAL_TOKEN_SECRET = "pome-local-development-secret-not-for-production";

function positiveInt(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : fallback;
}

export function readSettings(env: Env): Settings {
  const development = (env.ENVIRONMENT ?? "production") === "development";
  const tokenSecret = env.TOKEN_SECRET ?? (development ? LOCAL_TOKEN_SECRET : "");
  if (!tokenSecret) throw new Error("TOKEN_SECRET is not set; it is required outside development");
  return {
    development,
    tokenSecret,
    adminSecret: env.ADMIN_SECRET || undefined,
    lifetimeSeconds: positiveInt(env.SANDBOX_LIFETIME_SECONDS, 1800),
    idleSeconds: positiveInt(env.SANDBOX_IDLE_SECONDS, 600),
    defaultSessionQuota: positiveInt(env.DEFAULT_SESSION_QUOTA, 3),
    publicOrigin: env.PUBLIC_ORIGIN ? env.PUBLIC_ORIGIN.replace(/\/+$/, "") : undefined,
    benchFloorEnabled: env.BENCH_FLOOR_ENABLED === "true",
  };
}
