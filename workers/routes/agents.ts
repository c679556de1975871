// /v1/agents: register an agent (its twin allowlist merges, never shrinks) and list them.
import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../app-env";
import { parseWith, readJson } from "../body";
import type { AgentRow } from "../db/schema-tasks";
import { notFound } from "../errors";
import { checkTwinIds } from "../seeds";
import { agentTwins, findAgent, listAgents, registerAgent } from "../tasks/agent-store";

const RegisterBody = z.strictObject({
  name: z
    .string()
    .trim()
    .min(1, "name the agent")
    .max(100)
    .regex(/^[^\n\r\t]+$/, "one line, no tabs"),
  twins: z.array(z.string()).min(1, "name at least one twin"),
  version: z.string().min(1).max(200).optional(),
});

const view = (row: AgentRow) => ({
  id: row.id,
  agent_id: row.id,
  name: row.name,
  twins: agentTwins(row),
  version: row.version,
  created_at: row.createdAt,
  updated_at: row.updatedAt,
});

export const agentRoutes = new Hono<AppEnv>()
  .post("/", async (c) => {
    const body = parseWith(RegisterBody, await readJson(c, 64 * 1024));
    const twins = checkTwinIds(body.twins, {});
    const result = await registerAgent(c.env, c.get("caller").team.id, { name: body.name, twins, version: body.version });
    return c.json({ ...view(result.row), created: result.created, added_twins: result.added }, result.created ? 201 : 200);
  })
  .get("/", async (c) => c.json((await listAgents(c.env, c.get("caller").team.id)).map(view)))
  .get("/:id", async (c) => {
    const row = await findAgent(c.env, c.get("caller").team.id, c.req.param("id"));
    if (!row) throw notFound("Agent");
    return c.json(view(row));
  });
