// The Runs page: newest first, filtered by task, agent, version and group; each run's score as a
// bar and its verdict against the task's passScore.
import { html } from "hono/html";
import type { RunFilters, RunListRow } from "./data";
import { badge, scoreBar, when, type Html } from "./layout";

function select(name: keyof RunFilters, label: string, choices: readonly string[], value: string | undefined): Html {
  return html`<label>${label}<select name="${name}"><option value="">any</option>${choices.map(
    (c) => html`<option value="${c}" ${c === value ? "selected" : ""}>${c}</option>`,
  )}</select></label>`;
}

const query = (params: Record<string, string | null | undefined>) => {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v) q.set(k, v);
  return q.toString();
};

export function runsPage(
  rows: readonly RunListRow[],
  filters: RunFilters,
  choices: { tasks: string[]; versions: string[]; groups: string[]; agents: string[] },
): Html {
  const filtered = Object.values(filters).some((v) => v);
  const table = rows.length
    ? html`<div class="scroll-x"><table class="runs"><thead><tr><th>Run</th><th>Started</th><th>Task</th><th>Agent · version</th><th>Group</th><th>Twins</th><th class="num">Score</th><th></th><th>Verdict</th></tr></thead><tbody>
${rows.map(
  (
    r,
  ) => html`<tr data-run="${r.id}"><td><a href="/app/runs/${r.id}">${r.id}</a></td><td class="muted">${when(r.created_at)}</td><td>${r.task_name ?? "—"}</td>
<td>${r.agent_id ?? ""}${r.agent_id ? " · " : ""}${r.agent_version ?? html`<span class="muted">undeclared</span>`}</td>
<td>${r.group_id ? html`<a href="/app/reliability/groups/${r.group_id}">${r.group_id}</a>` : "—"}</td><td>${r.twins.join(", ")}</td>
<td class="num">${r.score === null ? "—" : `${r.score}/100`}</td><td>${scoreBar(r.breakdown.passed, r.breakdown.failed)}</td><td>${badge(r.outcome)}</td></tr>`,
)}</tbody></table></div>`
    : html`<p class="muted">${filtered ? "No run matches these filters." : "No runs yet. Finalize a sandbox (pome run, or POST /v1/sandboxes/:id/finalize) and it appears here."}</p>`;
  const setLink =
    filters.task && filters.version
      ? html`<p><a href="/app/reliability/set?${query({ task: filters.task, agent: filters.agent, version: filters.version })}">Reliability of this task and version →</a></p>`
      : "";
  return html`<h1>Runs</h1>
<form class="filters" method="get" action="/app/runs">
${select("task", "Task", choices.tasks, filters.task)}${select("agent", "Agent", choices.agents, filters.agent)}${select("version", "Version", choices.versions, filters.version)}${select("group", "Group", choices.groups, filters.group)}
<button>Filter</button>${filtered ? html`<a href="/app/runs">clear</a>` : ""}</form>
${setLink}${table}`;
}
