// /v1/sandboxes (and its permanent alias /v1/sessions): create, list, get, heartbeat, delete.
import { Hono, type Context } from "hono";
import { z } from "zod";
import type { SandboxMeta } from "../../durable-objects/Sandbox";
import { SANDBOX_STATES, isOpen } from "../../durable-objects/sandbox-states";
import type { AppEnv, Caller } from "../app-env";
import { MiB, parseWith, readJson } from "../body";
import { discardTokenMatches, discardToken, mintAgentToken, providerCredentials } from "../credentials";
import type { SandboxRow } from "../db/schema";
import { ApiError } from "../errors";
import { newId, sha256Hex } from "../ids";
import {
  countOpenSandboxes,
  effectiveState,
  findByIdempotencyKey,
  findSandbox,
  listSandboxes,
  reserveSandbox,
  setSandboxState,
} from "../sandbox-index";
import { checkTwinIds, resolveSeeds } from "../seeds";
import { requireSandbox } from "./require-sandbox";
import { sandboxStub } from "../stubs";
import { decodeTaskSource, isPlaceholderTask, loadStoredTask, requireTaskWithinLimits, seedInTask, taskNameOf } from "../task-source";
import { requireAgentTwins } from "../tasks/agent-store";
import { twinUrls } from "../urls";
import { DEFAULT_TWIN } from "../../durable-objects/twins/registry";

const IDEMPOTENCY_WINDOW_MS = 30_000;

const groupId = z.string().regex(/^[A-Za-z0-9_-]{6,64}$/, "must be 6–64 of [A-Za-z0-9_-]");

const CreateBody = z.strictObject({
  twins: z.array(z.string()).min(1, "name at least one twin").default([DEFAULT_TWIN]),
  task_source: z.string().optional(),
  task_id: z.string().optional(),
  seed: z.unknown().optional(),
  idempotency_key: z.uuid({ version: "v4", message: "must be a UUID v4" }).optional(),
  group_id: groupId.optional(),
  agent_version: z.string().min(1).max(200).optional(),
  /** A registered agent: the sandbox's twins must be enabled for it (400 twins not enabled). */
  agent_id: z.string().min(1).optional(),
  /** For a rerun after a fix: the failing baseline's group, stamped on the run. */
  baseline_group_id: groupId.optional(),
});

const ListQuery = z.object({
  state: z.enum(SANDBOX_STATES).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

const iso = (ms: number) => new Date(ms).toISOString();

/** JSON with keys sorted at every level, so two equal requests hash alike however their keys were ordered. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

function compact(c: Context<AppEnv>, row: SandboxRow) {
  const twins = row.twins;
  return {
    id: row.id,
    session_id: row.id,
    twins,
    state: effectiveState(row),
    twin_url: twinUrls(c, twins[0], row.id).api_url,
    created_at: row.createdAt,
    ready_at: row.readyAt,
    expires_at: row.expiresAt,
    closed_at: row.closedAt,
    /** Why it closed (finalized, lifetime, idle, discarded); null while open or not yet known. */
    close_reason: row.closeReason ?? null,
    task_name: row.taskName,
    group_id: row.groupId,
    baseline_group_id: row.baselineGroupId,
    agent_id: row.agentId,
    agent_version: row.agentVersion,
  };
}

/** The connection details of a sandbox: everything an agent needs to reach its twins. */
async function connection(c: Context<AppEnv>, row: SandboxRow) {
  const twins = row.twins;
  const secret = c.get("settings").tokenSecret;
  const perTwin = Object.fromEntries(twins.map((t) => [t, twinUrls(c, t, row.id)]));
  return {
    agent_token: await mintAgentToken(secret, { sessionId: row.id, teamId: row.teamId, twins, expiresAt: Date.parse(row.expiresAt) }),
    per_twin: perTwin,
    provider_credentials: await providerCredentials(secret, twins, row.id),
    twin_url: perTwin[twins[0]].api_url,
    openapi_url: perTwin[twins[0]].openapi_url,
  };
}

