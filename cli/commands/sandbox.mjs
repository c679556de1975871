// pome sandbox create|list|get|heartbeat|delete
import { randomUUID } from "node:crypto";
import { intOption, parseCommandLine } from "../lib/args.mjs";
import { ApiResponseError } from "../lib/api.mjs";
import { CliError, EXIT, usageError } from "../lib/errors.mjs";
import { examineeEnv } from "../lib/examinee.mjs";
import { table } from "../lib/output.mjs";
import { loadTask, readText, STUB_TASK_SOURCE, taskModules, toBase64 } from "../lib/task-file.mjs";

export const HELP = `pome sandbox <create|list|get|heartbeat|delete> [options]

  create [--twins a,b] [--task task.md] [--seed seed.json] [--group-id G] [--agent-version V] [--env]
         Starts a sandbox. --task uses the task's twins and its Seed State; --seed (a file keyed
         by twin, like a task's Seed State) overrides it. --env prints shell exports for an agent.
  list   [--state S] [--limit N]
  get <id> [--env]
  heartbeat <id>      resets the idle timer
  delete <id> [--discard]
         An open sandbox holds an ungraded run; deleting it needs --discard.

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
};

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
  const lines = [`${sandbox.session_id ?? sandbox.id}  ${sandbox.state ?? ""}  expires ${sandbox.expires_at}`];
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
    task_source: task ? toBase64(task.markdown) : STUB_TASK_SOURCE,
    ...(seed !== undefined ? { seed } : {}),
    ...(values["group-id"] ? { group_id: values["group-id"] } : {}),
    ...(values["agent-version"] ? { agent_version: values["agent-version"] } : {}),
    idempotency_key: randomUUID(),
  });
  if (values.env && !ctx.out.json) ctx.out.result(await shellExports(sandbox, task?.task.prompt));
  else ctx.out.result(`${describe(sandbox)}\nAgent token: pome sandbox get ${sandbox.session_id} --env`, sandbox);
  return EXIT.OK;
}

async function remove(id, values, ctx) {
  let closed;
  try {
    closed = await ctx.api.deleteSandbox(id, { discard: values.discard });
  } catch (err) {
    if (!(err instanceof ApiResponseError && err.apiDetails?.discard_token)) throw err;
    throw new CliError(
      `Sandbox ${id} is open and holds a run nobody has graded. Finalize it, or repeat with --discard to throw the run away.`,
      EXIT.FAILED,
      {
        reason: "ungraded_session",
      },
    );
  }
  ctx.out.result(`Sandbox ${id} is closed (${closed.state}).`, closed);
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
      const rows = list.map((s) => [s.id, s.state, (s.twins ?? []).join(","), s.created_at, s.expires_at, s.task_name]);
      ctx.out.result(list.length ? table(["sandbox", "state", "twins", "created", "expires", "task"], rows) : "No sandboxes.", list);
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
    case "delete":
      return remove(needId(), values, ctx);
    default:
      throw usageError(
        sub
          ? `Unknown sandbox command "${sub}"; use create, list, get, heartbeat or delete`
          : "pome sandbox needs a command: create, list, get, heartbeat or delete",
      );
  }
}
