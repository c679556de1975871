// The Reliability pages: every run-set's pass rate with its interval; one run-set or group with
// its pass^k curve, per-criterion rates, flaky criteria and the comparison with its baseline.
import { html } from "hono/html";
import type { Comparison } from "../../stats/compare";
import { wilson } from "../../stats/reliability";
import type { RunSetReliability } from "../../stats/run-sets";
import { intervalChart, passHatKChart, type IntervalRow } from "./charts";
import type { IndexEntry } from "./data";
import { badge, pct, when, type Html } from "./layout";
import { inlineMarkdown } from "./markdown";

const q = (params: Record<string, string | null>) => {
  const out = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== null) out.set(k, v);
  return out.toString();
};

export const setHref = (s: { task_name: string | null; agent_id: string | null; agent_version: string | null }) =>
  `/app/reliability/set?${q({ task: s.task_name ?? "", agent: s.agent_id, version: s.agent_version })}`;

const setLabel = (s: { agent_id: string | null; agent_version: string | null }) =>
  `${s.agent_id ? `${s.agent_id} · ` : ""}${s.agent_version ?? "undeclared version"}`;

export function reliabilityIndexPage(entries: readonly IndexEntry[]): Html {
  if (!entries.length)
    return html`<h1>Reliability</h1><p class="muted">No runs yet. Run a task several times (pome run --runs N) to see its pass rate here.</p>`;
  const tasks = [...new Set(entries.map((e) => e.task_name))];
  return html`<h1>Reliability</h1>
<p class="muted">Per task and agent version: the share of graded trials that passed, with its 95% Wilson interval. Errored trials (nothing could be graded) are counted apart. The dashed red line is the task's passThreshold.</p>
${tasks.map((task) => {
  const sets = entries.filter((e) => e.task_name === task);
  const rows: IntervalRow[] = sets.map((s) => {
    const i = s.graded ? wilson(s.passed, s.graded) : null;
    return {
      label: setLabel(s),
      rate: s.graded ? s.passed / s.graded : null,
      low: i?.low ?? null,
      high: i?.high ?? null,
      href: setHref(s),
      note: `${s.passed}/${s.graded} graded`,
    };
  });
  return html`<section class="card task-sets"><h2>${inlineMarkdown(task ?? "(unnamed task)")}</h2>${intervalChart(rows, sets[0].pass_threshold / 100)}
<div class="scroll-x"><table><thead><tr><th>Agent · version</th><th class="num">Trials</th><th class="num">Passed</th><th class="num">Incomplete</th><th class="num">Errored</th><th class="num">Pass rate</th><th>95% interval</th><th>Verdict</th><th>Last run</th></tr></thead><tbody>
${sets.map((s) => {
  const rate = s.graded ? s.passed / s.graded : null;
  const i = s.graded ? wilson(s.passed, s.graded) : null;
  const verdict = rate === null ? "no_data" : rate * 100 >= s.pass_threshold - 1e-9 ? "passed" : "failed";
  return html`<tr><td><a href="${setHref(s)}">${setLabel(s)}</a></td><td class="num">${s.trials}</td><td class="num">${s.passed}</td><td class="num">${s.incomplete}</td><td class="num">${s.errored}</td><td class="num">${pct(rate)}</td><td>${i ? `${pct(i.low)}–${pct(i.high)}` : "—"}</td><td>${badge(verdict)}</td><td class="muted">${when(s.last_run_at)}</td></tr>`;
})}</tbody></table></div></section>`;
})}`;
}

function headline(r: RunSetReliability): Html {
  return html`<div class="score"><div><div class="big pass-rate">${pct(r.pass_rate)}</div><div class="muted">pass rate, ${r.passed} of ${r.graded} graded trials</div></div>
<div><b>95% interval</b><div class="interval-text">${r.interval ? `${pct(r.interval.low)}–${pct(r.interval.high)}` : "—"}</div></div>
<div><b>Threshold</b><div>${r.pass_threshold}% (a trial passes at a score of ${r.pass_score})</div></div>
<div><b>Verdict</b><div>${badge(r.verdict)}${r.pass_rate !== null && !r.verdict_settled ? html` <span class="muted">the threshold is inside the interval: more trials could turn it</span>` : ""}</div></div>
${uncounted("Incomplete", r.incomplete_runs)}${uncounted("Errored", r.errored_runs)}</div>`;
}

/** Trials left out of the pass rate (not fully graded, or not graded at all), each linked to its run. */
function uncounted(title: string, runs: readonly string[]): Html {
  return html`<div><b>${title}</b><div>${runs.length}${runs.length ? html` <span class="muted">(${runs.map((id, i) => html`${i ? ", " : ""}<a href="/app/runs/${id}">${id}</a>`)}), not counted</span>` : ""}</div></div>`;
}

