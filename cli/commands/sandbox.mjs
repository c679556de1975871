// pome sandbox create|list|get|heartbeat|finalize|delete
import { randomUUID } from "node:crypto";
import { intOption, parseCommandLine } from "../lib/args.mjs";
import { ApiResponseError } from "../lib/api.mjs";
import { CliError, EXIT, usageError } from "../lib/errors.mjs";
import { examineeEnv } from "../lib/examinee.mjs";
import { table } from "../lib/output.mjs";
import { exitForVerdict } from "./run.mjs";
import { loadTask, readText, taskModules, toBase64 } from "../lib/task-file.mjs";

export const HELP = `pome sandbox <create|list|get|heartbeat|finalize|delete> [options]

  create [--twins a,b] [--task task.md] [--seed seed.json] [--group-id G] [--agent-version V] [--env]
         Starts a sandbox. --task uses the task's twins and its Seed State; --seed (a file keyed
         by twin, like a task's Seed State) overrides it. Without --task the sandbox is ad hoc:
         it names no task and is graded only with finalize --task. --env prints shell exports.
  list   [--state S] [--limit N]
  get <id> [--env]
  heartbeat <id>      resets the idle timer
  finalize <id> [--task task.md] [--agent-version V] [--agent-model M]
         Grades what happened in the sandbox into a run and closes it: against the criteria of
         the task it was started with, or of --task. Prints the run's report.
  delete <id> [--discard]
         An open sandbox holds an ungraded run: finalize it, or delete it with --discard.

The agent token is printed only with --json or --env: it is a live credential.`;

const OPTIONS = {
  twins: { type: "string" },
  task: { type: "string" },
  seed: { type: "string" },
  "group-id": { type: "string" },
  "agent-version": { type: "string" },
  env: { type: "boolean", default: false },
  state: { type: "string" },
  limit: { type: "string" },
  discard: { type: "boolean", default: false },
  "agent-model": { type: "string" },
};

/** What a listing says about a sandbox: "discarded" for one thrown away, not a bare "expired". */
export const stateLabel = (sandbox) => (sandbox.close_reason === "discarded" ? "discarded" : (sandbox.state ?? ""));

/** A closed sandbox shows when it closed; an open one, when it will expire. */
const endsAt = (sandbox) => (sandbox.closed_at ? `closed ${sandbox.closed_at}` : `expires ${sandbox.expires_at}`);

