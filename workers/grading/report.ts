// report.md: a run rendered for a person or a coach agent to read.
import { newGroupId } from "../ids";
import { exclusionPhrase, scoreLine } from "./narrate";
import type { RunView } from "./run-view";
import { scoreFromRun } from "./run-score";
import type { CriterionResult } from "./types";
import { ownerOf, type RunVerdict } from "./verdict";

const ICONS: Record<CriterionResult["status"], string> = { passed: "✅", failed: "❌", skipped: "⏭️", unmatched: "❔" };

/** A table cell: one line, pipes escaped. */
const cell = (text: string) =>
  text
    .replace(/\r?\n+/g, " ")
    .replace(/\|/g, "\\|")
    .trim() || "—";

/** Every criterion that did not pass names its owner: the agent, the task, the grader or the platform. */
function criteriaTable(results: readonly CriterionResult[]): string[] {
  return [
    "| | Criterion | Kind | Status | Owner | Reason |",
    "|---|---|---|---|---|---|",
    ...results.map((r) => `| ${ICONS[r.status]} | ${cell(r.text)} | ${r.kind} | ${r.status} | ${ownerOf(r) ?? "—"} | ${cell(r.reason)} |`),
  ];
}

const VERDICT_ICONS: Record<RunVerdict, string> = { passed: "✅", failed: "❌", incomplete: "⚠️", errored: "🛑" };

/** The verdict line, first thing after the title: a score says nothing without it. */
export const verdictLine = (run: Pick<RunView, "verdict" | "verdict_reason">) =>
  `**Verdict: ${VERDICT_ICONS[run.verdict]} ${run.verdict}** — ${run.verdict_reason}`;

/** How the examinee ended, with the tail of its stderr when it crashed. */
function examineeSection(run: RunView): string[] {
  const crashed = run.exit_code !== 0 || run.exit_signal !== null;
  if (!crashed || !run.stderr_tail) return [];
  return [
    "## How the examinee ended",
    "",
    `Exit code ${run.exit_code}${run.exit_signal ? `, signal ${run.exit_signal}` : ""}; the end of its stderr:`,
    "",
    "```text",
    run.stderr_tail.replace(/`{3,}/g, "ʼʼʼ"),
    "```",
    "",
  ];
}

function twinRuntime(run: RunView): string {
  const perTwin = run.twins.map((twin) => {
    const lanes = run.lanes.filter((l) => l.twin === twin);
    const calls = lanes.reduce((n, l) => n + l.calls, 0);
    const mutated = lanes.reduce((n, l) => n + l.mutated, 0);
    const unsupported = lanes.reduce((n, l) => n + l.unsupported, 0);
    return `${twin} (${calls} calls, ${mutated} mutating, ${unsupported} unsupported)`;
  });
  const source =
    run.source === "twin-pull"
      ? "read live from the sandbox"
      : run.source === "archive"
        ? "read from the sandbox's archive"
        : "read from uploaded blobs";
  return `pome-twins digital twins on Cloudflare Workers (${run.environment}): ${perTwin.join(", ")}; ${run.tape_length} tape rows, ${run.steps.length} steps; evidence ${source}`;
}

export interface ReportOptions {
  /** The new group id offered to API callers who rerun without the CLI; minted fresh when omitted. */
  rerunGroupId?: string;
}

export function renderReport(run: RunView, opts: ReportOptions = {}): string {
  const score = scoreFromRun(run);
  const b = run.criteria_breakdown;
  const title = run.task_name ?? run.session_id;
  const failed = run.criteria_results.filter((r) => r.status === "failed");
  const rerunGroup = opts.rerunGroupId ?? newGroupId();
  const lines: string[] = [
    `# Evaluation report — ${title}`,
    "",
    verdictLine(run),
    "",
    scoreLine(score),
    "",
    `## Criteria (${b.passed} passed · ${b.failed} failed · ${exclusionPhrase(score)})`,
    "",
    ...criteriaTable(run.criteria_results),
    "",
    "## Run",
    "",
    `- Run: \`${run.id}\` (session \`${run.session_id}\`), finished ${run.finished_at}`,
    `- Agent model: ${run.agent_model}${run.agent_sdk ? ` via ${run.agent_sdk}` : ""}; agent version: ${run.agent_version ?? "not declared"}`,
    `- Judge model: ${run.judge_model ?? "none configured ([model] criteria are skipped judge_unavailable)"}`,
    `- Stopped: "${cell(run.stop_reason)}", exit code ${run.exit_code}${run.exit_signal ? ` (signal ${run.exit_signal})` : ""}, after ${(run.duration_ms / 1000).toFixed(1)} s`,
    ...(run.regraded_from ? [`- Re-graded from run \`${run.regraded_from}\`'s stored evidence`] : []),
    `- Twin runtime: ${twinRuntime(run)}`,
    `- Group: ${run.group_id ? `\`${run.group_id}\`` : "none"}${run.baseline_group_id ? `; baseline group \`${run.baseline_group_id}\`` : ""}`,
    `- Provenance: ${run.provenance}`,
    `- Dashboard: [${run.dashboard_url}](${run.dashboard_url})`,
    "",
  ];
  lines.push(...examineeSection(run));
  if (run.flipped) {
    const changed = run.flipped.filter((f) => f.before !== f.after);
    lines.push("## Flipped since the run re-graded", "");
    if (!changed.length) lines.push("No criterion changed status.", "");
    else lines.push(...changed.map((f) => `- \`${f.id}\` ${cell(f.text)}: ${f.before} → ${f.after}`), "");
  }
  if (run.summary) lines.push("## Summary", "", run.summary, "");
  lines.push("## Handoff (fix prompt)", "");
  if (run.fix_prompt) {
    if (failed.length) lines.push(`What failed: ${failed.map((r) => `\`${r.id}\``).join(", ")}.`, "");
    lines.push("Hand this to whoever owns the agent's prompt:", "", "```text", run.fix_prompt, "```", "");
  } else {
    lines.push("Nothing to hand off: no evaluated criterion failed and no call hit an unsupported endpoint.", "");
  }
  if (b.unmatched) {
    lines.push(
      `${b.unmatched} [code] criteri${b.unmatched === 1 ? "on" : "a"} bound no check. That is a fault of the task, not the agent: render the sentence with POST /v1/checks/render.`,
      "",
    );
  }
  const taskFailed = run.criteria_results.filter((r) => r.status === "failed" && ownerOf(r) === "task");
  if (taskFailed.length)
    lines.push(
      `${taskFailed.map((r) => `\`${r.id}\``).join(", ")} failed on a subject the seed does not have and the agent could not create: fix the task, not the agent.`,
      "",
    );
  lines.push("## Rerun after fixing", "");
  const nextVersion = run.agent_version ? `${run.agent_version}-next` : "v2";
  if (run.group_id) {
    lines.push(
      "Once the agent is fixed, run the same task again as a new group compared with this one (put your agent's command after `--`):",
      "",
      "```bash",
      `npx pome rerun ${run.group_id} --agent-version ${nextVersion} -- <your agent's command>`,
      "```",
      "",
      `It prints which criteria flipped. Without the CLI, create the new sandboxes with \`"group_id": "${rerunGroup}"\`, \`"baseline_group_id": "${run.group_id}"\` and \`"agent_version": "${nextVersion}"\`.`,
      "",
    );
  } else {
    lines.push(
      "This run belongs to no group, so no rerun can be compared with it. Run the task with `npx pome run <task.md> -- <your agent's command>`, which puts every run in a group, and rerun that group after the fix.",
      "",
    );
  }
  return lines.join("\n");
}
