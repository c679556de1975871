// /app/runs/:id: the page a run's dashboard_url opens. A browser cannot send the team key as a
// bearer by itself, so the page asks for it once (kept in this browser's localStorage, never in
// a URL) and reads the run's report through the same /v1 API as every other client.
import { Hono } from "hono";
import type { AppEnv } from "../app-env";
import { ApiError } from "../errors";

const RUN_ID = /^run_[A-Za-z0-9]{8,40}$/;

function page(runId: string, localKey: string | null): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Run ${runId}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font:15px/1.5 system-ui,sans-serif;margin:2rem auto;max-width:70rem;padding:0 1rem}
pre{white-space:pre-wrap;background:#f6f8fa;padding:1rem;border-radius:6px}form{margin:1rem 0}
input{width:24rem;font:inherit;padding:.2rem .4rem}</style></head>
<body><h1>Run <code>${runId}</code></h1>
<form id="key"><label>Team API key <input name="key" type="password" autocomplete="off" placeholder="pme_…"></label>
<button>Show the report</button></form>
<p id="status"></p><pre id="report" hidden></pre>
<script>
const runId = ${JSON.stringify(runId)};
const localKey = ${JSON.stringify(localKey)};
const form = document.getElementById("key"), status = document.getElementById("status"), out = document.getElementById("report");
async function show(key) {
  status.textContent = "Loading…";
  const res = await fetch("/v1/runs/" + runId + "/report.md", { headers: { authorization: "Bearer " + key } });
  if (!res.ok) { status.textContent = "The API answered " + res.status + (res.status === 404 ? ": no such run for this key's team." : "."); return; }
  localStorage.setItem("pome_api_key", key);
  status.textContent = ""; out.textContent = await res.text(); out.hidden = false; form.hidden = true;
}
form.addEventListener("submit", (e) => { e.preventDefault(); show(new FormData(form).get("key")); });
const known = localStorage.getItem("pome_api_key") || localKey;
if (known) show(known);
</script></body></html>`;
}

export const appRoutes = new Hono<AppEnv>().get("/runs/:id", (c) => {
  const runId = c.req.param("id");
  if (!RUN_ID.test(runId)) throw new ApiError("not_found", "No such run");
  // In local development the page knows the local key, so the link opens straight to the report.
  const localKey = c.get("settings").development ? "pme_local_dev" : null;
  c.header("cache-control", "no-store");
  c.header("content-security-policy", "default-src 'self'; script-src 'unsafe-inline'; style-src 'unsafe-inline'");
  return c.html(page(runId, localKey));
});
