// pome trace <run_id> [--out FILE] [--state] [--evidence DIR]
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { parseCommandLine } from "../lib/args.mjs";
import { CliError, EXIT, usageError } from "../lib/errors.mjs";
import { unreachable } from "../lib/api.mjs";

export const OPTIONS = {
  out: { type: "string", short: "o" },
  state: { type: "boolean", default: false },
  evidence: { type: "string" },
};

export const HELP = `pome trace <run_id> [--out FILE] [--state] [--evidence DIR]

Downloads the run's tape (events.jsonl: one JSON object per call the agent made) through a
short-lived signed URL. --state downloads the twins' final state instead. --out - writes to stdout.
Default file: <run_id>.events.jsonl (or <run_id>.state.json).

--evidence DIR downloads everything the run was graded from into DIR, as the server stores it:
events.jsonl, state_initial.<twin>.json, state_final.<twin>.json, and run.json (how the examinee
ended). \`pome grade DIR task.md\` grades that folder offline.`;

/** Blobs may be stored gzipped or plain; the download says neither, so look at the bytes. */
const maybeGunzip = (bytes) => (bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes);

/** One signed URL's bytes; a refusal names the blob and what to do. */
async function download(url, what, id) {
  let res;
  try {
    // The signed URL carries its own authorization; the team key is not sent with it.
    res = await fetch(url, { signal: AbortSignal.timeout(120_000) });
  } catch (err) {
    throw unreachable(new URL(url).origin, err);
  }
  if (!res.ok)
    throw new CliError(
      `Downloading the ${what} of ${id} answered ${res.status}; the signed URL may have expired, run the command again`,
      EXIT.API,
    );
  return maybeGunzip(Buffer.from(await res.arrayBuffer()));
}

/** The run's whole evidence, under the names finalize stores it with (workers/grading/evidence.ts). */
async function downloadEvidence(ctx, id, dir) {
  const run = await ctx.api.get(`/v1/runs/${encodeURIComponent(id)}`);
  const trace = await ctx.api.get(`/v1/runs/${encodeURIComponent(id)}/trace`);
  const state = await ctx.api.get(`/v1/runs/${encodeURIComponent(id)}/state`);
  mkdirSync(dir, { recursive: true });
  const files = [];
  const save = (name, bytes) => {
    writeFileSync(path.join(dir, name), bytes);
    files.push(name);
  };
  save("events.jsonl", await download(trace.url, "trace", id));
  for (const [twin, entry] of Object.entries(state.per_twin ?? {}))
    save(`state_final.${twin}.json`, await download(entry.url, `${twin} final state`, id));
  for (const [twin, entry] of Object.entries(state.per_twin_initial ?? {}))
    save(`state_initial.${twin}.json`, await download(entry.url, `${twin} initial state`, id));
  const ending = {
    id: run.id,
    session_id: run.session_id,
    task_name: run.task_name,
    twins: run.twins,
    stop_reason: run.stop_reason,
    exit_code: run.exit_code,
    exit_signal: run.exit_signal ?? null,
    stderr_tail: run.stderr_tail ?? null,
    duration_ms: run.duration_ms,
    agent_model: run.agent_model,
    agent_version: run.agent_version ?? null,
  };
  save("run.json", `${JSON.stringify(ending, null, 2)}\n`);
  ctx.out.result(`Saved the evidence of ${id} to ${dir}: ${files.join(", ")}\nGrade it offline: pome grade ${dir} <task.md>`, {
    run_id: id,
    dir,
    files,
  });
  return EXIT.OK;
}

export async function run(argv, ctx) {
  const { values, positionals } = parseCommandLine(argv, OPTIONS);
  if (positionals.length !== 1) throw usageError("pome trace takes one run id: pome trace <run_id>");
  const id = positionals[0];
  if (values.evidence !== undefined) {
    if (values.state || values.out !== undefined) throw usageError("--evidence downloads every blob; it takes neither --state nor --out");
    return downloadEvidence(ctx, id, values.evidence);
  }
  const blob = values.state ? "state" : "trace";
  const signed = await ctx.api.get(`/v1/runs/${encodeURIComponent(id)}/${blob}`);
  const bytes = await download(signed.url, blob, id);
  const file = values.out ?? `${id}.${blob === "state" ? "state.json" : "events.jsonl"}`;
  if (file === "-") {
    process.stdout.write(bytes);
    return EXIT.OK;
  }
  writeFileSync(file, bytes);
  const rows =
    blob === "trace"
      ? bytes
          .toString("utf8")
          .split("\n")
          .filter((l) => l.trim()).length
      : undefined;
  ctx.out.result(`Saved ${blob === "trace" ? `${rows} tape rows` : "the final state"} of ${id} to ${file}`, {
    run_id: id,
    blob,
    file,
    bytes: bytes.length,
    ...(rows !== undefined ? { rows } : {}),
  });
  return EXIT.OK;
}
