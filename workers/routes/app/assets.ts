// The dashboard's stylesheet and scripts, served as files from /app/assets/ so the pages' CSP
// allows scripts from this origin only, never inline ones (issue 36, point 6). They are public:
// served before the key check, so the sign-in page is styled too.
import { Hono } from "hono";
import type { AppEnv } from "../../app-env";
import { SANDBOXES_SCRIPT } from "./sandboxes-page";

const STYLE = `
:root{--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;--bg:#f6f8fa;--pass:#1a7f37;--fail:#cf222e;--skip:#9a6700;--accent:#0969da;--mut:#8250df}
*{box-sizing:border-box}body{font:14px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--fg);margin:0}
header{display:flex;gap:1.5rem;align-items:center;padding:.6rem 1.5rem;border-bottom:1px solid var(--line);background:var(--bg)}
header b{font-size:15px}header nav a{margin-right:1rem;color:var(--fg);text-decoration:none}header nav a[aria-current]{font-weight:600;border-bottom:2px solid var(--accent)}
header form{margin-left:auto}main{padding:1rem 1.5rem;max-width:90rem;min-width:0}
h1{font-size:20px;margin:.4rem 0}h2{font-size:16px;margin:1.6rem 0 .5rem;border-bottom:1px solid var(--line);padding-bottom:.2rem}
.card>h2:first-child,.card>h3:first-child{margin-top:0}
a{color:var(--accent)}code,pre{font:12px/1.45 ui-monospace,SFMono-Regular,Menlo,monospace}
:not(pre)>code{background:var(--bg);border-radius:4px;padding:0 .25rem}
pre{background:var(--bg);padding:.6rem;border-radius:6px;white-space:pre-wrap;word-break:break-word;margin:.3rem 0;max-height:28rem;overflow:auto}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.3rem .5rem;border-bottom:1px solid var(--line);vertical-align:top;overflow-wrap:anywhere}
.scroll-x{overflow-x:auto;max-width:100%}
th{font-weight:600;background:var(--bg)}.muted{color:var(--muted)}.num{text-align:right;font-variant-numeric:tabular-nums}
.badge{display:inline-block;padding:0 .45rem;border-radius:1rem;font-size:12px;font-weight:600;border:1px solid currentColor;white-space:nowrap}
.passed{color:var(--pass)}.failed{color:var(--fail)}.skipped,.excluded,.errored,.incomplete,.no_data{color:var(--skip)}.unmatched{color:var(--muted)}.flaky{color:var(--mut)}
.bar{display:flex;height:14px;width:220px;border-radius:3px;overflow:hidden;background:var(--line)}.bar span{display:block}
.bar .p{background:var(--pass)}.bar .f{background:var(--fail)}
.score{display:flex;gap:1.5rem;align-items:flex-start;flex-wrap:wrap}.score .big{font-size:30px;font-weight:700}
.chips span{display:inline-block;margin:0 .3rem .3rem 0;padding:.1rem .5rem;border-radius:4px;background:#fff8c5;font-size:12px}
form.filters{display:flex;gap:.6rem;flex-wrap:wrap;align-items:end;margin:.5rem 0 1rem}form.filters label{display:flex;flex-direction:column;font-size:12px;color:var(--muted)}
input,select,button{font:inherit;padding:.2rem .45rem}
details>summary{cursor:pointer}
.timeline td.lane{width:auto}.call{border-left:3px solid var(--line);padding-left:.4rem}.call.mutated{border-color:var(--mut)}.call.unsupported{border-color:var(--skip);background:#fff8c5}.call.error{border-color:var(--fail)}
.call summary{font:12px ui-monospace,monospace;overflow-wrap:anywhere}
table.timeline,table.diff{table-layout:fixed}table.timeline col.seq{width:3.5rem}table.timeline col.time{width:5rem}table.diff col.field{width:28%}
table.diff tr.object th{background:#fff;font-weight:600;padding-top:.6rem}details.value summary{overflow-wrap:anywhere}details.value pre{max-height:20rem}
table.runs .bar{width:70px}table.runs td:first-child{min-width:7rem}.call:target,.call[open]{background:#ddf4ff}
tr.step td{background:var(--bg);font-size:12px;color:var(--muted);font-weight:600}
.diff .add{color:var(--pass)}.diff .del{color:var(--fail)}.pager a,.pager b{margin-right:.5rem}
.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(22rem,1fr));gap:1rem}.card{border:1px solid var(--line);border-radius:8px;padding:.8rem;margin:1rem 0}
svg.chart{max-width:100%;height:auto}svg text{font:12px system-ui,sans-serif;fill:var(--fg)}svg text .code{font-family:ui-monospace,SFMono-Regular,Menlo,monospace}svg text.axis{fill:var(--muted);font-size:11px}
form.inline{display:inline}button.danger{color:var(--fail)}
`;

/** Opens the tape row a link points at (#seq-N), which a plain :target cannot do for <details>. */
const OPEN_TARGET = `function openTarget(){var el=location.hash&&document.getElementById(location.hash.slice(1));if(el&&el.tagName==="DETAILS"){el.open=true;el.scrollIntoView({block:"center"});}}
addEventListener("hashchange",openTarget);addEventListener("DOMContentLoaded",openTarget);`;

/** The tab's icon: a pome (an apple's cross-section) in the accent colour. */
const FAVICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><path d="M16 9c-3-3-11-3-11 7 0 7 5 13 8 13 1.5 0 2-.7 3-.7s1.5.7 3 .7c3 0 8-6 8-13 0-10-8-10-11-7z" fill="#0969da"/><path d="M16 9c0-3 1.5-5.5 4-7" stroke="#1a7f37" stroke-width="2.5" fill="none" stroke-linecap="round"/></svg>`;

/** Each asset by its name under /app/assets/: its body and content type. */
const ASSETS: Record<string, { body: string; type: string }> = {
  "dashboard.css": { body: STYLE, type: "text/css; charset=utf-8" },
  "dashboard.js": { body: OPEN_TARGET, type: "text/javascript; charset=utf-8" },
  "sandboxes.js": { body: SANDBOXES_SCRIPT, type: "text/javascript; charset=utf-8" },
  "favicon.svg": { body: FAVICON, type: "image/svg+xml" },
};

export const assetRoutes = new Hono<AppEnv>().get("/:name", (c) => {
  const asset = ASSETS[c.req.param("name")];
  if (!asset) return c.text("Not found", 404);
  // Short-lived: a deployment's new script reaches every open browser within minutes.
  return c.body(asset.body, 200, { "content-type": asset.type, "cache-control": "public, max-age=300" });
});
