// Team API keys: `Authorization: Bearer pme_…`, stored as SHA-256 hashes. 401 when missing or
// unknown, 403 when revoked. In development the local team and its key `pme_local_dev` exist
// from the first request on; elsewhere that key is unknown like any other.
import { eq } from "drizzle-orm";
import { createMiddleware } from "hono/factory";
import type { AppEnv, Caller } from "./app-env";
import { bearerFrom } from "./credentials";
import { database } from "./db/client";
import { apiKeys, teams, users } from "./db/schema";
import { ApiError } from "./errors";
import { sha256Hex } from "./ids";

export const LOCAL_KEY = "pme_local_dev";
export const LOCAL_TEAM_ID = "tm_local";

/** The public part of a key, shown back by GET /v1/me so a caller can tell keys apart. */
export const keyId = (key: string) => `${key.slice(0, 12)}…`;

let localTeamReady = false;

async function ensureLocalTeam(env: Env, quota: number): Promise<void> {
  if (localTeamReady) return;
  const now = new Date().toISOString();
  await env.DB.batch([
    env.DB.prepare(
      "INSERT OR IGNORE INTO teams (id, slug, name, plan_tier, sessions_quota, created_at) VALUES (?, 'local', 'Local development', 'local', ?, ?)",
    ).bind(LOCAL_TEAM_ID, quota, now),
    env.DB.prepare("INSERT OR IGNORE INTO users (id, team_id, email, created_at) VALUES ('usr_local', ?, 'dev@localhost', ?)").bind(
      LOCAL_TEAM_ID,
      now,
    ),
    env.DB.prepare(
      "INSERT OR IGNORE INTO api_keys (id, key_hash, team_id, user_id, name, created_at) VALUES (?, ?, ?, 'usr_local', 'local development', ?)",
    ).bind(keyId(LOCAL_KEY), await sha256Hex(LOCAL_KEY), LOCAL_TEAM_ID, now),
  ]);
  localTeamReady = true;
}

export async function authenticateTeamKey(env: Env, key: string, opts: { development: boolean; localQuota: number }): Promise<Caller> {
  if (key === LOCAL_KEY && opts.development) await ensureLocalTeam(env, opts.localQuota);
  const db = database(env);
  const rows = await db
    .select({ key: apiKeys, team: teams, user: users })
    .from(apiKeys)
    .innerJoin(teams, eq(teams.id, apiKeys.teamId))
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .where(eq(apiKeys.keyHash, await sha256Hex(key)))
    .limit(1);
  const row = rows[0];
  if (!row || (key === LOCAL_KEY && !opts.development)) throw new ApiError("unauthorized", "The API key is not recognized");
  if (row.key.revokedAt) throw new ApiError("forbidden", "The API key has been revoked");
  return {
    team: { id: row.team.id, slug: row.team.slug, planTier: row.team.planTier, sessionsQuota: row.team.sessionsQuota },
    user: { id: row.user.id, email: row.user.email },
    apiKey: { id: row.key.id, name: row.key.name },
  };
}

export const requireTeamKey = createMiddleware<AppEnv>(async (c, next) => {
  const key = bearerFrom(c.req.header("authorization"));
  if (!key) throw new ApiError("unauthorized", "Missing API key: send Authorization: Bearer pme_…");
  const settings = c.get("settings");
  c.set("caller", await authenticateTeamKey(c.env, key, { development: settings.development, localQuota: settings.defaultSessionQuota }));
  await next();
});
