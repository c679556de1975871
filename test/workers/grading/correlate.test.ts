// The correlator groups the tape into agent turns (steps) and twin-operation lanes.
import { describe, expect, it } from "vitest";
import { MAX_STEPS, STEP_GAP_MS, correlate } from "../../../workers/grading/correlate";
import type { TapeRow } from "../../../durable-objects/twins/types";
import { row } from "./fixtures";

const at = (ms: number) => new Date(Date.UTC(2026, 0, 2) + ms).toISOString();

describe("steps", () => {
  it("starts a new step after a pause longer than the gap, and keeps quick calls together", () => {
    const tape: TapeRow[] = [
      row({ seq: 1, at: at(0) }),
      row({ seq: 2, at: at(300) }),
      row({ seq: 3, at: at(300 + STEP_GAP_MS + 1), method: "POST", mutated: true, operation: "issues.addLabels" }),
      row({ seq: 4, at: at(300 + STEP_GAP_MS + 50), method: "POST", mutated: true, operation: "issues.createComment", status: 201 }),
    ];
    const { steps } = correlate(tape);
    expect(steps.map((s) => [s.first_seq, s.last_seq, s.calls, s.mutated])).toEqual([
      [1, 2, 2, 0],
      [3, 4, 2, 2],
    ]);
    expect(steps[1].lanes).toEqual(["github issues.addLabels", "github issues.createComment"]);
  });

  it("starts a new step when the agent switches transport", () => {
    const { steps } = correlate([row({ seq: 1, at: at(0) }), row({ seq: 2, at: at(10), transport: "mcp" })]);
    expect(steps.map((s) => s.transport)).toEqual(["rest", "mcp"]);
  });

  it("has no steps for an empty tape", () => {
    expect(correlate([])).toEqual({ steps: [], lanes: [] });
  });
});

describe("lanes", () => {
  it("has one lane per twin and operation, counting calls, errors and the steps that used it", () => {
    const tape: TapeRow[] = [
      row({ seq: 1, at: at(0), operation: "issues.get" }),
      row({ seq: 2, at: at(5000), operation: "issues.get", status: 404 }),
      row({
        seq: 3,
        at: at(5001),
        twin: "stripe",
        method: "POST",
        path: "/v1/customers",
        status: 501,
        fidelity: "unsupported",
        operation: "unsupported",
      }),
    ];
    const { lanes } = correlate(tape);
    expect(lanes).toEqual([
      expect.objectContaining({ key: "github issues.get", calls: 2, errors: 1, steps: [0, 1], statuses: { "200": 1, "404": 1 } }),
      expect.objectContaining({ key: "stripe POST /v1/customers", twin: "stripe", unsupported: 1, steps: [1] }),
    ]);
  });
});

describe("long runs", () => {
  it("keeps at most MAX_STEPS steps by widening the gap, even when transports alternate", () => {
    const tape = Array.from({ length: 5000 }, (_, i) => row({ seq: i + 1, at: at(i * 3000), transport: i % 2 ? "mcp" : "rest" }));
    const { steps } = correlate(tape);
    expect(steps.length).toBeLessThanOrEqual(MAX_STEPS);
    expect(steps.reduce((n, s) => n + s.calls, 0)).toBe(5000);
  });

  it("groups unsupported calls by route shape, not by id", () => {
    const tape = [1, 2, 3].map((n) =>
      row({
        seq: n,
        at: at(n),
        method: "PUT",
        path: `/repos/acme/api/pages/${n}`,
        fidelity: "unsupported",
        operation: "unsupported",
        status: 501,
      }),
    );
    expect(correlate(tape).lanes.map((l) => [l.key, l.calls])).toEqual([["github PUT /repos/acme/api/pages/:id", 3]]);
  });
});
