// The Run page: the score with its denominator and exclusions, the criteria with status and
// reason (each opening onto the calls it concerns), the tape as a timeline in steps with one lane
// per twin, the world as a diff from seed to final state, the fix prompt, and the downloads.
import { html } from "hono/html";
import type { TapeRow } from "../../../durable-objects/twins/types";
import type { Step } from "../../grading/correlate";
import type { RunView } from "../../grading/run-view";
import type { CriterionResult } from "../../grading/types";
import { ownerOf } from "../../grading/verdict";
import type { Change } from "../../dashboard/world-diff";
import { seqsInReason, type CallRef, type TapeView } from "../../dashboard/tape-view";
import { callTitle, decodeQueryString, graphqlCall } from "../../dashboard/call-summary";
import { badge, scoreBar, when, type Html } from "./layout";
import { inlineMarkdown, plainText } from "./markdown";

export interface WorldDiff {
  twin: string;
  changes: Change[];
  truncated: boolean;
  /** Why there is no diff for this twin, when there is none. */
  missing: string | null;
}

const BODY_LIMIT = 6000;

function shown(value: unknown): string {
  if (value === undefined || value === null || value === "") return "(none)";
  const text = typeof value === "string" ? value : JSON.stringify(value, null, 2);
  return text.length > BODY_LIMIT
    ? `${text.slice(0, BODY_LIMIT)}\n… ${text.length - BODY_LIMIT} more characters; download the trace for all of it`
    : text;
}

/** A value of the world diff: short ones inline, long ones opened in full from a <details>. */
const INLINE_LIMIT = 120;
const VALUE_LIMIT = 20000;
function worldValue(value: unknown): Html {
  const inline = JSON.stringify(value) ?? "undefined";
  if (inline.length <= INLINE_LIMIT) return html`<code>${inline}</code>`;
  // A string in full as the text it is (a message, a leaked secret), anything else as indented JSON.
  const full = typeof value === "string" ? value : (JSON.stringify(value, null, 2) ?? "undefined");
  const cut =
    full.length > VALUE_LIMIT
      ? `${full.slice(0, VALUE_LIMIT)}\n… ${full.length - VALUE_LIMIT} more characters; download the states for all of it`
      : full;
  return html`<details class="value"><summary><code>${inline.slice(0, INLINE_LIMIT - 20)}…</code> <span class="muted">${inline.length} characters</span></summary><pre>${cut}</pre></details>`;
}

function scoreSection(run: RunView): Html {
  const b = run.criteria_breakdown;
  const excluded = run.criteria_results.filter((r) => r.status === "skipped" || r.status === "unmatched");
  return html`<section class="verdict" aria-label="verdict" data-verdict="${run.verdict}"><p>${badge(run.verdict)} <span class="verdict-reason">${inlineMarkdown(run.verdict_reason)}</span></p></section>
<section class="score" aria-label="score">
<div><div class="big" data-score="${run.score ?? ""}">${run.score === null ? "—" : run.score}<span class="muted">/100</span></div>${scoreBar(b.passed, b.failed)}
<div class="denominator">${b.passed} of ${b.evaluated} evaluated criteria passed${b.failed ? `, ${b.failed} failed` : ""}</div></div>
<div class="excluded"><b>Excluded from the denominator: ${excluded.length}</b>${
    excluded.length
      ? html`<div class="chips">${excluded.map((r) => html`<span title="${plainText(r.reason)}">${r.status === "unmatched" ? "unmatched" : (r.skip_reason ?? "skipped")}: ${inlineMarkdown(r.text)}</span>`)}</div>`
      : html`<div class="muted">none</div>`
  }</div></section>`;
}

function callLink(ref: CallRef): Html {
  // A call at one path for every operation (GraphQL) is named by its operation.
  const named = ref.operation && /graphql/i.test(ref.path) ? `${ref.operation} (${ref.method} ${ref.path})` : `${ref.method} ${ref.path}`;
  return html`<li><a href="?page=${ref.page}#seq-${ref.seq}">#${ref.seq} ${named}</a></li>`;
}

