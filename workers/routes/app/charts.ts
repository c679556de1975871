// Charts as server-rendered SVG: the pass^k curve, and pass rates with their 95% intervals. No
// script and no library; the numbers are also in each mark's <title> for a tooltip and for tests.
import { html } from "hono/html";
import type { Html } from "./layout";
import { pct } from "./layout";
import { plainText, svgLabel } from "./markdown";

const W = 420;

/** pass^k against k, with the naive (pass rate)^k dashed beside it to show what the estimator corrects. */
export function passHatKChart(points: readonly { k: number; estimate: number }[], passRate: number | null): Html {
  if (!points.length) return html`<p class="muted">No graded trials, so no pass^k curve.</p>`;
  const h = 190;
  const left = 40;
  const right = 12;
  const top = 12;
  const bottom = 30;
  const n = points.length;
  const x = (k: number) => left + (n === 1 ? (W - left - right) / 2 : ((k - 1) / (n - 1)) * (W - left - right));
  const y = (v: number) => top + (1 - v) * (h - top - bottom);
  const line = points.map((p) => `${x(p.k).toFixed(1)},${y(p.estimate).toFixed(1)}`).join(" ");
  const naive = passRate === null ? "" : points.map((p) => `${x(p.k).toFixed(1)},${y(passRate ** p.k).toFixed(1)}`).join(" ");
  const ticks = [0, 0.25, 0.5, 0.75, 1];
  const ks = n <= 12 ? points.map((p) => p.k) : [1, Math.ceil(n / 4), Math.ceil(n / 2), Math.ceil((3 * n) / 4), n];
  return html`<svg class="chart passk" role="img" aria-label="pass^k curve" viewBox="0 0 ${W} ${h}" width="${W}" height="${h}">
<title>pass^k: the chance that k independent trials all pass</title>
${ticks.map((t) => html`<line x1="${left}" x2="${W - right}" y1="${y(t)}" y2="${y(t)}" stroke="#d1d9e0" stroke-width="1"/><text class="axis" x="${left - 6}" y="${y(t) + 4}" text-anchor="end">${pct(t)}</text>`)}
${ks.map((k) => html`<text class="axis" x="${x(k)}" y="${h - bottom + 16}" text-anchor="middle">${k}</text>`)}
<text class="axis" x="${W - right}" y="${h - 2}" text-anchor="end">k (trials that must all pass)</text>
${naive ? html`<polyline points="${naive}" fill="none" stroke="#8c959f" stroke-dasharray="4 3" stroke-width="1.5"><title>naive (pass rate)^k</title></polyline>` : ""}
<polyline points="${line}" fill="none" stroke="#0969da" stroke-width="2"/>
${points.map((p) => html`<circle class="point" cx="${x(p.k)}" cy="${y(p.estimate)}" r="3.5" fill="#0969da"><title>pass^${p.k} = ${pct(p.estimate)}</title></circle>`)}
</svg>`;
}

export interface IntervalRow {
  label: string;
  rate: number | null;
  low: number | null;
  high: number | null;
  href?: string;
  note?: string;
}

/** One row per run-set, group or criterion: the point estimate on its 95% Wilson interval. */
export function intervalChart(rows: readonly IntervalRow[], threshold: number | null): Html {
  if (!rows.length) return html``;
  const labelW = 300;
  const right = 60;
  const rowH = 24;
  const top = 8;
  const h = top + rows.length * rowH + 24;
  const width = W + 260;
  const x = (v: number) => labelW + v * (width - labelW - right);
  // About 7 px a character at 12 px: a label fits the space left of the axis.
  const maxChars = Math.floor((labelW - 12) / 7);
  return html`<svg class="chart intervals" role="img" aria-label="pass rates with 95% intervals" viewBox="0 0 ${width} ${h}" width="${width}" height="${h}">
${[0, 0.5, 1].map((t) => html`<line x1="${x(t)}" x2="${x(t)}" y1="${top}" y2="${h - 20}" stroke="#d1d9e0"/><text class="axis" x="${x(t)}" y="${h - 6}" text-anchor="middle">${pct(t)}</text>`)}
${threshold === null ? "" : html`<line x1="${x(threshold)}" x2="${x(threshold)}" y1="${top}" y2="${h - 20}" stroke="#cf222e" stroke-dasharray="4 3"><title>threshold ${pct(threshold)}</title></line>`}
${rows.map((r, i) => {
  const cy = top + i * rowH + rowH / 2;
  const label = html`<text x="${labelW - 8}" y="${cy + 4}" text-anchor="end">${svgLabel(r.label, maxChars)}<title>${plainText(r.label)}</title></text>`;
  const mark =
    r.rate === null || r.low === null || r.high === null
      ? html`<text x="${x(0)}" y="${cy + 4}">not graded</text>`
      : html`<g class="interval"><title>${plainText(r.label)}: ${pct(r.rate)} (95% interval ${pct(r.low)}–${pct(r.high)})${r.note ? ` · ${r.note}` : ""}</title>
<line x1="${x(r.low)}" x2="${x(r.high)}" y1="${cy}" y2="${cy}" stroke="#0969da" stroke-width="2"/>
<line x1="${x(r.low)}" x2="${x(r.low)}" y1="${cy - 5}" y2="${cy + 5}" stroke="#0969da"/><line x1="${x(r.high)}" x2="${x(r.high)}" y1="${cy - 5}" y2="${cy + 5}" stroke="#0969da"/>
<circle cx="${x(r.rate)}" cy="${cy}" r="4.5" fill="#0969da"/><text x="${x(1) + 8}" y="${cy + 4}">${pct(r.rate)}</text></g>`;
  return r.href ? html`<a href="${r.href}">${label}</a>${mark}` : html`${label}${mark}`;
})}
</svg>`;
}
