// Finalize: freeze the sandbox, collect and redact its evidence, grade, store the evidence in R2 and
// the run in D1. Idempotent: a sandbox has at most one run, and asking again returns it.
import { isOpen } from "../../durable-objects/sandbox-states";
import type { SandboxRow } from "../db/schema";
import { ApiError } from "../errors";
import { newId, sha256Hex } from "../ids";
import { sandboxStub } from "../stubs";
import { parseTask } from "../tasks";
import { fromArchive, fromUploads, redactEvidence, storeEvidence, type CollectedEvidence, type Where } from "../grading/evidence";
import type { FinalizeInput } from "./finalize-input";
import { gradeRun } from "../grading/grade-run";
import type { Judge } from "../grading/judge/types";
import { findRunBySession, insertRun } from "../grading/runs-store";
import { redactText } from "../../durable-objects/redact";
import type { RunRow } from "../db/schema-runs";
import { buildTimelineIndex, timelineIndexKey } from "../dashboard/tape-view";

export interface FinalizeRequest {
  env: Env;
  sandbox: SandboxRow;
  body: FinalizeInput;
  judge: Judge | undefined;
}

const conflict = (reason: string, message: string) => new ApiError("conflict", message, { reason });

const unreachable = (err: unknown) => {
  console.error("finalize could not export the sandbox's evidence", err);
  return new ApiError(
    "downstream_unavailable",
    "The sandbox's evidence could not be written to storage; the sandbox is still open, finalize again to retry",
  );
};

/**
 * Stops the twins answering before the evidence is read, so the graded tape is the whole tape,
 * but leaves the sandbox open: it is closed only once its run is written, and a finalize that
 * fails on the way leaves it finalizable again. A sandbox past its lifetime is closed as expired,
 * which archives it; a discarded one has nothing anyone asked to keep.
 */
async function freezeAndCollect(req: FinalizeRequest, where: Where): Promise<CollectedEvidence> {
  const stub = sandboxStub(req.env, req.sandbox.id);
  const described = await stub.describe();
  if (described.ok && described.meta.closeReason === "discarded")
    throw conflict("session_discarded", "This sandbox was deleted with its run discarded; there is nothing to grade");
  if (!described.ok || described.meta.state === "failed")
    throw conflict("capture_incomplete", "The sandbox never finished provisioning; there is no tape to grade");
  if (req.body.source === "blob") {
    // Uploaded blobs are read (and refused if unusable) before anything changes.
    const { trace_storage_key: trace, state_initial_storage_key: stateInitial, state_final_storage_key: stateFinal } = req.body;
    const uploaded = await fromUploads(where, { trace: trace ?? "", stateInitial, stateFinal }, await stub.initialStates());
    await stub.freeze();
    return uploaded;
  }
  if (isOpen(described.meta.state) && Date.now() >= described.meta.expiresAt) await stub.close("expired", "lifetime");
  const after = await stub.describe();
  if (after.ok && after.meta.state === "expired") {
    const archived = await fromArchive(where, "archive");
    if (archived) return archived;
  }
  await stub.freeze();
  // The Sandbox writes its evidence to R2 itself, page by page; grading reads it back from there.
  let exported: Awaited<ReturnType<typeof stub.exportEvidence>>;
  try {
    exported = await stub.exportEvidence();
  } catch (err) {
    throw unreachable(err);
  }
  if (!exported.ok) throw conflict("capture_incomplete", "The sandbox's tape could not be read; it never finished provisioning");
  const collected = await fromArchive(where, "twin-pull");
  if (!collected) throw unreachable(new Error(`events.jsonl of ${req.sandbox.id} missing right after export`));
  return collected;
}

/**
 * The dashboard's timeline index, built while the tape is in hand, so a run's first view costs what
 * every later one does. A failure only leaves the index to be built on that first view.
 */
