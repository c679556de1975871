// /app: the dashboard, rendered by the Worker. Runs, one Run, Reliability (run-sets and groups),
// Sandboxes. Every page checks the team key (see session.ts) and reads through the same plain
// functions the /v1 routes use, so a page and the API cannot disagree.
import { Hono, type Context } from "hono";
import { getCookie } from "hono/cookie";
import { html } from "hono/html";
import { isTwinId, TWIN_IDS } from "../../../durable-objects/twins/registry";
import type { AppEnv } from "../../app-env";
import { signBlobUrl } from "../../blobs/sign";
import type { TapeView } from "../../dashboard/tape-view";
import { diffWorld } from "../../dashboard/world-diff";
import { renderReport } from "../../grading/report";
import { findRun, runView } from "../../grading/runs-store";
import type { RunView } from "../../grading/run-view";
import { compareReliability } from "../../stats/compare";
import { groupReliability, runSetReliability } from "../../stats/run-sets";
import { apiOrigin, dashboardOrigin } from "../../urls";
import {
  blobText,
  filterChoices,
  listRunsForPage,
  NONE,
  openSandboxes,
  reliabilityIndex,
  rerunsOf,
  timelinePage,
  type RunFilters,
} from "./data";
import { assetRoutes } from "./assets";
import { layout, type Html, type PageScript, type Section } from "./layout";
import { comparisonBlock, reliabilityIndexPage, runSetPage, setHref } from "./reliability-page";
import { runPage, type WorldDiff } from "./run-page";
import { runsPage } from "./runs-page";
import { KEY_COOKIE, keyForm, login, logout, requireDashboardKey, safeNext } from "./session";
import { sandboxesPage, sandboxRows } from "./sandboxes-page";
import { sandboxEvidence, sandboxPage } from "./sandbox-page";
import { findSandbox, setSandboxState } from "../../sandbox-index";
import { sandboxStub } from "../../stubs";
import { fidelityIndexPage, fidelityTwinPage } from "./fidelity-page";
import { fidelityReport } from "../twins";
import { dashboardHeaders, refuseCrossSite } from "./security";

const RUN_ID = /^run_[A-Za-z0-9]{8,40}$/;
const GROUP_ID = /^[A-Za-z0-9_-]{6,64}$/;
const SANDBOX_ID = /^ses_[A-Za-z0-9]{8,40}$/;

/** The caller's sandbox named in the path, or undefined (another team's is indistinguishable from none). */
async function loadSandbox(c: Context<AppEnv>) {
  const id = c.req.param("id") ?? "";
  return SANDBOX_ID.test(id) ? findSandbox(c.env, teamOf(c), id) : undefined;
}

function page(c: Context<AppEnv>, section: Section, title: string, body: Html, script?: PageScript, status: 200 | 404 = 200) {
  return c.html(layout({ title, section, body, signedIn: getCookie(c, KEY_COOKIE) !== undefined, script }), status);
}

const notFoundPage = (c: Context<AppEnv>, section: Section, what: string) =>
  page(c, section, "Not found", html`<h1>Not found</h1><p>${what} does not exist, or belongs to another team.</p>`, undefined, 404);

const teamOf = (c: Context<AppEnv>) => c.get("caller").team.id;

async function loadRun(c: Context<AppEnv>): Promise<RunView | undefined> {
  const id = c.req.param("id") ?? "";
  if (!RUN_ID.test(id)) return undefined;
  const row = await findRun(c.env, teamOf(c), id);
  return row ? runView(row, dashboardOrigin(c)) : undefined;
}