function criterionCalls(r: CriterionResult, tape: TapeView | undefined, run: RunView): Html {
  if (!tape) return html`<p class="muted">The tape is not retrievable, so no calls can be shown.</p>`;
  const named = seqsInReason(r.reason)
    .map((seq) => {
      const page = tape.pageOf(seq);
      return page === null ? null : { seq, page };
    })
    .filter((x): x is { seq: number; page: number } => x !== null);
  const twin = r.twin ?? run.twins[0];
  const writes = tape.mutating.filter((m) => m.twin === twin);
  return html`${named.length ? html`<p>Calls the reason names: ${named.map((n) => html`<a href="?page=${n.page}#seq-${n.seq}">#${n.seq}</a> `)}</p>` : ""}
${writes.length ? html`<p>Calls that changed ${twin} (${writes.length}):</p><ul class="calls">${writes.slice(0, 12).map(callLink)}</ul>${writes.length > 12 ? html`<p class="muted">and ${writes.length - 12} more in the timeline</p>` : ""}` : html`<p class="muted">The agent made no call that changed ${twin}.</p>`}`;
}

function criteriaSection(run: RunView, tape: TapeView | undefined): Html {
  return html`<table class="criteria"><thead><tr><th>Status</th><th>Criterion</th><th>Kind</th><th>Owner</th><th>Reason</th></tr></thead><tbody>
${run.criteria_results.map(
  (r) => html`<tr class="crit" data-criterion="${r.id}" data-owner="${ownerOf(r) ?? ""}"><td>${badge(r.status)}</td>
<td><details id="crit-${r.id}"><summary>${inlineMarkdown(r.text)}</summary><div class="crit-detail">
<p><b>Check:</b> ${r.check_id ?? (r.kind === "model" ? "LLM judge" : "none bound")}${r.twin ? html` · <b>twin:</b> ${r.twin}` : ""}${r.always_scored ? " · always scored" : ""}</p>
<p><b>Reason:</b> ${inlineMarkdown(r.reason)}</p>${criterionCalls(r, tape, run)}</div></details></td>
<td>${r.kind}</td><td class="owner">${ownerOf(r) ?? "—"}</td><td class="reason">${inlineMarkdown(r.reason)}</td></tr>`,
)}</tbody></table>`;
}

/** A crash or a timeout, named: exit code, signal and the end of the examinee's stderr. */
function examineeSection(run: RunView): Html {
  if (run.exit_code === 0 && run.exit_signal === null) return html``;
  return html`<h2>How the examinee ended</h2><section class="examinee" aria-label="examinee"><p>Stopped "${run.stop_reason}" with exit code <b>${run.exit_code}</b>${run.exit_signal ? html`, signal <b>${run.exit_signal}</b>` : ""}.</p>${
    run.stderr_tail ? html`<pre class="stderr-tail">${run.stderr_tail}</pre>` : html`<p class="muted">The runner sent no stderr.</p>`
  }</section>`;
}

/** A regrade names the run it re-graded and the criteria that flipped. */
function regradeSection(run: RunView): Html {
  if (!run.regraded_from) return html``;
  const changed = (run.flipped ?? []).filter((f) => f.before !== f.after);
  return html`<p class="regrade">Re-graded from <a href="/app/runs/${run.regraded_from}">${run.regraded_from}</a>'s stored evidence; ${
    changed.length
      ? html`flipped: ${changed.map((f) => html`<code>${f.id}</code> ${f.before} → ${f.after} `)}`
      : "no criterion changed status"
  }.</p>`;
}

function pager(tape: TapeView): Html {
  if (tape.pages <= 1) return html``;
  const pages = new Set(
    [1, tape.page - 2, tape.page - 1, tape.page, tape.page + 1, tape.page + 2, tape.pages].filter((p) => p >= 1 && p <= tape.pages),
  );
  const sorted = [...pages].sort((a, b) => a - b);
  return html`<nav class="pager" aria-label="timeline pages">Page ${tape.page} of ${tape.pages}:
${sorted.map((p, i) => html`${i && p - sorted[i - 1] > 1 ? "… " : ""}${p === tape.page ? html`<b>${p}</b>` : html`<a href="?page=${p}#timeline">${p}</a>`}`)}
${tape.page < tape.pages ? html`<a href="?page=${tape.page + 1}#timeline" rel="next">next →</a>` : ""}</nav>`;
}

