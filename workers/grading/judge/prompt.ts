// What the judge reads, and how its answer is read back. The evidence is rendered compactly and
// within a budget: one line per call, and each twin's final state as truncated JSON.
import type { TapeRow } from "../../../durable-objects/twins/types";
import type { JudgeAnswer, JudgePrompt, JudgeRequest } from "./types";

const TAPE_BUDGET = 24_000;
const STATE_BUDGET = 24_000;
const BODY_SNIPPET = 160;

const clip = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max)}… [${text.length - max} more characters]`);
const oneLine = (value: unknown) =>
  value === null || value === undefined || value === ""
    ? ""
    : clip(typeof value === "string" ? value : JSON.stringify(value), BODY_SNIPPET);

export function renderTapeLine(row: TapeRow): string {
  const marks = [row.mutated ? "mutated" : "", row.fidelity === "unsupported" ? "UNSUPPORTED" : ""].filter(Boolean).join(",");
  const query = row.query ? `?${row.query}` : "";
  const request = oneLine(row.request_body);
  const response = oneLine(row.response_body);
  return (
    `#${row.seq} ${row.at} ${row.twin} ${row.method} ${row.path}${query} -> ${row.status} ${row.operation}${marks ? ` [${marks}]` : ""}` +
    `${request ? `\n    request: ${request}` : ""}${response ? `\n    response: ${response}` : ""}`
  );
}

/** The tape as lines, keeping the start and the end when it does not fit. */
export function renderTape(rows: readonly TapeRow[], budget = TAPE_BUDGET): string {
  if (!rows.length) return "(the agent made no calls)";
  const lines = rows.map(renderTapeLine);
  const total = lines.reduce((n, l) => n + l.length + 1, 0);
  if (total <= budget) return lines.join("\n");
  const head: string[] = [];
  const tail: string[] = [];
  let used = 0;
  for (let i = 0, j = lines.length - 1; i <= j; ) {
    const next = head.length <= tail.length ? lines[i] : lines[j];
    if (used + next.length + 1 > budget) break;
    used += next.length + 1;
    if (head.length <= tail.length) head.push(lines[i++]);
    else tail.unshift(lines[j--]);
  }
  return [...head, `… ${lines.length - head.length - tail.length} calls omitted …`, ...tail].join("\n");
}

export function buildJudgePrompt(req: JudgeRequest): JudgePrompt {
  const { task, criterion, evidence } = req;
  const states = evidence.twins
    .map((twin) => {
      const final = evidence.perTwin[twin]?.final;
      const text =
        final === undefined ? "(no state exported)" : clip(JSON.stringify(final), Math.floor(STATE_BUDGET / evidence.twins.length));
      return `### ${twin}\n${text}`;
    })
    .join("\n\n");
  const system =
    "You grade one criterion of an AI agent's run against simulated services (digital twins). " +
    "Judge only from the evidence given: the task, the calls the agent made, and the final state. " +
    "If the evidence does not show the criterion is met, it is not met. " +
    'Answer with one JSON object and nothing else: {"verdict": "pass" | "fail", "reason": "<one or two sentences naming the evidence>"}.';
  const user = [
    task.name ? `# Task: ${task.name}` : "# Task",
    task.prompt ? `## What the agent was asked to do\n${clip(task.prompt, 8_000)}` : "",
    task.expectedBehavior ? `## Expected behaviour\n${clip(task.expectedBehavior, 8_000)}` : "",
    `## Criterion to grade\n${criterion.text}`,
    `## Calls the agent made (seq, time, twin, method, path -> status, operation)\n${renderTape(evidence.tape)}`,
    `## Final state of each twin\n${states}`,
    'Reply with only: {"verdict": "pass" | "fail", "reason": "..."}',
  ]
    .filter(Boolean)
    .join("\n\n");
  return { system, user };
}

/** Reads a verdict out of the model's text: a JSON object, possibly fenced or surrounded by prose. */
export function parseVerdict(text: string): Extract<JudgeAnswer, { ok: true }> | undefined {
  const start = text.indexOf("{");
  const end = text.lastIndexOf("}");
  if (start < 0 || end <= start) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text.slice(start, end + 1));
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null) return undefined;
  const record = value as Record<string, unknown>;
  const word = typeof record.verdict === "string" ? record.verdict.trim().toLowerCase() : "";
  const reason = typeof record.reason === "string" ? record.reason.trim() : "";
  if (!reason) return undefined;
  if (word === "pass" || word === "passed") return { ok: true, verdict: "pass", reason };
  if (word === "fail" || word === "failed") return { ok: true, verdict: "fail", reason };
  return undefined;
}
