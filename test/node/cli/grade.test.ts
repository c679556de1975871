// Grade again without a server (issue 38, point 4): a run finalized by the real platform, its
// evidence downloaded with `pome trace --evidence`, graded offline by `pome grade` with the same
// code, gives the server's verdict and the same status and owner for every criterion.
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { agent, example, pome, pomeJson, tempDir } from "./helpers";

interface Row {
  id: string;
  status: string;
  owner: string | null;
  check_id: string | null;
}
interface Outcome {
  verdict: string;
  runs: { run_id: string }[];
}
interface View {
  verdict: string;
  verdict_reason: string;
  score: number | null;
  criteria_results: Row[];
}

const node = process.execPath;
const DEAD_URL = "http://127.0.0.1:9";
const statuses = (rows: Row[]) => rows.map((r) => ({ id: r.id, status: r.status, owner: r.owner, check_id: r.check_id }));

/** Runs a task on the platform, downloads the run's evidence, and reads the server's own verdict. */
async function runAndDownload(task: string, agentName: string, extra: string[] = []) {
  const ran = await pomeJson<Outcome>(["run", task, ...extra, "--", node, agent(agentName)]);
  const runId = ran.json.runs[0]?.run_id;
  expect(runId, ran.stderr).toBeTruthy();
  const server = await pomeJson<View>(["report", runId]);
  const dir = path.join(tempDir("pome-evidence-"), "evidence");
  const saved = await pome(["trace", runId, "--evidence", dir]);
  expect(saved.code, saved.stderr).toBe(0);
  return { code: ran.code, server: server.json, dir, runId };
}

describe("pome trace --evidence downloads what the run was graded from", () => {
  it("saves the tape, each twin's initial and final state, and how the examinee ended", async () => {
    const { dir, runId } = await runAndDownload(example("refund-duplicate-charge"), "refund-duplicate-charge");
    expect(readdirSync(dir).sort()).toEqual(["events.jsonl", "run.json", "state_final.stripe.json", "state_initial.stripe.json"]);
    expect(JSON.parse(readFileSync(path.join(dir, "run.json"), "utf8"))).toMatchObject({ id: runId, exit_code: 0, twins: ["stripe"] });
    expect(readFileSync(path.join(dir, "events.jsonl"), "utf8").trim().split("\n").length).toBeGreaterThan(0);
  });
});

describe("pome grade grades downloaded evidence offline as the server graded it", () => {
  it("a passing run: the same verdict, score and criterion statuses, with no server reachable, exit 0", async () => {
    const { code, server, dir } = await runAndDownload(example("refund-duplicate-charge"), "refund-duplicate-charge");
    expect(code).toBe(0);
    const offline = await pomeJson<View>(["grade", dir, example("refund-duplicate-charge")], { apiUrl: DEAD_URL });
    expect(offline.code, offline.stderr).toBe(0);
    expect(offline.json.verdict).toBe("passed");
    expect(offline.json.score).toBe(server.score);
    expect(statuses(offline.json.criteria_results)).toEqual(statuses(server.criteria_results));
  });

  it("a failing run (the naive agent): failed, the same criteria failed and owned by the agent, exit 1", async () => {
    const { code, server, dir } = await runAndDownload(example("refund-duplicate-charge"), "refund-duplicate-charge-naive");
    expect(code).toBe(1);
    expect(server.verdict).toBe("failed");
    const offline = await pomeJson<View>(["grade", dir, example("refund-duplicate-charge")], { apiUrl: DEAD_URL });
    expect(offline.code, offline.stderr).toBe(1);
    expect(offline.json.verdict).toBe("failed");
    expect(offline.json.score).toBe(server.score);
    expect(statuses(offline.json.criteria_results)).toEqual(statuses(server.criteria_results));
    expect(offline.json.criteria_results.some((r) => r.status === "failed" && r.owner === "agent")).toBe(true);
  });

  it("prints the same report as pome report: the verdict line and the criteria table with owners", async () => {
    const { dir, runId } = await runAndDownload(example("refund-duplicate-charge"), "refund-duplicate-charge-naive");
    const offline = await pome(["grade", dir, example("refund-duplicate-charge")], { apiUrl: DEAD_URL });
    const online = await pome(["report", runId]);
    const table = (text: string) => text.split("\n").filter((l) => l.startsWith("| "));
    expect(offline.code).toBe(1);
    expect(offline.stdout).toContain("**Verdict: ❌ failed**");
    expect(table(offline.stdout)).toEqual(table(online.stdout));
  });

  it("excludes [model] criteria offline and says so in the verdict, grading the [code] ones", async () => {
    const { server, dir } = await runAndDownload(example("triage-bug-report"), "triage-bug-report");
    const offline = await pomeJson<View>(["grade", dir, example("triage-bug-report")], { apiUrl: DEAD_URL });
    expect(offline.json.verdict_reason).toContain("[model] criteria are excluded (no judge offline)");
    const model = offline.json.criteria_results.filter((r) => r.check_id === null);
    expect(model.length).toBeGreaterThan(0);
    for (const r of model) expect(r.status).toBe("skipped");
    // The [code] criteria agree with the server's, one by one.
    const code = (rows: Row[]) => statuses(rows.filter((r) => r.check_id !== null));
    expect(code(offline.json.criteria_results)).toEqual(code(server.criteria_results));
    expect(offline.code).toBe(server.verdict === "passed" ? 0 : 1);
  });

  it("a task fixed after the run: an unbound criterion is incomplete (exit 5), the fixed task passes", async () => {
    const { dir } = await runAndDownload(example("refund-duplicate-charge"), "refund-duplicate-charge");
    const task = readFileSync(example("refund-duplicate-charge"), "utf8");
    const criteria = task.slice(task.indexOf("## Success Criteria"));
    const first = criteria.split("\n").find((l) => l.startsWith("- [code"));
    expect(first).toBeTruthy();
    const broken = path.join(tempDir("pome-broken-"), "broken.md");
    writeFileSync(broken, task.replace(first ?? "", `${first} and then something no check says`));
    const incomplete = await pomeJson<View>(["grade", dir, broken], { apiUrl: DEAD_URL });
    expect(incomplete.code, incomplete.stderr).toBe(5);
    expect(incomplete.json.verdict).toBe("incomplete");
    expect(incomplete.json.criteria_results[0]).toMatchObject({ status: "unmatched", owner: "task" });
  });

  it("refuses a folder without a tape, naming the command that downloads one (exit 2)", async () => {
    const empty = tempDir("pome-empty-");
    const { code, stderr } = await pome(["grade", empty, example("refund-duplicate-charge")], { apiUrl: DEAD_URL });
    expect(code).toBe(2);
    expect(stderr).toContain("holds no events.jsonl");
    expect(stderr).toContain("--evidence");
  });
});