/** Copies the Durable Object's state into an index row that disagrees with it. */
async function converge(env: Env, row: SandboxRow, meta: SandboxMeta): Promise<SandboxRow> {
  const closedAt = meta.closedAt === null ? null : iso(meta.closedAt);
  const closeReason = meta.closeReason;
  if (row.state === meta.state && row.closedAt === closedAt && (row.closeReason ?? null) === closeReason) return row;
  await setSandboxState(env, row.id, meta.state, closedAt, closeReason);
  return { ...row, state: meta.state, closedAt, closeReason };
}

/**
 * The task a sandbox is started from, or null for an ad-hoc sandbox (no task: a walk-through, a
 * doctor's probe, an agent tried by hand). Such a sandbox names no task, so it never appears as
 * one in task lists or reliability views; it is graded only with criteria sent to finalize.
 */
async function taskMarkdownOf(c: Context<AppEnv>, caller: Caller, body: { task_source?: string; task_id?: string }) {
  if (body.task_id !== undefined) return (await loadStoredTask(c.env, caller.team.id, body.task_id)).markdown;
  if (body.task_source === undefined) return null;
  const markdown = decodeTaskSource(body.task_source);
  return isPlaceholderTask(markdown) ? null : markdown;
}

async function create(c: Context<AppEnv>, caller: Caller) {
  const body = parseWith(CreateBody, await readJson(c, 4 * MiB));
  if (body.task_source !== undefined && body.task_id !== undefined) {
    throw new ApiError("validation_failed", "Provide at most one of task_source or task_id", {
      issues: [{ path: "task_source", message: "Provide at most one of task_source or task_id" }],
    });
  }
  const twins = checkTwinIds(body.twins, { max: 3 });
  if (body.agent_id !== undefined) await requireAgentTwins(c.env, caller.team.id, body.agent_id, twins);
  const markdown = await taskMarkdownOf(c, caller, body);
  if (markdown !== null) requireTaskWithinLimits(markdown, body.task_source !== undefined ? "task_source" : "task_id");
  // An explicit seed wins over the task's own Seed State block.
  const { seeds } = await resolveSeeds(
    twins,
    body.seed !== undefined ? body.seed : markdown === null ? undefined : seedInTask(markdown, twins),
  );

  const settings = c.get("settings");
  const now = Date.now();
  const requestHash = body.idempotency_key ? await sha256Hex(canonicalJson({ ...body, idempotency_key: undefined })) : null;
  if (body.idempotency_key) {
    const earlier = await findByIdempotencyKey(c.env, caller.team.id, body.idempotency_key, iso(now - IDEMPOTENCY_WINDOW_MS));
    // The original answers repeats only; the same key on a different request is a client bug.
    if (earlier && earlier.idempotencyHash !== null && earlier.idempotencyHash !== requestHash) {
      throw new ApiError("validation_failed", "idempotency_key: this key was used in the last 30 seconds for a different request", {
        error: "idempotency_key_reused",
        issues: [{ path: "idempotency_key", message: "Reused with a different request body" }],
      });
    }
    if (earlier) return c.json({ ...compact(c, earlier), ...(await connection(c, earlier)) }, 201);
  }
  const id = newId("ses");
  const row = {
    id,
    teamId: caller.team.id,
    twins,
    taskName: markdown === null ? null : taskNameOf(markdown),
    taskMarkdown: markdown,
    taskId: body.task_id ?? null,
    groupId: body.group_id ?? null,
    agentVersion: body.agent_version ?? null,
    agentId: body.agent_id ?? null,
    baselineGroupId: body.baseline_group_id ?? null,
    idempotencyKey: body.idempotency_key ?? null,
    idempotencyHash: requestHash,
    createdAt: iso(now),
    expiresAt: iso(now + settings.lifetimeSeconds * 1000),
  };
  if (!(await reserveSandbox(c.env, row, caller.team.sessionsQuota))) {
    const used = await countOpenSandboxes(c.env, caller.team.id);
    throw new ApiError(
      "quota_exceeded",
      `Your plan allows ${caller.team.sessionsQuota} open sandboxes and ${used} are open; finalize or delete one first`,
      {
        usage: {
          sessions_used: used,
          sessions_quota: caller.team.sessionsQuota,
          sessions_remaining: Math.max(0, caller.team.sessionsQuota - used),
        },
      },
    );
  }
  const outcome = await sandboxStub(c.env, id).provision({
    sessionId: id,
    teamId: caller.team.id,
    twins,
    seeds: Object.fromEntries(Object.entries(seeds).map(([id, seed]) => [id, JSON.stringify(seed)])),
    createdAt: now,
    expiresAt: now + settings.lifetimeSeconds * 1000,
    idleSeconds: settings.idleSeconds,
  });
  if (!outcome.ok) {
    await setSandboxState(c.env, id, "failed", iso(Date.now()));
    throw new ApiError("downstream_unavailable", "The sandbox could not be provisioned; retry", { reason: outcome.code });
  }
  const created = (await findSandbox(c.env, caller.team.id, id)) as SandboxRow;
  return c.json({ ...compact(c, created), ...(await connection(c, created)) }, 201);
}

