// /v1/groups: the reliability of a trial group, of the implicit run-set of one agent version on
// one task, and the fix-loop comparison of a rerun group with its baseline. Routes parse and
// serialize; the arithmetic is workers/stats.
import { Hono, type Context } from "hono";
import { z } from "zod";
import type { AppEnv } from "../app-env";
import { parseWith } from "../body";
import { ApiError, notFound } from "../errors";
import { dashboardUrl } from "../grading/runs-store";
import { compareReliability } from "../stats/compare";
import { groupReliability, listRunSets, runSetReliability, type RunSetReliability } from "../stats/run-sets";
import { dashboardOrigin } from "../urls";

const GROUP_ID = z.string().regex(/^[A-Za-z0-9_-]{6,64}$/, "A group id is 6–64 of [A-Za-z0-9_-]");

const GroupParams = z.object({ group_id: GROUP_ID });
const CompareQuery = z.strictObject({ baseline: GROUP_ID.optional() });

// A part left out of the query is "not declared": the run-set is a partition, so a run without a
// version is never averaged with one that has a version.
const RunSetQuery = z
  .strictObject({
    task_name: z.string().min(1).max(200).optional(),
    task_id: z.string().min(1).max(64).optional(),
    agent_id: z.string().min(1).max(64).optional(),
    agent_version: z.string().min(1).max(200).optional(),
  })
  .refine((q) => q.task_name !== undefined || q.task_id !== undefined, {
    message: "Name the task: task_name or task_id",
    path: ["task_name"],
  });

const withLinks = (c: Context<AppEnv>, stats: RunSetReliability) => {
  const origin = dashboardOrigin(c);
  return { ...stats, runs: stats.runs.map((r) => ({ ...r, dashboard_url: dashboardUrl(origin, r.id) })) };
};

async function requireGroup(c: Context<AppEnv>, groupId: string): Promise<RunSetReliability> {
  const stats = await groupReliability(c.env, c.get("caller").team.id, groupId);
  if (!stats) throw notFound("Group");
  return stats;
}

export const groupRoutes = new Hono<AppEnv>()
  .get("/", async (c) => {
    const q = parseWith(RunSetQuery, c.req.query());
    const key = {
      task_name: q.task_name ?? null,
      task_id: q.task_id ?? null,
      agent_id: q.agent_id ?? null,
      agent_version: q.agent_version ?? null,
    };
    const stats = await runSetReliability(c.env, c.get("caller").team.id, key);
    if (!stats) throw new ApiError("not_found", "No runs in this run-set", { run_set: key });
    return c.json({ run_set: key, ...withLinks(c, stats) });
  })
  .get("/:group_id", async (c) => {
    const { group_id } = parseWith(GroupParams, c.req.param());
    return c.json({ group_id, ...withLinks(c, await requireGroup(c, group_id)) });
  })
  .get("/:group_id/compare", async (c) => {
    const { group_id } = parseWith(GroupParams, c.req.param());
    const q = parseWith(CompareQuery, c.req.query());
    const rerun = await requireGroup(c, group_id);
    const baselineId = q.baseline ?? rerun.baseline_group_id;
    if (!baselineId)
      throw new ApiError("validation_failed", "baseline: this group names no baseline_group_id; pass ?baseline=", {
        issues: [{ path: "baseline", message: "Required" }],
      });
    if (baselineId === group_id)
      throw new ApiError("validation_failed", "baseline: a group cannot be its own baseline", {
        issues: [{ path: "baseline", message: "Same as the group" }],
      });
    const baseline = await requireGroup(c, baselineId);
    return c.json({
      group_id,
      baseline_group_id: baselineId,
      ...compareReliability(baseline, rerun),
      baseline: withLinks(c, baseline),
      rerun: withLinks(c, rerun),
    });
  });

/** /v1/run-sets: every implicit run-set the team has, for picking one to read. */
export const runSetRoutes = new Hono<AppEnv>().get("/", async (c) => c.json(await listRunSets(c.env, c.get("caller").team.id)));
