// One sandbox while it runs: what it is, its tape so far (a page of calls at a time, every twin's
// calls in its own lane, as on a Run page), each twin's world as it is now, and a button that
// discards it. Read from the sandbox's Durable Object, the source of truth for both.
import { html } from "hono/html";
import { isOpen } from "../../../durable-objects/sandbox-states";
import type { TwinId } from "../../../durable-objects/twins/registry";
import type { TapeRow } from "../../../durable-objects/twins/types";
import type { SandboxRow } from "../../db/schema";
import { sandboxStub } from "../../stubs";
import { badge, when, type Html } from "./layout";
import { callRow } from "./run-page";

/** Calls shown a page. */
export const SANDBOX_TAPE_PAGE = 100;
/** Characters of a world shown on the page; the rest is in the state download. */
const STATE_SHOWN = 200_000;

export interface SandboxEvidence {
  open: boolean;
  state: string;
  closeReason: string | null;
  tapeLength: number;
  rows: TapeRow[];
  /** The after_seq of the next page, when there is one. */
  nextAfter: number | null;
  worlds: { twin: TwinId; text: string; more: boolean }[];
}

function pretty(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    // A world larger than one page arrives in parts: the first part is shown as it is.
    return text;
  }
}

export async function sandboxEvidence(env: Env, row: SandboxRow, afterSeq: number): Promise<SandboxEvidence | undefined> {
  const stub = sandboxStub(env, row.id);
  const described = await stub.describe();
  if (!described.ok) return undefined;
  const meta = described.meta;
  const first = meta.twins[0];
  const events = first ? await stub.pome(first, "events", `all_twins=true&limit=${SANDBOX_TAPE_PAGE}&after_seq=${afterSeq}`) : undefined;
  const rows = events && events.status === 200 ? (JSON.parse(events.body) as TapeRow[]) : [];
  const next = events?.headers["x-pome-next-after-seq"];
  const worlds = await Promise.all(
    meta.twins.map(async (twin) => {
      const answer = await stub.pome(twin, "state", "");
      const text = answer.status === 200 ? pretty(answer.body) : `(the world could not be read: HTTP ${answer.status})`;
      return { twin, text: text.length > STATE_SHOWN ? text.slice(0, STATE_SHOWN) : text, more: text.length > STATE_SHOWN };
    }),
  );
  return {
    open: isOpen(meta.state) && Date.now() < meta.expiresAt,
    state: meta.state,
    closeReason: meta.closeReason,
    tapeLength: described.tapeLength,
    rows,
    nextAfter: next ? Number(next) : null,
    worlds,
  };
}

export function sandboxPage(row: SandboxRow, e: SandboxEvidence, afterSeq: number, message: string | null): Html {
  const lanes = [...row.twins.map(String)];
  for (const r of e.rows) if (!lanes.includes(r.twin)) lanes.push(r.twin);
  const t0 = Date.parse(row.createdAt);
  const tape = e.rows.length
    ? html`<table class="timeline"><colgroup><col class="seq"><col class="time">${lanes.map(() => html`<col>`)}</colgroup><thead><tr><th>Seq</th><th>Time</th>${lanes.map((l) => html`<th class="lane-head">${l}</th>`)}</tr></thead><tbody>${e.rows.map((r) => callRow(r, lanes, t0))}</tbody></table>`
    : html`<p class="muted">${afterSeq ? "No calls after this one." : "No calls yet."}</p>`;
  const pager = html`<nav class="pager">${afterSeq ? html`<a href="/app/sandboxes/${row.id}#tape">first calls</a>` : ""}${
    e.nextAfter !== null ? html`<a href="/app/sandboxes/${row.id}?after=${e.nextAfter}#tape" rel="next">next calls →</a>` : ""
  }</nav>`;
  const discard = e.open
    ? html`<form class="discard" method="post" action="/app/sandboxes/${row.id}/discard"><label><input type="checkbox" name="confirm" value="yes" required> Throw this run away: it will not be graded</label> <button class="danger">Discard sandbox</button></form>`
    : html`<p class="muted">Closed${e.closeReason ? ` (${e.closeReason})` : ""}: nothing to discard.</p>`;
  return html`<p class="muted"><a href="/app/sandboxes">Sandboxes</a> / ${row.id}</p>
<h1><code>${row.id}</code></h1>
${message ? html`<p class="failed" role="alert">${message}</p>` : ""}
<p class="muted">${badge(e.open ? "passed" : "skipped", e.state)} · ${row.twins.join(" + ")} · task ${row.taskName ?? "none (ad hoc)"}${row.groupId ? html` · group <a href="/app/reliability/groups/${row.groupId}">${row.groupId}</a>` : ""}${row.agentVersion ? ` · version ${row.agentVersion}` : ""} · created ${when(row.createdAt)} · expires ${when(row.expiresAt)}</p>
${discard}
<h2 id="tape">Tape (${e.tapeLength} call${e.tapeLength === 1 ? "" : "s"})</h2>${tape}${pager}
<h2 id="state">World now</h2>${e.worlds.map(
    (w) =>
      html`<details class="world" data-twin="${w.twin}"><summary>${w.twin} <span class="muted">${w.text.length} characters</span></summary><pre>${w.text}</pre>${
        w.more ? html`<p class="muted">Cut at ${STATE_SHOWN} characters.</p>` : ""
      }</details>`,
  )}`;
}