export const sandboxRoutes = new Hono<AppEnv>()
  .post("/", (c) => create(c, c.get("caller")))
  .get("/", async (c) => {
    const query = parseWith(ListQuery, c.req.query());
    const rows = await listSandboxes(c.env, c.get("caller").team.id, query);
    return c.json(rows.map((r) => compact(c, r)));
  })
  .get("/:id", async (c) => {
    const stored = await requireSandbox(c);
    const live = await sandboxStub(c.env, stored.id).describe();
    // The Durable Object is the truth; an index row it failed to update is repaired on read.
    const row = live.ok ? await converge(c.env, stored, live.meta) : stored;
    const lastRequestAt = live.ok && live.meta.lastRequestAt !== null ? iso(live.meta.lastRequestAt) : null;
    return c.json({
      ...compact(c, row),
      ...(await connection(c, row)),
      last_request_at: lastRequestAt,
      task_markdown: row.taskMarkdown,
      task_id: row.taskId,
      tape_length: live.ok ? live.tapeLength : 0,
    });
  })
  .post("/:id/heartbeat", async (c) => {
    const row = await requireSandbox(c);
    const result = await sandboxStub(c.env, row.id).heartbeat();
    if (!result.ok) throw new ApiError("session_expired", "The sandbox is closed; stop sending heartbeats", { state: effectiveState(row) });
    return c.body(null, 204);
  })
  .delete("/:id", async (c) => {
    const row = await requireSandbox(c);
    const stub = sandboxStub(c.env, row.id);
    const { tokenSecret, tokenSecrets } = c.get("settings");
    const live = await stub.describe();
    const open = live.ok && isOpen(live.meta.state) && Date.now() < live.meta.expiresAt;
    if (open) {
      const confirm = c.req.query("confirm_discard");
      const expected = await discardToken(tokenSecret, row.id);
      if (confirm === undefined) {
        throw new ApiError(
          "conflict",
          "This sandbox holds a run nobody has graded; finalize it, or repeat with ?confirm_discard= to throw it away",
          {
            reason: "ungraded_session",
            open_seconds: Math.floor((Date.now() - Date.parse(row.createdAt)) / 1000),
            task_name: row.taskName,
            discard_token: expected,
          },
        );
      }
      if (!(await discardTokenMatches(tokenSecrets, row.id, confirm))) {
        throw new ApiError("validation_failed", "confirm_discard does not match this sandbox's discard token", {
          issues: [{ path: "confirm_discard", message: "Invalid discard token" }],
        });
      }
    }
    // Closing as expired archives the tape and final state to R2 first: a discard loses nothing.
    const closedNow = live.ok ? await stub.close("expired", "discarded") : undefined;
    const stored = (await findSandbox(c.env, c.get("caller").team.id, row.id)) ?? row;
    // The index learns why it closed, so a listing says "discarded", not a bare "expired".
    const closed = closedNow?.ok ? await converge(c.env, stored, closedNow.meta) : stored;
    return c.json(compact(c, closed));
  });
