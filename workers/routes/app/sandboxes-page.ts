// The Sandboxes page: open sandboxes with time left and call counts. The table's body is
// re-fetched every few seconds (the same rows, rendered by the server), and a one-second tick
// counts the time left down in between. Each id opens the sandbox's page: its tape so far, each
// twin's world as it is now, and a discard button.
import { html } from "hono/html";
import type { OpenSandbox } from "./data";
import { when, type Html } from "./layout";

export const REFRESH_MS = 3000;

const left = (iso: string | null, now: number) => {
  if (!iso) return "—";
  const s = Math.max(0, Math.round((Date.parse(iso) - now) / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
};

export function sandboxRows(rows: readonly OpenSandbox[], now = Date.now()): Html {
  if (!rows.length) return html`<tr class="empty"><td colspan="8" class="muted">No open sandboxes.</td></tr>`;
  return html`${rows.map(
    (
      s,
    ) => html`<tr data-sandbox="${s.id}"><td><a href="/app/sandboxes/${s.id}"><code>${s.id}</code></a></td><td>${s.state}</td><td>${s.twins.join(", ")}</td><td>${s.task_name ?? "—"}</td>
<td>${s.group_id ?? "—"}${s.agent_version ? ` · ${s.agent_version}` : ""}</td><td class="num calls">${s.calls ?? "—"}</td>
<td class="num"><span class="countdown" data-until="${s.expires_at}">${left(s.expires_at, now)}</span></td>
<td class="num"><span class="countdown" data-until="${s.idle_at ?? ""}">${left(s.idle_at, now)}</span></td></tr>`,
  )}`;
}

const SCRIPT = `(function(){
var body=document.getElementById("sandbox-rows"),stamp=document.getElementById("updated");
function utc(d){return d.toISOString().replace("T"," ").replace(/\\.\\d+Z$/," UTC");}
function fmt(ms){var s=Math.max(0,Math.round(ms/1000));return Math.floor(s/60)+":"+String(s%60).padStart(2,"0");}
function tick(){document.querySelectorAll(".countdown[data-until]").forEach(function(el){var t=Date.parse(el.dataset.until);if(!isNaN(t))el.textContent=fmt(t-Date.now());});}
async function refresh(){try{var res=await fetch("/app/sandboxes/rows",{credentials:"same-origin",headers:{accept:"text/html"}});
if(!res.ok){stamp.textContent="live updates stopped (HTTP "+res.status+")";return;}
body.innerHTML=await res.text();stamp.textContent="updated "+utc(new Date());stamp.dataset.updates=String(Number(stamp.dataset.updates||0)+1);tick();}
catch(e){stamp.textContent="live updates paused: "+e.message;}setTimeout(refresh,${REFRESH_MS});}
setInterval(tick,1000);setTimeout(refresh,${REFRESH_MS});})();`;

export const SANDBOXES_SCRIPT = SCRIPT;

export function sandboxesPage(rows: readonly OpenSandbox[]): Html {
  return html`<h1>Sandboxes</h1>
<p class="muted">Open sandboxes of your team. Live: refreshed every ${REFRESH_MS / 1000} s (<span id="updated" data-updates="0">updated ${when(new Date().toISOString())}</span>). A sandbox closes at the end of its lifetime, or earlier when idle.</p>
<div class="scroll-x"><table class="sandboxes"><thead><tr><th>Sandbox</th><th>State</th><th>Twins</th><th>Task</th><th>Group · version</th><th class="num">Calls</th><th class="num">Lifetime left</th><th class="num">Idle closes in</th></tr></thead>
<tbody id="sandbox-rows">${sandboxRows(rows)}</tbody></table></div>`;
}
