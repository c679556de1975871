// The dashboard's page shell: navigation, one stylesheet, and the small scripts the pages share
// (files under /app/assets/, see assets.ts). Pages are rendered on the server with hono's html
// helper, which escapes every interpolation.
import { html } from "hono/html";

export type Html = ReturnType<typeof html>;

export type Section = "runs" | "reliability" | "sandboxes" | "fidelity";

/** A page's own script, one of the files under /app/assets/ (never inline: the CSP forbids it). */
export type PageScript = "sandboxes.js";

export function layout(opts: { title: string; section: Section; body: Html; signedIn: boolean; script?: PageScript }): Html {
  const link = (href: string, label: string, section: Section) =>
    section === opts.section ? html`<a href="${href}" aria-current="page">${label}</a>` : html`<a href="${href}">${label}</a>`;
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${opts.title} · pome</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><link rel="stylesheet" href="/app/assets/dashboard.css"><link rel="icon" href="/app/assets/favicon.svg" type="image/svg+xml">
<script src="/app/assets/dashboard.js"></script></head>
<body><header><b>pome</b><nav>${link("/app/runs", "Runs", "runs")}${link("/app/reliability", "Reliability", "reliability")}${link("/app/sandboxes", "Sandboxes", "sandboxes")}${link("/app/fidelity", "Fidelity", "fidelity")}</nav>
${opts.signedIn ? html`<form method="post" action="/app/logout"><button>Forget key</button></form>` : ""}</header>
<main>${opts.body}</main>${opts.script ? html`<script src="/app/assets/${opts.script}"></script>` : ""}</body></html>`;
}

export const badge = (status: string, label = status) => html`<span class="badge ${status}">${label}</span>`;

export const pct = (x: number | null) => (x === null ? "—" : `${Math.round(x * 1000) / 10}%`);

/** A score out of 100 as a bar, passed and failed shares of the evaluated criteria. */
export function scoreBar(passed: number, failed: number): Html {
  const total = passed + failed;
  if (!total) return html`<span class="bar" title="nothing evaluated"></span>`;
  return html`<span class="bar" title="${passed} passed, ${failed} failed"><span class="p" style="width:${(100 * passed) / total}%"></span><span class="f" style="width:${(100 * failed) / total}%"></span></span>`;
}

export const when = (iso: string) => iso.replace("T", " ").replace(/\.\d+Z$/, " UTC");