async function indexTimeline(env: Env, traceKey: string, collected: CollectedEvidence): Promise<void> {
  // Only the Sandbox's own events.jsonl is the very text read back; an uploaded tape is re-serialized.
  if (collected.tapeText === undefined) return;
  const index = buildTimelineIndex(new TextEncoder().encode(collected.tapeText));
  try {
    await env.EVIDENCE.put(timelineIndexKey(traceKey), JSON.stringify(index), { httpMetadata: { contentType: "application/json" } });
  } catch (err) {
    console.error("could not store the timeline index at finalize", err);
  }
}

/** The run is written: now, and only now, the sandbox closes. */
async function closeFinalized(env: Env, sessionId: string): Promise<void> {
  await sandboxStub(env, sessionId).close("done", "finalized");
}

/** The prompt the agent was given, from the task markdown the sandbox started with. */
function taskPrompt(markdown: string | null): string | null {
  if (!markdown) return null;
  const parsed = parseTask(markdown);
  return parsed.ok && parsed.task.prompt.trim() ? parsed.task.prompt : null;
}

/** The score one trial needs to pass, from the task's Config (default 100). */
export function taskPassScore(markdown: string | null): number | undefined {
  if (!markdown) return undefined;
  const parsed = parseTask(markdown);
  return parsed.ok ? parsed.task.config.passScore : undefined;
}

export async function finalizeSandbox(req: FinalizeRequest): Promise<RunRow> {
  const { env, sandbox, body } = req;
  const existing = await findRunBySession(env, sandbox.teamId, sandbox.id);
  if (existing) {
    // A finalize that wrote the run but failed before closing is finished here.
    await closeFinalized(env, sandbox.id);
    return existing;
  }

  const twins = sandbox.twins;
  const where: Where = { bucket: env.EVIDENCE, teamId: sandbox.teamId, sessionId: sandbox.id, twins };
  const collected = redactEvidence(await freezeAndCollect(req, where));

  const taskName = body.scenario_name ?? sandbox.taskName;
  const task = {
    name: taskName,
    prompt: body.scenario_prompt ?? taskPrompt(sandbox.taskMarkdown),
    expectedBehavior: body.expected_behavior ?? null,
  };
  const { columns } = await gradeRun({
    twins,
    collected,
    criteria: body.criteria,
    task,
    judge: req.judge,
    passScore: taskPassScore(sandbox.taskMarkdown),
    examinee: { stop_reason: body.stop_reason, exit_code: body.exit_code, exit_signal: body.exit_signal, started: body.examinee_started },
    story: { taskName, stopReason: body.stop_reason, exitCode: body.exit_code, durationMs: body.duration_ms },
  });
  const stored = await storeEvidence(where, collected);
  await indexTimeline(env, stored.trace, collected);

  const now = new Date().toISOString();
  const run = await insertRun(env, {
    id: newId("run"),
    teamId: sandbox.teamId,
    sessionId: sandbox.id,
    taskName,
    taskHash: await sha256Hex(sandbox.taskMarkdown ?? JSON.stringify(body.criteria.map((c) => [c.kind, c.text]))),
    groupId: sandbox.groupId,
    baselineGroupId: body.baseline_group_id ?? sandbox.baselineGroupId ?? null,
    environment: env.ENVIRONMENT || "production",
    twins,
    agentModel: body.agent_model,
    agentSdk: body.agent_sdk ?? null,
    agentVersion: body.agent_version ?? sandbox.agentVersion,
    judgeModel: req.judge?.model ?? null,
    stopReason: body.stop_reason,
    exitCode: body.exit_code,
    durationMs: body.duration_ms,
    provenance: "hosted",
    source: collected.source,
    scenarioPrompt: body.scenario_prompt ?? null,
    expectedBehavior: body.expected_behavior ?? null,
    traceS3Key: stored.trace,
    stateS3Key: stored.finals[twins[0]] ?? null,
    stateKeys: JSON.stringify(stored.finals),
    stateInitialKeys: JSON.stringify(stored.initials),
    createdAt: sandbox.createdAt,
    finishedAt: now,
    ...columns,
    exitSignal: body.exit_signal ?? null,
    // The examinee's own output can carry a credential it printed: redacted like every other text kept.
    stderrTail: body.stderr_tail ? redactText(body.stderr_tail) : null,
  });
  await closeFinalized(env, sandbox.id);
  return run;
}
