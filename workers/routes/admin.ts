// Creating teams and keys on a real deployment, guarded by the ADMIN_SECRET secret. Without
// that secret the admin path does not exist (404).
import { Hono } from "hono";
import { createMiddleware } from "hono/factory";
import { z } from "zod";
import type { AppEnv } from "../app-env";
import { keyId } from "../auth";
import { MiB, parseWith, readJson } from "../body";
import { bearerFrom } from "../credentials";
import { ApiError, notFound } from "../errors";
import { newId, randomBase62, sha256Hex, timingSafeEqual } from "../ids";

const requireAdmin = createMiddleware<AppEnv>(async (c, next) => {
  const secret = c.get("settings").adminSecret;
  if (!secret) throw notFound("Route");
  const given = bearerFrom(c.req.header("authorization")) ?? "";
  if (!timingSafeEqual(given, secret)) throw new ApiError("unauthorized", "The admin secret is missing or wrong");
  await next();
});

const NewTeam = z.strictObject({
  slug: z.string().regex(/^[a-z0-9-]{2,40}$/, "2–40 of [a-z0-9-]"),
  name: z.string().min(1).max(200).optional(),
  plan_tier: z.string().min(1).max(40).default("pro"),
  sessions_quota: z.number().int().min(1).max(10_000).default(3),
  email: z.email(),
  key_name: z.string().min(1).max(100).default("default"),
});
const NewKey = z.strictObject({ name: z.string().min(1).max(100), user_id: z.string().optional() });

async function issueKey(env: Env, teamId: string, userId: string, name: string) {
  const key = `pme_${randomBase62(40)}`;
  const id = keyId(key);
  await env.DB.prepare("INSERT INTO api_keys (id, key_hash, team_id, user_id, name, created_at) VALUES (?, ?, ?, ?, ?, ?)")
    .bind(id, await sha256Hex(key), teamId, userId, name, new Date().toISOString())
    .run();
  // The key itself is shown once, here; only its hash is stored.
  return { id, name, key };
}

export const adminRoutes = new Hono<AppEnv>()
  .use(requireAdmin)
  .post("/teams", async (c) => {
    const body = parseWith(NewTeam, await readJson(c, MiB));
    const exists = await c.env.DB.prepare("SELECT id FROM teams WHERE slug = ?").bind(body.slug).first();
    if (exists) throw new ApiError("conflict", `A team with slug "${body.slug}" exists`, { reason: "slug_taken" });
    const teamId = newId("tm");
    const userId = newId("usr");
    const now = new Date().toISOString();
    await c.env.DB.batch([
      c.env.DB.prepare("INSERT INTO teams (id, slug, name, plan_tier, sessions_quota, created_at) VALUES (?, ?, ?, ?, ?, ?)").bind(
        teamId,
        body.slug,
        body.name ?? body.slug,
        body.plan_tier,
        body.sessions_quota,
        now,
      ),
      c.env.DB.prepare("INSERT INTO users (id, team_id, email, created_at) VALUES (?, ?, ?, ?)").bind(userId, teamId, body.email, now),
    ]);
    const apiKey = await issueKey(c.env, teamId, userId, body.key_name);
    return c.json(
      {
        team: { id: teamId, slug: body.slug, plan_tier: body.plan_tier, sessions_quota: body.sessions_quota },
        user: { id: userId, email: body.email },
        api_key: apiKey,
      },
      201,
    );
  })
  .post("/teams/:id/keys", async (c) => {
    const body = parseWith(NewKey, await readJson(c, MiB));
    const teamId = c.req.param("id");
    const team = await c.env.DB.prepare("SELECT id FROM teams WHERE id = ?").bind(teamId).first<{ id: string }>();
    if (!team) throw notFound("Team");
    // A key acts for one of its own team's users: never another team's, never one that does not exist.
    const user = await (body.user_id === undefined
      ? c.env.DB.prepare("SELECT id FROM users WHERE team_id = ? ORDER BY created_at LIMIT 1").bind(teamId)
      : c.env.DB.prepare("SELECT id FROM users WHERE team_id = ? AND id = ?").bind(teamId, body.user_id)
    ).first<{ id: string }>();
    if (!user) {
      const message =
        body.user_id === undefined ? "The team has no user to issue a key for; pass user_id" : "No user of this team has this id";
      throw new ApiError("validation_failed", `user_id: ${message}`, { issues: [{ path: "user_id", message }] });
    }
    return c.json({ api_key: await issueKey(c.env, teamId, user.id, body.name) }, 201);
  })
  .post("/keys/:id/revoke", async (c) => {
    const result = await c.env.DB.prepare("UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL")
      .bind(new Date().toISOString(), c.req.param("id"))
      .run();
    if (!result.meta.changes) throw notFound("API key");
    return c.json({ id: c.req.param("id"), revoked: true });
  });
