// /v1/tasks: store a task (markdown, or markdown plus structured criteria picks), list, read one.
import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../app-env";
import { MiB, parseWith, readJson } from "../body";
import type { TaskRow } from "../db/schema-tasks";
import { ApiError, notFound } from "../errors";
import { decodeTaskSource } from "../task-source";
import { bindTaskCriteria } from "../tasks/criteria-binding";
import { parseTask } from "../tasks";
import { CRITERIA_LIMIT, CRITERION_TEXT_LIMIT } from "../tasks/markdown";
import { prepareTask, type PreparedTask } from "../tasks/prepare";
import { criteriaTrueInSeed } from "../tasks/seed-exclusions";
import { findTask, listTasks, saveTask } from "../tasks/task-store";
import type { Task } from "../tasks/types";
import { criteriaForFinalize } from "../tasks/wire";

const CodePick = z.strictObject({
  kind: z.literal("code"),
  twin: z.string().optional(),
  check: z.string().min(1),
  args: z.record(z.string(), z.unknown()).default({}),
  always_scored: z.boolean().optional(),
});
const ModelPick = z.strictObject({ kind: z.literal("model"), text: z.string().min(1).max(CRITERION_TEXT_LIMIT) });

const SaveBody = z.strictObject({
  /** The task markdown as plain text. */
  source: z.string().min(1).optional(),
  /** The task markdown, base64-encoded UTF-8 (as POST /v1/sandboxes takes it). */
  task_source: z.string().min(1).optional(),
  criteria: z
    .array(z.discriminatedUnion("kind", [CodePick, ModelPick]))
    .min(1)
    .max(CRITERIA_LIMIT)
    .optional(),
});

const ListQuery = z.object({ limit: z.coerce.number().int().min(1).max(200).default(50) });

function compact(row: TaskRow) {
  return {
    id: row.id,
    task_id: row.id,
    name: row.name,
    twins: row.twins,
    criteria_count: row.criteriaCount,
    content_hash: row.contentHash,
    created_at: row.createdAt,
  };
}

function full(row: TaskRow, task: Task) {
  const twins = row.twins;
  const checks = new Map(bindTaskCriteria(task, twins).map((b) => [b.index, b.check_id]));
  return {
    ...compact(row),
    config: {
      twins: task.config.twins,
      runs: task.config.runs ?? null,
      pass_threshold: task.config.passThreshold ?? null,
      pass_score: task.config.passScore ?? null,
    },
    prompt: task.prompt,
    has_seed: task.seed !== undefined,
    criteria: criteriaForFinalize(task).map((c, i) => ({ ...c, check_id: checks.get(i) ?? null })),
    markdown: row.markdown,
  };
}

/** Criteria finalize would exclude because the seed already satisfies them, named by their finalize ids. */
function seedWarnings(prepared: PreparedTask) {
  // Positions stay those of the task's criteria, so c1, c2… are the ids finalize uses.
  const criteria = prepared.task.criteria.map((c) => ({
    kind: c.kind,
    text: c.text,
    twin: c.twin ?? prepared.twins[0],
    alwaysScored: c.alwaysScored,
  }));
  return criteriaTrueInSeed(criteria, prepared.seeds).map((w) => ({
    type: "already_true_in_seed",
    criterion_id: `c${w.index + 1}`,
    text: w.text,
    twin: w.twin,
    check_id: w.check_id,
    reason: w.reason,
    message: w.message,
  }));
}

/** A stored row always parsed when it was saved; failing now means the parser changed under it. */
function parsedRow(row: TaskRow): Task {
  const parsed = parseTask(row.markdown);
  if (!parsed.ok) throw new Error(`stored task ${row.id} no longer parses: ${parsed.errors[0].message}`);
  return parsed.task;
}

export const taskRoutes = new Hono<AppEnv>()
  .post("/", async (c) => {
    const body = parseWith(SaveBody, await readJson(c, 4 * MiB));
    if ((body.source === undefined) === (body.task_source === undefined))
      throw new ApiError("validation_failed", "Provide exactly one of source (markdown text) or task_source (base64)", {
        issues: [{ path: "source", message: "Provide exactly one of source or task_source" }],
      });
    const markdown = body.source ?? decodeTaskSource(body.task_source ?? "");
    const prepared = await prepareTask(markdown, body.criteria);
    const { row, created } = await saveTask(c.env, c.get("caller").team.id, prepared);
    return c.json({ ...full(row, prepared.task), created, warnings: seedWarnings(prepared) }, created ? 201 : 200);
  })
  .get("/", async (c) => {
    const { limit } = parseWith(ListQuery, c.req.query());
    const rows = await listTasks(c.env, c.get("caller").team.id, limit);
    return c.json(rows.map(compact));
  })
  .get("/:id", async (c) => {
    const row = await findTask(c.env, c.get("caller").team.id, c.req.param("id"));
    if (!row) throw notFound("Task");
    return c.json(full(row, parsedRow(row)));
  });