function criteriaBlock(r: RunSetReliability): Html {
  const flaky = r.criteria.filter((c) => c.flaky);
  return html`<h2>Criteria</h2>${intervalChart(
    r.criteria.map((c) => ({
      label: c.text,
      rate: c.pass_rate,
      low: c.interval?.low ?? null,
      high: c.interval?.high ?? null,
      note: `${c.passed}/${c.passed + c.failed}`,
    })),
    null,
  )}
<h3>Flaky criteria</h3>${
    flaky.length
      ? html`<ul class="flaky-list">${flaky.map((c) => html`<li>${badge("flaky")} ${inlineMarkdown(c.text)} <span class="muted">passed ${c.passed} of ${c.passed + c.failed}</span></li>`)}</ul>`
      : html`<p class="muted">None: every graded criterion gave the same verdict in every trial.</p>`
  }
<table><thead><tr><th>Criterion</th><th>Kind</th><th class="num">Passed</th><th class="num">Failed</th><th class="num">Excluded</th><th class="num">Pass rate</th><th>Across trials</th></tr></thead><tbody>
${r.criteria.map((c) => html`<tr><td>${inlineMarkdown(c.text)}</td><td>${c.kind}</td><td class="num">${c.passed}</td><td class="num">${c.failed}</td><td class="num">${c.excluded}</td><td class="num">${pct(c.pass_rate)}</td><td>${badge(c.status)}</td></tr>`)}
</tbody></table>`;
}

function runsBlock(r: RunSetReliability): Html {
  return html`<h2>Trials</h2><table class="trials"><thead><tr><th>Run</th><th>Started</th><th>Group</th><th>Version</th><th class="num">Score</th><th>Outcome</th></tr></thead><tbody>
${[...r.runs]
  .reverse()
  .map(
    (run) =>
      html`<tr><td><a href="/app/runs/${run.id}">${run.id}</a></td><td class="muted">${when(run.created_at)}</td><td>${run.group_id ? html`<a href="/app/reliability/groups/${run.group_id}">${run.group_id}</a>` : "—"}</td><td>${run.agent_version ?? "—"}</td><td class="num">${run.score ?? "—"}</td><td>${badge(run.outcome)}</td></tr>`,
  )}</tbody></table>`;
}

export function comparisonBlock(
  cmp: Comparison,
  baselineId: string,
  baseline: RunSetReliability,
  rerun: RunSetReliability,
  rerunId: string,
): Html {
  const rows: IntervalRow[] = [
    {
      label: `baseline ${baselineId}`,
      rate: baseline.pass_rate,
      low: baseline.interval?.low ?? null,
      high: baseline.interval?.high ?? null,
      href: `/app/reliability/groups/${baselineId}`,
    },
    {
      label: `rerun ${rerunId}`,
      rate: rerun.pass_rate,
      low: rerun.interval?.low ?? null,
      high: rerun.interval?.high ?? null,
      href: `/app/reliability/groups/${rerunId}`,
    },
  ];
  const change =
    cmp.pass_rate_change === null ? "—" : `${cmp.pass_rate_change >= 0 ? "+" : ""}${Math.round(cmp.pass_rate_change * 1000) / 10} points`;
  return html`<section class="comparison"><h2>Baseline vs rerun</h2>
${intervalChart(rows, baseline.pass_threshold / 100)}
<p class="change">Pass rate ${pct(baseline.pass_rate)} → ${pct(rerun.pass_rate)} (${change}). ${
    cmp.test
      ? html`Fisher's exact test, two-sided: p = ${cmp.test.p_value.toFixed(3)}, ${cmp.test.significant ? html`<b>larger than the noise</b> of ${baseline.graded} against ${rerun.graded} trials` : html`<b>within the noise</b> of ${baseline.graded} against ${rerun.graded} trials`}.`
      : "Not testable: one side has no graded trials."
  } The 95% intervals ${cmp.intervals_overlap === null ? "cannot be compared" : cmp.intervals_overlap ? "overlap" : "do not overlap"}.</p>
<table class="flips"><thead><tr><th>Criterion</th><th>Baseline</th><th>Rerun</th><th>Flip</th><th class="num">p</th></tr></thead><tbody>
${cmp.criteria.map(
  (
    d,
  ) => html`<tr data-flip="${d.flip ?? ""}"><td>${inlineMarkdown(d.text)}</td><td>${badge(d.before.status)} <span class="muted">${d.before.passed}/${d.before.passed + d.before.failed}</span></td><td>${badge(d.after.status)} <span class="muted">${d.after.passed}/${d.after.passed + d.after.failed}</span></td>
<td>${d.flip ? badge(d.flip === "failed→passed" ? "passed" : "failed", d.flip) : ""}</td><td class="num">${d.test ? d.test.p_value.toFixed(3) : "—"}</td></tr>`,
)}</tbody></table></section>`;
}

export function runSetPage(title: Html, r: RunSetReliability, extra: Html): Html {
  return html`<p class="muted"><a href="/app/reliability">Reliability</a></p>${title}
${headline(r)}
<h2>pass^k</h2><p class="muted">The chance that k independent trials all pass, estimated without bias from the ${r.graded} graded trials as C(passed, k) / C(graded, k). Dashed: the naive (pass rate)^k, which overstates it.</p>
${passHatKChart(r.pass_hat_k, r.pass_rate)}
${extra}${criteriaBlock(r)}${runsBlock(r)}`;
}
