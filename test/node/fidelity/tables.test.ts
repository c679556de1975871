// Every twin in the registry has a fidelity table measured against its vendor's description, the
// platform serves it, and the checked-in FIDELITY.md / fidelity.generated.ts are what `npm run fidelity`
// writes today (a stale table fails here, as CI runs npm test).
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { LOCAL_KEY } from "../server";
import { pomeUrl } from "../mcp/helpers";

const root = path.resolve(import.meta.dirname, "../../..");

interface Coverage {
  total: number;
  conformant: number;
  divergent: number;
  notImplemented: number;
  implementedPercent: number;
}
interface Report {
  twin: string;
  description: { version: string };
  coverage: { all: Coverage; agentRelevant: Coverage };
  operations: { id: string; tier: string; agentRelevant: boolean; divergences: unknown[] }[];
}

const get = async (p: string) => fetch(`${pomeUrl()}${p}`, { headers: { authorization: `Bearer ${LOCAL_KEY}` } });

async function twinIds(): Promise<string[]> {
  const res = await get("/v1/twins");
  return ((await res.json()) as { twins: { id: string }[] }).twins.map((t) => t.id);
}

describe("every registered twin publishes its fidelity table", () => {
  it("serves GET /v1/twins/:id/fidelity for each twin, equal to its checked-in table", async () => {
    const ids = await twinIds();
    expect(ids.length).toBeGreaterThan(0);
    for (const id of ids) {
      const res = await get(`/v1/twins/${id}/fidelity`);
      expect(res.status, id).toBe(200);
      const served = (await res.json()) as Report;
      const generated = readFileSync(path.join(root, `durable-objects/twins/${id}/fidelity.generated.ts`), "utf8");
      const literal = /FIDELITY_JSON = (".*");\n/.exec(generated)?.[1] ?? '""';
      expect(served).toEqual(JSON.parse(JSON.parse(literal) as string));
      expect(served.description.version, id).toMatch(/\d/);
      const all = served.coverage.all;
      expect(all.conformant + all.divergent + all.notImplemented, id).toBe(all.total);
      expect(all.total, id).toBe(served.operations.length);
      expect(served.coverage.agentRelevant.total, `${id} has an agent-relevant set`).toBeGreaterThan(0);
      for (const o of served.operations) if (o.divergences.length) expect(o.tier, `${id} ${o.id}`).toBe("divergent");
      expect(readFileSync(path.join(root, `durable-objects/twins/${id}/FIDELITY.md`), "utf8")).toContain(served.description.version);
    }
  });

  it("answers an unknown twin with a 404", async () => {
    const res = await get("/v1/twins/nosuch/fidelity");
    expect(res.status).toBe(404);
  });
});

describe("the checked-in fidelity tables are current", () => {
  it("matches what `npm run fidelity` writes (run it after changing a twin or a description)", async () => {
    const run = await promisify(execFile)("node", ["scripts/fidelity.mjs", "--check"], { cwd: root }).catch(
      (e: { code?: number; stderr?: string }) => ({ stdout: "", stderr: `exit ${e.code}: ${e.stderr}` }),
    );
    expect(run.stderr).toBe("");
  }, 120_000);
});

describe("a test counts as calling an operation", () => {
  it("when the call is split over lines by the formatter, and not when only a longer name matches", async () => {
    const { defaultCallPattern } = await import("../../../durable-objects/twins/kit/fidelity/measure");
    const pattern = defaultCallPattern("actions.downloadJobLogsForWorkflowRun");
    expect(pattern.test("await octokit.actions.downloadJobLogsForWorkflowRun({ job_id })")).toBe(true);
    expect(pattern.test("await octokit.actions\n      .downloadJobLogsForWorkflowRun({ job_id })")).toBe(true);
    expect(pattern.test("await octokit.actions.downloadJobLogsForWorkflowRunAttempt({ job_id })")).toBe(false);
    expect(defaultCallPattern("issues.get").test("octokit.rest.issues.getLabel(")).toBe(false);
  });
});
