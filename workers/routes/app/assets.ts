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
header form{margin-left:auto}main{padding:1rem 1.5rem;max-width:90rem}
h1{font-size:20px;margin:.4rem 0}h2{font-size:16px;margin:1.6rem 0 .5rem;border-bottom:1px solid var(--line);padding-bottom:.2rem}
a{color:var(--accent)}code,pre{font:12px/1.45 ui-monospace,SFMono-Regular,Menlo,monospace}
pre{background:var(--bg);padding:.6rem;border-radius:6px;white-space:pre-wrap;word-break:break-word;margin:.3rem 0;max-height:28rem;overflow:auto}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.3rem .5rem;border-bottom:1px solid var(--line);vertical-align:top}
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
.call summary{font:12px ui-monospace,monospace;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}.call:target,.call[open]{background:#ddf4ff}
tr.step td{background:var(--bg);font-size:12px;color:var(--muted);font-weight:600}
.diff .add{color:var(--pass)}.diff .del{color:var(--fail)}.pager a,.pager b{margin-right:.5rem}
.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(22rem,1fr));gap:1rem}.card{border:1px solid var(--line);border-radius:8px;padding:.8rem}
svg text{font:11px system-ui,sans-serif;fill:var(--muted)}
`;

/** Opens the tape row a link points at (#seq-N), which a plain :target cannot do for <details>. */
const OPEN_TARGET = `function openTarget(){var el=location.hash&&document.getElementById(location.hash.slice(1));if(el&&el.tagName==="DETAILS"){el.open=true;el.scrollIntoView({block:"center"});}}
addEventListener("hashchange",openTarget);addEventListener("DOMContentLoaded",openTarget);`;

/** Each asset by its name under /app/assets/: its body and content type. */
const ASSETS: Record<string, { body: string; type: string }> = {
  "dashboard.css": { body: STYLE, type: "text/css; charset=utf-8" },
  "dashboard.js": { body: OPEN_TARGET, type: "text/javascript; charset=utf-8" },
  "sandboxes.js": { body: SANDBOXES_SCRIPT, type: "text/javascript; charset=utf-8" },
};

export const assetRoutes = new Hono<AppEnv>().get("/:name", (c) => {
  const asset = ASSETS[c.req.param("name")];
  if (!asset) return c.text("Not found", 404);
  // Short-lived: a deployment's new script reaches every open browser within minutes.
  return c.body(asset.body, 200, { "content-type": asset.type, "cache-control": "public, max-age=300" });
});