const shellQuote = (value) => `'${String(value).replace(/'/g, `'\\''`)}'`;

async function shellExports(sandbox, prompt = "") {
  const env = await examineeEnv({}, sandbox, {
    prompt,
    twins: sandbox.twins ?? Object.keys(sandbox.per_twin ?? {}),
    groupId: sandbox.group_id ?? "",
    trial: 1,
    trials: 1,
  });
  for (const key of ["POME_GROUP_ID", "POME_TRIAL", "POME_TRIALS", ...(prompt ? [] : ["POME_TASK_PROMPT"])]) delete env[key];
  return Object.entries(env)
    .map(([k, v]) => `export ${k}=${shellQuote(v)}`)
    .join("\n");
}

function describe(sandbox) {
  const task = sandbox.task_name ? `  task "${sandbox.task_name}"` : "  (no task)";
  const lines = [`${sandbox.session_id ?? sandbox.id}  ${stateLabel(sandbox)}  ${endsAt(sandbox)}${task}`];
  for (const [twin, urls] of Object.entries(sandbox.per_twin ?? {})) lines.push(`  ${twin}: ${urls.api_url}  (MCP ${urls.mcp_url})`);
  return lines.join("\n");
}

async function readSeedFile(file, twins) {
  const { wire } = await taskModules();
  let seed;
  try {
    seed = JSON.parse(readText(file));
  } catch (err) {
    if (err instanceof CliError) throw err;
    throw usageError(`${file} is not valid JSON: ${err.message}`);
  }
  if (!seed || typeof seed !== "object" || Array.isArray(seed))
    throw usageError(`${file} must be a JSON object keyed by twin, e.g. {"<twin>": {...}}`);
  const converted = wire.seedForRequest(seed, twins);
  if (converted.error) throw usageError(`${file}: ${converted.error}`);
  return converted.found ? converted.seed : undefined;
}

async function create(values, ctx) {
  const task = values.task ? await loadTask(values.task, ctx.api, { requireRunnable: false }) : undefined;
  const twins = values.twins
    ? values.twins
        .split(",")
        .map((t) => t.trim())
        .filter(Boolean)
    : (task?.task.config.twins ?? [(await ctx.api.get("/v1/twins")).default]);
  const seed = values.seed ? await readSeedFile(values.seed, twins) : undefined;
  const sandbox = await ctx.api.post("/v1/sandboxes", {
    twins,
    // Without a task the sandbox is ad hoc: it names no task, so no task list or reliability view counts it.
    ...(task ? { task_source: toBase64(task.markdown) } : {}),
    ...(seed !== undefined ? { seed } : {}),
    ...(values["group-id"] ? { group_id: values["group-id"] } : {}),
    ...(values["agent-version"] ? { agent_version: values["agent-version"] } : {}),
    idempotency_key: randomUUID(),
  });
  if (values.env && !ctx.out.json) ctx.out.result(await shellExports(sandbox, task?.task.prompt));
  else ctx.out.result(`${describe(sandbox)}\nAgent token: pome sandbox get ${sandbox.session_id} --env`, sandbox);
  return EXIT.OK;
}

/**
 * Grades a sandbox someone drove by hand (POST /v1/sandboxes/:id/finalize). Its criteria are
 * those of --task, else the server uses the task the sandbox was started with.
 */
async function finalize(id, values, ctx) {
  const path = `/v1/sandboxes/${encodeURIComponent(id)}`;
  const sandbox = await ctx.api.get(path);
  const task = values.task ? (await loadTask(values.task, ctx.api)).task : undefined;
  const { wire } = await taskModules();
  let result;
  try {
    result = await ctx.api.post(
      `${path}/finalize`,
      {
        ...(task ? { criteria: wire.criteriaForFinalize(task) } : {}),
        stop_reason: "finalized by hand (pome sandbox finalize)",
        exit_code: 0,
        duration_ms: Math.max(0, Date.now() - Date.parse(sandbox.created_at)),
        agent_model: values["agent-model"] || process.env.POME_AGENT_MODEL || ctx.config.agent.model || "unknown",
        agent_sdk: "pome-cli",
        ...(values["agent-version"] ? { agent_version: values["agent-version"] } : {}),
        ...(task?.name ? { scenario_name: task.name.slice(0, 200) } : {}),
        ...(task ? { scenario_prompt: task.prompt.slice(0, 20_000) } : {}),
      },
      { timeoutMs: 180_000 },
    );
  } catch (err) {
    if (err instanceof ApiResponseError && err.apiDetails?.error === "empty_criteria")
      throw usageError(`Sandbox ${id} was started without a task, so it has no criteria: pass the task file with --task task.md`);
    throw err;
  }
  if (ctx.out.json) ctx.out.result("", result);
  else ctx.out.result(await ctx.api.text(`/v1/runs/${encodeURIComponent(result.run_id)}/report.md`));
  ctx.out.progress(`run ${result.run_id}: ${result.verdict ?? "graded"}, score ${result.score ?? "n/a"}`);
  return exitForVerdict(result.verdict ?? "failed");
}

async function remove(id, values, ctx) {
  let closed;
  try {
    closed = await ctx.api.deleteSandbox(id, { discard: values.discard });
  } catch (err) {
    if (!(err instanceof ApiResponseError && err.apiDetails?.discard_token)) throw err;
    throw new CliError(
      `Sandbox ${id} is open and holds a run nobody has graded. Grade it with \`pome sandbox finalize ${id}\` (add --task task.md if it was started without one), or repeat with --discard to throw the run away.`,
      EXIT.FAILED,
      {
        reason: "ungraded_session",
      },
    );
  }
  ctx.out.result(`Sandbox ${id} is closed (${stateLabel(closed)}).`, closed);
  return EXIT.OK;
}

export async function run(argv, ctx) {
  const [sub, ...restArgs] = argv;
  const { values, positionals } = parseCommandLine(restArgs, OPTIONS);
  const needId = () => {
    if (positionals.length !== 1) throw usageError(`pome sandbox ${sub} takes one sandbox id`);
    return positionals[0];
  };
  switch (sub) {
    case "create":
      return create(values, ctx);
    case "list": {
      const list = await ctx.api.get("/v1/sandboxes", { state: values.state, limit: intOption(values, "limit", { max: 200 }) });
      const rows = list.map((s) => [
        s.id,
        stateLabel(s),
        (s.twins ?? []).join(","),
        s.created_at,
        s.closed_at ?? s.expires_at,
        s.task_name ?? "(no task)",
      ]);
      ctx.out.result(list.length ? table(["sandbox", "state", "twins", "created", "closed/expires", "task"], rows) : "No sandboxes.", list);
      return EXIT.OK;
    }
    case "get": {
      const sandbox = await ctx.api.get(`/v1/sandboxes/${encodeURIComponent(needId())}`);
      if (values.env && !ctx.out.json) ctx.out.result(await shellExports({ ...sandbox, session_id: sandbox.id }));
      else ctx.out.result(describe(sandbox), sandbox);
      return EXIT.OK;
    }
    case "heartbeat": {
      const id = needId();
      await ctx.api.request("POST", `/v1/sandboxes/${encodeURIComponent(id)}/heartbeat`);
      ctx.out.result(`Sandbox ${id}: idle timer reset.`, { id, ok: true });
      return EXIT.OK;
    }
    case "finalize":
      return finalize(needId(), values, ctx);
    case "delete":
      return remove(needId(), values, ctx);
    default:
      throw usageError(
        sub
          ? `Unknown sandbox command "${sub}"; use create, list, get, heartbeat, finalize or delete`
          : "pome sandbox needs a command: create, list, get, heartbeat, finalize or delete",
      );
  }
}