/** One call of a tape as a timeline row: seq, time since t0, and the call in its twin's lane. */
export function callRow(row: TapeRow, lanes: readonly string[], t0: number): Html {
  const flags = [
    row.mutated ? "mutated" : "",
    row.fidelity === "unsupported" ? "unsupported" : "",
    row.status >= 400 ? "error" : "",
  ].filter(Boolean);
  const offset = ((Date.parse(row.at) - t0) / 1000).toFixed(2);
  const gql = graphqlCall(row);
  // A GraphQL call is named by its operation (the path is the same for all of them); its query is
  // shown as GraphQL text with its variables beside it.
  const title = gql
    ? html`<b>${gql.type}</b> ${gql.name ?? row.operation}${row.operation && row.operation !== gql.name ? html` <span class="muted">${row.operation}</span>` : ""}`
    : html`<b>${row.method}</b> ${row.path}${row.query ? `?${decodeQueryString(row.query)}` : ""}`;
  const request = gql
    ? html`<pre class="request graphql">${shown(gql.query)}</pre>${gql.variables === null ? "" : html`<b>Variables</b><pre class="variables">${shown(gql.variables)}</pre>`}`
    : html`<pre class="request">${shown(row.request_body)}</pre>`;
  const cell = html`<details class="call ${flags.join(" ")}" id="seq-${row.seq}" data-seq="${row.seq}"><summary title="${callTitle(row)}">${title} → <b class="${row.status >= 400 ? "failed" : "passed"}">${row.status}</b>
${flags.map((f) => badge(f === "error" ? "failed" : f === "mutated" ? "flaky" : "skipped", f))}</summary>
<div class="io"><p class="muted">${row.transport} · ${row.method} ${row.path} · ${row.operation} · ${row.at}</p>
<b>Request</b>${Object.keys(row.request_headers ?? {}).length ? html`<pre>${shown(row.request_headers)}</pre>` : ""}${request}
<b>Response ${row.status}</b><pre class="response">${shown(row.response_body)}</pre></div></details>`;
  return html`<tr class="row"><td class="num"><a href="#seq-${row.seq}">${row.seq}</a></td><td class="num muted">+${offset}s</td>${lanes.map((l) => html`<td class="lane">${l === row.twin ? cell : ""}</td>`)}</tr>`;
}

function timelineSection(run: RunView, tape: TapeView | undefined): Html {
  if (!tape) return html`<p class="muted">This run's tape is not retrievable.</p>`;
  if (!tape.total) return html`<p class="muted">The agent made no calls to the twins.</p>`;
  const lanes = [...run.twins.map(String)];
  for (const row of tape.rows) if (!lanes.includes(row.twin)) lanes.push(row.twin);
  const t0 = Date.parse(run.steps[0]?.started_at ?? tape.rows[0]?.at ?? "") || Date.parse(tape.rows[0]?.at ?? "");
  const steps = [...run.steps].sort((a, b) => a.first_seq - b.first_seq);
  let s = 0;
  const body: Html[] = [];
  let current: Step | undefined;
  for (const row of tape.rows) {
    while (s < steps.length && steps[s].last_seq < row.seq) s++;
    const step = steps[s] && steps[s].first_seq <= row.seq ? steps[s] : undefined;
    if (step && step !== current) {
      current = step;
      body.push(
        html`<tr class="step"><td colspan="${2 + lanes.length}">Step ${step.index + 1} · ${step.transport} · ${step.calls} call${step.calls === 1 ? "" : "s"}${step.mutated ? ` · ${step.mutated} mutating` : ""}${step.errors ? ` · ${step.errors} errors` : ""}${step.unsupported ? ` · ${step.unsupported} unsupported` : ""} · ${when(step.started_at)}</td></tr>`,
      );
    }
    body.push(callRow(row, lanes, t0));
  }
  return html`<p class="muted">${tape.total} calls in ${run.steps.length} steps; showing ${(tape.page - 1) * tape.pageSize + 1}–${(tape.page - 1) * tape.pageSize + tape.rows.length}. Click a call for its request and response.</p>
${pager(tape)}<table class="timeline"><colgroup><col class="seq"><col class="time">${lanes.map(() => html`<col>`)}</colgroup><thead><tr><th>Seq</th><th>Time</th>${lanes.map((l) => html`<th class="lane-head">${l}</th>`)}</tr></thead><tbody>${body}</tbody></table>${pager(tape)}`;
}

