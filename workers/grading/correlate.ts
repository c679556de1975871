// The correlator: groups the tape into steps (agent turns) and lanes (twin + operation).
//
// The tape records calls, not turns, so a turn is inferred. An agent's tool calls within one turn
// come back to back; between turns it waits on its model, which takes longer than STEP_GAP_MS.
// So a new step starts when the gap since the previous call exceeds STEP_GAP_MS, or when the
// transport changes (an MCP tool call and a REST call are different channels of the agent).
// A run is stored with at most MAX_STEPS steps: past that, the gap doubles until it fits (and,
// if transports alternate too often, stops splitting on them), so a very long run reads as
// fewer, longer turns rather than overflowing its row.
import { type TwinId, isTwinId } from "../../durable-objects/twins/registry";
import type { TapeRow, Transport } from "../../durable-objects/twins/types";

export const STEP_GAP_MS = 2000;
export const MAX_STEPS = 1000;

export interface Step {
  index: number;
  started_at: string;
  ended_at: string;
  first_seq: number;
  last_seq: number;
  transport: Transport;
  calls: number;
  mutated: number;
  /** Calls answered with a 4xx or 5xx. */
  errors: number;
  unsupported: number;
  twins: TwinId[];
  /** Keys of the lanes this step touched, in first-call order. */
  lanes: string[];
}

export interface Lane {
  /** `<twin> <operation>`; unsupported calls have no operation and use `<twin> <METHOD> <path>`. */
  key: string;
  twin: TwinId;
  operation: string;
  calls: number;
  mutated: number;
  errors: number;
  unsupported: number;
  first_seq: number;
  last_seq: number;
  /** Indexes of the steps that called it. */
  steps: number[];
  statuses: Record<string, number>;
}

/** Ids in a path (`/issues/12`) are one endpoint, so unsupported calls group by route shape. */
const routeShape = (path: string) => path.replace(/\/(?:\d+|[0-9a-f]{40})(?=\/|$)/g, "/:id");

export const laneKey = (row: TapeRow) =>
  row.fidelity === "unsupported" || row.operation === "unsupported"
    ? `${row.twin} ${row.method} ${routeShape(row.path)}`
    : `${row.twin} ${row.operation}`;

export function correlate(tape: readonly TapeRow[]): { steps: Step[]; lanes: Lane[] } {
  const rows = [...tape].sort((a, b) => a.seq - b.seq);
  const measured = rows.length ? Date.parse(rows[rows.length - 1].at) - Date.parse(rows[0].at) : 0;
  // An uploaded tape with unreadable times has no measurable span; never loop on it.
  const span = Number.isFinite(measured) ? measured : 0;
  // Coarsen until it fits: first the gap alone, then also letting a turn span transports.
  for (const splitOnTransport of [true, false]) {
    for (let gap = STEP_GAP_MS; ; gap *= 2) {
      const result = correlateWithGap(rows, gap, splitOnTransport);
      if (result.steps.length <= MAX_STEPS) return result;
      if (gap > span) break;
    }
  }
  return correlateWithGap(rows, Infinity, false);
}

function correlateWithGap(rows: readonly TapeRow[], gapMs: number, splitOnTransport: boolean): { steps: Step[]; lanes: Lane[] } {
  const steps: Step[] = [];
  const lanes = new Map<string, Lane>();
  let previous: TapeRow | undefined;
  for (const row of rows) {
    // Every taped row names a registered twin; the contract types it as a plain string.
    const twin = row.twin;
    if (!isTwinId(twin)) continue;
    const gap = previous ? Date.parse(row.at) - Date.parse(previous.at) : Infinity;
    let step = steps[steps.length - 1];
    if (!step || !previous || gap > gapMs || (splitOnTransport && row.transport !== previous.transport)) {
      step = {
        index: steps.length,
        started_at: row.at,
        ended_at: row.at,
        first_seq: row.seq,
        last_seq: row.seq,
        transport: row.transport,
        calls: 0,
        mutated: 0,
        errors: 0,
        unsupported: 0,
        twins: [],
        lanes: [],
      };
      steps.push(step);
    }
    const key = laneKey(row);
    const failed = row.status >= 400 ? 1 : 0;
    const unsupported = row.fidelity === "unsupported" ? 1 : 0;
    const mutated = row.mutated ? 1 : 0;
    step.ended_at = row.at;
    step.last_seq = row.seq;
    step.calls++;
    step.mutated += mutated;
    step.errors += failed;
    step.unsupported += unsupported;
    if (!step.twins.includes(twin)) step.twins.push(twin);
    if (!step.lanes.includes(key)) step.lanes.push(key);

    let lane = lanes.get(key);
    if (!lane) {
      lane = {
        key,
        twin,
        operation: row.operation,
        calls: 0,
        mutated: 0,
        errors: 0,
        unsupported: 0,
        first_seq: row.seq,
        last_seq: row.seq,
        steps: [],
        statuses: {},
      };
      lanes.set(key, lane);
    }
    lane.calls++;
    lane.mutated += mutated;
    lane.errors += failed;
    lane.unsupported += unsupported;
    lane.last_seq = row.seq;
    if (lane.steps[lane.steps.length - 1] !== step.index) lane.steps.push(step.index);
    lane.statuses[String(row.status)] = (lane.statuses[String(row.status)] ?? 0) + 1;
    previous = row;
  }
  return { steps, lanes: [...lanes.values()] };
}