const parseState = (text: string | undefined): unknown => {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/** The evidence a Run page shows, read from R2 in parallel: a page of the tape, and each twin's seed and final state. */
async function runEvidence(
  c: Context<AppEnv>,
  run: RunView,
  pageNumber: number,
): Promise<{ tape: TapeView | undefined; world: WorldDiff[] }> {
  const bucket = c.env.EVIDENCE;
  const keep = (work: Promise<unknown>) => c.executionCtx.waitUntil(work);
  const [tape, states] = await Promise.all([
    run.trace_s3_key ? timelinePage(c.env, keep, run.trace_s3_key, pageNumber) : Promise.resolve(undefined),
    Promise.all(
      run.twins.map(async (t) => [await blobText(bucket, run.state_initial_keys[t]), await blobText(bucket, run.state_keys[t])] as const),
    ),
  ]);
  const world = run.twins.map((twin, i): WorldDiff => {
    const [seed, final] = states[i].map(parseState);
    if (seed === undefined || final === undefined)
      return {
        twin,
        changes: [],
        truncated: false,
        missing: `The ${seed === undefined ? "seed" : "final"} state of ${twin} is not retrievable.`,
      };
    return { twin, ...diffWorld(seed, final), missing: null };
  });
  return { tape, world };
}

async function redirectToBlob(c: Context<AppEnv>, key: string | null | undefined) {
  if (!key) return notFoundPage(c, "runs", "That download");
  const signed = await signBlobUrl({ secret: c.get("settings").tokenSecret, origin: apiOrigin(c), key, op: "get" });
  return c.redirect(signed.url, 302);
}

const filtersOf = (c: Context<AppEnv>): RunFilters => {
  const q = c.req.query();
  const pick = (v: string | undefined) => (v ? v.slice(0, 200) : undefined);
  return { task: pick(q.task), agent: pick(q.agent), version: pick(q.version), group: pick(q.group) };
};

/** A query value for a run-set part: "(none)" or absent means not declared. */
const declared = (v: string | undefined) => (v === undefined || v === "" || v === NONE ? null : v.slice(0, 200));

export const appRoutes = new Hono<AppEnv>()
  // Every answer under /app carries the dashboard's security headers; no cross-site form is obeyed.
  .use(dashboardHeaders)
  .use(refuseCrossSite)
  .route("/assets", assetRoutes)
  // The form itself, also in development (to sign in as another team than the local one).
  .get("/login", (c) => {
    c.header("cache-control", "no-store");
    return keyForm(c, null, 200, safeNext(c.req.query("next")));
  })
  .post("/login", login)
  .post("/logout", logout)
  .use(requireDashboardKey)
  .get("/", (c) => c.redirect("/app/runs", 302))
  .get("/runs", async (c) => {
    const filters = filtersOf(c);
    const [rows, choices] = await Promise.all([listRunsForPage(c.env, teamOf(c), filters), filterChoices(c.env, teamOf(c))]);
    return page(c, "runs", "Runs", runsPage(rows, filters, choices));
  })
  .get("/runs/:id", async (c) => {
    const run = await loadRun(c);
    if (!run) return notFoundPage(c, "runs", "That run");
    const { tape, world } = await runEvidence(c, run, Number(c.req.query("page") ?? 1));
    return page(c, "runs", run.task_name ?? run.id, runPage(run, tape, world));
  })
  .get("/runs/:id/report.md", async (c) => {
    const run = await loadRun(c);
    if (!run) return notFoundPage(c, "runs", "That run");
    return c.body(renderReport(run), 200, { "content-type": "text/markdown; charset=utf-8" });
  })
  .get("/runs/:id/download/trace", async (c) => {
    const run = await loadRun(c);
    return run ? redirectToBlob(c, run.trace_s3_key) : notFoundPage(c, "runs", "That run");
  })
  .get("/runs/:id/download/:which/:twin", async (c) => {
    const run = await loadRun(c);
    const twin = c.req.param("twin");
    const which = c.req.param("which");
    if (!run || !isTwinId(twin) || (which !== "state_initial" && which !== "state_final")) return notFoundPage(c, "runs", "That download");
    return redirectToBlob(c, which === "state_initial" ? run.state_initial_keys[twin] : run.state_keys[twin]);
  })
  .get("/reliability", async (c) => page(c, "reliability", "Reliability", reliabilityIndexPage(await reliabilityIndex(c.env, teamOf(c)))))
  .get("/reliability/set", async (c) => {
    const q = c.req.query();
    const key = { task_name: declared(q.task), task_id: null, agent_id: declared(q.agent), agent_version: declared(q.version) };
    if (key.task_name === null) return notFoundPage(c, "reliability", "A run-set without a task");
    const stats = await runSetReliability(c.env, teamOf(c), key);
    if (!stats) return notFoundPage(c, "reliability", "That run-set");
    const groups = [...new Set(stats.runs.map((r) => r.group_id).filter((g): g is string => !!g))];
    const extra = html`<h2>Groups in this run-set</h2><ul>${groups.map((g) => html`<li><a href="/app/reliability/groups/${g}">${g}</a></li>`)}</ul>`;
    const title = html`<h1>${key.task_name}</h1><p class="muted">Agent ${key.agent_id ?? "undeclared"} · version ${key.agent_version ?? "undeclared"} · all groups</p>`;
    return page(c, "reliability", `Reliability: ${key.task_name}`, runSetPage(title, stats, extra));
  })
  .get("/reliability/groups/:group_id", async (c) => {
    const groupId = c.req.param("group_id");
    if (!GROUP_ID.test(groupId)) return notFoundPage(c, "reliability", "That group");
    const stats = await groupReliability(c.env, teamOf(c), groupId);
    if (!stats) return notFoundPage(c, "reliability", "That group");
    const [baseline, reruns] = await Promise.all([
      stats.baseline_group_id ? groupReliability(c.env, teamOf(c), stats.baseline_group_id) : Promise.resolve(undefined),
      rerunsOf(c.env, teamOf(c), groupId),
    ]);
    const comparison =
      baseline && stats.baseline_group_id
        ? comparisonBlock(compareReliability(baseline, stats), stats.baseline_group_id, baseline, stats, groupId)
        : html``;
    const sets = stats.task_names.map(
      (t) =>
        html`<a href="${setHref({ task_name: t, agent_id: stats.runs.at(-1)?.agent_id ?? null, agent_version: stats.runs.at(-1)?.agent_version ?? null })}">${t}</a>`,
    );
    const title = html`<h1>Group <code>${groupId}</code></h1><p class="muted">Task ${sets.length ? sets : "unnamed"} · version ${stats.agent_versions.map((v) => v ?? "undeclared").join(", ")}${
      reruns.length ? html` · reruns: ${reruns.map((g) => html`<a href="/app/reliability/groups/${g}">${g}</a> `)}` : ""
    }</p>`;
    return page(c, "reliability", `Group ${groupId}`, runSetPage(title, stats, comparison));
  })
  .get("/sandboxes", async (c) => page(c, "sandboxes", "Sandboxes", sandboxesPage(await openSandboxes(c.env, teamOf(c))), "sandboxes.js"))
  .get("/sandboxes/rows", async (c) => c.html(sandboxRows(await openSandboxes(c.env, teamOf(c)))))
  .get("/sandboxes/:id", async (c) => {
    const row = await loadSandbox(c);
    const after = Math.max(0, Math.floor(Number(c.req.query("after") ?? 0)) || 0);
    const evidence = row ? await sandboxEvidence(c.env, row, after) : undefined;
    if (!row || !evidence) return notFoundPage(c, "sandboxes", "That sandbox");
    const message =
      c.req.query("unconfirmed") !== undefined
        ? "Nothing was discarded: tick the box to confirm that this run should not be graded."
        : c.req.query("discarded") !== undefined
          ? "Discarded: the sandbox is closed and its tape and world are archived."
          : null;
    return page(c, "sandboxes", `Sandbox ${row.id}`, sandboxPage(row, evidence, after, message));
  })
  .post("/sandboxes/:id/discard", async (c) => {
    const row = await loadSandbox(c);
    if (!row) return notFoundPage(c, "sandboxes", "That sandbox");
    const form = await c.req.parseBody();
    if (form.confirm !== "yes") return c.redirect(`/app/sandboxes/${row.id}?unconfirmed=1`, 303);
    // As DELETE /v1/sandboxes/:id with its discard token: closing as expired archives the tape
    // and final state first, and the index learns why it closed.
    const closed = await sandboxStub(c.env, row.id).close("expired", "discarded");
    if (closed.ok) {
      const meta = closed.meta;
      await setSandboxState(
        c.env,
        row.id,
        meta.state,
        meta.closedAt === null ? null : new Date(meta.closedAt).toISOString(),
        meta.closeReason,
      );
    }
    return c.redirect(`/app/sandboxes/${row.id}?discarded=1`, 303);
  })
  .get("/fidelity", (c) => page(c, "fidelity", "Fidelity", fidelityIndexPage(TWIN_IDS.flatMap((id) => fidelityReport(id) ?? []))))
  .get("/fidelity/:id", (c) => {
    const report = fidelityReport(c.req.param("id"));
    if (!report) return notFoundPage(c, "fidelity", "That twin");
    return page(c, "fidelity", `${report.vendor} fidelity`, fidelityTwinPage(report));
  });