/** The changes grouped by the record they belong to, in the order the diff found them. */
function byRecord(changes: readonly Change[]): [string, Change[]][] {
  const groups = new Map<string, Change[]>();
  for (const c of changes) groups.set(c.object, [...(groups.get(c.object) ?? []), c]);
  return [...groups];
}

const kindBadge = (kind: Change["kind"]) => badge(kind === "added" ? "passed" : kind === "removed" ? "failed" : "skipped", kind);

function worldSection(world: readonly WorldDiff[]): Html {
  return html`${world.map(
    (w) =>
      html`<h3>${w.twin}</h3>${
        w.missing
          ? html`<p class="muted">${w.missing}</p>`
          : w.changes.length
            ? html`<table class="diff" data-twin="${w.twin}"><colgroup><col class="field"><col><col></colgroup><thead><tr><th>Change</th><th>Seed</th><th>Final</th></tr></thead>${byRecord(
                w.changes,
              ).map(
                ([object, changes]) =>
                  html`<tbody data-object="${object}">${object ? html`<tr class="object"><th colspan="3"><code>${object}</code></th></tr>` : ""}${changes.map(
                    (c) => html`<tr class="${c.kind}"><td><code>${c.field || c.path}</code> ${kindBadge(c.kind)}</td>
<td class="del">${c.kind === "added" ? "" : worldValue(c.before)}</td><td class="add">${c.kind === "removed" ? "" : worldValue(c.after)}</td></tr>`,
                  )}</tbody>`,
              )}</table>${w.truncated ? html`<p class="muted">More changes than shown; download the states for all of them.</p>` : ""}`
            : html`<p class="muted">The final state equals the seed: nothing changed.</p>`
      }`,
  )}`;
}

export function runPage(run: RunView, tape: TapeView | undefined, world: readonly WorldDiff[]): Html {
  const downloads = [
    run.trace_s3_key ? html`<li><a href="/app/runs/${run.id}/download/trace">Trace (events.jsonl)</a></li>` : "",
    ...run.twins.map(
      (t) =>
        html`${run.state_initial_keys[t] ? html`<li><a href="/app/runs/${run.id}/download/state_initial/${t}">Seed state of ${t}</a></li>` : ""}${
          run.state_keys[t] ? html`<li><a href="/app/runs/${run.id}/download/state_final/${t}">Final state of ${t}</a></li>` : ""
        }`,
    ),
  ];
  return html`<p class="muted"><a href="/app/runs">Runs</a> / ${run.id}</p>
<h1>${run.task_name ?? run.session_id}</h1>
<p class="muted">Run <code>${run.id}</code> · session <code>${run.session_id}</code> · ${run.twins.join(" + ")} · agent ${run.agent_model}${run.agent_version ? ` ${run.agent_version}` : ""} · judge ${run.judge_model ?? "none"} · finished ${when(run.finished_at)} · ${run.source}
${run.group_id ? html` · group <a href="/app/reliability/groups/${run.group_id}">${run.group_id}</a>` : ""}${run.baseline_group_id ? html` · baseline <a href="/app/reliability/groups/${run.baseline_group_id}">${run.baseline_group_id}</a>` : ""}</p>
${regradeSection(run)}
${scoreSection(run)}
${examineeSection(run)}
<h2>Criteria</h2>${criteriaSection(run, tape)}
${run.summary ? html`<h2>Summary</h2><p class="summary">${inlineMarkdown(run.summary)}</p>` : ""}
<h2>Fix prompt</h2>${run.fix_prompt ? html`<pre class="fix-prompt">${inlineMarkdown(run.fix_prompt)}</pre>` : html`<p class="muted">Nothing to hand off: no evaluated criterion failed and no call hit an unsupported endpoint.</p>`}
<h2>Downloads</h2><ul class="downloads">${downloads}<li><a href="/app/runs/${run.id}/report.md">Report (markdown)</a></li></ul>
<h2 id="timeline">Timeline</h2>${timelineSection(run, tape)}
<h2 id="world">World: seed → final</h2>${worldSection(world)}`;
}
