// The Fidelity pages: per twin, how much of its vendor's published description it implements
// (all operations and the agent-relevant set), and every implemented operation with its tier.
// The same reports as GET /v1/twins/:id/fidelity and each twin's FIDELITY.md.
import { html } from "hono/html";
import type { Coverage, FidelityReport } from "../../../durable-objects/twins/kit/fidelity/types";
import type { Html } from "./layout";

const figures = (c: Coverage) =>
  html`<td class="num">${c.conformant + c.divergent}/${c.total}</td><td class="num">${c.implementedPercent}%</td><td class="num">${c.conformant}</td><td class="num">${c.divergent}</td><td class="num">${c.notImplemented}</td>`;

const HEAD = html`<th class="num">Implemented</th><th class="num">%</th><th class="num">Conformant</th><th class="num">Divergent</th><th class="num">501</th>`;

export function fidelityIndexPage(reports: readonly FidelityReport[]): Html {
  return html`<h1>Fidelity</h1>
<p class="muted">Each twin measured against its vendor's own published description: every operation with its tier (conformant, declared divergence, 501). Agent-relevant: the operations the vendor's official MCP server and SDK quickstarts use.</p>
<table><thead><tr><th>Twin</th><th>Description</th>${HEAD}<th>Agent-relevant</th><th class="num">%</th></tr></thead><tbody>
${reports.map(
  (r) =>
    html`<tr><td><a href="/app/fidelity/${r.twin}">${r.vendor}</a></td><td class="muted">${r.description.version}</td>${figures(r.coverage.all)}<td class="num">${r.coverage.agentRelevant.conformant + r.coverage.agentRelevant.divergent}/${r.coverage.agentRelevant.total}</td><td class="num">${r.coverage.agentRelevant.implementedPercent}%</td></tr>`,
)}</tbody></table>`;
}

export function fidelityTwinPage(r: FidelityReport): Html {
  const implemented = r.operations.filter((o) => o.tier !== "501");
  const agentMissing = r.operations.filter((o) => o.tier === "501" && o.agentRelevant);
  return html`<h1>${r.vendor}: fidelity</h1>
<p class="muted">Measured against ${r.description.name}, ${r.description.version} (${r.description.source}). JSON: <a href="/v1/twins/${r.twin}/fidelity">/v1/twins/${r.twin}/fidelity</a>.</p>
<table><thead><tr><th>Set</th>${HEAD}</tr></thead><tbody>
<tr><td>All operations</td>${figures(r.coverage.all)}</tr><tr><td>Agent-relevant</td>${figures(r.coverage.agentRelevant)}</tr></tbody></table>
<p class="muted">Agent-relevant set: ${r.agentRelevantSource}.</p>
<p>MCP: ${r.mcp}</p>
<h2>Implemented (${implemented.length})</h2>
<table><thead><tr><th>Operation</th><th>Method</th><th>Path</th><th>Tier</th><th>Tests</th><th>Divergences</th></tr></thead><tbody>
${implemented.map(
  (o) =>
    html`<tr><td>${o.id}${o.agentRelevant ? html` <span class="muted">agent</span>` : ""}</td><td>${o.method}</td><td><code>${o.path}</code></td><td class="${o.tier === "conformant" ? "passed" : "skipped"}">${o.tier === "conformant" ? "conformant" : "declared divergence"}</td><td class="muted">${o.tests.join(", ") || "—"}</td><td>${o.divergences.map((d) => html`<div>${d.kind} <code>${d.path}</code>: ${d.reason}</div>`)}</td></tr>`,
)}</tbody></table>
<h2>Agent-relevant, answering 501 (${agentMissing.length})</h2>
<ul>${agentMissing.map((o) => html`<li>${o.id} <span class="muted">${o.method} ${o.path}</span></li>`)}</ul>
<p class="muted">${r.coverage.all.notImplemented - agentMissing.length} other operations answer 501; FIDELITY.md lists them all. A call to one is answered with ${r.notImplementedAnswer}.</p>`;
}
