import { Hono } from "hono";
import type { AppEnv } from "../app-env";
import { countOpenSandboxes } from "../sandbox-index";

export const meRoutes = new Hono<AppEnv>()
  .get("/me", (c) => {
    const { team, user, apiKey } = c.get("caller");
    return c.json({
      user: { id: user.id, email: user.email },
      team: { id: team.id, slug: team.slug, plan_tier: team.planTier },
      api_key: { id: apiKey.id, name: apiKey.name },
    });
  })
  .get("/usage", async (c) => {
    const { team } = c.get("caller");
    const used = await countOpenSandboxes(c.env, team.id);
    const now = new Date();
    return c.json({
      period_start: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString(),
      period_end: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString(),
      sessions_used: used,
      sessions_quota: team.sessionsQuota,
      sessions_remaining: Math.max(0, team.sessionsQuota - used),
      plan_tier: team.planTier,
    });
  });
